// NumPy's bincount and histogram. The length of a bincount and the edges of
// a histogram follow from the values, so, as nonzero does, each reads its
// operands' values when it is called: bincount its extremes (then counts in
// a deferred addAt), histogram everything, returning arrays whose values are
// known. histogram follows numpy/lib/_histograms_impl.py step by step, in
// the dtypes NumPy computes each step in (a float32 array's edges and bin
// positions in float32, say), so its counts and edges are NumPy's.
import { isBigInt, isFloat, isInteger } from '../ir/dtypes.js';
import { cast, scalar, source } from '../ir/build-elementwise.js';
import { reduce } from '../ir/build-reduce.js';
import { scatterAdd } from '../ir/build-scatter.js';
import type { Node } from '../ir/node.js';
import * as view from '../ir/build-view.js';
import { DTypeError, ShapeError } from '../ir/errors.js';
import { checkOptionKeys } from '../ir/options.js';
import { formatShape, sameShape } from '../ir/shape.js';
import type { Dense } from '../core/dense.js';
import { insertionPoint, stableOrder } from '../reference/sort.js';
import { pairwiseSum } from '../reference/reduce.js';
import { DeferredArray, wrapNode } from './deferred-array.js';
import type { StdNdarray } from '../util/stdlib.js';
import { denseNow } from './selection.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';

interface BincountOptions {
  /** One weight per element of x: the result sums them (float64) instead of counting. */
  readonly weights?: Operand;
  /** The result's least length (zeros past the largest value). */
  readonly minlength?: number;
}

/** Throws for the first of x's values that is not a bincount position: negative, or past 2^31 - 2. */
function checkBins(fn: string, d: Dense): void {
  const v = d.data as ArrayLike<number | bigint>;
  for (let i = 0; i < v.length; i++) {
    const e = Number(v[i]);
    if (e < 0) throw new RangeError(`${fn}: x must hold non-negative integers; got ${String(v[i])} at position ${i}`);
    if (e > 2 ** 31 - 2) throw new RangeError(`${fn}: x holds ${String(v[i])} at position ${i}, past the longest result this package makes (2^31 - 1 bins)`);
  }
}

/**
 * NumPy's bincount: how many times each non-negative integer occurs in the
 * 1-d x (int32), or its weights' sums (float64). x's least and greatest
 * values are read now (one reduction), to check them and to know the
 * result's length; the counting is a deferred add.at into zeros of that
 * length, in element order as NumPy adds.
 */
function bincount(x: Operand, options?: BincountOptions): DeferredArray {
  const o = checkOptionKeys<BincountOptions>('bincount', options, ['weights', 'minlength']);
  const n = anyNode(x, 'bincount');
  if (n.shape.length !== 1) throw new ShapeError(`bincount: x must be 1-d; got shape ${formatShape(n.shape)} (ravel it first)`);
  // NumPy casts x to intp safely: floats and uint64 are refused.
  if (!(isInteger(n.dtype) || n.dtype === 'bool')) {
    throw new DTypeError(`bincount: x must hold integers; got ${n.dtype}${isFloat(n.dtype) ? ": cast with astype('int32') if they are whole" : ''}`);
  }
  const minlength = o.minlength ?? 0;
  if (!Number.isInteger(minlength) || minlength < 0) throw new RangeError(`bincount: minlength must be a non-negative integer; got ${String(minlength)}`);
  const size = n.shape[0]!;
  const w = o.weights === undefined ? undefined : weightsOf('bincount', o.weights, size);
  let top = -1;
  // x computed once: a pending x runs now, and the count reads its values as a source.
  let ints: Node = n.dtype === 'bool' ? cast(n, 'uint8') : n;
  if (size > 0) {
    if (ints.op !== 'source') {
      const d = denseNow('bincount', ints);
      ints = source(d.data, d.shape, d.dtype);
    }
    const [least, greatest] = extremesNow('bincount', ints);
    // A value out of range: found again in order, to name the first.
    if (least < 0 || greatest > 2 ** 31 - 2) checkBins('bincount', denseNow('bincount', ints));
    top = greatest;
  }
  const length = Math.max(minlength, top + 1);
  const dtype = w ? 'float64' : 'int32';
  const bins = ints.dtype === 'int32' ? ints : cast(ints, 'int32');
  const zeros = view.broadcastTo(scalar(0, dtype), [length]);
  return wrapNode(scatterAdd(zeros, bins, w ?? view.broadcastTo(scalar(1, 'int32'), [size]), 'bincount'));
}

