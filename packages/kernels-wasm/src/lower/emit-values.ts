// Small pieces of code every emitter writes: a launch word read, a flag bumped, a constant in
// every lane, a lane product, an angle factor in the dtype.
import type { Local } from '../encode/index.js';
import { InternalError } from '../internal-error.js';
import { ARGS } from './args-layout.js';
import type { EmitContext } from './context.js';
import type { KType } from './kernel-spec.js';
import type { Lanes } from './simd-widths.js';

/** Pushes the launch block's i32 at `offset`. */
function loadArg(ctx: EmitContext, offset: number): void {
  ctx.f.op('local.get', ctx.args).mem('i32.load', { offset });
}

/** into = the launch block's i32 at `offset`, times `scale` when given (element strides to bytes). */
function setArg(ctx: EmitContext, offset: number, into: Local, scale?: number): void {
  loadArg(ctx, offset);
  if (scale !== undefined) ctx.f.op('i32.const', scale).op('i32.mul');
  ctx.f.op('local.set', into);
}

/** Adds 1 to a flag counter in the launch block; atomically, since workers share it. */
function bumpFlag(ctx: EmitContext, offset: number): void {
  if (ctx.quiet) return;
  ctx.f.op('local.get', ctx.args).op('i32.const', 1).mem('i32.atomic.rmw.add', { offset }).op('drop');
}

/** Adds 1 to the launch's divide-by-zero flag. */
const bumpDivide = (ctx: EmitContext): void => bumpFlag(ctx, ARGS.flagDivide);

/** A constant in every lane: a number, or for i64x2 lanes a bigint (int64 and uint64 values past 2^53) or a whole number, as its 64 bits. */
function splatConst(ctx: EmitContext, lanes: Lanes, v: number | bigint): void {
  if (lanes === 'i64x2') { ctx.f.v128i64(BigInt.asIntN(64, BigInt(v))); return; }
  if (typeof v === 'bigint') throw new InternalError(`a bigint constant (${v}) in ${lanes} lanes`);
  if (lanes === 'f64x2') ctx.f.v128f64(v);
  else if (lanes === 'f32x4') ctx.f.v128f32(v);
  else if (lanes === 'i32x4') ctx.f.v128i32(v | 0);
  // Narrow lanes: the value's low bits repeated across each 32-bit word.
  else if (lanes === 'i16x8') ctx.f.v128i32(((v & 0xffff) * 0x10001) | 0);
  else ctx.f.v128i32(((v & 0xff) * 0x1010101) | 0);
}

/** deg2rad and rad2deg multiply by the constant in the dtype, as NumPy does ((float)(pi/180) for float32). */
function angleFactor(fn: 'deg2rad' | 'rad2deg', t: KType): number {
  if (t === 'float32') return Math.fround(fn === 'deg2rad' ? Math.fround(Math.PI) / 180 : 180 / Math.fround(Math.PI));
  return fn === 'deg2rad' ? Math.PI / 180 : 180 / Math.PI;
}

/**
 * Leaves a * b lane by lane (locals a and b). i8x16 has no multiply: the low
 * bytes of the 16-bit products of each half.
 */
function laneMul(ctx: EmitContext, L: Lanes, a: Local, b: Local): void {
  const f = ctx.f;
  if (L !== 'i8x16') { f.op('local.get', a).op('local.get', b).op(`${L}.mul`); return; }
  f.op('local.get', a).op('local.get', b).op('i16x8.extmul_low_i8x16_s');
  f.op('local.get', a).op('local.get', b).op('i16x8.extmul_high_i8x16_s');
  f.shuffle(Array.from({ length: 16 }, (_, i) => 2 * i));
}

export { loadArg, setArg, bumpFlag, bumpDivide, splatConst, laneMul, angleFactor };
