// NumPy's median, quantile and percentile, built as NumPy's Python builds them
// (numpy/lib/_function_base_impl.py: _median, _quantile, _lerp) over the
// reduced axes' lines: the two neighbours of each quantile's virtual index
// taken from where a sort puts them and blended by _lerp's formula, and NaN
// where the line holds one (the sorted line's last element). So the bits are
// NumPy's, its quirks included: the linear quantile at q = 1 of a line ending
// in inf is NaN, as NumPy's is (its blend subtracts inf from inf). Where the
// positions are known from the line's length alone, a select node takes just
// those (the wasm backend finds them by quickselect, as NumPy's partition
// does); the nan variants, whose positions depend on each line's count of
// numbers, sort the lines.
import { scalar } from '../ir/build-elementwise.js';
import { isBigInt, isFloat } from '../ir/dtypes.js';
import { promoteTypes } from '../ir/promotion.js';
import type { DType } from '../ir/dtypes.js';
import { DTypeError, NotSupportedError, ShapeError } from '../ir/errors.js';
import { checkOptionKeys } from '../ir/options.js';
import { noteShapeRead, tracingNow } from '../ir/symbols.js';
import { reducedAxes } from '../ir/build-reduce.js';
import { selectNode } from '../ir/build-sort.js';
import { DeferredArray, wrapNode } from './deferred-array.js';
import { full } from './creation.js';
import { UFUNCS, where } from './functions.js';
import { take, valuesNow } from './selection.js';
import * as shaping from './shaping.js';
import { sort } from './sorting.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';
import { BLENDS, EXACT, METHODS, PICKS, PLOTTING, plottingOffset } from './quantile-methods.js';
import type { QuantileMethod, Round } from './quantile-methods.js';
import { weightedQuantiles } from './weighted-quantile.js';
import { takeAlongLines } from './along-lines.js';

const { add, subtract, multiply, divide, isnan } = UFUNCS;

interface MedianOptions {
  /** The axis or axes reduced; null (the default) reduces every axis. */
  readonly axis?: number | readonly number[] | null;
  /** Keep each reduced axis as length 1. */
  readonly keepdims?: boolean;
}

interface QuantileOptions extends MedianOptions {
  /** How a quantile between two elements is found (NumPy's methods of those names; default 'linear'). */
  readonly method?: QuantileMethod;
  /**
   * A weight for each element (a's shape, or with axis given, a's lengths
   * along it), with method 'inverted_cdf' only, as NumPy; read and checked
   * when called (none negative, each line's total finite and above zero).
   */
  readonly weights?: Operand;
}

/** x with the reduced axes moved last and merged into one, and the result's shape without and with keepdims. */
interface Lines {
  readonly lines: DeferredArray;
  readonly n: number;
  readonly shape: readonly number[];
  readonly kept: readonly number[];
}

/** The lines sorted (the nan variants read positions that differ line by line). */
interface SortedLines extends Lines {
  readonly sorted: DeferredArray;
}

const sortedOf = (l: Lines): SortedLines => ({ ...l, sorted: sort(l.lines, { axis: -1 }) });

/** Each line's element at a sorted position, from one select node holding every position asked for. */
type At = (i: number) => DeferredArray;

function selecting(l: Lines, positions: readonly number[]): At {
  const taken = [...new Set(positions)].sort((a, b) => a - b);
  const s = wrapNode(selectNode(anyNode(l.lines, 'select'), -1, taken));
  return (i) => take(s, wrapNode(scalar(taken.indexOf(i), 'int32')), { axis: -1 });
}

function linesOf(fn: string, x: DeferredArray, o: MedianOptions): Lines {
  noteShapeRead();
  const ndim = x.ndim;
  const axes = reducedAxes(fn, o.axis ?? null, ndim);
  const rest = [...Array(ndim).keys()].filter((a) => !axes.includes(a));
  const shape = rest.map((a) => x.shape[a]!);
  const n = axes.reduce((p, a) => p * x.shape[a]!, 1);
  const kept = x.shape.map((d, a) => (axes.includes(a) ? 1 : d));
  const moved = axes.every((a, i) => a === rest.length + i) ? x : shaping.transpose(x, [...rest, ...axes]);
  return { lines: shaping.reshape(moved, [...shape, n]), n, shape, kept };
}

