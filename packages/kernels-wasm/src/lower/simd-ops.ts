// Lanes at a time, for kernels whose arrays are contiguous or broadcast along
// the inner axis. The widest array type sets the lanes (f64x2, f32x4 or
// i32x4; i16x8 or i8x16 where every value is an integer of one narrow width;
// i64x2 where the kernel holds int64 or uint64);
// narrower arrays are converted as they are read or written (simd-widths.ts).
// Booleans inside such a kernel are lane masks (all ones or all zeros).
import type { EmitContext } from './context.js';
import type { Local } from '../encode/index.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import type { KBinary, KInstr, KType, KUnary, KernelSpec } from './kernel-spec.js';
import { splatConst } from './emit-values.js';
import { binaryEmitter } from './native-binary.js';
import { unaryEmitter } from './native-unary.js';
import { LOGICAL, MATH_BINARY, MATH_UNARY, mathName } from './native-ops.js';
import { hasNativeLanes, opsWhere } from './op-rules.js';
import { LANE_DTYPE, fillsLane, isExactLanes, isIntLanes, isNarrowLanes, narrows, widens, wrapIntLanes } from './simd-widths.js';
import type { Lanes } from './simd-widths.js';
import { at } from '../internal-error.js';
import { is64K, isIntegerK } from './context.js';
import { INT64_BINARY, INT64_UNARY } from './validate-spec.js';


/**
 * The widest numeric element type among the arrays sets the lanes: float64 >
 * float32 > any integer type. i32x4 lanes hold every integer type as the
 * scalar loop's i32 does (narrow types sign- or zero-extended and wrapped
 * after arithmetic, uint32 as its bits, read unsigned where the sign
 * matters), so the two loops give the same bits.
 */
const LANE_PREFERENCE: ReadonlyArray<[KType, Lanes]> = [
  ['float64', 'f64x2'], ['float32', 'f32x4'],
  ...(['int32', 'uint32', 'int16', 'uint16', 'int8', 'uint8'] as const).map((t): [KType, Lanes] => [t, 'i32x4']),
];


/** The op table's native lowerings that have a lane form, for float and for integer lanes. */
const FLOAT_UNARY = opsWhere<KUnary>('unary', (fn) => hasNativeLanes(fn, 'float'));
const INT_UNARY = opsWhere<KUnary>('unary', (fn) => hasNativeLanes(fn, 'int'));
// In float lanes the bitwise ops only meet bool masks (the type rules keep them off floats).
const FLOAT_BINARY = opsWhere<KBinary>('binary', (fn) => hasNativeLanes(fn, 'float'));
const INT_BINARY = opsWhere<KBinary>('binary', (fn) => hasNativeLanes(fn, 'int'));
const BITWISE: readonly KBinary[] = ['bitwiseAnd', 'bitwiseOr', 'bitwiseXor'];
const DIVISION: ReadonlySet<KBinary> = new Set(['floorDivide', 'mod', 'fmod']);
const BOOL_UNARY: ReadonlySet<KUnary> = new Set(['logicalNot', 'invert']);
const BOOL_BINARY: ReadonlySet<KBinary> = new Set([...LOGICAL, 'equal', 'notEqual', ...BITWISE]);
/**
 * Lane shifts take one count for all lanes: vectorised when the count is the
 * same in every lane, a constant or an array broadcast along the inner axis
 * (a JS scalar is a 0-d array).
 */
const isLaneShift = (spec: KernelSpec, ins: KInstr): boolean => {
  if (ins.op !== 'binary' || (ins.fn !== 'leftShift' && ins.fn !== 'rightShift')) return false;
  const count = at(spec.body, ins.args[1], 'value');
  return count.op === 'const' || (count.op === 'load' && at(spec.arrays, count.array, 'array').inner === 'broadcast');
};

/**
 * The lane type a kernel can be vectorised with, or undefined for the scalar
 * loop. `mathAvailable` says whether the math library has a routine.
 */
