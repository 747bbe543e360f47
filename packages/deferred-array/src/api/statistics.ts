// NumPy's statistics that are compositions of reductions and elementwise ops:
// each is built in the order NumPy's own Python builds it (numpy/core/_methods.py,
// numpy/lib/nanfunctions.py, numpy/lib/function_base.py), so the planner fuses
// the elementwise parts into the reductions' kernels and the reference
// evaluator, which sums as NumPy does, reproduces NumPy's values.
import { isFloat } from '../ir/dtypes.js';
import { promoteTypes } from '../ir/promotion.js';
import { checkOptionKeys } from '../ir/options.js';
import { noteShapeRead } from '../ir/symbols.js';
import { DeferredArray, wrapNode } from './deferred-array.js';
import { describe } from './operand.js';
import * as shaping from './shaping.js';
import { UFUNCS, where } from './functions.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';
import { normalizeAxis } from '../ir/shape.js';
import { reducedAxes } from '../ir/build-reduce.js';
import type { ReduceOptions } from '../ir/build-reduce.js';

const { add, subtract, multiply, divide, square, sqrt, abs, isnan, isfinite, logicalNot, notEqual, lessEqual, equal, logicalAnd, logicalOr } = UFUNCS;

interface VarianceOptions extends ReduceOptions {
  /** Delta degrees of freedom: the sum of squares is divided by n - ddof (NumPy's default 0). */
  readonly ddof?: number;
}

interface AverageOptions extends ReduceOptions {
  /** One weight per element, or per element along `axis` (a 1-D array as long as that axis). */
  readonly weights?: Operand;
}

interface IscloseOptions {
  readonly rtol?: number;
  readonly atol?: number;
  /** NaN in both operands counts as close. */
  readonly equalNan?: boolean;
}

function asArray(x: Operand, fn: string, position = 0): DeferredArray {
  return x instanceof DeferredArray ? x : wrapNode(anyNode(x, fn, position));
}

const reduceOnly = (o: ReduceOptions): ReduceOptions => ({ axis: o.axis, keepdims: o.keepdims });

function ddofOf(fn: string, o: VarianceOptions): number {
  const ddof = o.ddof ?? 0;
  if (typeof ddof !== 'number' || !Number.isInteger(ddof)) throw new TypeError(`${fn}: option ddof must be an integer; got ${String(ddof)}`);
  return ddof;
}

/** The number of elements each output element reduces (reading the lengths, so a compiled function traces per size). */
function countAlong(fn: string, x: DeferredArray, axis: ReduceOptions['axis']): number {
  noteShapeRead();
  return reducedAxes(fn, axis, x.shape.length).reduce((p, a) => p * x.shape[a]!, 1);
}

/**
 * Variance: sum((x - mean(x))^2) / max(n - ddof, 0), two passes over the data
 * (the mean, then the squared deviations), so no cancellation; ddof >= n gives
 * inf or NaN as NumPy's does (which also warns).
 */
function variance(x: Operand, options?: VarianceOptions): DeferredArray {
  const o = checkOptionKeys<VarianceOptions>('var', options, ['axis', 'keepdims', 'ddof']);
  const a = asArray(x, 'var');
  const ddof = ddofOf('var', o);
  const m = shaping.mean(a, { axis: o.axis, keepdims: true });
  const ss = shaping.sum(square(subtract(a, m)), reduceOnly(o));
  return divide(ss, Math.max(countAlong('var', a, o.axis) - ddof, 0));
}

function std(x: Operand, options?: VarianceOptions): DeferredArray {
  const o = checkOptionKeys<VarianceOptions>('std', options, ['axis', 'keepdims', 'ddof']);
  return sqrt(variance(x, o));
}

/** max - min (NumPy's ptp); bool arrays are refused as NumPy refuses them (no bool subtract). */
function ptp(x: Operand, options?: ReduceOptions): DeferredArray {
  const o = checkOptionKeys<ReduceOptions>('ptp', options, ['axis', 'keepdims']);
  const a = asArray(x, 'ptp');
  return subtract(shaping.max(a, o), shaping.min(a, o));
}

/**
 * The number of elements that are not zero (NaN counts), as int32, the
 * package's default integer (NumPy's intp is int64), so counts are bounded
 * as argmin's indices are.
 */