/** r, or the line's last element where that is NaN (NumPy's nan check after its partition). */
function withNaN(at: At, n: number, r: DeferredArray, dtype: DType): DeferredArray {
  if (!isFloat(dtype)) return r;
  const last = at(n - 1);
  return where(isnan(last), last, r);
}

/** NumPy's median: the middle element, or the mean of the middle two; NaN where the line holds one. */
function median(x: Operand, options?: MedianOptions): DeferredArray {
  const o = checkOptionKeys<MedianOptions>('median', options, ['axis', 'keepdims']);
  const a = asArray(x, 'median');
  const l = linesOf('median', a, o);
  // mean's dtype: floats keep theirs, everything else is summed in float64.
  const float = isFloat(a.dtype) ? a.dtype : 'float64';
  let r: DeferredArray;
  if (l.n === 0) {
    // NumPy: the mean of an empty slice, NaN (with a warning).
    r = full(l.shape, NaN, { dtype: float });
  } else {
    const half = l.n >> 1;
    const at = selecting(l, [half, ...(l.n % 2 === 0 ? [half - 1] : []), ...(isFloat(a.dtype) ? [l.n - 1] : [])]);
    const hi = shaping.astype(at(half), float);
    // mean: NumPy's sum starts from its identity, so a -0 sums to +0 (then divided by 1 or 2 in the mean's dtype).
    r = l.n % 2 === 1 ? add(hi, 0) : divide(add(add(shaping.astype(at(half - 1), float), 0), hi), 2);
    r = withNaN(at, l.n, r, a.dtype);
  }
  return o.keepdims ? shaping.reshape(r, l.kept) : r;
}

/**
 * NumPy's nanmedian: each line's median over its numbers (the middle one, or
 * the mean of the middle two), NaN where a line holds none. Integers hold no
 * NaN: their nanmedian is their median.
 */
function nanmedian(x: Operand, options?: MedianOptions): DeferredArray {
  const o = checkOptionKeys<MedianOptions>('nanmedian', options, ['axis', 'keepdims']);
  const a = asArray(x, 'nanmedian');
  if (!isFloat(a.dtype)) return median(a, o);
  const l = sortedOf(linesOf('nanmedian', a, o));
  let r: DeferredArray;
  if (l.n === 0) {
    r = full(l.shape, NaN, { dtype: a.dtype });
  } else {
    const c = (v: number): DeferredArray => wrapNode(scalar(v, 'float64'));
    const count = shaping.astype(UFUNCS.logicalNot(isnan(l.sorted)), 'float64').sum({ axis: -1 });
    const half = UFUNCS.floor(divide(count, c(2)));
    const odd = UFUNCS.equal(UFUNCS.fmod(count, c(2)), c(1));
    const hi = alongLines(l, half);
    const lo = alongLines(l, UFUNCS.maximum(subtract(half, c(1)), c(0)));
    // The middle element itself for an odd count; (low + high) / 2 in the data's dtype for an even one.
    r = where(odd, hi, divide(add(lo, hi), 2));
    r = where(UFUNCS.equal(count, c(0)), wrapNode(scalar(NaN, a.dtype)), r);
  }
  return o.keepdims ? shaping.reshape(r, l.kept) : r;
}

/** NumPy's quantile: q in [0, 1], a number or an array of them (the result's leading axes). */
function quantile(x: Operand, q: Operand, options?: QuantileOptions): DeferredArray {
  return quantiles('quantile', x, q, options, 1);
}

/** NumPy's percentile: quantile at q / 100, q in [0, 100]. */
function percentile(x: Operand, q: Operand, options?: QuantileOptions): DeferredArray {
  return quantiles('percentile', x, q, options, 100);
}

/** The q values given (divided by 100 for percentile, in q's dtype), their shape, and how NumPy types them. */
interface Qs {
  readonly values: readonly number[];
  /** The values as given, for messages. */
  readonly given: readonly number[];
  readonly shape: readonly number[] | undefined;
  /** A lone number: NumPy's weak Python float (float data keep their dtype). */
  readonly weak: boolean;
  /** Integers (a number, a list or an integer array): quantile picks elements, as NumPy's int q does. */
  readonly integers: boolean;
  /** The dtype NumPy computes indices and gammas in: float32 for a float32 q, else float64. */
  readonly dtype: 'float32' | 'float64';
}

