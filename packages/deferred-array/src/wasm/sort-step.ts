// sort and argsort by kernels-wasm's radix sort, select by its quickselect,
// partition and argpartition by its partitionLines: lines along the last
// axis of a contiguous array are read where they lie; any other layout is
// copied first with the axis last (a copy kernel), and the result's lines
// are copied back into place the same way. Arrays of many lines sort and select as a launch of kernels-wasm's
// sorting kernel, which the pool shares out by blocks of lines, and one long
// line sorts as a launch a pass, shared out by blocks of the line; a short
// line, and little work, on the calling thread.
import { longSortJobs, onlyLaunch, partitionLines, selectJob, selectLines, sortJob, sortLines } from 'kernels-wasm/routines';
import type { RoutineSequence, SortKind } from 'kernels-wasm/routines';
import type { DType } from '../ir/dtypes.js';
import type { FamilyNode, PartitionAttrs, SelectAttrs } from '../ir/node.js';
import { kthPositions } from '../ir/build-sort.js';
import { sizeOf } from '../ir/shape.js';
import { dropValue, isContiguous } from './heap-value.js';
import type { HeapValue } from './heap-value.js';
import type { StepHeap } from './step-heap.js';

/** The radix sort's element kind of each dtype (bool as bytes: false before true). */
const SORT_KINDS: Record<DType, SortKind> = {
  float64: 'f64', float32: 'f32', int64: 'i64', uint64: 'u64', int32: 'i32', uint32: 'u32',
  int16: 'i16', uint16: 'u16', int8: 'i8', uint8: 'u8', bool: 'u8',
};

const permute = <T>(a: readonly T[], order: readonly number[]): T[] => order.map((d) => a[d]!);

/** A sort step's lines as the routines read and write them, and how its result reaches the node's block. */
interface SortLines {
  /** x's lines, contiguous, each along the sorted axis (x itself, or a copy with the axis last). */
  readonly lined: HeapValue;
  /** Where the routine writes: the node's block, or a temporary copied into it after. */
  readonly sorted: HeapValue;
  readonly line: number;
  readonly lines: number;
  /** The result, once the routine has run: copied into place where it went to a temporary, the copies freed. */
  finish(): HeapValue;
}

/** x's lines along the node's axis, ready for a routine, and the way back. x has at least one axis. */
function sortLinesOf(n: FamilyNode<'sort'>, x: HeapValue, h: StepHeap, rows: number): SortLines {
  const { axis } = n.attrs;
  const line = x.shape[axis]!;
  const lines = sizeOf(x.shape) / Math.max(1, line);
  // The axes with the sorted one last.
  const moved = axis === x.shape.length - 1 ? undefined : [...x.shape.keys()].filter((d) => d !== axis).concat(axis);
  const lined = !moved && isContiguous(x) && !x.random
    ? x
    : h.copy(moved ? { ...x, shape: permute(x.shape, moved), strides: permute(x.strides, moved) } : x, x.dtype, `copy of a ${n.op} operand, its axis last`);
  const out = h.place(n);
  const direct = !moved && isContiguous(out);
  const sorted = direct ? out : h.temp(n.dtype, [...lined.shape.slice(0, -1), rows]);
  return {
    lined, sorted, line, lines,
    finish() {
      if (lined !== x) dropValue(lined);
      if (direct) return out;
      // Back into place: the sorted lines read with the axis where it was.
      const back = moved?.map((_, d) => moved.indexOf(d));
      h.copyInto(back ? { ...sorted, shape: n.shape, strides: permute(sorted.strides, back) } : sorted, out, `${n.op} lines into place`);
      dropValue(sorted);
      return out;
    },
  };
}

const isPartition = (n: FamilyNode<'sort'>): boolean => n.op === 'partition' || n.op === 'argpartition';

