// The arithmetic of reductions, shared by the row kernel (emit-kernel.ts) and
// the column kernel (emit-columns.ts): identities, one step of a scalar or
// vector accumulator, a float64 accumulation of four narrower lanes, and the
// fold of a vector accumulator's lanes (pairwise, lane 0 first, so the order
// of additions is fixed).
import { HIGH_TO_LOW } from '../encode/index.js';
import { InternalError } from '../internal-error.js';
import type { FunctionBuilder, Local } from '../encode/index.js';
import { intCompare, intRange, is64K, isFloatK, isUnsignedK, scalarType, wrapInt } from './context.js';
import type { KReduce, KType } from './kernel-spec.js';
import { LANE_COUNT, pickI64x2 } from './simd-widths.js';
import type { Lanes } from './simd-widths.js';

/** The reduction's starting value (a bigint for int64 and uint64). */
function identity(fn: KReduce, t: KType): number | bigint {
  if (is64K(t)) return identity64(fn, t);
  switch (fn) {
    case 'sum': case 'any': return 0;
    case 'prod': case 'all': return 1;
    // An integer type's extreme (emitConst writes uint32's max as its i32 bits).
    case 'min': case 'argmin': return isFloatK(t) ? Infinity : intRange(t)[1];
    case 'max': case 'argmax': return isFloatK(t) ? -Infinity : intRange(t)[0];
  }
}

function identity64(fn: KReduce, t: KType): bigint {
  const signed = t === 'int64';
  switch (fn) {
    case 'sum': case 'any': return 0n;
    case 'prod': case 'all': return 1n;
    case 'min': case 'argmin': return signed ? 2n ** 63n - 1n : 2n ** 64n - 1n;
    case 'max': case 'argmax': return signed ? -(2n ** 63n) : 0n;
  }
}

/** acc = acc (op) value, scalar. */
function combineScalar(f: FunctionBuilder, fn: KReduce, t: KType, acc: Local, value: Local): void {
  if (fn === 'argmax' || fn === 'argmin') throw new InternalError(`${fn} keeps a position too (arg-extremes.ts)`);
  const w = scalarType(t);
  f.op('local.get', acc).op('local.get', value);
  if (fn === 'any' || fn === 'all') f.op(fn === 'any' ? 'i32.or' : 'i32.and'); // operands are bools (0/1)
  else if (isFloatK(t)) f.op(`${w}.${{ sum: 'add', prod: 'mul', min: 'min', max: 'max' }[fn]}`);
  // int64 and uint64 wrap at 64 bits as they stand.
  else if (is64K(t) && (fn === 'sum' || fn === 'prod')) f.op(fn === 'sum' ? 'i64.add' : 'i64.mul');
  // A narrow integer type's running sum or product wraps at every step, as a stored one would.
  else if (fn === 'sum') { f.op('i32.add'); wrapInt(f, t); }
  else if (fn === 'prod') { f.op('i32.mul'); wrapInt(f, t); }
  else if (fn === 'min' || fn === 'max') {
    f.op('local.get', acc).op('local.get', value).op(intCompare(t, fn === 'min' ? 'lt' : 'gt')).op('select');
  }
  f.op('local.set', acc);
}

/** The lane instruction of one step of fn over values of type t (uint32's extremes compare unsigned); i64x2 has none for extremes (combineVector). */
function vectorReduceOp(lanes: Lanes, fn: KReduce, t: KType): string {
  // any and all combine lane masks (every bit of a lane set or none), whatever the lanes' type.
  if (fn === 'any' || fn === 'all') return fn === 'any' ? 'v128.or' : 'v128.and';
  if (fn === 'argmax' || fn === 'argmin') throw new InternalError(`${fn} keeps a position too (arg-extremes.ts)`);
  if (lanes === 'i32x4' && (fn === 'min' || fn === 'max')) return `i32x4.${fn}_${isUnsignedK(t) ? 'u' : 's'}`;
  if (lanes === 'i64x2' && (fn === 'min' || fn === 'max')) throw new Error('internal: i64x2 extremes are a comparison and a select');
  return `${lanes}.${{ sum: 'add', prod: 'mul', min: 'min', max: 'max' }[fn]}`;
}

/** acc = acc (fn) value, lane by lane, in the lanes' own type (values of type t; i64x2's extremes a comparison and a select). */
function combineVector(f: FunctionBuilder, lanes: Lanes, fn: KReduce, t: KType, acc: Local, value: Local): void {
  if (lanes === 'i64x2' && (fn === 'min' || fn === 'max')) pickI64x2(f, acc, value, fn === 'min' ? 'lt' : 'gt', t);
  else f.op('local.get', acc).op('local.get', value).op(vectorReduceOp(lanes, fn, t));
  f.op('local.set', acc);
}