function qsOf(fn: string, q: Operand, scale: number): Qs {
  if (typeof q === 'number') return { values: [q / scale], given: [q], shape: undefined, weak: true, integers: scale === 1 && Number.isInteger(q), dtype: 'float64' };
  const node = anyNode(q, fn, 1);
  if (isBigInt(node.dtype) || node.dtype === 'bool') throw new DTypeError(`${fn}: q must be numbers; got ${node.dtype}`);
  if (node.shape.length > 2) throw new ShapeError(`${fn}: q has ${node.shape.length} axes; NumPy takes a number or an array of at most 2 axes`);
  let given: number[];
  let integers: boolean;
  if (Array.isArray(q) || ArrayBuffer.isView(q)) {
    // A list or typed array is read as it is (so a compiled function can take one); a list of integers is NumPy's int64 array.
    given = (Array.isArray(q) ? (q as unknown[]).flat(Infinity) : Array.from(q as ArrayLike<number>)).map(Number);
    integers = Array.isArray(q) ? given.every((v) => Number.isInteger(v)) : !isFloat(node.dtype);
  } else {
    if (tracingNow()) {
      throw new NotSupportedError(`${fn} reads q's values to know where to look, which a compiled function cannot do while it is traced; ` +
        'pass q as a number or a list, or compute the quantiles outside da.compile');
    }
    given = Array.from(valuesNow(fn, node));
    integers = !isFloat(node.dtype);
  }
  const dtype = node.dtype === 'float32' ? 'float32' : 'float64';
  const r: Round = dtype === 'float32' ? Math.fround : EXACT;
  // percentile: np.true_divide(q, 100) in q's float dtype (an integer q gives float64).
  const values = given.map((v) => (scale === 1 ? v : r(v / scale)));
  return { values, given, shape: node.shape, weak: false, integers: scale === 1 && integers, dtype };
}

function quantiles(fn: string, x: Operand, q: Operand, options: QuantileOptions | undefined, scale: number, skipNaN = false): DeferredArray {
  const o = checkOptionKeys<QuantileOptions>(fn, options, ['axis', 'keepdims', 'method', 'weights']);
  const method = o.method ?? 'linear';
  if (!METHODS.includes(method)) throw new TypeError(`${fn}: method must be one of ${METHODS.join(', ')}; got ${String(method)}`);
  const weighted = o.weights !== undefined && o.weights !== null;
  if (weighted && method !== 'inverted_cdf') {
    throw new TypeError(`${fn}: weights need method 'inverted_cdf', the only one NumPy weighs; got method '${method}'`);
  }
  const a = asArray(x, fn);
  const qs = qsOf(fn, q, scale);
  // NumPy's check: 0 <= q <= 1 (NaN fails it).
  const bad = qs.values.findIndex((v) => !(v >= 0 && v <= 1));
  if (bad >= 0) {
    throw new RangeError(`${fn}: ${scale === 1 ? 'quantiles must be in [0, 1]' : 'percentiles must be in [0, 100]'}; got ${qs.given[bad]}`);
  }
  const l = linesOf(fn, a, o);
  const picks = qs.integers && method === 'linear' ? 'take' : method;
  if (a.dtype === 'bool' && picks in BLENDS) {
    throw new DTypeError(`${fn} of a bool array: NumPy's ${method} method subtracts booleans, which it refuses; use astype('int32') first`);
  }
  // Integers hold no NaN: NumPy's nan variants are the plain ones there.
  const nan = skipNaN && isFloat(a.dtype);
  if (l.n === 0 && !nan) throw new ShapeError(`${fn} of an empty array (the reduced axes hold no element): NumPy raises IndexError too`);
  // Lines with nothing in them give NaN (NumPy: nanmean of an empty slice).
  const empty = (): DeferredArray => full(l.shape, NaN, { dtype: qs.weak ? a.dtype : promoteTypes(a.dtype, qs.dtype) });
  let each: DeferredArray[];
  if (weighted) {
    each = weightedQuantiles(fn, a, o.weights!, o.axis, { linesOf: (v) => linesOf(fn, v, o).lines, n: l.n, shape: l.shape }, qs.values, qs.dtype, nan);
  } else if (nan) {
    const sorted = l.n === 0 ? undefined : sortedOf(l);
    each = qs.values.map((v) => (sorted ? oneSkippingNaN(sorted, v, picks, qs, a.dtype) : empty()));
  } else {
    const plans = qs.values.map((v) => one(l.n, v, picks, qs));
    const at = selecting(l, [...plans.flatMap((p) => p.positions), ...(isFloat(a.dtype) ? [l.n - 1] : [])]);
    each = plans.map((p) => withNaN(at, l.n, p.value(at), a.dtype));
  }
  const outer = qs.shape ?? [];
  let r = qs.shape === undefined ? each[0]! : shaping.reshape(shaping.stack(each, { axis: 0 }), [...outer, ...l.shape]);
  if (o.keepdims) r = shaping.reshape(r, [...outer, ...l.kept]);
  return r;
}