function simdLanes(spec: KernelSpec, mathAvailable: (fn: string, lanes: 'f64x2' | 'f32x4') => boolean): Lanes | undefined {
  if (spec.arrays.length === 0) return undefined;
  // int64 and uint64 have lanes of their own, which hold nothing else (no lane converts them to or from a float).
  if (spec.arrays.some((a) => is64K(a.dtype)) || spec.body.some((i) => is64K(i.type))) {
    return fits(spec, 'i64x2', mathAvailable) ? 'i64x2' : undefined;
  }
  const lanes = LANE_PREFERENCE.find(([t]) => spec.arrays.some((a) => a.dtype === t))?.[1];
  if (!lanes) {
    if (!spec.arrays.every((a) => a.dtype === 'bool')) return undefined;
    // Only bool arrays (masks combined): sixteen masks at a time; masks made numbers (a sum of a mask) take the number's
    // lanes; a column kernel's any or all, i32x4 (its partials have no narrower form).
    if (fits(spec, 'i8x16', mathAvailable)) return 'i8x16';
    const masksReduced = spec.mode === 'columns' && spec.body.some((i) => i.op === 'reduce' && (i.fn === 'any' || i.fn === 'all'));
    return floatLanes(spec, undefined, mathAvailable) ?? (masksReduced && fits(spec, 'i32x4', mathAvailable) ? 'i32x4' : undefined);
  }
  const narrow = lanes === 'i32x4' ? narrowLanes(spec) : undefined;
  if (narrow && fits(spec, narrow, mathAvailable)) return narrow;
  if (fits(spec, lanes, mathAvailable)) return lanes;
  return floatLanes(spec, lanes, mathAvailable);
}

/**
 * For integer or bool arrays whose values the kernel turns into floats (a
 * sum of int32 or of a mask is float64): the float's lanes, the arrays read
 * converted; undefined where those are the lanes already refused.
 */
function floatLanes(spec: KernelSpec, refused: Lanes | undefined, mathAvailable: (fn: string, lanes: 'f64x2' | 'f32x4') => boolean): Lanes | undefined {
  const wider = LANE_PREFERENCE.find(([t]) => spec.body.some((i) => 'type' in i && i.type === t))?.[1];
  return wider && wider !== refused && !isIntLanes(wider) && fits(spec, wider, mathAvailable) ? wider : undefined;
}

/**
 * i16x8 or i8x16 for a row kernel whose arrays are all integers of one
 * narrow width (or bool): 8 or 16 lanes instead of i32x4's 4. A kernel that
 * also holds values of another width (a cast to int32, a float), or reduces,
 * takes i32x4 instead.
 */
function narrowLanes(spec: KernelSpec): Lanes | undefined {
  if (spec.contraction || spec.mode === 'columns') return undefined;
  const widths = new Set(spec.arrays.filter((a) => a.dtype !== 'bool').map((a) => KTYPE_BYTES[a.dtype]));
  if (widths.size !== 1) return undefined;
  return widths.has(2) ? 'i16x8' : widths.has(1) ? 'i8x16' : undefined;
}

