// Sorting and selecting lines on the pool: a launch of the sorting module's
// kernel (sort-kernel.ts) over lines in the heap, which the calling thread
// runs whole or a pool shares out by blocks of lines. Blocks are fixed by the
// line length, never by the threads, and each line is sorted whole by one
// thread as sortLines sorts it, so the results are sortLines' bits
// wherever they run.
import type { HeapLike } from '../lower/launch.js';
import { buildSortModule } from './radix-module.js';
import { kindOf } from './radix-keys.js';
import type { KeyKind, SortKind } from './radix-keys.js';
import type { SortOutput } from './radix-sort.js';
import { routineJob } from './routine-kernel.js';
import type { RoutineJob } from './routine-kernel.js';
import { SORT_ARGS, SORT_WORDS_BYTES, lineScratch, selectOp, selectPositions, selectScratch, sortOp } from './sort-kernel.js';

/** Elements a block of lines aims at: enough to repay a claim, few enough to share out. */
const BLOCK_ELEMENTS = 1 << 14;

/** A launch of the sorting kernel, ready for the calling thread or a pool. */
type SortJob = RoutineJob;

/**
 * A launch that sorts `lines` lines as sortLines does (same arguments), for
 * up to `threads` threads at once (1 for the calling thread alone): each
 * takes a scratch part of its own (a line's keys, the radix sort's other
 * buffer and tables), min(threads, blocks) parts in all; a thread of a
 * larger pool that finds none left claims no block.
 */
function sortJob(heap: HeapLike, name: SortKind, src: number, dst: number, n: number, lines: number, output: SortOutput, threads: number): SortJob {
  const kind = kindOf(name);
  const positions = output === 'positions';
  return job(heap, { op: sortOp(name, positions), kind, src, dst, n, lines, dstLine: n * (positions ? 4 : kind.bytes), perThread: lineScratch(kind, n, positions).bytes, threads });
}

/**
 * A launch that writes what selectLines writes (same arguments, `partitions`
 * its default), for up to `threads` threads at once, as sortJob's does.
 */
function selectJob(heap: HeapLike, name: SortKind, src: number, dst: number, n: number, lines: number, positions: readonly number[], threads: number, partitions?: number): SortJob {
  const bad = positions.find((p) => !Number.isInteger(p) || p < 0 || p >= n);
  if (bad !== undefined) throw new RangeError(`selectJob: position ${bad} is not in 0..${n - 1} (lines of ${n} elements)`);
  const kind = kindOf(name);
  const words = selectPositions(positions);
  const budget = partitions ?? 4 * Math.ceil(Math.log2(n + 1)) + 16;
  return job(heap, {
    op: selectOp(name), kind, src, dst, n, lines: positions.length === 0 ? 0 : lines, dstLine: positions.length * kind.bytes,
    perThread: selectScratch(kind, n), threads, positions: words, budget,
  });
}

interface JobWords {
  readonly op: number;
  readonly kind: KeyKind;
  readonly src: number;
  readonly dst: number;
  readonly n: number;
  readonly lines: number;
  readonly dstLine: number;
  readonly perThread: number;
  readonly threads: number;
  /** A selection's positions (selectPositions), copied into the heap with the launch, and its budget. */
  readonly positions?: Int32Array;
  readonly budget?: number;
}

function job(heap: HeapLike, w: JobWords): SortJob {
  const { n, lines } = w;
  const linesPerBlock = Math.max(1, Math.floor(BLOCK_ELEMENTS / Math.max(1, n)));
  const blocks = n === 0 ? 0 : Math.ceil(lines / linesPerBlock);
  return routineJob(heap, {
    name: 'sort', build: buildSortModule, ids: [-1, -2], blocks, elements: n * lines, threads: w.threads, perThread: w.perThread,
    wordBytes: SORT_WORDS_BYTES,
    write: (at, alloc) => {
      let positions = 0;
      if (w.positions) {
        positions = alloc(w.positions.byteLength);
        new Int32Array(heap.memory.buffer, positions, w.positions.length).set(w.positions);
      }
      at(SORT_ARGS.op, w.op);
      at(SORT_ARGS.src, w.src);
      at(SORT_ARGS.dst, w.dst);
      at(SORT_ARGS.n, n);
      at(SORT_ARGS.lines, lines);
      at(SORT_ARGS.linesPerBlock, linesPerBlock);
      at(SORT_ARGS.srcLine, n * w.kind.bytes);
      at(SORT_ARGS.dstLine, w.dstLine);
      at(SORT_ARGS.positions, positions);
      at(SORT_ARGS.budget, w.budget ?? 0);
    },
  });
}

export { selectJob, sortJob };
export type { SortJob };