/** The least and greatest values of the non-empty x, read now (one fused reduction), as numbers. */
function extremesNow(fn: string, x: Node): [number, number] {
  const both = denseNow(fn, view.concat([reduce('min', x, { keepdims: true }), reduce('max', x, { keepdims: true })], 0));
  return [Number(both.data[0]), Number(both.data[1])];
}

/** Weights as a float64 array, one per element of a 1-d array of `length` (NumPy's cast to double). */
function weightsOf(fn: string, weights: Operand, length: number): Node {
  const wn = anyNode(weights, fn, 1);
  if (wn.shape.length !== 1 || wn.shape[0] !== length) {
    throw new ShapeError(`${fn}: weights must be 1-d and as long as x (${length}); got shape ${formatShape(wn.shape)}`);
  }
  return cast(wn, 'float64');
}

interface HistogramOptions {
  /** The number of equal bins (default 10), or their edges: an increasing 1-d array. */
  readonly bins?: number | Operand;
  /** The lower and upper edge of the equal bins (default the data's least and greatest values). */
  readonly range?: readonly [number, number];
  /** One weight per element: each bin sums its elements' weights instead of counting them. */
  readonly weights?: Operand;
  /** Divide by the total and the bins' widths, so the histogram integrates to 1 (float64). */
  readonly density?: boolean;
}

/** Elements per block, as NumPy's histogram counts (its weighted sums add block by block). */
const BLOCK = 65536;

/** Rounds as a dtype holds a float: float32 rounds, float64 is exact. */
const rounder = (d: 'float32' | 'float64'): ((v: number) => number) => (d === 'float32' ? Math.fround : (v) => v);

/**
 * NumPy's histogram: [counts, edges]. Counts are int32 (NumPy: int64) or,
 * with weights, the weights' dtype; edges float64, or float32 for a float32
 * array. Each bin holds the values from its left edge up to, not including,
 * its right one, but the last bin holds its right edge too.
 */
function histogram(a: Operand, options?: HistogramOptions): [DeferredArray, DeferredArray] {
  const o = checkOptionKeys<HistogramOptions>('histogram', options, ['bins', 'range', 'weights', 'density']);
  const an = anyNode(a, 'histogram');
  if (an.dtype === 'bool' || isBigInt(an.dtype)) {
    throw new DTypeError(`histogram: ${an.dtype} data is not supported; cast with astype('float64') (or astype('int32') for bools)`);
  }
  const d = denseNow('histogram', view.reshape(an, [-1], 'histogram'));
  let w: Float64Array | undefined;
  if (o.weights !== undefined) {
    const wn = anyNode(o.weights, 'histogram', 1);
    if (!sameShape(wn.shape, an.shape)) throw new ShapeError(`histogram: weights must have a's shape, ${formatShape(an.shape)}; got ${formatShape(wn.shape)}`);
    w = denseNow('histogram', weightsOf('histogram', wrapNode(view.reshape(wn, [-1], 'histogram')), d.data.length)).data as Float64Array;
  }
  let bins = o.bins ?? 10;
  // A 0-d array of bins is a count, as NumPy reads it.
  if (bins instanceof DeferredArray && bins.ndim === 0) bins = Number((bins.executeSync() as StdNdarray).get());
  const { counts, edges, edgeType, given, widths: ownWidths } = typeof bins === 'number' ? equalBins(d, bins, o.range, w) : givenBins(d, bins, w);
  const edgesArray = given ?? wrapNode(source(edges, [edges.length], edgeType));
  let hist = wrapNode(source(counts, [counts.length], w ? 'float64' : 'int32'));
  if (o.density) {
    // n / db / n.sum(), with db the bins' widths as float64 (np.diff of the edges).
    const widths = ownWidths ?? Float64Array.from({ length: edges.length - 1 }, (_, i) => edges[i + 1]! - edges[i]!);
    if (!ownWidths && edgeType === 'float32') for (let i = 0; i < widths.length; i++) widths[i] = Math.fround(edges[i + 1]! - edges[i]!);
    // n.sum() as NumPy sums it (pairwise), worked out here: a kernel's sum may add in another order.
    const total = w ? pairwiseSum(counts, 0, counts.length, (v) => v) : (counts as Int32Array).reduce((p, v) => p + v, 0);
    hist = hist.div(wrapNode(source(widths, [widths.length], 'float64'))).div(total);
  }
  return [hist, edgesArray];
}

