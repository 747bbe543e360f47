// One element at a time: each SSA value lives in a local of its scalar type
// (f64, f32, or i32 for the integer types and bool). Narrow integer results are
// wrapped back into their type after every op that can leave its range
// (context.ts wrapInt), so a fused chain sees the same values as one that
// stored each step.
import type { Local } from '../encode/index.js';
import { ARGS } from './args-layout.js';
import { intCompare, intRange, isFloatK, isUnsignedK, scalarType, wrapInt } from './context.js';
import type { EmitContext } from './context.js';
import type { KBinary, KInstr, KType, KUnary } from './kernel-spec.js';
import { COMPARE, isNativeBinary, isNativeUnary, mathName } from './native-ops.js';

const W = (t: KType): string => scalarType(t); // wasm op prefix: f64, f32 or i32

/** Adds 1 to a flag counter in the launch block; atomically, since workers share it. */
function bumpFlag(ctx: EmitContext, offset: number): void {
  ctx.f.op('local.get', ctx.args).op('i32.const', 1).mem('i32.atomic.rmw.add', { offset }).op('drop');
}

const LOADS: Record<KType, string> = {
  float64: 'f64.load', float32: 'f32.load', int32: 'i32.load', uint32: 'i32.load', int16: 'i32.load16_s',
  uint16: 'i32.load16_u', int8: 'i32.load8_s', uint8: 'i32.load8_u', bool: 'i32.load8_u',
};
const STORES: Record<KType, string> = {
  float64: 'f64.store', float32: 'f32.store', int32: 'i32.store', uint32: 'i32.store', int16: 'i32.store16',
  uint16: 'i32.store16', int8: 'i32.store8', uint8: 'i32.store8', bool: 'i32.store8',
};

function emitLoad(ctx: EmitContext, t: KType): void {
  ctx.f.mem(LOADS[t], { align: 0 });
}

function emitStore(ctx: EmitContext, t: KType): void {
  ctx.f.mem(STORES[t], { align: 0 });
}

function emitConst(ctx: EmitContext, t: KType, value: number): void {
  if (t === 'float64') ctx.f.op('f64.const', value);
  else if (t === 'float32') ctx.f.op('f32.const', value);
  else ctx.f.op('i32.const', value | 0);
}

