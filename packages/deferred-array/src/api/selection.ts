// NumPy's integer and boolean indexing: take, x.get(indices), x.get(mask),
// compress, nonzero and x.set(mask, v), all reduced to one op, take.
//
// A boolean selection's shape is its number of true elements, a fact about
// the data. So that every shape is still known when an array is defined (and
// shape errors are raised there), the functions that need it read the mask's
// values when they are called: they run the mask's pending graph then, as
// executeSync() would. What they select from stays deferred and is gathered
// when it runs. Integer indices need no values (the result has their shape),
// and x.set(mask, scalar) needs none either: it is a fused where().
import { dtypeInfo, isBigInt } from '../ir/dtypes.js';
import type { TypedArray } from '../ir/dtypes.js';
import type { Dense } from '../core/dense.js';
import { readsMapped } from '../ir/mapped.js';
import { isInteger } from '../ir/dtypes.js';
import { NotSupportedError, ShapeError } from '../ir/errors.js';
import { resolveTake, take as takeNode } from '../ir/build-gather.js';
import { source } from '../ir/build-elementwise.js';
import type { TakeMode } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import { checkOptionKeys } from '../ir/options.js';
import { contiguousStrides, formatShape, normalizeAxis, sameShape, sizeOf } from '../ir/shape.js';
import { tracingNow } from '../ir/symbols.js';
import * as view from '../ir/build-view.js';
import { DeferredArray, nodeOf, wrapNode } from './deferred-array.js';
import { where } from './functions.js';
import { writeInPlace } from './in-place.js';
import type { StdNdarray } from '../util/stdlib.js';
import type { IndexArg } from '../ir/indexing.js';
import * as shaping from './shaping.js';
import { sourceFrom } from './operand.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';

interface TakeOptions {
  /** The axis picked along; null (the default) takes from the array flattened. */
  readonly axis?: number | null;
  /** An index outside the axis: 'raise' (an error), 'wrap' or 'clip'. */
  readonly mode?: TakeMode;
}


const int32Source = (values: ArrayLike<number>, shape: readonly number[] = [values.length]): Node =>
  source(Int32Array.from(values), shape, 'int32');

/** A JS number that is a whole number in int32's range. */
const isInt32 = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31;

/**
 * Indices as take reads them. JS numbers (one, or nested lists of them) that
 * are all whole numbers in int32's range are int32 indices, as NumPy reads
 * Python ints (a JS number is otherwise float64, which take refuses, as
 * NumPy refuses float indices); anything else as any operand.
 */
function indexNode(indices: Operand): Node {
  if (isInt32(indices)) return int32Source([indices as number], []);
  if (Array.isArray(indices) && (indices.flat(Infinity) as unknown[]).every(isInt32)) return sourceFrom(indices, 'int32');
  return anyNode(indices, 'take', 1);
}

/** NumPy's take: x's elements at `indices` along `axis` (of x flattened by default). Deferred; out-of-range indices fail when it runs. */
function take(x: Operand, indices: Operand, options?: TakeOptions): DeferredArray {
  const o = checkOptionKeys<TakeOptions>('take', options, ['axis', 'mode']);
  return wrapNode(takeNode(anyNode(x, 'take'), indexNode(indices), o.axis ?? null, o.mode ?? 'raise'));
}

/**
 * The values of `x` now, row-major (bools as 0/1): its pending graph runs.
 * Refused while a compiled function is traced, where there are no values.
 */
function valuesNow(fn: string, x: Node): ArrayLike<number> {
  if (tracingNow()) {
    throw new NotSupportedError(`${fn} reads its mask's values to know the result's shape, which a compiled function cannot do ` +
      'while it is traced; select outside da.compile, or use da.where(mask, x, fill), whose shape is known');
  }
  if (readsMapped([x])) {
    throw new NotSupportedError(`${fn} reads its mask's values when the selection is made, at once; this mask reads an array loaded with mmapMode or from fromZarr, ` +
      'whose values are read only by an await: compute the mask first (await mask.execute()) and select with that, or use da.where(mask, x, fill)');
  }
  const nd = wrapNode(x.dtype === 'bool' ? makeUint8(x) : x).executeSync() as StdNdarray;
  const contiguous = nd.offset === 0 && sameShape(nd.strides, contiguousStrides(nd.shape));
  // int64 and uint64 values as numbers: indices and counts past 2^53 are out of any range anyway, and zero stays zero.
  if (contiguous && !isBigInt(x.dtype)) return nd.data as ArrayLike<number>;
  return Array.from({ length: sizeOf(nd.shape) }, (_, i) => Number(nd.iget(i)));
}

/**
 * x's values now as a Dense of its own dtype, row-major and contiguous (bools
 * as 0/1 bytes, int64 as bigints), for the functions whose results' shapes
 * are facts about the data. Refused where valuesNow is.
 */
