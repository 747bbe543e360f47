// One element at a time: each SSA value lives in a local of its scalar type
// (f64, f32, or i32 for the integer types and bool). Narrow integer results are
// wrapped back into their type after every op that can leave its range
// (context.ts wrapInt), so a fused chain sees the same values as one that
// stored each step.
import type { Local } from '../encode/index.js';
import { ARGS } from './args-layout.js';
import { intRange, is64K, isFloatK, isUnsignedK, scalarType, wrapInt } from './context.js';
import type { EmitContext } from './context.js';
import { bumpFlag } from './emit-values.js';
import type { KBinary, KInstr, KType, KUnary } from './kernel-spec.js';
import { binaryEmitter } from './native-binary.js';
import { unaryEmitter } from './native-unary.js';
import { isNativeBinary, isNativeUnary, mathName } from './native-ops.js';
import { at } from '../internal-error.js';

const W = (t: KType): string => scalarType(t); // wasm op prefix: f64, f32 or i32

const LOADS: Record<KType, string> = {
  float64: 'f64.load', float32: 'f32.load', int64: 'i64.load', uint64: 'i64.load', int32: 'i32.load', uint32: 'i32.load', int16: 'i32.load16_s',
  uint16: 'i32.load16_u', int8: 'i32.load8_s', uint8: 'i32.load8_u', bool: 'i32.load8_u',
};
const STORES: Record<KType, string> = {
  float64: 'f64.store', float32: 'f32.store', int64: 'i64.store', uint64: 'i64.store', int32: 'i32.store', uint32: 'i32.store', int16: 'i32.store16',
  uint16: 'i32.store16', int8: 'i32.store8', uint8: 'i32.store8', bool: 'i32.store8',
};

function emitLoad(ctx: EmitContext, t: KType, offset = 0): void {
  ctx.f.mem(LOADS[t], { align: 0, offset });
}

function emitStore(ctx: EmitContext, t: KType, offset = 0): void {
  ctx.f.mem(STORES[t], { align: 0, offset });
}

function emitConst(ctx: EmitContext, t: KType, value: number | bigint): void {
  if (t === 'float64') ctx.f.op('f64.const', Number(value));
  else if (t === 'float32') ctx.f.op('f32.const', Number(value));
  else if (is64K(t)) ctx.f.op('i64.const', BigInt.asIntN(64, BigInt(value)));
  else ctx.f.op('i32.const', Number(value) | 0);
}

/**
 * Casts into or out of int64 and uint64 (i64 locals): integers by wrap or
 * extension, floats by conversion (rounded once, to nearest), and floats
 * into them truncated and saturated, NaN to 0, counting what did not fit,
 * as the narrower integers' casts do.
 */
function emitCast64(ctx: EmitContext, from: KType, to: KType): void {
  const f = ctx.f;
  const u = (t: KType): string => (isUnsignedK(t) ? 'u' : 's');
  if (is64K(from) && is64K(to)) return; // the same bits
  if (is64K(from)) {
    if (to === 'bool') f.op('i64.const', 0).op('i64.ne');
    else if (isFloatK(to)) f.op(`${W(to)}.convert_i64_${u(from)}`);
    else { f.op('i32.wrap_i64'); wrapInt(f, to); }
    return;
  }
  if (!isFloatK(from)) { f.op(`i64.extend_i32_${from === 'uint32' || from === 'bool' ? 'u' : 's'}`); return; }
  // A float: in range when lo <= trunc(x) < hi (both powers of two, exact in either float).
  const w = W(from);
  const lo = to === 'int64' ? -(2 ** 63) : 0;
  const hi = to === 'int64' ? 2 ** 63 : 2 ** 64;
  const t = f.local(scalarType(from));
  f.op(`${w}.trunc`).op('local.tee', t);
  f.op(`${w}.const`, lo).op(`${w}.ge`);
  f.op('local.get', t).op(`${w}.const`, hi).op(`${w}.lt`).op('i32.and');
  f.if('i64');
  f.op('local.get', t).op(`i64.trunc_sat_${w}_${u(to)}`);
  f.else();
  bumpFlag(ctx, ARGS.flagInvalid);
  // The saturating conversion gives the clamped ends and 0 for NaN, as the narrower casts' flags-and-select do.
  f.op('local.get', t).op(`i64.trunc_sat_${w}_${u(to)}`);
  f.end();
}

