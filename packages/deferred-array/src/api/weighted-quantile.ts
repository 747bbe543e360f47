// NumPy's weighted quantiles (the `weights` of quantile, percentile and their
// nan variants; numpy/lib/_function_base_impl.py, _quantile's weighted case),
// method 'inverted_cdf' alone as NumPy allows: each line sorted with its
// weights, their running sum in float64 divided by the line's total (the
// empirical distribution function, cast to q's float dtype), and the first
// element where it reaches q. NumPy checks the weights when it is called
// (none negative; each line's total finite and above zero), so these read
// the weights, and for the nan variants which elements are NaN, when called.
import { scalar, source } from '../ir/build-elementwise.js';
import { reducedAxes } from '../ir/build-reduce.js';
import { isFloat } from '../ir/dtypes.js';
import type { DType } from '../ir/dtypes.js';
import { NotSupportedError, ShapeError } from '../ir/errors.js';
import { readsMapped } from '../ir/mapped.js';
import { formatShape, sameShape } from '../ir/shape.js';
import { tracingNow } from '../ir/symbols.js';
import { DeferredArray, wrapNode } from './deferred-array.js';
import { full } from './creation.js';
import { UFUNCS, where } from './functions.js';
import { cumsum } from './scans.js';
import { take, valuesNow } from './selection.js';
import * as shaping from './shaping.js';
import { argsort } from './sorting.js';
import { anyNode } from './ufunc.js';
import { takeAlongLines } from './along-lines.js';
import type { Operand } from './ufunc.js';

const { add, divide, isnan, less, equal, logicalOr, minimum, maximum } = UFUNCS;

/** What the weighted quantiles need of quantiles.ts's lines: x's reduced axes moved last and merged. */
interface WeightedLines {
  /** Lines of `a` (or any array of a's shape): [...shape, n]. */
  readonly linesOf: (x: DeferredArray) => DeferredArray;
  readonly n: number;
  /** The lines' shape (the result's without q's axes). */
  readonly shape: readonly number[];
}

/**
 * Weights of a's shape, as NumPy's _weights_are_valid makes them: the same
 * shape as a, or (with `axis` given) the lengths of a along those axes in
 * the order given, broadcast along the others.
 */
function weightsLike(fn: string, a: DeferredArray, weights: Operand, axis: unknown): DeferredArray {
  const w = weights instanceof DeferredArray ? weights : wrapNode(anyNode(weights, fn, 1));
  if (sameShape(w.shape, a.shape)) return w;
  if (axis === undefined || axis === null) {
    throw new ShapeError(`${fn}: weights of shape ${formatShape(w.shape)} differ from a's ${formatShape(a.shape)}; ` +
      'give weights of a\'s shape, or give axis and weights of a\'s lengths along it (NumPy: "Axis must be specified when shapes of a and weights differ")');
  }
  reducedAxes(fn, axis, a.ndim);
  const given = (Array.isArray(axis) ? (axis as number[]) : [axis as number]).map((ax) => (ax < 0 ? ax + a.ndim : ax));
  const lengths = given.map((ax) => a.shape[ax]!);
  if (!sameShape(w.shape, lengths)) {
    throw new ShapeError(`${fn}: weights of shape ${formatShape(w.shape)} fit neither a's shape ${formatShape(a.shape)} nor its lengths ` +
      `${formatShape(lengths)} along axis ${JSON.stringify(axis)}`);
  }
  // Their axes in a's order, then a's other axes as 1 and broadcast.
  const order = [...given.keys()].sort((i, j) => given[i]! - given[j]!);
  const inOrder = shaping.transpose(w, order);
  return shaping.broadcastTo(shaping.reshape(inOrder, a.shape.map((d, ax) => (given.includes(ax) ? d : 1))), a.shape);
}