function countNonzero(x: Operand, options?: ReduceOptions): DeferredArray {
  const o = checkOptionKeys<ReduceOptions>('countNonzero', options, ['axis', 'keepdims']);
  const a = asArray(x, 'countNonzero');
  const n = countAlong('countNonzero', a, o.axis);
  if (n > 2 ** 31 - 1) {
    throw new RangeError(`countNonzero: a count over ${n} elements may not fit in int32, the package's counts' type (NumPy's is int64); ` +
      'count over fewer axes, or sum the mask, which counts in float64: da.sum(da.notEqual(x, 0))');
  }
  // A mask is its own truth: summed as it is, its kernel counts it in byte lanes.
  return shaping.sum(a.dtype === 'bool' ? a : notEqual(a, 0), o).astype('int32');
}

/** The weights as an array of x's shape: NumPy takes the same shape, or a 1-D array along a single axis. */
function weightsFor(a: DeferredArray, w: DeferredArray, axis: ReduceOptions['axis']): DeferredArray {
  noteShapeRead();
  if (w.ndim === a.ndim && w.shape.every((d, i) => d === a.shape[i])) return w;
  if (axis === undefined || axis === null) {
    throw new TypeError(`average: weights of shape (${w.shape.join(', ')}) differ from the array's (${a.shape.join(', ')}), so give the axis they run along`);
  }
  if (w.ndim !== 1) throw new TypeError('average: weights of a shape other than the array\'s must be 1-D');
  if (Array.isArray(axis)) throw new TypeError('average: 1-D weights run along one axis; give axis as an integer');
  const ax = normalizeAxis(axis, a.ndim, 'average: axis');
  if (w.shape[0] !== a.shape[ax]) {
    throw new RangeError(`average: ${w.shape[0]} weights for axis ${ax} of length ${a.shape[ax]}; give one weight per element along the axis`);
  }
  return w.reshape(a.shape.map((d, i) => (i === ax ? d : 1)));
}

/**
 * The weighted mean sum(x * w) / sum(w) (the mean when no weights are given).
 * NumPy raises when a slice's weights sum to zero, which is known only from
 * the data; here that slice comes out as the division gives it (inf or NaN).
 */
function average(x: Operand, options?: AverageOptions): DeferredArray {
  const o = checkOptionKeys<AverageOptions>('average', options, ['axis', 'keepdims', 'weights']);
  const a = asArray(x, 'average');
  if (o.weights === undefined || o.weights === null) return shaping.mean(a, reduceOnly(o));
  const given = weightsFor(a, asArray(o.weights, 'average', 1), o.axis);
  // NumPy sums and multiplies in one result dtype: the promoted type, at least float64 for integer and bool arrays.
  const t = promoteTypes(promoteTypes(a.dtype, given.dtype), isFloat(a.dtype) ? a.dtype : 'float64');
  const w = given.astype(t);
  const scl = shaping.sum(w, reduceOnly(o));
  return divide(shaping.sum(multiply(a.astype(t), w), reduceOnly(o)), scl);
}

/** The values with NaN replaced (NumPy's _replace_nan), or the array itself when its dtype has no NaN. */
const replaceNan = (a: DeferredArray, by: number): DeferredArray => (isFloat(a.dtype) ? where(isnan(a), by, a) : a);

function nansum(x: Operand, options?: ReduceOptions): DeferredArray {
  const o = checkOptionKeys<ReduceOptions>('nansum', options, ['axis', 'keepdims']);
  return shaping.sum(replaceNan(asArray(x, 'nansum'), 0), o);
}

/** The count of non-NaN elements, as float64 (exact below 2^53). */
const countNotNan = (a: DeferredArray, o: ReduceOptions): DeferredArray => shaping.sum(logicalNot(isnan(a)), o);

/** NumPy's _divide_by_count: the float64 quotient of the float total by the count, stored back in the total's dtype. */
const byCount = (tot: DeferredArray, cnt: DeferredArray): DeferredArray => divide(tot.astype('float64'), cnt).astype(tot.dtype);

function nanmean(x: Operand, options?: ReduceOptions): DeferredArray {
  const o = checkOptionKeys<ReduceOptions>('nanmean', options, ['axis', 'keepdims']);
  const a = asArray(x, 'nanmean');
  if (!isFloat(a.dtype)) return shaping.mean(a, o);
  return byCount(shaping.sum(replaceNan(a, 0), o), countNotNan(a, o));
}