function emitCast(ctx: EmitContext, from: KType, to: KType, x: Local): void {
  const f = ctx.f;
  f.op('local.get', x);
  if (from === to) return;
  if (is64K(from) || is64K(to)) { emitCast64(ctx, from, to); return; }
  if (to === 'bool') {
    if (from === 'float64') f.op('f64.const', 0).op('f64.ne');
    else if (from === 'float32') f.op('f32.const', 0).op('f32.ne');
    else f.op('i32.const', 0).op('i32.ne');
    return;
  }
  if (isFloatK(to)) {
    if (isFloatK(from)) f.op(to === 'float64' ? 'f64.promote_f32' : 'f32.demote_f64');
    else f.op(`${to === 'float64' ? 'f64' : 'f32'}.convert_i32_${from === 'uint32' ? 'u' : 's'}`);
    return;
  }
  if (!isFloatK(from)) {
    // Between integer types, C's conversion: the low bits, read as the new type.
    wrapInt(f, to);
    return;
  }
  // Float to integer: truncate and saturate, NaN to 0, flagging what did not fit.
  const w = W(from);
  const [lo, hi] = intRange(to);
  f.op(`${w}.trunc`);
  const t = f.local(scalarType(from));
  f.op('local.tee', t);
  // hi + 1 is exact in float32 too, where hi itself (2^31 - 1) may not be.
  f.op(`${w}.const`, lo).op(`${w}.ge`);
  f.op('local.get', t).op(`${w}.const`, hi + 1).op(`${w}.lt`).op('i32.and');
  f.if('i32');
  f.op('local.get', t).op(`i32.trunc_sat_${w}_${to === 'uint32' ? 'u' : 's'}`);
  f.else();
  bumpFlag(ctx, ARGS.flagInvalid);
  // NaN -> 0; below -> lo; above -> hi (uint32's hi as its i32 bits).
  f.op('i32.const', hi | 0).op('i32.const', lo).op('local.get', t).op(`${w}.const`, 0).op(`${w}.gt`).op('select');
  f.op('i32.const', 0).op('local.get', t).op('local.get', t).op(`${w}.eq`).op('select');
  f.end();
}

/** Calls the vector math routine on lane 0 of a splat, or the host's scalar function. */
function emitCall(ctx: EmitContext, fn: KUnary | KBinary, t: KType, args: readonly Local[]): void {
  const f = ctx.f;
  const lanes = t === 'float64' ? 'f64x2' : t === 'float32' ? 'f32x4' : undefined;
  const math = lanes ? ctx.math(mathName(fn), lanes) : undefined;
  if (math !== undefined && lanes) {
    for (const a of args) f.op('local.get', a).op(`${lanes}.splat`);
    math.call();
    f.op(`${lanes}.extract_lane`, 0);
    return;
  }
  for (const a of args) f.op('local.get', a);
  f.op('call', ctx.host(`${fn}.${t}`));
  wrapInt(ctx.f, t);
}

/** Leaves the value of `ins` on the stack. `vals` holds the locals of earlier values. */
function emitScalarInstr(ctx: EmitContext, ins: KInstr, vals: readonly Local[], types: readonly KType[]): void {
  const local = (v: number): Local => at(vals, v, 'value local');
  const type = (v: number): KType => at(types, v, 'value type');
  switch (ins.op) {
    case 'const': emitConst(ctx, ins.type, ins.value); return;
    case 'cast': emitCast(ctx, type(ins.arg), ins.type, local(ins.arg)); return;
    case 'select':
      ctx.f.op('local.get', local(ins.args[1])).op('local.get', local(ins.args[2])).op('local.get', local(ins.args[0])).op('select');
      return;
    case 'unary': {
      const t = type(ins.arg);
      const native = isNativeUnary(ins.fn, t) ? unaryEmitter(ins.fn) : undefined;
      if (native) native.scalar(ctx, t, local(ins.arg));
      else emitCall(ctx, ins.fn, t, [local(ins.arg)]);
      return;
    }
    case 'binary': {
      const t = type(ins.args[0]);
      const native = isNativeBinary(ins.fn, t) ? binaryEmitter(ins.fn) : undefined;
      if (native) native.scalar(ctx, t, local(ins.args[0]), local(ins.args[1]));
      else emitCall(ctx, ins.fn, t, [local(ins.args[0]), local(ins.args[1])]);
      return;
    }
    default: throw new Error(`internal: ${ins.op} is emitted by the loop, not as a value`);
  }
}

export { emitScalarInstr, emitLoad, emitStore, emitConst };