/** NumPy's checks of the weights, made now: none negative, and each line's total (over its numbers, for the nan variants) finite and above zero. */
function checkWeights(fn: string, w: DeferredArray, lines: DeferredArray, weightLines: DeferredArray, nan: boolean): void {
  if (tracingNow()) {
    throw new NotSupportedError(`${fn} checks its weights' values when called, as NumPy does, which a compiled function cannot do while it is traced; ` +
      'compute weighted quantiles outside da.compile');
  }
  if (readsMapped([anyNode(w, fn), anyNode(lines, fn)])) {
    throw new NotSupportedError(`${fn} checks its weights' values when called, as NumPy does; these read an array loaded with mmapMode or from fromZarr, ` +
      'whose values are read only by an await: compute them first (await x.execute()) and take the quantiles of that');
  }
  if (valuesNow(fn, anyNode(less(w, 0).any(), fn))[0]) throw new RangeError(`${fn}: weights must be non-negative (NumPy: "Weights must be non-negative.")`);
  const counted = nan ? where(isnan(lines), 0, weightLines) : weightLines;
  const totals = valuesNow(fn, anyNode(shaping.astype(counted, 'float64').sum({ axis: -1 }), fn));
  const numbers = nan ? valuesNow(fn, anyNode(UFUNCS.logicalNot(isnan(lines)).sum({ axis: -1 }), fn)) : undefined;
  for (let i = 0; i < totals.length; i++) {
    // A line of the nan variants with no numbers gives NaN, weights or none.
    if (numbers && numbers[i] === 0) continue;
    const t = totals[i]!;
    if (!(t > 0 && Number.isFinite(t))) {
      throw new RangeError(`${fn}: the weights of line ${i} ${t !== t ? 'include NaN' : t === 0 ? 'are all zero' : 'include inf'}` +
        `${nan ? ' (where its elements are not NaN)' : ''}; NumPy raises "Weights included NaN, inf or were all zero."`);
    }
  }
}

/**
 * The weighted inverted_cdf quantile of each line at each of `qs` (values in
 * [0, 1], in `qType`): NumPy's searchsorted(cdf, q, 'left') is the count of
 * the line's cdf values below q, where a leading run of zero weights (cdf 0,
 * which NumPy sets to -1) counts as below; the element there, or the last
 * one, in a's dtype; NaN where the line ends in NaN (or, for the nan
 * variants, holds no number).
 */
function weightedQuantiles(fn: string, a: DeferredArray, weights: Operand, axis: unknown, l: WeightedLines, qs: readonly number[], qType: 'float32' | 'float64', nan: boolean): DeferredArray[] {
  const w = weightsLike(fn, a, weights, axis);
  // Lines with no element (the nan variants'; the others refuse them first) hold no number: NaN.
  if (l.n === 0) return qs.map(() => full(l.shape, NaN, { dtype: a.dtype }));
  const lines = l.linesOf(a);
  const weightLines = l.linesOf(w);
  checkWeights(fn, w, lines, weightLines, nan);
  const order = argsort(lines, { axis: -1 });
  const along = (v: DeferredArray, positions: DeferredArray): DeferredArray => takeAlongLines(v, l.shape, l.n, positions);
  const sorted = along(lines, order);
  const nanAt = isFloat(a.dtype) ? isnan(sorted) : undefined;
  // nan variants: NaN elements (sorted last) leave with their weights.
  let w64 = shaping.astype(along(weightLines, order), 'float64');
  if (nan && nanAt) w64 = where(nanAt, 0, w64);
  const running = cumsum(w64, { axis: -1 });
  const lastIndex = wrapNode(source(Int32Array.of(l.n - 1), [1], 'int32'));
  let cdf = divide(running, take(running, lastIndex, { axis: -1 }));
  if (qType === 'float32') cdf = shaping.astype(cdf, 'float32');
  const c = (v: number, dtype: DType): DeferredArray => wrapNode(scalar(v, dtype));
  // The last position a quantile may take: the line's last element, or its last number.
  const numbers = nan && nanAt ? UFUNCS.logicalNot(nanAt).sum({ axis: -1 }) : undefined;
  const lastAt = numbers ? maximum(add(numbers, -1), c(0, 'int32')) : c(l.n - 1, 'int32');
  const lastOf = (v: DeferredArray): DeferredArray => take(v, lastIndex, { axis: -1 }).reshape([...l.shape]);
  return qs.map((q) => {
    const below = logicalOr(less(cdf, c(q, qType)), equal(cdf, c(0, qType))).sum({ axis: -1 });
    let r = along(sorted, minimum(below, lastAt));
    if (numbers) r = where(equal(numbers, 0), c(NaN, a.dtype), r);
    else if (nanAt) r = where(lastOf(nanAt), lastOf(sorted), r);
    return r;
  });
}


export { weightedQuantiles };
export type { WeightedLines };