function emitCast(ctx: EmitContext, from: KType, to: KType, x: Local): void {
  const f = ctx.f;
  f.op('local.get', x);
  if (from === to) return;
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

function emitUnaryNative(ctx: EmitContext, fn: KUnary, t: KType, x: Local): void {
  const f = ctx.f;
  const get = (): void => { f.op('local.get', x); };
  if (isFloatK(t)) {
    const w = W(t);
    switch (fn) {
      case 'negative': case 'abs': case 'sqrt': case 'floor': case 'ceil': case 'trunc':
        get(); f.op(`${w}.${fn === 'negative' ? 'neg' : fn}`); return;
      case 'round': get(); f.op(`${w}.nearest`); return;
      case 'square': get(); get(); f.op(`${w}.mul`); return;
      case 'reciprocal': f.op(`${w}.const`, 1); get(); f.op(`${w}.div`); return;
      case 'sign':
        // x > 0 ? 1 : x < 0 ? -1 : x == 0 ? 0 : x (NaN stays NaN, -0 gives +0)
        f.op(`${w}.const`, 1);
        f.op(`${w}.const`, -1);
        f.op(`${w}.const`, 0); get(); get(); f.op(`${w}.const`, 0).op(`${w}.eq`).op('select');
        get(); f.op(`${w}.const`, 0).op(`${w}.lt`).op('select');
        get(); f.op(`${w}.const`, 0).op(`${w}.gt`).op('select');
        return;
      case 'logicalNot': get(); f.op(`${w}.const`, 0).op(`${w}.eq`); return;
      case 'isnan': get(); get(); f.op(`${w}.ne`); return;
      case 'isinf': get(); f.op(`${w}.abs`).op(`${w}.const`, Infinity).op(`${w}.eq`); return;
      case 'isfinite': get(); f.op(`${w}.abs`).op(`${w}.const`, Infinity).op(`${w}.lt`); return;
      case 'positive': get(); return;
      case 'deg2rad': case 'rad2deg': get(); f.op(`${w}.const`, angleFactor(fn, t)).op(`${w}.mul`); return;
      // The sign bit, NaN's included.
      case 'signbit':
        get();
        if (t === 'float64') f.op('i64.reinterpret_f64').op('i64.const', 63n).op('i64.shr_u').op('i32.wrap_i64');
        else f.op('i32.reinterpret_f32').op('i32.const', 31).op('i32.shr_u');
        return;
      default: break;
    }
  } else {
    const unsigned = isUnsignedK(t);
    switch (fn) {
      case 'negative': f.op('i32.const', 0); get(); f.op('i32.sub'); wrapInt(f, t); return;
      case 'abs':
        if (unsigned) { get(); return; }
        // The most negative value is its own absolute value, as NumPy's wraps.
        f.op('i32.const', 0); get(); f.op('i32.sub'); wrapInt(f, t); get(); get(); f.op('i32.const', 0).op('i32.lt_s').op('select'); return;
      case 'sign':
        if (unsigned) { get(); f.op('i32.const', 0).op('i32.ne'); return; }
        f.op('i32.const', 1).op('i32.const', -1).op('i32.const', 0);
        get(); f.op('i32.const', 0).op('i32.lt_s').op('select');
        get(); f.op('i32.const', 0).op('i32.gt_s').op('select'); return;
      case 'square': get(); get(); f.op('i32.mul'); wrapInt(f, t); return;
      case 'reciprocal':
        // 1/x truncated: 1 (and -1) are their own reciprocals, 0 is a division by zero (0, flagged), the rest 0.
        get(); f.op('i32.eqz').if(); bumpFlag(ctx, ARGS.flagDivide); f.end();
        get(); f.op('i32.const', 0); get();
        if (unsigned) f.op('i32.const', 1).op('i32.le_u');
        else f.op('i32.const', 1).op('i32.add').op('i32.const', 2).op('i32.le_u');
        f.op('select');
        return;
      case 'floor': case 'ceil': case 'round': case 'trunc': get(); return;
      case 'logicalNot': get(); f.op('i32.eqz'); return;
      case 'isnan': case 'isinf': f.op('i32.const', 0); return;
      case 'isfinite': f.op('i32.const', 1); return;
      case 'positive': get(); return;
      // Narrow signed values are held sign-extended; unsigned ones are never negative.
      case 'signbit': if (unsigned) f.op('i32.const', 0); else { get(); f.op('i32.const', 31).op('i32.shr_u'); } return;
      // All ones of the type's width (logical not for bool).
      case 'invert': get(); f.op('i32.const', t === 'bool' ? 1 : -1).op('i32.xor'); wrapInt(f, t); return;
      default: break;
    }
  }
  throw new Error(`internal: ${fn} on ${t} has no native lowering`);
}

const CMP: Record<string, string> = { equal: 'eq', notEqual: 'ne', less: 'lt', lessEqual: 'le', greater: 'gt', greaterEqual: 'ge' };

function emitBinaryNative(ctx: EmitContext, fn: KBinary, t: KType, a: Local, b: Local): void {
  const f = ctx.f;
  const both = (): void => { f.op('local.get', a).op('local.get', b); };
  if (COMPARE.has(fn)) {
    both();
    const c = CMP[fn]!;
    f.op(isFloatK(t) ? `${W(t)}.${c}` : c === 'eq' || c === 'ne' ? `i32.${c}` : intCompare(t, c as 'lt'));
    return;
  }
  if (fn === 'logicalAnd' || fn === 'logicalOr' || fn === 'logicalXor') {
    const truth = (x: Local): void => {
      f.op('local.get', x);
      if (isFloatK(t)) f.op(`${W(t)}.const`, 0).op(`${W(t)}.ne`);
      else f.op('i32.const', 0).op('i32.ne');
    };
    truth(a);
    truth(b);
    f.op(fn === 'logicalAnd' ? 'i32.and' : fn === 'logicalOr' ? 'i32.or' : 'i32.xor');
    return;
  }
  if (isFloatK(t) && (fn === 'fmax' || fn === 'fmin' || fn === 'heaviside')) {
    emitNanAware(ctx, fn, t, a, b);
    return;
  }
  if (isFloatK(t)) {
    const name = { add: 'add', subtract: 'sub', multiply: 'mul', divide: 'div', minimum: 'min', maximum: 'max', copysign: 'copysign' }[fn as string];
    if (!name) throw new Error(`internal: ${fn} on ${t} has no native lowering`);
    both();
    f.op(`${W(t)}.${name}`);
    return;
  }
  if (t === 'bool' && (fn === 'add' || fn === 'maximum')) { both(); f.op('i32.or'); return; }
  if (t === 'bool' && (fn === 'multiply' || fn === 'minimum')) { both(); f.op('i32.and'); return; }
  switch (fn) {
    case 'floorDivide': case 'mod':
      if (isUnsignedK(t)) emitUnsignedDivision(ctx, fn, a, b);
      else { emitIntDivision(ctx, fn, a, b); wrapInt(f, t); }
      return;
    case 'add': both(); f.op('i32.add'); wrapInt(ctx.f, t); return;
    case 'subtract': both(); f.op('i32.sub'); wrapInt(ctx.f, t); return;
    case 'multiply': both(); f.op('i32.mul'); wrapInt(ctx.f, t); return;
    case 'bitwiseAnd': both(); f.op('i32.and'); return;
    case 'bitwiseOr': both(); f.op('i32.or'); return;
    case 'bitwiseXor': both(); f.op('i32.xor'); return;
    // WebAssembly shifts by the count modulo 32; NumPy's count is unsigned and
    // a shift past the width gives 0 (or -1 for a negative value shifted right).
    // A narrow type's counts from its width to 31 leave no bits in its low bits, which wrapInt keeps.
    case 'leftShift':
      both(); f.op('i32.shl').op('i32.const', 0);
      f.op('local.get', b).op('i32.const', 32).op('i32.lt_u').op('select');
      wrapInt(ctx.f, t); return;
    case 'rightShift':
      if (isUnsignedK(t)) {
        both(); f.op('i32.shr_u').op('i32.const', 0);
        f.op('local.get', b).op('i32.const', 32).op('i32.lt_u').op('select');
        return;
      }
      both(); f.op('i32.shr_s');
      f.op('local.get', a).op('i32.const', 31).op('i32.shr_s');
      f.op('local.get', b).op('i32.const', 32).op('i32.lt_u').op('select');
      return;
    case 'minimum': case 'fmin': both(); both(); f.op(intCompare(t, 'lt')).op('select'); return;
    case 'maximum': case 'fmax': both(); both(); f.op(intCompare(t, 'gt')).op('select'); return;
    default: throw new Error(`internal: ${fn} on ${t} has no native lowering`);
  }
}

/** deg2rad and rad2deg multiply by the constant in the dtype, as NumPy does ((float)(pi/180) for float32). */
function angleFactor(fn: 'deg2rad' | 'rad2deg', t: KType): number {
  if (t === 'float32') return Math.fround(fn === 'deg2rad' ? Math.fround(Math.PI) / 180 : 180 / Math.fround(Math.PI));
  return fn === 'deg2rad' ? Math.PI / 180 : 180 / Math.PI;
}

/**
 * NumPy's fmax/fmin (a NaN operand gives the other; of equal operands, 0 and
 * -0 included, the second) and heaviside(x, h) (NaN for NaN x, 0 below zero, 1
 * above, h at either zero).
 */
function emitNanAware(ctx: EmitContext, fn: 'fmax' | 'fmin' | 'heaviside', t: KType, a: Local, b: Local): void {
  const f = ctx.f;
  const w = W(t);
  const isNan = (x: Local): void => { f.op('local.get', x).op('local.get', x).op(`${w}.ne`); };
  if (fn === 'heaviside') {
    f.op('local.get', a);
    f.op(`${w}.const`, 0);
    f.op(`${w}.const`, 1).op('local.get', b).op('local.get', a).op(`${w}.const`, 0).op(`${w}.gt`).op('select');
    f.op('local.get', a).op(`${w}.const`, 0).op(`${w}.lt`).op('select');
    isNan(a);
    f.op('select');
    return;
  }
  // a NaN ? b : b NaN ? a : (a > b ? a : b), with < for fmin.
  f.op('local.get', b);
  f.op('local.get', a);
  f.op('local.get', a).op('local.get', b).op('local.get', a).op('local.get', b).op(`${w}.${fn === 'fmax' ? 'gt' : 'lt'}`).op('select');
  isNan(b);
  f.op('select');
  isNan(a);
  f.op('select');
}

/**
 * NumPy's integer floor division and Python-style modulo. Division by zero
 * gives 0 and is flagged; MIN // -1 wraps to MIN. The divisor is made safe
 * first, since WebAssembly's div_s traps on both.
 */
function emitIntDivision(ctx: EmitContext, fn: 'floorDivide' | 'mod', a: Local, b: Local): void {
  const f = ctx.f;
  const safe = f.local('i32');
  const r = f.local('i32');
  f.op('local.get', b).op('i32.eqz').if(); bumpFlag(ctx, ARGS.flagDivide); f.end();
  // safe = (b == 0 || (a == MIN && b == -1)) ? 1 : b
  f.op('i32.const', 1).op('local.get', b);
  f.op('local.get', b).op('i32.eqz');
  f.op('local.get', a).op('i32.const', -2147483648).op('i32.eq').op('local.get', b).op('i32.const', -1).op('i32.eq').op('i32.and');
  f.op('i32.or').op('select').op('local.set', safe);
  f.op('local.get', a).op('local.get', safe).op('i32.rem_s').op('local.set', r);
  // The remainder and the divisor have different signs: floor is one lower, the modulo one divisor higher.
  const adjust = (): void => {
    f.op('local.get', r).op('i32.const', 0).op('i32.ne');
    f.op('local.get', r).op('i32.const', 0).op('i32.lt_s').op('local.get', b).op('i32.const', 0).op('i32.lt_s').op('i32.ne');
    f.op('i32.and');
  };
  if (fn === 'mod') {
    f.op('local.get', r).op('local.get', b).op('i32.add').op('local.get', r);
    adjust();
    f.op('select');
  } else {
    f.op('local.get', a).op('local.get', safe).op('i32.div_s');
    adjust();
    f.op('i32.sub');
    // a == MIN and b == -1 wraps to MIN, which a / 1 already is.
  }
  // Division by zero gives 0.
  f.op('i32.const', 0).op('local.get', b).op('select');
}

/** Unsigned floor division and modulo: plain div_u/rem_u, with a zero divisor giving 0, flagged. */
function emitUnsignedDivision(ctx: EmitContext, fn: 'floorDivide' | 'mod', a: Local, b: Local): void {
  const f = ctx.f;
  f.op('local.get', b).op('i32.eqz').if(); bumpFlag(ctx, ARGS.flagDivide); f.end();
  // a (op) (b == 0 ? 1 : b), then 0 where b == 0.
  f.op('local.get', a).op('local.get', b).op('i32.const', 1).op('local.get', b).op('select');
  f.op(fn === 'mod' ? 'i32.rem_u' : 'i32.div_u');
  f.op('i32.const', 0).op('local.get', b).op('select');
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
  switch (ins.op) {
    case 'const': emitConst(ctx, ins.type, ins.value); return;
    case 'cast': emitCast(ctx, types[ins.arg]!, ins.type, vals[ins.arg]!); return;
    case 'select':
      ctx.f.op('local.get', vals[ins.args[1]]!).op('local.get', vals[ins.args[2]]!).op('local.get', vals[ins.args[0]]!).op('select');
      return;
    case 'unary': {
      const t = types[ins.arg]!;
      if (isNativeUnary(ins.fn, t)) emitUnaryNative(ctx, ins.fn, t, vals[ins.arg]!);
      else emitCall(ctx, ins.fn, t, [vals[ins.arg]!]);
      return;
    }
    case 'binary': {
      const t = types[ins.args[0]]!;
      if (isNativeBinary(ins.fn, t)) emitBinaryNative(ctx, ins.fn, t, vals[ins.args[0]]!, vals[ins.args[1]]!);
      else emitCall(ctx, ins.fn, t, [vals[ins.args[0]]!, vals[ins.args[1]]!]);
      return;
    }
    default: throw new Error(`internal: ${ins.op} is emitted by the loop, not as a value`);
  }
}

export { emitScalarInstr, emitLoad, emitStore, emitConst, bumpFlag, angleFactor };
