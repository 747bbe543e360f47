// NumPy's matrix constructors and their kin, built from the package's own
// operations (a comparison of two broadcast ranges, a where, a take), so
// they fuse with what reads them: eye, identity, tri, tril, triu, diag,
// diagonal, meshgrid and indices. (NumPy's trace is diagonal(x).sum(-1)
// here: da.trace is the execution trace.)
import { checkDType } from '../ir/dtypes.js';
import type { DType } from '../ir/dtypes.js';
import { ShapeError } from '../ir/errors.js';
import { checkOptionKeys } from '../ir/options.js';
import { formatShape, normalizeAxis } from '../ir/shape.js';
import { arange, array, zeros } from './creation.js';
import { DeferredArray, wrapNode } from './deferred-array.js';
import { where } from './functions.js';
import { describe, integer } from './operand.js';
import { take } from './selection.js';
import { broadcastTo, concat, reshape, stack, transpose } from './shaping.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';

const count = (fn: string, what: string, v: unknown): number => integer(fn, what, v, 0);

/** An offset from the main diagonal: 0 when not given. */
const offset = (fn: string, what: string, v: unknown): number => (v === undefined ? 0 : integer(fn, what, v));

const dtypeOf = (fn: string, v: unknown): DType => (v === undefined ? 'float64' : checkDType(v, `${fn}: option dtype`));

/** k moved into [-n - 1, m + 1], where every k beyond gives the same answer: the ranges it is added to stay int32. */
const clampOffset = (k: number, n: number, m: number): number => Math.min(Math.max(k, -n - 1), m + 1);

/** True where column j <= row i + k, an (n, m) bool array (NumPy's tri, as a mask). */
function lowerMask(n: number, m: number, k: number): DeferredArray {
  return arange(m).reshape([1, m]).le(arange(n).reshape([n, 1]).add(clampOffset(k, n, m)));
}

/** A 0-d zero of x's dtype (false for bool): what where() fills with, keeping x's dtype as NumPy does. */
const zeroOf = (x: DeferredArray): DeferredArray => zeros([], { dtype: x.dtype });

/** NumPy's eye: an (n, m) array with ones on diagonal k and zeros elsewhere. */
function eye(n: number, m?: number | null, options?: { k?: number; dtype?: DType }): DeferredArray {
  const o = checkOptionKeys<{ k: number; dtype: DType }>('eye', options, ['k', 'dtype']);
  const rows = count('eye', 'n', n);
  const cols = m === undefined || m === null ? rows : count('eye', 'm', m);
  const k = clampOffset(offset('eye', 'option k', o.k), rows, cols);
  return arange(rows).reshape([rows, 1]).add(k).eq(arange(cols).reshape([1, cols])).astype(dtypeOf('eye', o.dtype));
}

/** NumPy's identity: the (n, n) identity matrix. */
function identity(n: number, options?: { dtype?: DType }): DeferredArray {
  const o = checkOptionKeys<{ dtype: DType }>('identity', options, ['dtype']);
  return eye(n, n, o.dtype === undefined ? {} : { dtype: o.dtype });
}

/** NumPy's tri: an (n, m) array with ones at and below diagonal k. */
function tri(n: number, m?: number | null, options?: { k?: number; dtype?: DType }): DeferredArray {
  const o = checkOptionKeys<{ k: number; dtype: DType }>('tri', options, ['k', 'dtype']);
  const rows = count('tri', 'n', n);
  const cols = m === undefined || m === null ? rows : count('tri', 'm', m);
  return lowerMask(rows, cols, offset('tri', 'option k', o.k)).astype(dtypeOf('tri', o.dtype));
}

/** The last two lengths of `x`, which must have two axes at least. */
function matrixShape(fn: string, x: DeferredArray): [number, number] {
  if (x.ndim < 2) throw new ShapeError(`${fn}: the array must have two axes at least (for NumPy's ${fn} of a 1-d v, broadcast it first: da.${fn}(da.broadcastTo(v, [n, n]))); got shape ${formatShape(x.shape)}`);
  return [x.shape[x.ndim - 2]!, x.shape[x.ndim - 1]!];
}

/** NumPy's tril: `x` with the elements above diagonal k zeroed (over the last two axes). */
function tril(x: Operand, options?: { k?: number }): DeferredArray {
  const o = checkOptionKeys<{ k: number }>('tril', options, ['k']);
  const a = wrapNode(anyNode(x, 'tril'));
  const [n, m] = matrixShape('tril', a);
  return where(lowerMask(n, m, offset('tril', 'option k', o.k)), a, zeroOf(a));
}

/** NumPy's triu: `x` with the elements below diagonal k zeroed (over the last two axes). */
function triu(x: Operand, options?: { k?: number }): DeferredArray {
  const o = checkOptionKeys<{ k: number }>('triu', options, ['k']);
  const a = wrapNode(anyNode(x, 'triu'));
  const [n, m] = matrixShape('triu', a);
  return where(lowerMask(n, m, offset('triu', 'option k', o.k) - 1), zeroOf(a), a);
}

interface DiagonalOptions {
  readonly offset?: number;
  readonly axis1?: number;
  readonly axis2?: number;
}

/**
 * NumPy's diagonal: the elements a[..., i, i + offset] of the plane of axes
 * axis1 and axis2 (0 and 1 by default), as the last axis of the result, the
 * other axes before it in their order.
 */
