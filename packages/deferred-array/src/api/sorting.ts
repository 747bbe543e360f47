// NumPy's sort, argsort and searchsorted. The order is NumPy's: ascending,
// NaN after everything, -0 and +0 equal, and stable (equal elements keep
// their order), which every `kind` NumPy takes may give; so any kind asked
// for gives this one result. Sorting is a fusion boundary: the elementwise
// work before and after it fuses on either side.
import { searchNode, sortNode } from '../ir/build-sort.js';
import { checkOptionKeys } from '../ir/options.js';
import { ShapeError } from '../ir/errors.js';
import { formatShape } from '../ir/shape.js';
import type { SortOp } from '../ir/op-table.js';
import { take } from './selection.js';
import { wrapNode } from './deferred-array.js';
import type { DeferredArray } from './deferred-array.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';

/** NumPy's sorting algorithms: each gives the stable order here. */
const KINDS = ['quicksort', 'mergesort', 'heapsort', 'stable'] as const;

interface SortOptions {
  /** The axis sorted along (default -1, the last); null sorts x flattened. */
  readonly axis?: number | null;
  /** NumPy's algorithm choice; every kind gives the stable order. */
  readonly kind?: (typeof KINDS)[number];
  /** NumPy 2's flag for a stable sort; the sort is always stable. */
  readonly stable?: boolean;
}

interface SearchOptions {
  /** 'left' (default): before elements equal to the value; 'right': after them. */
  readonly side?: 'left' | 'right';
  /** Positions that sort the array (an argsort of it), when it is not sorted itself. */
  readonly sorter?: Operand;
}

function sortOptions(op: SortOp, options: SortOptions | undefined): number | null {
  const o = checkOptionKeys<SortOptions>(op, options, ['axis', 'kind', 'stable']);
  if (o.kind !== undefined && !KINDS.includes(o.kind)) {
    throw new TypeError(`${op}: kind must be one of ${KINDS.join(', ')}; got ${String(o.kind)} (every kind gives the stable order here)`);
  }
  if (o.stable !== undefined && typeof o.stable !== 'boolean') throw new TypeError(`${op}: stable must be a boolean; got ${String(o.stable)}`);
  return o.axis === undefined ? -1 : o.axis;
}

const sorting = (op: SortOp) => (x: Operand, options?: SortOptions): DeferredArray =>
  wrapNode(sortNode(op, anyNode(x, op), sortOptions(op, options)));

/** x sorted along an axis (the last by default; null: flattened), NaN last, stable. */
const sort = sorting('sort');
/** The positions (int32) that sort x along an axis, as sort orders it: equal elements in their order. */
const argsort = sorting('argsort');

/**
 * Where each of `v` would go in the sorted 1-d array `a` to keep it sorted
 * (int32, the shape of v): before equal elements, or after them with side
 * 'right'. NaN counts as the largest value, as sort places it.
 */
function searchsorted(a: Operand, v: Operand, options?: SearchOptions): DeferredArray {
  const o = checkOptionKeys<SearchOptions>('searchsorted', options, ['side', 'sorter']);
  let sorted = anyNode(a, 'searchsorted');
  if (o.sorter !== undefined && sorted.shape.length === 1) {
    const order = anyNode(o.sorter, 'searchsorted');
    if (order.shape.length !== 1 || order.shape[0] !== sorted.shape[0]) {
      throw new ShapeError(`searchsorted: sorter must be 1-d and as long as a (${sorted.shape[0]}); got shape ${formatShape(order.shape)}`);
    }
    sorted = anyNode(take(wrapNode(sorted), wrapNode(order)), 'searchsorted');
  }
  return wrapNode(searchNode(sorted, anyNode(v, 'searchsorted', 1), o.side ?? 'left'));
}

export { sort, argsort, searchsorted };
export type { SortOptions, SearchOptions };
