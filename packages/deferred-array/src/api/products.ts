// NumPy's kron and cross, and array_equal: elementwise work over broadcast
// views, written in the order NumPy computes them, so the bits are NumPy's.
import { ShapeError } from '../ir/errors.js';
import { checkOptionKeys } from '../ir/options.js';
import { formatShape, sameShape } from '../ir/shape.js';
import { array } from './creation.js';
import { wrapNode } from './deferred-array.js';
import type { DeferredArray } from './deferred-array.js';
import { all, reshape, stack } from './shaping.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';

/**
 * NumPy's kron: the Kronecker product, blocks of b scaled by each element of
 * a. The arrays are given the same number of axes (1s in front), and each
 * axis of the result has length a's times b's.
 */
function kron(a: Operand, b: Operand): DeferredArray {
  let x = wrapNode(anyNode(a, 'kron', 0));
  let y = wrapNode(anyNode(b, 'kron', 1));
  const ndim = Math.max(x.ndim, y.ndim);
  x = reshape(x, [...new Array<number>(ndim - x.ndim).fill(1), ...x.shape]);
  y = reshape(y, [...new Array<number>(ndim - y.ndim).fill(1), ...y.shape]);
  // a's axis i and b's axis i side by side, (a0, b0, a1, b1, ...), then each pair merged.
  const xs = reshape(x, x.shape.flatMap((d) => [d, 1]));
  const ys = reshape(y, y.shape.flatMap((d) => [1, d]));
  return reshape(xs.mul(ys), x.shape.map((d, i) => d * y.shape[i]!));
}

/**
 * NumPy's cross over the last axis: of 3-vectors, the 3-vector a x b; of
 * 2-vectors, the z component of their product (a scalar per pair). Each
 * component is a1 * b2 - a2 * b1 as NumPy computes it.
 */
function cross(a: Operand, b: Operand): DeferredArray {
  const x = wrapNode(anyNode(a, 'cross', 0));
  const y = wrapNode(anyNode(b, 'cross', 1));
  const n = x.shape[x.ndim - 1];
  const m = y.shape[y.ndim - 1];
  if (n !== m || (n !== 2 && n !== 3)) {
    throw new ShapeError(`cross: the last axes must both have length 2 or both 3 (vectors in the plane or in space); got shapes ${formatShape(x.shape)} and ${formatShape(y.shape)}`);
  }
  const c = (v: DeferredArray, i: number): DeferredArray => v.get(`..., ${i}`);
  if (n === 2) return c(x, 0).mul(c(y, 1)).sub(c(x, 1).mul(c(y, 0)));
  const at = (i: number, j: number): DeferredArray => c(x, i).mul(c(y, j)).sub(c(x, j).mul(c(y, i)));
  return stack([at(1, 2), at(2, 0), at(0, 1)], { axis: -1 });
}

/**
 * NumPy's array_equal: a 0-d bool, true where the arrays have one shape and
 * equal elements (NaN equals NaN only with `equalNan`). Arrays of different
 * shapes are simply unequal.
 */
function arrayEqual(a: Operand, b: Operand, options?: { equalNan?: boolean }): DeferredArray {
  const o = checkOptionKeys<{ equalNan: boolean }>('arrayEqual', options, ['equalNan']);
  if (o.equalNan !== undefined && typeof o.equalNan !== 'boolean') throw new TypeError('arrayEqual: option equalNan must be a boolean');
  const x = wrapNode(anyNode(a, 'arrayEqual', 0));
  const y = wrapNode(anyNode(b, 'arrayEqual', 1));
  if (!sameShape(x.shape, y.shape)) return array(false);
  const same = o.equalNan ? x.eq(y).logicalOr(x.isnan().logicalAnd(y.isnan())) : x.eq(y);
  return all(same);
}

export { kron, cross, arrayEqual };
