// Builds sort, argsort and searchsorted nodes. Sorting is along one axis (of x
// flattened when the axis is null), in NumPy's order: ascending, NaN last,
// -0 and +0 equal, stable. argsort's positions and searchsorted's insertion
// points are int32, as argmin's are.
import { promoteTypes } from './dtypes.js';
import { DTypeError, ShapeError } from './errors.js';
import { cast } from './build-elementwise.js';
import { reshape } from './build-view.js';
import { makeNode } from './node.js';
import type { Node } from './node.js';
import type { SortOp } from './op-table.js';
import { formatShape, normalizeAxis } from './shape.js';

/** Positions along an axis are int32: an axis is at most 2^31 - 1 long. */
const POSITIONS = 'int32';

/** x sorted along `axis` (sort), or the positions that sort it (argsort); axis null sorts x flattened. */
function sortNode(op: SortOp, x: Node, axis: number | null): Node {
  // NumPy: sort(0-d, axis=None) is 1-d; sort(0-d, axis=-1) is an axis error.
  const from = axis === null ? reshape(x, [-1], op) : x;
  const ax = normalizeAxis(axis ?? 0, from.shape.length, `${op}: axis`);
  return makeNode(op, [from], from.shape, op === 'argsort' ? POSITIONS : x.dtype, { axis: ax, label: `axis ${ax}` });
}

/**
 * Where each of `values` would be inserted into the 1-d `sorted` to keep it
 * sorted: before equal elements (side 'left') or after them ('right'). Both
 * are compared in their common dtype, as NumPy does.
 */
function searchNode(sorted: Node, values: Node, side: 'left' | 'right'): Node {
  if (sorted.shape.length !== 1) {
    throw new ShapeError(`searchsorted: the sorted array must be 1-d; got shape ${formatShape(sorted.shape)} (search each row on its own, or ravel it first)`);
  }
  if (side !== 'left' && side !== 'right') throw new TypeError(`searchsorted: side must be 'left' or 'right'; got ${String(side)}`);
  let common;
  try {
    common = promoteTypes(sorted.dtype, values.dtype);
  } catch (e) {
    throw new DTypeError(`searchsorted: ${sorted.dtype} and ${values.dtype} have no common dtype to compare in (${(e as Error).message})`);
  }
  return makeNode('searchsorted', [cast(sorted, common), cast(values, common)], values.shape, POSITIONS, { side, label: `side ${side}` });
}

export { sortNode, searchNode };
