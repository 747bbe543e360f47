// NumPy's tensordot: a sum of products over axes of a and b, as one matrix
// product (the summed axes of a moved last and of b first, each side
// flattened to a matrix), then reshaped to the axes left.
import { ShapeError } from '../ir/errors.js';
import { formatShape, normalizeAxis } from '../ir/shape.js';
import { wrapNode } from './deferred-array.js';
import type { DeferredArray } from './deferred-array.js';
import { describe } from './operand.js';
import { matmul, reshape, transpose } from './shaping.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';

type TensordotAxes = number | readonly [number | readonly number[], number | readonly number[]];

const list = (v: number | readonly number[]): readonly number[] => (typeof v === 'number' ? [v] : v);

/**
 * NumPy's tensordot(a, b, axes): with axes = n (2 by default), the last n axes
 * of a against the first n of b; with axes = [axesA, axesB], those axes of a
 * against those of b, in pairs. The result's axes are a's left, then b's.
 */
function tensordot(a: Operand, b: Operand, axes: TensordotAxes = 2): DeferredArray {
  const x = wrapNode(anyNode(a, 'tensordot', 0));
  const y = wrapNode(anyNode(b, 'tensordot', 1));
  let sa: number[];
  let sb: number[];
  if (typeof axes === 'number') {
    if (!Number.isInteger(axes) || axes < 0 || axes > x.ndim || axes > y.ndim) {
      throw new ShapeError(`tensordot: axes = ${axes} must be a whole number of axes both arrays have (shapes ${formatShape(x.shape)} and ${formatShape(y.shape)})`);
    }
    sa = Array.from({ length: axes }, (_, i) => x.ndim - axes + i);
    sb = Array.from({ length: axes }, (_, i) => i);
  } else if (Array.isArray(axes) && axes.length === 2) {
    sa = list(axes[0]).map((ax) => normalizeAxis(ax, x.ndim, 'tensordot: axes of a'));
    sb = list(axes[1]).map((ax) => normalizeAxis(ax, y.ndim, 'tensordot: axes of b'));
  } else {
    throw new TypeError(`tensordot: axes must be a number or a pair [axesOfA, axesOfB]; got ${describe(axes)}`);
  }
  if (sa.length !== sb.length) throw new ShapeError(`tensordot: ${sa.length} axes of a are paired with ${sb.length} of b`);
  sa.forEach((ax, i) => {
    if (x.shape[ax] !== y.shape[sb[i]!]) {
      throw new ShapeError(`tensordot: axis ${ax} of a (length ${x.shape[ax]}) is paired with axis ${sb[i]} of b (length ${y.shape[sb[i]!]}); paired axes must have one length`);
    }
  });
  if (new Set(sa).size !== sa.length || new Set(sb).size !== sb.length) throw new ShapeError('tensordot: an axis is summed twice');
  const freeA = x.shape.map((_, i) => i).filter((i) => !sa.includes(i));
  const freeB = y.shape.map((_, i) => i).filter((i) => !sb.includes(i));
  const inner = sa.reduce((p, ax) => p * x.shape[ax]!, 1);
  const rows = freeA.reduce((p, ax) => p * x.shape[ax]!, 1);
  const cols = freeB.reduce((p, ax) => p * y.shape[ax]!, 1);
  const left = reshape(transpose(x, [...freeA, ...sa]), [rows, inner]);
  const right = reshape(transpose(y, [...sb, ...freeB]), [inner, cols]);
  return reshape(matmul(left, right), [...freeA.map((i) => x.shape[i]!), ...freeB.map((i) => y.shape[i]!)]);
}

export { tensordot };
export type { TensordotAxes };