/**
 * Folds a four-lane value into two f64x2 accumulators, lanes 0-1 into `lo` and
 * 2-3 into `hi`, each widened by `widen` (promote_low or convert_low): a
 * float64 accumulation of float32 or int32 values, as the scalar loop widens them.
 */
function combineHalves(f: FunctionBuilder, widen: string, fn: KReduce, lo: Local, hi: Local, value: Local): void {
  const op = vectorReduceOp('f64x2', fn, 'float64');
  f.op('local.get', lo).op('local.get', value).op(widen).op(op).op('local.set', lo);
  f.op('local.get', hi).op('local.get', value).op('local.get', value).shuffle(HIGH_TO_LOW).op(widen).op(op).op('local.set', hi);
}

/** Calls combine(lo, mid) for a balanced tree over accumulators [0, count): each into the lower half's first, so the whole ends in 0. */
function pairwise(count: number, combine: (lo: number, mid: number) => void): void {
  const tree = (lo: number, hi: number): void => {
    if (hi - lo === 1) return;
    const mid = (lo + hi) >> 1;
    tree(lo, mid); tree(mid, hi);
    combine(lo, mid);
  };
  tree(0, count);
}

/** The integer lanes of a mask held in `lanes`: a float lane's mask is an integer lane of its width. */
const MASK_LANES: Readonly<Record<Lanes, string>> = { f64x2: 'i64x2', f32x4: 'i32x4', i32x4: 'i32x4', i16x8: 'i16x8', i8x16: 'i8x16', i64x2: 'i64x2' };

/** An accumulator's starting lanes for any (no lane set) or all (every lane set): masks, not the scalar identity's 0 and 1. */
function maskIdentity(f: FunctionBuilder, fn: 'any' | 'all'): void {
  const v = fn === 'any' ? 0 : -1;
  f.v128i32(v, v, v, v);
}

/** Leaves the lanes of a vector accumulator (values of type t) combined pairwise, lane 0 first. */
function foldLanes(f: FunctionBuilder, lanes: Lanes, fn: KReduce, t: KType, acc: Local): void {
  // A mask's lanes fold to a bool (0 or 1); or and and give the same whatever their order.
  if (fn === 'any' || fn === 'all') {
    f.op('local.get', acc).op(fn === 'any' ? 'v128.any_true' : `${MASK_LANES[lanes]}.all_true`);
    return;
  }
  const w = lanes === 'f64x2' ? 'f64' : lanes === 'f32x4' ? 'f32' : lanes === 'i64x2' ? 'i64' : 'i32';
  const extreme = (lanes === 'i32x4' || lanes === 'i64x2') && (fn === 'min' || fn === 'max');
  const op = `${w}.${{ sum: 'add', prod: 'mul', min: 'min', max: 'max' }[fn as 'sum']}`;
  // An integer extreme: a comparison of the type's (signed or unsigned) and a select.
  const pick = (): string => intCompare(t, fn === 'min' ? 'lt' : 'gt');
  const lane = (k: number): void => { f.op('local.get', acc).op(`${lanes}.extract_lane`, k); };
  const pair = (a: number, b: number): void => {
    lane(a); lane(b);
    if (extreme) {
      lane(a); lane(b); f.op(pick()).op('select');
    } else f.op(op);
  };
  if (LANE_COUNT[lanes] === 2) { pair(0, 1); return; }
  pair(0, 1); pair(2, 3);
  if (extreme) {
    const t1 = f.local('i32');
    const t0 = f.local('i32');
    f.op('local.set', t1).op('local.set', t0);
    f.op('local.get', t0).op('local.get', t1).op('local.get', t0).op('local.get', t1).op(pick()).op('select');
  } else f.op(op);
}

/**
 * Partials are f64, which hold every value of the reductions' types exactly:
 * toF64 widens the value on the stack to one, fromF64 brings one back
 * (`saturate`: with the saturating truncation, which never traps).
 */
/**
 * A value as the f64 a partial holds: floats and narrower integers converted
 * (exactly), int64 and uint64 as their bits, which the host reads back as such.
 */
function toF64(f: FunctionBuilder, t: KType): void {
  if (is64K(t)) f.op('f64.reinterpret_i64');
  else if (t === 'float32') f.op('f64.promote_f32');
  else if (!isFloatK(t)) f.op(`f64.convert_i32_${isUnsignedK(t) ? 'u' : 's'}`);
}

function fromF64(f: FunctionBuilder, t: KType, saturate: boolean): void {
  if (t === 'float32') f.op('f32.demote_f64');
  else if (!isFloatK(t)) f.op(`i32.trunc_${saturate ? 'sat_' : ''}f64_${isUnsignedK(t) ? 'u' : 's'}`);
}

export { toF64, fromF64, identity, maskIdentity, combineScalar, combineVector, combineHalves, foldLanes, pairwise };