/** The sorted values (or positions, or the values at the positions selected, or the partition) of x along the node's axis, in the node's block, on this thread. */
function sortStep(n: FamilyNode<'sort'>, x: HeapValue, h: StepHeap): HeapValue {
  const positions = n.op === 'select' ? (n.attrs as SelectAttrs).positions : undefined;
  const s = sortLinesOf(n, x, h, positions ? positions.length : x.shape[n.attrs.axis]!);
  const kind = SORT_KINDS[x.dtype];
  if (positions) {
    selectLines(h.heap, kind, s.lined.ptr, s.sorted.ptr, s.line, s.lines, positions);
  } else if (isPartition(n)) {
    const kth = kthPositions(n.op, (n.attrs as PartitionAttrs).kth, s.line);
    partitionLines(h.heap, kind, s.lined.ptr, s.sorted.ptr, s.line, s.lines, kth, n.op === 'partition' ? 'values' : 'positions');
  } else {
    sortLines(h.heap, kind, s.lined.ptr, s.sorted.ptr, s.line, s.lines, n.op === 'sort' ? 'values' : 'positions');
  }
  return s.finish();
}

/** Lines longer than this are sorted on the calling thread (sortStep): each thread of a launch holds a line's keys twice in scratch (and a selection the line sorted too). */
const POOLED_LINE = 1 << 20;
/** Fewer elements in all than this are sorted on the calling thread, as a step (the pool never wakes for them). */
const POOLED_WORK = 1 << 15;

/**
 * Selections of more positions than this a line stay on the calling thread:
 * the kernel finds each selected zero's or NaN's own bits in a scan of the
 * line of its own, where selectLines makes one scan for all.
 */
const POOLED_POSITIONS = 16;

/**
 * One line at least this long is sorted by launches over its blocks, a pass
 * each (longSortJobs), where more than one thread will run them (threadsFor:
 * the pool, past its inline threshold): on one thread they take about 1.2x
 * sortLines' time (each pass after the first counts its digits again), and
 * a shorter line repays a launch a pass less.
 */
const LONG_LINE = 1 << 19;

/**
 * sort, argsort or select of x's lines as launches of kernels-wasm's
 * sorting kernel for up to `threadsFor(elements)` threads: many lines as one launch
 * (sortJob, selectJob) that a pool shares out by blocks of lines; long
 * lines fewer than the threads (or longer than a launch of lines takes)
 * sorted a pass a launch (longSortJobs), each shared out by blocks of the
 * line, where more than one thread will run them. `finish` puts the result
 * in place and frees the launches.
 * Undefined where sortStep serves (lines past 2^20 that one thread would
 * sort, or selections in them; one line a launch of lines cannot share;
 * little work; many positions; partitions, which run line by line on the
 * calling thread). A pool that cannot start runs the launches on the
 * calling thread as they were made.
 */
function sortLaunch(n: FamilyNode<'sort'>, x: HeapValue, h: StepHeap, threadsFor: (elements: number) => number): { readonly launches: RoutineSequence; finish(): HeapValue } | undefined {
  if (isPartition(n)) return undefined;
  const positions = n.op === 'select' ? (n.attrs as SelectAttrs).positions : undefined;
  const line = x.shape[n.attrs.axis]!;
  const lines = sizeOf(x.shape) / Math.max(1, line);
  // A long line's launches each cover one line; a launch of lines covers them all.
  const lineThreads = threadsFor(line);
  // Lines a launch a pass where sharing out whole lines would leave threads idle, or cannot hold a line.
  const long = !positions && line >= LONG_LINE && lineThreads > 1 && (lines < lineThreads || line > POOLED_LINE);
  const threads = long ? lineThreads : threadsFor(sizeOf(x.shape));
  if (!long && (lines < 2 || line > POOLED_LINE || line * lines < POOLED_WORK || (positions && positions.length > POOLED_POSITIONS))) return undefined;
  const s = sortLinesOf(n, x, h, positions ? positions.length : line);
  const kind = SORT_KINDS[x.dtype];
  const output = n.op === 'sort' ? 'values' : 'positions';
  const launches = long
    ? longSortJobs(h.heap, kind, s.lined.ptr, s.sorted.ptr, line, lines, output, threads)
    : onlyLaunch(positions
      ? selectJob(h.heap, kind, s.lined.ptr, s.sorted.ptr, line, lines, positions, threads)
      : sortJob(h.heap, kind, s.lined.ptr, s.sorted.ptr, line, lines, output, threads));
  return {
    launches,
    finish() {
      launches.release();
      return s.finish();
    },
  };
}

export { sortLaunch, sortStep };