function denseNow(fn: string, x: Node): Dense {
  if (tracingNow()) {
    throw new NotSupportedError(`${fn} reads its operands' values to know the result's length, which a compiled function cannot do while it is traced; call it outside da.compile`);
  }
  if (readsMapped([x])) {
    throw new NotSupportedError(`${fn} reads its operands' values when it is called; this one reads an array loaded with mmapMode or from fromZarr, ` +
      `whose values are read only by an await: compute it first (await x.execute()) and pass that`);
  }
  // A source's values are the graph's own, row-major, never written: read where they lie, without a run and a copy.
  if (x.op === 'source' && !x.attrs.lease) return { dtype: x.dtype, shape: x.shape, data: x.attrs.data };
  const nd = wrapNode(x.dtype === 'bool' ? makeUint8(x) : x).executeSync() as StdNdarray;
  const contiguous = nd.offset === 0 && sameShape(nd.strides, contiguousStrides(nd.shape));
  if (contiguous && ArrayBuffer.isView(nd.data)) return { dtype: x.dtype, shape: x.shape, data: nd.data as TypedArray };
  const ctor = dtypeInfo(x.dtype).ctor as unknown as { from(v: ArrayLike<unknown>): TypedArray };
  return { dtype: x.dtype, shape: x.shape, data: ctor.from(Array.from({ length: sizeOf(nd.shape) }, (_, i) => nd.iget(i))) };
}

const makeUint8 = (x: Node): Node => nodeOf(wrapNode(x).astype('uint8'));

/** Flat positions of the nonzero elements, in row-major order. */
function nonzeroFlat(data: ArrayLike<number>): Int32Array {
  let count = 0;
  for (let i = 0; i < data.length; i++) if (data[i] !== 0) count++;
  const out = new Int32Array(count);
  let k = 0;
  for (let i = 0; i < data.length; i++) if (data[i] !== 0) out[k++] = i;
  return out;
}

/** NumPy's nonzero: one int32 array per axis, the coordinates of x's nonzero elements. Reads x's values now. */
function nonzero(x: Operand): DeferredArray[] {
  const a = anyNode(x, 'nonzero');
  if (a.shape.length === 0) {
    throw new ShapeError('nonzero: a 0-d array has no coordinates (NumPy 2 refuses it too); use nonzero(x.reshape([1]))');
  }
  const data = valuesNow('nonzero', a);
  const flat = nonzeroFlat(data);
  const strides = contiguousStrides(a.shape);
  return a.shape.map((d, axis) => wrapNode(int32Source(Array.from(flat, (p) => Math.floor(p / strides[axis]!) % d))));
}

/**
 * NumPy's compress: the slices of x along `axis` (x flattened by default)
 * where `condition` is true. condition is 1-D and may be shorter than the
 * axis. Reads condition's values now.
 */
function compress(condition: Operand, x: Operand, options?: { axis?: number | null }): DeferredArray {
  const o = checkOptionKeys<{ axis: number | null }>('compress', options, ['axis']);
  const c = anyNode(condition, 'compress', 0);
  if (c.shape.length !== 1) throw new ShapeError(`compress: condition must be 1-D; got shape ${formatShape(c.shape)}`);
  let a = anyNode(x, 'compress', 1);
  if (o.axis === undefined || o.axis === null) a = view.reshape(a, [-1], 'compress');
  const axis = normalizeAxis(o.axis ?? 0, a.shape.length, 'compress: axis');
  const picks = nonzeroFlat(valuesNow('compress', c));
  const n = a.shape[axis]!;
  const beyond = picks.find((p) => p >= n);
  if (beyond !== undefined) {
    throw new ShapeError(`compress: condition is true at ${beyond}, past the end of axis ${axis} (length ${n})`);
  }
  return wrapNode(takeNode(a, int32Source(picks), axis));
}

/** Checks that a mask's shape is x's leading axes (NumPy's boolean index). */
function checkMask(fn: string, mask: Node, x: Node): void {
  const k = mask.shape.length;
  if (k === 0 || k > x.shape.length || !sameShape(mask.shape, x.shape.slice(0, k))) {
    throw new ShapeError(`${fn}: a boolean mask must have the shape of the array or of its leading axes; ` +
      `got mask ${formatShape(mask.shape)} for array ${formatShape(x.shape)}`);
  }
}

/** x[mask]: the elements (or sub-arrays) where mask is true, as one axis. Reads mask's values now. */
function selectMask(x: Operand, mask: Node): DeferredArray {
  const a = anyNode(x, 'get');
  checkMask('get', mask, a);
  const k = mask.shape.length;
  const flat = view.reshape(a, [sizeOf(mask.shape), ...a.shape.slice(k)], 'get');
  return wrapNode(takeNode(flat, int32Source(nonzeroFlat(valuesNow('get', mask))), 0));
}

