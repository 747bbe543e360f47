// Builds sort, argsort and searchsorted nodes. Sorting is along one axis (of x
// flattened when the axis is null), in NumPy's order: ascending, NaN last,
// -0 and +0 equal, stable. argsort's positions and searchsorted's insertion
// points are int32, as argmin's are.
import { promoteTypes } from './promotion.js';
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
 * The elements that sorting x along `axis` puts at `positions` (each in [0,
 * n), any order, repeats allowed): x's shape with that axis
 * positions.length long. Quantiles read these; a backend may select them
 * without sorting the line.
 */
function selectNode(x: Node, axis: number, positions: readonly number[]): Node {
  const ax = normalizeAxis(axis, x.shape.length, 'select: axis');
  const n = x.shape[ax]!;
  const bad = positions.find((p) => !Number.isInteger(p) || p < 0 || p >= n);
  if (bad !== undefined) throw new RangeError(`select: position ${bad} is not in 0..${n - 1} (the axis has ${n} elements)`);
  const shape = x.shape.map((d, i) => (i === ax ? positions.length : d));
  return makeNode('select', [x], shape, x.dtype, { axis: ax, positions, label: `axis ${ax}, positions ${positions.join(',')}` });
}

/**
 * kth as positions along an axis of length n: each an integer in [-n, n)
 * (negative ones counted from the end, as NumPy), normalized, sorted, each
 * once.
 */
/** Whether kth `k` is a position along an axis of length n (negative ones from the end). */
const kthFits = (k: number, n: number): boolean => k >= -n && k < n;

function kthPositions(fn: string, kth: readonly number[], n: number): number[] {
  // NumPy: an empty list is a float array, and "Partition index must be integer".
  if (kth.length === 0) throw new TypeError(`${fn}: kth must be an integer or a non-empty list of them; got an empty list`);
  for (const k of kth) {
    if (!Number.isInteger(k)) throw new TypeError(`${fn}: kth must be an integer or a list of them; got ${String(k)}`);
    if (!kthFits(k, n)) throw new RangeError(`${fn}: kth ${k} is out of bounds for an axis of length ${n}`);
  }
  return [...new Set(kth.map((k) => (k < 0 ? k + n : k)))].sort((a, b) => a - b);
}

/**
 * NumPy's partition (values) or argpartition (int32 positions) of x along
 * `axis` (null: x flattened). Each kth element is the one a stable sort puts
 * there; the others lie in the part between the kth positions where the sort
 * puts them, in their order along the line. NumPy leaves the order within
 * each part unspecified; this one is fixed, so every backend gives the same.
 */
function partitionNode(op: 'partition' | 'argpartition', x: Node, axis: number | null, kth: readonly number[]): Node {
  const from = axis === null ? reshape(x, [-1], op) : x;
  const ax = normalizeAxis(axis ?? 0, from.shape.length, `${op}: axis`);
  kthPositions(op, kth, from.shape[ax]!);
  return makeNode(op, [from], from.shape, op === 'argpartition' ? POSITIONS : x.dtype, { axis: ax, kth, label: `axis ${ax}, kth ${kth.join(',')}` });
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

export { sortNode, searchNode, selectNode, partitionNode, kthPositions, kthFits };