/** NumPy's nanquantile: quantile of each line without its NaNs; NaN where a line holds nothing else. */
function nanquantile(x: Operand, q: Operand, options?: QuantileOptions): DeferredArray {
  return quantiles('nanquantile', x, q, options, 1, true);
}

/** NumPy's nanpercentile: nanquantile at q / 100. */
function nanpercentile(x: Operand, q: Operand, options?: QuantileOptions): DeferredArray {
  return quantiles('nanpercentile', x, q, options, 100, true);
}

/**
 * One quantile of each line over its elements that are not NaN (sorted
 * first, NaN last): NumPy's _nanquantile_1d, the line's length its count of
 * numbers, so every index and gamma is an array, one per line, computed in
 * the dtype NumPy computes it in (q's float dtype; float64 for a lone q).
 */
function oneSkippingNaN(l: SortedLines, q: number, method: QuantileMethod | 'take', qs: Qs, dtype: DType): DeferredArray {
  const cdt = qs.weak ? 'float64' : qs.dtype;
  const r: Round = cdt === 'float32' ? Math.fround : EXACT;
  const c = (v: number): DeferredArray => wrapNode(scalar(v, cdt));
  const count = shaping.astype(UFUNCS.logicalNot(isnan(l.sorted)), cdt).sum({ axis: -1 });
  const last = subtract(count, c(1));
  const none = UFUNCS.equal(count, c(0));
  // An all-NaN line picks position 0, then gives NaN.
  const pick = (pos: DeferredArray): DeferredArray => alongLines(l, UFUNCS.maximum(pos, c(0)));
  const finish = (v: DeferredArray): DeferredArray => where(none, wrapNode(scalar(NaN, v.dtype)), v);
  if (method === 'take') return finish(pick(multiply(last, c(q))));
  if (method === 'lower' || method === 'higher' || method === 'nearest') {
    const v = multiply(last, c(q));
    return finish(pick(method === 'lower' ? UFUNCS.floor(v) : method === 'higher' ? UFUNCS.ceil(v) : UFUNCS.round(v)));
  }
  if (method === 'inverted_cdf' || method === 'closest_observation') {
    // discrete() over each line's count: the floor where the condition holds, else the next.
    const below = subtract(multiply(count, c(q)), c(1));
    const index = method === 'inverted_cdf' ? below : subtract(below, c(0.5));
    const previous = UFUNCS.floor(index);
    const whole = UFUNCS.equal(subtract(index, previous), c(0));
    const atFloor = method === 'inverted_cdf' ? whole : UFUNCS.logicalAnd(whole, UFUNCS.equal(UFUNCS.mod(previous, c(2)), c(1)));
    return finish(pick(where(atFloor, previous, add(previous, c(1)))));
  }
  let vi: DeferredArray;
  if (method === 'linear') vi = multiply(last, c(q));
  else if (method === 'averaged_inverted_cdf') vi = subtract(multiply(count, c(q)), c(1));
  else if (method === 'midpoint') {
    const v = multiply(last, c(q));
    vi = multiply(c(0.5), add(UFUNCS.floor(v), UFUNCS.ceil(v)));
  } else {
    const [alpha, beta] = PLOTTING[method as keyof typeof PLOTTING];
    vi = subtract(add(multiply(count, c(q)), c(plottingOffset(alpha, beta, q, r))), c(1));
  }
  const above = UFUNCS.greaterEqual(vi, last);
  const below = UFUNCS.less(vi, c(0));
  const floor = UFUNCS.floor(vi);
  const previous = where(above, c(-1), where(below, c(0), floor));
  const lo = where(above, last, where(below, c(0), floor));
  const hi = where(above, last, where(below, c(0), add(floor, c(1))));
  const raw = subtract(vi, previous);
  const gamma = method === 'midpoint' ? where(UFUNCS.equal(UFUNCS.fmod(vi, c(1)), c(0)), c(0), c(0.5))
    : method === 'averaged_inverted_cdf' ? where(UFUNCS.equal(raw, c(0)), c(0.5), c(1)) : raw;
  const a = pick(lo);
  const b = pick(hi);
  const diff = subtract(b, a);
  // A lone q's gamma is a Python float to NumPy: weak, so float32 data stay float32 (1 - t taken in double first).
  const t = qs.weak ? shaping.astype(gamma, dtype) : gamma;
  const rest = qs.weak ? shaping.astype(subtract(c(1), gamma), dtype) : subtract(c(1), gamma);
  return finish(where(UFUNCS.greaterEqual(gamma, c(0.5)), subtract(b, multiply(diff, rest)), add(a, multiply(diff, t))));
}