/** Whether every array and instruction of `spec` has a form in `lanes`. */
function fits(spec: KernelSpec, lanes: Lanes, mathAvailable: (fn: string, lanes: 'f64x2' | 'f32x4') => boolean): boolean {
  const dtype = LANE_DTYPE[lanes];
  // A matrix product's own loops read its operands in its lane type: no conversions there.
  if (spec.contraction && spec.arrays.some((a) => a.dtype !== dtype)) return false;
  const isFloat = !isIntLanes(lanes);
  const narrow = isNarrowLanes(lanes);
  const exact = isExactLanes(lanes);
  // A column kernel's partials and identities are written for 32-bit lanes and numbers; random arrays have no i64x2 form.
  if (lanes === 'i64x2' && (spec.mode === 'columns' || spec.arrays.some((a) => a.random))) return false;
  for (const a of spec.arrays) {
    if (a.inner === 'strided') return false;
    if (a.role === 'out' && a.inner !== 'contiguous') return false;
    if (!(a.role === 'in' ? widens(lanes, a.dtype) : narrows(lanes, a.dtype))) return false;
  }
  const uses = usesOf(spec);
  const ok = (t: KType): boolean => t === dtype || t === 'bool' || (exact ? fillsLane(lanes, t) : !isFloat && isIntegerK(t));
  // The types a narrower array's load converts to, and a store's cast converts from: the lane type (in i64x2 either 64-bit type).
  const lane = (t: KType): boolean => t === dtype || (lanes === 'i64x2' && fillsLane(lanes, t));
  // i64x2 lanes take the ops kernels compute in int64 (validate-spec.ts) that integers have lanes for, but not
  // division (no float holds a 64-bit quotient exactly) or gcd.
  const nativeUnary = (fn: KUnary): boolean => (isFloat ? FLOAT_UNARY : INT_UNARY).has(fn) && (lanes !== 'i64x2' || INT64_UNARY.has(fn));
  const nativeBinary = (fn: KBinary): boolean => (isFloat ? FLOAT_BINARY : INT_BINARY).has(fn) && (lanes !== 'i64x2' || (INT64_BINARY.has(fn) && !DIVISION.has(fn)));
  for (const [v, ins] of spec.body.entries()) {
    switch (ins.op) {
      case 'load': {
        // A narrower number is read converted, so it may only feed casts to the lane type.
        const t = at(spec.arrays, ins.array, 'array').dtype;
        // (Or only gathers' indices: in float lanes a gather reads each lane's index from the array again.)
        if (!ok(t) && !at(uses, v, 'value').every((u) => {
          const user = at(spec.body, u, 'value');
          return (user.op === 'cast' && lane(user.type)) || (user.op === 'gather' && user.index === v);
        })) return false;
        break;
      }
      case 'store': {
        // A narrower array takes a cast from the lane type (validateSpec: the value's type is the array's).
        const value = at(spec.body, ins.arg, 'value');
        if (!ok(ins.type) && !(value.op === 'cast' && lane(at(spec.body, value.arg, 'value').type))) return false;
        break;
      }
      // A bool constant has no mask form here; a select between masks is a bitselect of masks, as of numbers.
      case 'const': if (ins.type === 'bool' || !ok(ins.type)) return false; break;
      case 'select': if (!ok(ins.type)) return false; break;
      case 'cast': if (!vectorCast(spec, uses, v, dtype, lanes)) return false; break;
      case 'unary': {
        const t = at(spec.body, ins.arg, 'value').type;
        if (!ok(t)) return false;
        if (t === 'bool' && !BOOL_UNARY.has(ins.fn)) return false;
        const native = nativeUnary(ins.fn);
        const math = isFloat && MATH_UNARY.has(ins.fn) && mathAvailable(mathName(ins.fn), lanes as 'f64x2' | 'f32x4');
        if (!native && !math) return false;
        break;
      }
      case 'binary': {
        const t = at(spec.body, ins.args[0], 'value').type;
        if (!ok(t)) return false;
        if (t === 'bool' && !BOOL_BINARY.has(ins.fn)) return false;
        // A shift has lanes only where its count is the same in every lane (isLaneShift).
        const shift = ins.fn === 'leftShift' || ins.fn === 'rightShift';
        const native = shift ? !isFloat && isLaneShift(spec, ins) : nativeBinary(ins.fn);
        const math = isFloat && MATH_BINARY.has(ins.fn) && mathAvailable(mathName(ins.fn), lanes as 'f64x2' | 'f32x4');
        if (!native && !math) return false;
        break;
      }
      case 'scan':
        // Only a column kernel scans in lanes: a lane is a column, whose running value waits on the row before.
        if (spec.mode !== 'columns' || ins.type !== dtype || at(spec.body, ins.arg, 'value').type !== dtype) return false;
        break;
      case 'gather': {
        // Each lane's element read at its own index: any integer in i32x4 lanes (which hold every integer index
        // as it is); the lane type in float lanes, at indices read from an int32 array (each lane's read
        // again as an i32: float32 lanes would round one past 2^24).
        if (spec.mode === 'columns' || spec.contraction) return false;
        const index = at(spec.body, ins.index, 'value');
        const read = index.op === 'load' && at(spec.arrays, index.array, 'array').dtype === 'int32';
        if (!(lanes === 'i32x4' ? isIntegerK(ins.type) && !is64K(ins.type) : isFloat && ins.type === dtype && read)) return false;
        break;
      }
      case 'reduce': {
        // any and all combine masks (their values are bools) in every lane type; a column kernel's partials are
        // numbers, which it turns into masks and back in 32- and 64-bit lanes (emit-columns.ts maskPartialsIO).
        if (ins.fn === 'any' || ins.fn === 'all') {
          if (spec.mode === 'columns' && lanes !== 'f64x2' && lanes !== 'f32x4' && lanes !== 'i32x4') return false;
          break;
        }
        if (isCountedMask(spec, lanes, ins.arg, uses)) break;
        if (narrow) return false;
        const t = at(spec.body, ins.arg, 'value').type;
        // argmax and argmin compare values in their own lanes (narrower integers held in i32x4 as the scalar loop holds them).
        if (ins.fn === 'argmax' || ins.fn === 'argmin') {
          if (!(t === dtype || (lanes === 'i32x4' && isIntegerK(t) && !is64K(t)))) return false;
          break;
        }
        // i32x4 lanes take the extremes of every integer type, each held as the scalar loop holds it (a column
        // kernel's partials convert them by the type's sign, emit-columns.ts).
        const extreme = lanes === 'i32x4' && (ins.fn === 'min' || ins.fn === 'max') && isIntegerK(t);
        if (!lane(t) && !extreme && !isPromotedAccumulation(spec, lanes, ins.arg, uses)) return false;
        break;
      }
    }
  }
  return true;
}