/** The outer edges as NumPy's _get_outer_edges finds them, and whether they are the data's own (numpy scalars) or given (Python numbers). */
function outerEdges(d: Dense, range: readonly [number, number] | undefined): { first: number; last: number; given: boolean } {
  const v = d.data as ArrayLike<number>;
  let first: number;
  let last: number;
  if (range !== undefined) {
    if (!Array.isArray(range) || range.length !== 2) throw new TypeError(`histogram: range must be [lower, upper]; got ${String(range)}`);
    [first, last] = range;
    if (first > last) throw new RangeError('histogram: range must have its lower edge first (max must be larger than min)');
    if (!Number.isFinite(first) || !Number.isFinite(last)) throw new RangeError(`histogram: the range given, [${first}, ${last}], is not finite`);
  } else if (v.length === 0) {
    [first, last] = [0, 1];
  } else {
    first = Infinity;
    last = -Infinity;
    let nan = false;
    for (let i = 0; i < v.length; i++) {
      const e = v[i]!;
      if (e !== e) nan = true;
      if (e < first) first = e;
      if (e > last) last = e;
    }
    if (nan || !Number.isFinite(first) || !Number.isFinite(last)) {
      throw new RangeError(`histogram: the range found in the data, [${nan ? 'nan' : first}, ${nan ? 'nan' : last}], is not finite; give range, or drop the non-finite values`);
    }
  }
  const own = range === undefined && v.length > 0;
  if (first === last) {
    // A float32 array's own edges are float32 scalars, shifted in float32.
    const r = own && d.dtype === 'float32' ? Math.fround : (x: number): number => x;
    first = r(first - 0.5);
    last = r(last + 0.5);
  }
  return { first, last, given: !own };
}

interface Counted {
  readonly counts: Int32Array | Float64Array;
  readonly edges: Float64Array | Float32Array;
  readonly edgeType: 'float32' | 'float64';
  /** The edges as given (bins as an array), returned as they are. */
  readonly given?: DeferredArray;
  /** Given edges' widths, taken in the edges' own dtype (np.diff), then as float64. */
  readonly widths?: Float64Array;
}

/** Counts per bin from bin positions, block by block as NumPy's histogram adds them. */
function countInto(n: number, positionOf: (i: number) => number, length: number, w: Float64Array | undefined): Int32Array | Float64Array {
  if (!w) {
    const counts = new Int32Array(n);
    for (let i = 0; i < length; i++) {
      const p = positionOf(i);
      if (p >= 0) counts[p]!++;
    }
    return counts;
  }
  const total = new Float64Array(n);
  const block = new Float64Array(n);
  for (let start = 0; start < length; start += BLOCK) {
    block.fill(0);
    for (let i = start; i < Math.min(length, start + BLOCK); i++) {
      const p = positionOf(i);
      if (p >= 0) block[p] = block[p]! + w[i]!;
    }
    for (let k = 0; k < n; k++) total[k] = total[k]! + block[k]!;
  }
  return total;
}

