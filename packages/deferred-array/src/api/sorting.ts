// NumPy's sort, argsort and searchsorted. The order is NumPy's: ascending,
// NaN after everything, -0 and +0 equal, and stable (equal elements keep
// their order), which every `kind` NumPy takes may give; so any kind asked
// for gives this one result. Sorting is a fusion boundary: the elementwise
// work before and after it fuses on either side.
import { partitionNode, searchNode, sortNode } from '../ir/build-sort.js';
import { cast, elementwise, scalar, source } from '../ir/build-elementwise.js';
import { isFloat, isInteger } from '../ir/dtypes.js';
import { weakScalarDType } from '../ir/type-rules.js';
import { take as takeNode } from '../ir/build-gather.js';
import * as view from '../ir/build-view.js';
import type { Node } from '../ir/node.js';
import { checkOptionKeys } from '../ir/options.js';
import { DTypeError, ShapeError } from '../ir/errors.js';
import { contiguousStrides, formatShape, normalizeAxis, sameShape, sizeOf } from '../ir/shape.js';
import type { SortOp } from '../ir/op-table.js';
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
  if (o.stable !== undefined && o.kind !== undefined) throw new TypeError(`${op}: give kind or stable, not both (NumPy refuses both too)`);
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
    const n = sorted.shape[0]!;
    let order = anyNode(o.sorter, 'searchsorted');
    if (order.shape.length !== 1 || order.shape[0] !== n) {
      throw new ShapeError(`searchsorted: sorter must be 1-d and as long as a (${n}); got shape ${formatShape(order.shape)}`);
    }
    // Positions given as a list or typed array are checked now: each in 0..n-1 (NumPy: no negative ones).
    if (Array.isArray(o.sorter) || ArrayBuffer.isView(o.sorter)) {
      const given = Array.from(o.sorter as ArrayLike<number>, Number);
      const bad = given.find((i) => !Number.isInteger(i) || i < 0 || i >= n);
      if (bad !== undefined) throw new RangeError(`searchsorted: sorter holds ${bad}, which is not a position in a (0..${n - 1})`);
      order = cast(order, 'int32');
    } else if (!isInteger(order.dtype)) {
      throw new DTypeError(`searchsorted: sorter must hold integer positions; got ${order.dtype}`);
    }
    sorted = takeNode(sorted, order, 0, 'raise');
  }
  // A JS number or bigint becomes an array as NumPy makes one of a Python scalar: an integer one takes an
  // integer a's dtype where it fits (int64 in NumPy, with the same answers); against float a, float64.
  const values = (typeof v === 'number' || typeof v === 'bigint') && !isFloat(sorted.dtype)
    ? scalar(v, weakScalarDType('less', sorted.dtype, v))
    : anyNode(v, 'searchsorted', 1);
  return wrapNode(searchNode(sorted, values, o.side ?? 'left'));
}

interface PartitionOptions {
  /** The axis partitioned along (default -1, the last); null partitions x flattened. */
  readonly axis?: number | null;
  /** NumPy's selection algorithm: 'introselect', its only one (the kth elements are found by selection here too). */
  readonly kind?: 'introselect';
}

const partitioning = (op: 'partition' | 'argpartition') => (x: Operand, kth: number | readonly number[], options?: PartitionOptions): DeferredArray => {
  const o = checkOptionKeys<PartitionOptions>(op, options, ['axis', 'kind']);
  if (o.kind !== undefined && o.kind !== 'introselect') throw new TypeError(`${op}: kind must be 'introselect'; got ${String(o.kind)}`);
  const ks = typeof kth === 'number' ? [kth] : kth;
  if (!Array.isArray(ks)) throw new TypeError(`${op}: kth must be an integer or a list of them; got ${String(kth)}`);
  return wrapNode(partitionNode(op, anyNode(x, op), o.axis === undefined ? -1 : o.axis, [...ks]));
};

/**
 * NumPy's partition: x with each kth element where a sort puts it, the
 * smaller ones before it and the others after. NumPy leaves the order within
 * each part unspecified; here the elements of each part keep their order
 * along the line (so every backend, and any number of workers, gives the
 * same array). The kth elements are found by selection, in about the time
 * of a few passes over the line, not a sort.
 */
const partition = partitioning('partition');
/** The positions (int32) that partition x as partition does. */
const argpartition = partitioning('argpartition');

/**
 * NumPy's lexsort: the positions (int32) that sort by the last key, then by
 * the one before it among equals, and so on: a stable argsort by each key in
 * turn, from the first to the last. The keys are a list of arrays of one
 * shape, or one array whose first axis holds them; sorting is along `axis`
 * (default -1) of each key.
 */
function lexsort(keys: Operand | readonly Operand[], options?: { readonly axis?: number }): DeferredArray {
  const o = checkOptionKeys<{ axis: number }>('lexsort', options, ['axis']);
  const list: Node[] = Array.isArray(keys) && !keys.every((k) => typeof k === 'number')
    ? (keys as readonly Operand[]).map((k, i) => anyNode(k, 'lexsort', i))
    : splitFirst(anyNode(keys as Operand, 'lexsort'));
  if (list.length === 0) throw new TypeError('lexsort: give at least one key (NumPy: need sequence of keys with len > 0)');
  const shape = list[0]!.shape;
  for (const k of list) {
    if (!sameShape(k.shape, shape)) throw new ShapeError(`lexsort: every key must have one shape; got ${formatShape(shape)} and ${formatShape(k.shape)}`);
  }
  const axis = normalizeAxis(o.axis ?? -1, shape.length, 'lexsort: axis');
  // Stable sorts compose: order by the first key, then stably by each later one, the last key deciding first.
  let order = sortNode('argsort', list[0]!, axis);
  for (const k of list.slice(1)) {
    const along = takeAlong(k, order, axis);
    order = takeAlong(order, sortNode('argsort', along, axis), axis);
  }
  return wrapNode(order);
}

/** One key per position of the first axis (lexsort given one array). */
function splitFirst(n: Node): Node[] {
  if (n.shape.length === 0) throw new ShapeError('lexsort: a 0-d array holds no keys; give a list of arrays, or an array whose first axis holds them');
  return Array.from({ length: n.shape[0]! }, (_, i) => view.reshape(view.slice(n, [i]), n.shape.slice(1), 'lexsort'));
}

/** NumPy's take_along_axis for positions along one axis: x's elements at `positions` (of x's shape) along `axis`. */
function takeAlong(x: Node, positions: Node, axis: number): Node {
  if (x.shape.length === 1) return takeNode(x, positions, 0, 'raise');
  // Flat positions: each line's own start added to its positions along the axis.
  const strides = contiguousStrides(x.shape);
  const starts = new Int32Array(sizeOf(x.shape));
  for (let i = 0; i < starts.length; i++) {
    const along = Math.floor(i / strides[axis]!) % x.shape[axis]!;
    starts[i] = i - along * strides[axis]!;
  }
  const flat = elementwise('add', [elementwise('multiply', [positions, scalar(strides[axis]!, 'int32')]), source(starts, x.shape, 'int32')]);
  return takeNode(view.reshape(x, [-1], 'lexsort'), flat, 0, 'raise');
}

export { sort, argsort, searchsorted, partition, argpartition, lexsort };
export type { SortOptions, SearchOptions, PartitionOptions };
