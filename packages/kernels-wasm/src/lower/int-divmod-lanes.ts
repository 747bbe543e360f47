// Integer floorDivide, mod and fmod in vector lanes, bit for bit the scalar
// loop's (int-divmod.ts). WebAssembly has no lane division, so the quotient is taken
// in floats: 32-bit lanes in float64, 16- and 8-bit lanes in float32, where
// both operands are exact. The floor of the rounded quotient is the integer
// floor quotient: a/b that is not an integer lies at least 1/|b| from the
// nearest integer, and rounding moves it by at most |a/b| 2^-53 <= 2^-21/|b|
// (2^-8/|b| for 16-bit operands in float32), so it never reaches one (nor
// does truncation, fmod's). The remainders are then a - b q in the lanes'
// wrapping arithmetic. As in the scalar loop, division by zero gives 0 and
// counts once per element in the divide flag, and int32 MIN // -1 wraps to
// MIN (MIN // 1, its divisor made 1).
import type { Local } from '../encode/index.js';
import { HIGH_TO_LOW, JOIN_LOW_HALVES } from '../encode/index.js';
import { InternalError } from '../internal-error.js';
import { ARGS } from './args-layout.js';
import { isUnsignedK } from './context.js';
import type { EmitContext } from './context.js';
import { laneMul, splatConst } from './emit-values.js';
import type { KType } from './kernel-spec.js';
import { wrapIntLanes } from './simd-widths.js';
import type { Lanes } from './simd-widths.js';

/** Byte indices keeping the low `keep` bytes of each `stride`-byte lane of two vectors, in order (a wrapping narrow). */
const lowOfEach = (stride: number, keep: number): number[] =>
  Array.from({ length: 16 }, (_, i) => Math.floor(i / keep) * stride + (i % keep));

function intDivmodLanes(ctx: EmitContext, L: Lanes, fn: 'floorDivide' | 'mod' | 'fmod', a: Local, b: Local, t: KType): void {
  if (L !== 'i32x4' && L !== 'i16x8' && L !== 'i8x16') throw new InternalError(`integer ${fn} has no ${L} lanes`);
  const f = ctx.f;
  const unsigned = isUnsignedK(t);
  // The quotient rounded down (floorDivide, mod) or toward zero (fmod, C's remainder; every unsigned one).
  const floor = fn !== 'fmod' && !unsigned;
  const set = (emit: () => void): Local => {
    emit();
    const l = f.local('v128');
    f.op('local.set', l);
    return l;
  };
  const zero = set(() => { f.op('local.get', b); splatConst(ctx, L, 0); f.op(`${L}.eq`); });
  if (!ctx.quiet) {
    // Counted on a path of its own, so that a vector with no zero divisor pays one test.
    f.op('local.get', zero).op('v128.any_true').if();
    f.op('local.get', ctx.args).op('local.get', zero).op(`${L}.bitmask`).op('i32.popcnt');
    f.mem('i32.atomic.rmw.add', { offset: ARGS.flagDivide }).op('drop');
    f.end();
  }
  // The divisor made 1 where it is 0, and where int32 MIN is divided by -1 (the float quotient 2^31 would saturate).
  const safe = set(() => {
    splatConst(ctx, L, 1);
    f.op('local.get', b).op('local.get', zero);
    if (L === 'i32x4' && !unsigned) {
      f.op('local.get', a); splatConst(ctx, L, -2147483648); f.op('i32x4.eq');
      f.op('local.get', b); splatConst(ctx, L, -1); f.op('i32x4.eq');
      f.op('v128.and').op('v128.or');
    }
    f.op('v128.bitselect');
  });
  const q = set(() => (L === 'i32x4' ? quotientI32x4(ctx, a, safe, unsigned, floor) : quotientNarrow(ctx, L, a, safe, unsigned, floor)));
  if (fn === 'floorDivide') f.op('local.get', q);
  else { f.op('local.get', a); laneMul(ctx, L, safe, q); f.op(`${L}.sub`); }
  // In i32x4 a narrow type's MIN // -1 is one past its maximum, wrapped back to MIN as the scalar loop wraps it.
  wrapIntLanes(f, L, t);
  f.op('local.get', zero).op('v128.andnot');
}

/** a / b of i32x4 lanes, rounded down or toward zero, each half in float64. */
function quotientI32x4(ctx: EmitContext, a: Local, b: Local, unsigned: boolean, floor: boolean): void {
  const f = ctx.f;
  const s = unsigned ? 'u' : 's';
  for (const high of [false, true]) {
    for (const x of [a, b]) {
      f.op('local.get', x);
      if (high) f.op('local.get', x).shuffle(HIGH_TO_LOW);
      f.op(`f64x2.convert_low_i32x4_${s}`);
    }
    f.op('f64x2.div');
    if (floor) f.op('f64x2.floor');
    f.op(`i32x4.trunc_sat_f64x2_${s}_zero`);
  }
  f.shuffle(JOIN_LOW_HALVES);
}

/** a / b of i16x8 or i8x16 lanes, rounded down or toward zero, in i32x4 quarters in float32, narrowed back by their low bytes. */
function quotientNarrow(ctx: EmitContext, L: 'i16x8' | 'i8x16', a: Local, b: Local, unsigned: boolean, floor: boolean): void {
  const f = ctx.f;
  const s = unsigned ? 'u' : 's';
  /** The quotient of one i32x4 part, each operand's part pushed by `part`. */
  const quarter = (part: (x: Local) => void): void => {
    for (const x of [a, b]) { part(x); f.op('f32x4.convert_i32x4_s'); }
    f.op('f32x4.div');
    if (floor) f.op('f32x4.floor');
    f.op('i32x4.trunc_sat_f32x4_s');
  };
  const halves = ['low', 'high'] as const;
  if (L === 'i16x8') {
    for (const h of halves) quarter((x) => { f.op('local.get', x).op(`i32x4.extend_${h}_i16x8_${s}`); });
    f.shuffle(lowOfEach(4, 2));
    return;
  }
  for (const h8 of halves) {
    for (const h16 of halves) quarter((x) => { f.op('local.get', x).op(`i16x8.extend_${h8}_i8x16_${s}`).op(`i32x4.extend_${h16}_i16x8_${s}`); });
    f.shuffle(lowOfEach(4, 2));
  }
  f.shuffle(lowOfEach(2, 1));
}

export { intDivmodLanes };