/** min or max ignoring NaN; an all-NaN slice gives NaN (NumPy also warns). */
function nanExtreme(op: 'min' | 'max', x: Operand, options?: ReduceOptions): DeferredArray {
  const fn = op === 'min' ? 'nanmin' : 'nanmax';
  const o = checkOptionKeys<ReduceOptions>(fn, options, ['axis', 'keepdims']);
  const a = asArray(x, fn);
  if (!isFloat(a.dtype)) return shaping[op](a, o);
  const r = shaping[op](replaceNan(a, op === 'min' ? Infinity : -Infinity), o);
  return where(shaping.all(isnan(a), o), NaN, r);
}

const nanmin = (x: Operand, options?: ReduceOptions): DeferredArray => nanExtreme('min', x, options);
const nanmax = (x: Operand, options?: ReduceOptions): DeferredArray => nanExtreme('max', x, options);

/** Variance ignoring NaN; a slice with n - ddof <= 0 non-NaN elements gives NaN (NumPy also warns). */
function nanvar(x: Operand, options?: VarianceOptions): DeferredArray {
  const o = checkOptionKeys<VarianceOptions>('nanvar', options, ['axis', 'keepdims', 'ddof']);
  const a = asArray(x, 'nanvar');
  const ddof = ddofOf('nanvar', o);
  if (!isFloat(a.dtype)) return variance(a, o);
  const keep = { axis: o.axis, keepdims: true };
  const mask = isnan(a);
  const arr = where(mask, 0, a);
  const cnt = countNotNan(a, keep);
  const avg = byCount(shaping.sum(arr, keep), cnt);
  const sqr = square(where(mask, 0, subtract(arr, avg)));
  // One count, its kept axes squeezed as NumPy's nanvar does (not a second count reduced).
  const dof = subtract(o.keepdims ? cnt : shaping.squeeze(cnt, reducedAxes('nanvar', o.axis, a.shape.length)), ddof);
  return where(lessEqual(dof, 0), NaN, byCount(shaping.sum(sqr, reduceOnly(o)), dof));
}

function nanstd(x: Operand, options?: VarianceOptions): DeferredArray {
  const o = checkOptionKeys<VarianceOptions>('nanstd', options, ['axis', 'keepdims', 'ddof']);
  return sqrt(nanvar(x, o));
}

/**
 * |a - b| <= atol + rtol * |b| elementwise (NumPy's isclose, so not symmetric
 * in a and b); infinities are close only to themselves, NaN to nothing unless
 * equalNan.
 */
function isclose(a: Operand, b: Operand, options?: IscloseOptions): DeferredArray {
  const o = checkOptionKeys<IscloseOptions>('isclose', options, ['rtol', 'atol', 'equalNan']);
  const rtol = o.rtol ?? 1e-5;
  const atol = o.atol ?? 1e-8;
  for (const [k, v] of [['rtol', rtol], ['atol', atol]] as const) {
    if (typeof v !== 'number') throw new TypeError(`isclose: option ${k} must be a number; got ${describe(v)}`);
  }
  if (o.equalNan !== undefined && typeof o.equalNan !== 'boolean') throw new TypeError(`isclose: option equalNan must be a boolean; got ${describe(o.equalNan)}`);
  const x = asArray(a, 'isclose', 0);
  let y = asArray(b, 'isclose', 1);
  // NumPy makes y inexact first, so that abs() of the most negative integer does not overflow.
  if (!isFloat(y.dtype)) y = y.astype('float64');
  const finite = logicalAnd(isfinite(x), isfinite(y));
  const withinTol = lessEqual(abs(subtract(x, y)), add(atol, multiply(rtol, abs(y))));
  const close = logicalOr(logicalAnd(finite, withinTol), equal(x, y));
  return o.equalNan ? logicalOr(close, logicalAnd(isnan(x), isnan(y))) : close;
}

/** Whether every element pair is close (isclose's options), as a 0-d bool array. */
function allclose(a: Operand, b: Operand, options?: IscloseOptions): DeferredArray {
  return shaping.all(isclose(a, b, options));
}

export { variance, std, ptp, countNonzero, average, nansum, nanmean, nanmin, nanmax, nanvar, nanstd, isclose, allclose };
export type { VarianceOptions, AverageOptions, IscloseOptions };