/** x[indices]: NumPy's integer array index on the first axis. Deferred. */
function selectIndices(x: Operand, indices: Node): DeferredArray {
  const a = anyNode(x, 'get');
  if (a.shape.length === 0) throw new ShapeError('get: a 0-d array cannot be indexed by an array');
  return wrapNode(takeNode(a, indices, 0));
}

/** x.get(...): basic indexing (a view), or with one array, a bool mask or integer indices (a copy). */
function get(x: Operand, ...index: Array<IndexArg | DeferredArray>): DeferredArray {
  if (index.length === 1 && index[0] instanceof DeferredArray) return getByArray(x, index[0]);
  if (index.some((i) => i instanceof DeferredArray)) {
    throw new TypeError('get: an array index must be the only index (a bool mask or integer indices); combine it with slices by slicing first');
  }
  return shaping.get(x, ...(index as IndexArg[]));
}

/** x.get(arr): a bool array selects, an integer array takes along the first axis. */
function getByArray(x: Operand, index: DeferredArray): DeferredArray {
  const n = nodeOf(index);
  if (n.dtype === 'bool') return selectMask(x, n);
  if (isInteger(n.dtype)) return selectIndices(x, n);
  throw new TypeError(`get: an array index must be bool (a mask) or integer (indices); got ${n.dtype}`);
}

/**
 * x.set(indices, v) with integer indices, NumPy's x[indices] = v: the rows of
 * x along its first axis that the indices name take v (broadcast to
 * indices.shape + x.shape[1:]); where an index repeats, the last write wins,
 * as in NumPy. The indices are read now, as a mask's values are.
 */
function setIndices(x: DeferredArray, indices: DeferredArray, v: Operand): DeferredArray {
  const ix = nodeOf(indices);
  const a = nodeOf(x);
  if (a.shape.length === 0) throw new ShapeError('set: a 0-d array cannot be indexed by an array');
  const n = a.shape[0]!;
  const rest = a.shape.slice(1);
  const values = valuesNow('set', ix);
  // For each row, the last index naming it (or -1): that index's part of v is what the row takes.
  const last = new Int32Array(n).fill(-1);
  for (let k = 0; k < values.length; k++) {
    const row = resolveTake(values[k]!, n, 'raise');
    if (row === undefined) throw new RangeError(`set: index ${values[k]!} is out of bounds for axis 0 with size ${n}`);
    last[row] = k;
  }
  const value = anyNode(v, 'set', 1);
  const spread = view.reshape(view.broadcastTo(value, [...ix.shape, ...rest]), [values.length, ...rest], 'set');
  if (values.length === 0) return x;
  const written = source(Uint8Array.from(last, (k) => (k >= 0 ? 1 : 0)), [n, ...rest.map(() => 1)], 'bool');
  const rows = new Int32Array(n);
  for (let r = 0; r < n; r++) rows[r] = Math.max(last[r]!, 0);
  const gathered = takeNode(spread, source(rows, [n], 'int32'), 0);
  return writeInPlace(x, 'assign', where(wrapNode(written), wrapNode(gathered), x));
}

/**
 * x[mask] = v, in place. A scalar (a JS value or a 0-d array) is where(mask, v, x)
 * and reads no values; an array v, broadcast to x[mask]'s shape, is spread over
 * the true positions, which are read now.
 */
function setMask(x: DeferredArray, mask: DeferredArray, v: Operand): DeferredArray {
  const m = nodeOf(mask);
  const a = nodeOf(x);
  if (isInteger(m.dtype)) return setIndices(x, mask, v);
  if (m.dtype !== 'bool') throw new TypeError(`set: an array index must be a bool mask or integer indices; got ${m.dtype}`);
  checkMask('set', m, a);
  const rest = a.shape.slice(m.shape.length);
  const wide = view.reshape(m, [...m.shape, ...rest.map(() => 1)], 'set');
  const value = anyNode(v, 'set', 1);
  if (value.shape.length === 0) return writeInPlace(x, 'assign', where(wrapNode(wide), wrapNode(value), x));
  const picks = nonzeroFlat(valuesNow('set', m));
  const target = [picks.length, ...rest];
  const spread = view.broadcastTo(value, target);
  if (picks.length === 0) return x;
  // Each true position reads its rank among the true positions: v's row of that rank.
  const rank = new Int32Array(sizeOf(m.shape));
  picks.forEach((p, r) => { rank[p] = r; });
  const gathered = takeNode(spread, source(rank, m.shape, 'int32'), 0);
  return writeInPlace(x, 'assign', where(wrapNode(wide), wrapNode(gathered), x));
}

/** The per-element form of repeat: each index along the axis, `counts[i]` times. */
function repeatIndices(counts: readonly number[]): Node {
  const out: number[] = [];
  counts.forEach((c, i) => { for (let k = 0; k < c; k++) out.push(i); });
  return int32Source(out);
}

export { take, nonzero, compress, get, setMask, repeatIndices, valuesNow, denseNow };
export type { TakeOptions };