/** For each value, the instructions that use it. */
function usesOf(spec: KernelSpec): number[][] {
  const uses: number[][] = spec.body.map(() => []);
  spec.body.forEach((u, i) => {
    const args = u.op === 'unary' || u.op === 'cast' || u.op === 'store' || u.op === 'reduce' || u.op === 'scan' ? [u.arg]
      : u.op === 'binary' || u.op === 'select' ? [...u.args] : u.op === 'gather' ? [u.index] : [];
    for (const a of args) at(uses, a, 'value').push(i);
  });
  return uses;
}

/**
 * Casts the vector loop makes, all keeping values in the lane layout: from a
 * narrower array's load to the lane type (the load converts), between the
 * lane type and bool (masks), from the lane type to a narrower array's type
 * when only stores use it (the store converts), a float32 value widened for
 * a float64 reduction, a mask made float64 to be counted (isCountedMask),
 * and in integer lanes between any integer types and bool (a wrap, a mask,
 * or the same bits).
 */
function vectorCast(spec: KernelSpec, uses: readonly number[][], v: number, dtype: KType, lanes: Lanes): boolean {
  const ins = spec.body[v] as Extract<KInstr, { op: 'cast' }>;
  const arg = at(spec.body, ins.arg, 'value');
  // Between integer types (and bool), i32x4 lanes keep each as its own: a cast is a wrap, a mask or nothing;
  // narrow lanes hold the types of their width, between which a cast is nothing.
  const held = (t: KType): boolean => t === 'bool' || (isExactLanes(lanes) ? fillsLane(lanes, t) : isIntegerK(t));
  if (isCountedMask(spec, lanes, v, uses)) return true;
  if (lanes === 'i64x2' && !(held(ins.type) && held(arg.type))) {
    // From a narrower integer array's load (which extends it), or to a narrower integer only stores take (which keep its low bytes).
    if (held(ins.type)) return arg.op === 'load' && isIntegerK(arg.type);
    return held(arg.type) && isIntegerK(ins.type) && at(uses, v, 'value').every((u) => at(spec.body, u, 'value').op === 'store');
  }
  if (isIntLanes(lanes)) return held(ins.type) && held(arg.type);
  if (isPromotedAccumulation(spec, lanes, v, uses)) return true;
  if (ins.type === dtype) return arg.op === 'load' || arg.type === 'bool' || arg.type === dtype;
  if (arg.type !== dtype) return false;
  if (ins.type === 'bool') return true;
  return at(uses, v, 'value').every((u) => at(spec.body, u, 'value').op === 'store');
}

/**
 * A float32 value widened to float64 only to be reduced (float32 sums
 * accumulate in float64): vectorised as f32x4 loads whose halves are
 * promoted into pairs of f64x2 accumulators.
 */
function isPromotedAccumulation(spec: KernelSpec, lanes: Lanes, v: number, uses: readonly number[][] = usesOf(spec)): boolean {
  if (lanes !== 'f32x4') return false;
  const ins = spec.body[v];
  if (!ins || ins.op !== 'cast' || ins.type !== 'float64' || at(spec.body, ins.arg, 'value').type !== 'float32') return false;
  return at(uses, v, 'value').every((u) => {
    const user = at(spec.body, u, 'value');
    return user.op === 'reduce' && (user.fn === 'sum' || user.fn === 'prod' || user.fn === 'min' || user.fn === 'max');
  });
}

/**
 * One instruction of a vector body. `math`: how a math routine is applied: written out in place
 * (the row kernel's vector loops, a few copies) or called (the column kernel, whose body is
 * written once per row and vector of columns it takes at a time: 85 copies of a routine
 * inline made a column sum(sin(x)) 135 KB of code, past the instruction cache).
 */