/** Each line's element at its own position (NumPy's take_along_axis on the sorted lines' last axis). */
function alongLines(l: SortedLines, positions: DeferredArray): DeferredArray {
  return takeAlongLines(l.sorted, l.shape, l.n, positions);
}

/**
 * One quantile of every line, by NumPy's method ('take': an integer q, whose
 * element linear picks): the sorted positions it reads, and its value from
 * the elements there.
 */
function one(n: number, q: number, method: QuantileMethod | 'take', qs: Qs): { readonly positions: readonly number[]; readonly value: (at: At) => DeferredArray } {
  const r: Round = qs.dtype === 'float32' ? Math.fround : EXACT;
  const single = (p: number): { positions: number[]; value: (at: At) => DeferredArray } => ({ positions: [p], value: (at) => at(p) });
  if (method === 'take') return single((n - 1) * q);
  if (method in PICKS) return single(PICKS[method as keyof typeof PICKS](n, q, r));
  const vi = BLENDS[method as keyof typeof BLENDS](n, q, r);
  // _get_indexes: the floor and the next; both the last element from the last on, both the first below it.
  const last = n - 1;
  let previous = Math.floor(vi);
  let next = previous + 1;
  if (vi >= r(last)) previous = next = -1;
  if (vi < 0) previous = next = 0;
  // _get_gamma: from the floor as moved (so past the end it is vi + 1, blending the last element with itself).
  const raw = r(vi - previous);
  const gamma = method === 'midpoint' ? (vi % 1 === 0 ? 0 : 0.5) : method === 'averaged_inverted_cdf' ? (raw === 0 ? 0.5 : 1) : raw;
  const lo = previous < 0 ? last : previous;
  const hi = next < 0 ? last : next;
  // averaged_inverted_cdf's gamma from an integer array q is an integer to NumPy (_get_gamma casts it to
  // the virtual index's dtype), so its blend is in the data's dtype promoted with int64.
  const integral = method === 'averaged_inverted_cdf' && qs.integers && !qs.weak;
  return { positions: [lo, hi], value: (at) => lerp(at(lo), at(hi), integral ? Math.trunc(gamma) : gamma, qs, integral) };
}

/**
 * NumPy's _lerp(a, b, t): a + (b - a) * t, or b - (b - a) * (1 - t) where
 * t >= 0.5. A lone q is a Python float to NumPy (weak: float data keep
 * their dtype, integers meet it in float64); q from an array is an array of
 * its float dtype (strong: the dtypes promote as NumPy's do), or of int64
 * where NumPy's gamma is an integer (`integerGamma`).
 */
function lerp(a: DeferredArray, b: DeferredArray, t: number, qs: Qs, integerGamma = false): DeferredArray {
  let diff = subtract(b, a);
  if (qs.weak && !isFloat(a.dtype)) {
    // The difference wraps in the integers' own dtype, as NumPy's; then everything meets the float in float64.
    diff = shaping.astype(diff, 'float64');
    a = shaping.astype(a, 'float64');
    b = shaping.astype(b, 'float64');
  }
  const r: Round = qs.dtype === 'float32' ? Math.fround : EXACT;
  const c = (v: number): Operand => (qs.weak ? v : wrapNode(scalar(v, integerGamma ? 'int64' : qs.dtype)));
  return t >= 0.5 ? subtract(b, multiply(diff, c(r(1 - t)))) : add(a, multiply(diff, c(t)));
}

function asArray(x: Operand, fn: string): DeferredArray {
  return x instanceof DeferredArray ? x : wrapNode(anyNode(x, fn));
}

export { median, nanmedian, quantile, percentile, nanquantile, nanpercentile };
export type { MedianOptions, QuantileOptions };
export type { QuantileMethod } from './quantile-methods.js';