function diagonal(x: Operand, options?: DiagonalOptions): DeferredArray {
  const o = checkOptionKeys<{ offset: number; axis1: number; axis2: number }>('diagonal', options, ['offset', 'axis1', 'axis2']);
  const a = wrapNode(anyNode(x, 'diagonal'));
  if (a.ndim < 2) throw new ShapeError(`diagonal: the array must have two axes at least; got shape ${formatShape(a.shape)}`);
  const axis1 = normalizeAxis(o.axis1 ?? 0, a.ndim, 'diagonal: option axis1');
  const axis2 = normalizeAxis(o.axis2 ?? 1, a.ndim, 'diagonal: option axis2');
  if (axis1 === axis2) throw new ShapeError(`diagonal: axis1 and axis2 must differ; both are ${axis1}`);
  const k = offset('diagonal', 'option offset', o.offset);
  const rest = a.shape.map((_, i) => i).filter((i) => i !== axis1 && i !== axis2);
  const [n, m] = [a.shape[axis1]!, a.shape[axis2]!];
  const length = Math.max(0, k >= 0 ? Math.min(n, m - k) : Math.min(n + k, m));
  // The plane flattened last, then its diagonal taken: element i at (i + r0) * m + (i + c0).
  const plane = reshape(transpose(a, [...rest, axis1, axis2]), [...rest.map((i) => a.shape[i]!), n * m]);
  const [r0, c0] = [Math.max(-k, 0), Math.max(k, 0)];
  const at = Int32Array.from({ length }, (_, i) => (i + r0) * m + i + c0);
  return take(plane, array(Array.from(at), { dtype: 'int32' }), { axis: plane.ndim - 1 });
}

/**
 * NumPy's diag: of a 1-d array, the square array with it on diagonal k and
 * zeros elsewhere; of a 2-d array, its diagonal k.
 */
function diag(v: Operand, options?: { k?: number }): DeferredArray {
  const o = checkOptionKeys<{ k: number }>('diag', options, ['k']);
  const a = wrapNode(anyNode(v, 'diag'));
  const k = offset('diag', 'option k', o.k);
  if (a.ndim === 2) return diagonal(a, { offset: k });
  if (a.ndim !== 1) throw new ShapeError(`diag: the array must have one axis (to make a matrix) or two (to take a diagonal); got shape ${formatShape(a.shape)}`);
  const size = a.size + Math.abs(k);
  const pad = zeros([Math.abs(k)], { dtype: a.dtype });
  // Row r holds v[r] (k >= 0) or v[r - |k|] (k < 0) on the diagonal.
  const column = reshape(concat(k >= 0 ? [a, pad] : [pad, a]), [size, 1]);
  return where(eye(size, size, { k, dtype: 'bool' }), column, zeroOf(a));
}

/**
 * NumPy's meshgrid: coordinate arrays from 1-d coordinate vectors (others are
 * flattened), broadcast views of them. indexing 'xy' (the default, Cartesian)
 * swaps the first two axes of the grid; 'ij' (matrix) keeps them.
 */
function meshgrid(...args: Array<Operand | { indexing?: 'xy' | 'ij' }>): DeferredArray[] {
  const last = args[args.length - 1];
  const isOptions = typeof last === 'object' && last !== null && !(last instanceof DeferredArray) && !Array.isArray(last) && !ArrayBuffer.isView(last) && !('shape' in last);
  const o = checkOptionKeys<{ indexing: 'xy' | 'ij' }>('meshgrid', isOptions ? last : undefined, ['indexing']);
  const indexing = o.indexing ?? 'xy';
  if (indexing !== 'xy' && indexing !== 'ij') throw new TypeError(`meshgrid: option indexing must be 'xy' or 'ij'; got ${describe(indexing)}`);
  const xs = (isOptions ? args.slice(0, -1) : args).map((x, i) => reshape(wrapNode(anyNode(x as Operand, 'meshgrid', i)), [-1]));
  const lengths = xs.map((x) => x.size);
  const swap = indexing === 'xy' && xs.length >= 2;
  const shape = swap ? [lengths[1]!, lengths[0]!, ...lengths.slice(2)] : lengths;
  return xs.map((x, i) => {
    const axis = swap && i < 2 ? 1 - i : i;
    return broadcastTo(reshape(x, shape.map((d, j) => (j === axis ? d : 1))), shape);
  });
}

/** NumPy's indices: an array of shape (len(dims), ...dims), whose i-th entry holds each element's index along axis i. */
function indices(dims: readonly number[], options?: { dtype?: DType }): DeferredArray {
  const o = checkOptionKeys<{ dtype: DType }>('indices', options, ['dtype']);
  if (!Array.isArray(dims)) throw new TypeError(`indices: dims must be a list of lengths; got ${describe(dims)}`);
  const lengths = dims.map((d, i) => count('indices', `dims[${i}]`, d));
  const dtype = o.dtype === undefined ? 'int32' : checkDType(o.dtype, 'indices: option dtype');
  if (lengths.length === 0) return zeros([0], { dtype });
  return stack(lengths.map((d, i) => broadcastTo(reshape(arange(d).astype(dtype), lengths.map((e, j) => (j === i ? e : 1))), lengths)));
}

export { eye, identity, tri, tril, triu, diag, diagonal, meshgrid, indices };
export type { DiagonalOptions };