function emitSimdInstr(ctx: EmitContext, lanes: Lanes, ins: KInstr, vals: readonly Local[], types: readonly KType[], math: 'inline' | 'call'): void {
  const f = ctx.f;
  const L = lanes;
  const isFloat = !isIntLanes(L);
  const local = (i: number): Local => at(vals, i, 'value local');
  const get = (i: number): void => { f.op('local.get', local(i)); };
  /** A lane mask of x != 0 (bool values already are masks). */
  const truth = (i: number): void => {
    get(i);
    if (types[i] !== 'bool') {
      splatConst(ctx, L, 0);
      f.op(`${L}.ne`);
    }
  };
  switch (ins.op) {
    case 'const': splatConst(ctx, L, ins.value); return;
    case 'cast': {
      // See vectorCast: a load of a narrower array or a promoted accumulation is already
      // converted (by the load, by the reduction), and a cast for a store by the store.
      const from = types[ins.arg];
      if (ins.type === 'bool' && from !== 'bool') { truth(ins.arg); return; }
      get(ins.arg);
      // Masks to 1/0 with no constant to rebuild per vector: integer lanes negate -1 to 1; float
      // lanes keep the top bits of an all-ones lane as 1.0's exponent (0x3ff << 52, 0x7f << 23).
      if (from !== 'bool' && ins.type !== from) wrapIntLanes(f, L, ins.type);
      if (from === 'bool' && ins.type !== 'bool') {
        if (!isFloat) f.op(`${L}.neg`);
        else if (L === 'f64x2') f.op('i32.const', 54).op('i64x2.shr_u').op('i32.const', 52).op('i64x2.shl');
        else f.op('i32.const', 25).op('i32x4.shr_u').op('i32.const', 23).op('i32x4.shl');
      }
      return;
    }
    case 'select': get(ins.args[1]); get(ins.args[2]); truth(ins.args[0]); f.op('v128.bitselect'); return;
    case 'unary': {
      const x = ins.arg;
      if (types[x] === 'bool') { get(x); f.op('v128.not'); return; } // logicalNot or invert of a mask
      const native = hasNativeLanes(ins.fn, isFloat ? 'float' : 'int') ? unaryEmitter(ins.fn)?.lanes : undefined;
      if (native) { native(ctx, L, local(x), at(types, x, 'value type')); return; }
      const m = ctx.math(mathName(ins.fn), L as 'f64x2' | 'f32x4');
      if (m === undefined) throw new Error(`internal: ${ins.fn} has no vector lowering`);
      get(x); m[math](); return;
    }
    case 'binary': {
      const [a, b] = ins.args;
      // Shifts have a lane form only where the count is the same in every lane (isLaneShift).
      const lanes = hasNativeLanes(ins.fn, isFloat ? 'float' : 'int') || ins.fn === 'leftShift' || ins.fn === 'rightShift';
      const native = lanes ? binaryEmitter(ins.fn)?.lanes : undefined;
      if (native) { native(ctx, L, local(a), local(b), at(types, a, 'value type')); return; }
      const m = ctx.math(mathName(ins.fn), L as 'f64x2' | 'f32x4');
      if (m === undefined) throw new Error(`internal: ${ins.fn} has no vector lowering`);
      get(a); get(b); m[math](); return;
    }
    default: throw new Error(`internal: ${ins.op} is emitted by the loop, not as a value`);
  }
}

/**
 * A mask made float64 only to be summed (a sum, mean or count of a mask) in
 * a row kernel's i8x16 lanes: each vector's ones (the cast leaves 0 or 1 in
 * each byte) are counted into i32x4 accumulators. The counts are integers,
 * exact in float64 whatever the order they are added in, so the sum is the
 * scalar loop's to the bit.
 */
function isCountedMask(spec: KernelSpec, lanes: Lanes, v: number, uses: readonly number[][] = usesOf(spec)): boolean {
  if (lanes !== 'i8x16' || spec.mode === 'columns') return false;
  const ins = spec.body[v];
  if (!ins || ins.op !== 'cast' || ins.type !== 'float64' || at(spec.body, ins.arg, 'value').type !== 'bool') return false;
  return at(uses, v, 'value').every((u) => {
    const user = at(spec.body, u, 'value');
    return user.op === 'reduce' && user.fn === 'sum';
  });
}

export { simdLanes, emitSimdInstr, splatConst, isPromotedAccumulation, isCountedMask };