function equalBins(d: Dense, bins: number, range: readonly [number, number] | undefined, w: Float64Array | undefined): Counted {
  if (!Number.isInteger(bins) || bins < 1) throw new RangeError(`histogram: bins must be a positive integer or an array of edges; got ${String(bins)}`);
  const { first, last, given } = outerEdges(d, range);
  const edgeType = d.dtype === 'float32' ? 'float32' : 'float64';
  // np.linspace(first, last, bins + 1): computed in float32 only from a float32 array's own edges, then cast to the edges' dtype.
  const lin = rounder(!given && d.dtype === 'float32' ? 'float32' : 'float64');
  const delta = lin(last - first);
  const step = lin(delta / bins);
  const edges = new (edgeType === 'float32' ? Float32Array : Float64Array)(bins + 1);
  for (let i = 0; i <= bins; i++) edges[i] = step === 0 ? lin(lin(lin(i / bins) * delta) + first) : lin(lin(i * step) + first);
  edges[bins] = last;
  for (let i = 0; i < bins; i++) {
    if (!(edges[i]! < edges[i + 1]!)) throw new RangeError(`histogram: too many bins for the data's range: cannot make ${bins} finite-sized bins`);
  }
  // The bin of each value in range: ((x - first) / (last - first)) * bins, in the dtypes NumPy computes them in.
  const v = d.data as ArrayLike<number>;
  const f32 = edgeType === 'float32';
  const inEdge = f32 ? Math.fround : (x: number): number => x;
  const [lo, hi] = [inEdge(first), inEdge(last)];
  // A float32 array's own edges keep every step in float32; given edges (Python numbers) divide by a float64 width.
  const denom = !given && f32 ? Math.fround(last - first) : last - first;
  const step1 = f32 ? Math.fround : (x: number): number => x;
  const step2 = f32 && !given ? Math.fround : (x: number): number => x;
  const positionOf = (i: number): number => {
    const x = v[i]!;
    if (!(x >= lo && x <= hi)) return -1;
    const t = inEdge(x);
    let p = Math.trunc(step2(step2(step1(t - first) / denom) * bins));
    if (p === bins) p--;
    if (t < edges[p]!) p--;
    if (t >= edges[p + 1]! && p !== bins - 1) p++;
    return p;
  };
  return { counts: countInto(bins, positionOf, v.length, w), edges, edgeType };
}

/** Counts between edges given as an array (NumPy ignores range then). */
function givenBins(d: Dense, bins: Operand, w: Float64Array | undefined): Counted {
  const bn = anyNode(bins, 'histogram', 1);
  if (bn.shape.length !== 1) throw new ShapeError(`histogram: bins as edges must be 1-d; got shape ${formatShape(bn.shape)}`);
  const edgeType = bn.dtype === 'float32' && d.dtype === 'float32' ? 'float32' : 'float64';
  const edges = denseNow('histogram', cast(bn, edgeType)).data as Float64Array | Float32Array;
  for (let i = 0; i + 1 < edges.length; i++) {
    if (edges[i]! > edges[i + 1]!) throw new RangeError('histogram: bins given as edges must increase monotonically');
  }
  // NumPy: per block, the values sorted and the edges searched in them (the last edge inclusive); counts are the differences.
  const v = d.data as ArrayLike<number>;
  const n = edges.length - 1;
  const cum = new Float64Array(edges.length);
  for (let start = 0; start < v.length; start += BLOCK) {
    const part = Float64Array.from({ length: Math.min(v.length, start + BLOCK) - start }, (_, i) => v[start + i]!);
    const order = stableOrder(part, 'float64');
    const sorted = Float64Array.from(order, (k) => part[k]!);
    const weightsSum = w ? cumulative(order, w, start) : undefined;
    for (let e = 0; e < edges.length; e++) {
      const at = insertionPoint(sorted, edges[e]!, e === edges.length - 1);
      cum[e] = cum[e]! + (weightsSum ? weightsSum[at]! : at);
    }
  }
  const counts = w ? new Float64Array(Math.max(n, 0)) : new Int32Array(Math.max(n, 0));
  for (let i = 0; i < n; i++) counts[i] = cum[i + 1]! - cum[i]!;
  const own = denseNow('histogram', bn).data as ArrayLike<number | bigint>;
  const r = bn.dtype === 'float32' ? Math.fround : (v: number): number => v;
  const widths = Float64Array.from({ length: Math.max(n, 0) }, (_, i) => r(Number(own[i + 1]!) - Number(own[i]!)));
  return { counts, edges, edgeType, given: wrapNode(bn), widths };
}

/** The sorted block's weights summed cumulatively from 0 (NumPy's concatenate((0, sw.cumsum()))). */
function cumulative(order: Int32Array, w: Float64Array, start: number): Float64Array {
  const out = new Float64Array(order.length + 1);
  for (let k = 0; k < order.length; k++) out[k + 1] = out[k]! + w[start + order[k]!]!;
  return out;
}

export { bincount, histogram };
export type { BincountOptions, HistogramOptions };
