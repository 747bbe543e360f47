// add.at in the heap (scatter-module.ts): the calls the backend makes, on
// the calling thread.
import type { HeapLike } from '../lower/launch.js';
import { COUNT_ARGS, COUNT_TYPES, COUNT_WORDS_BYTES, SPREAD, buildScatterModule } from './scatter-module.js';
import type { AddAtType, CountType } from './scatter-module.js';
import { routineJob } from './routine-kernel.js';
import type { RoutineJob } from './routine-kernel.js';
import { routinesOn } from './instances.js';
import { scratchOn } from './scratch.js';

/** The position of the first of `m` int32 indices at `idx` outside [-rows, rows), or -1 if none is. */
function firstIndexOutside(memory: WebAssembly.Memory, idx: number, m: number, rows: number): number {
  return routinesOn(memory, 'scatter', buildScatterModule)['check_indices']!(idx, m, rows);
}

/**
 * NumPy's add.at, in place at `out` (rows x inner elements of `type`): for
 * k = 0..m-1 in order, row idx[k] (int32; negative from the end; checked
 * first with firstIndexOutside) plus row k of the values at `vals`
 * (`vstride` elements from one row to the next, or -1: one value for all),
 * added in `type` (integers wrap; for unsigned ones, the signed type of
 * their width gives the same bits).
 */
function addAt(memory: WebAssembly.Memory, type: AddAtType, out: number, rows: number, inner: number, idx: number, m: number, vals: number, vstride: number): void {
  routinesOn(memory, 'scatter', buildScatterModule)[`add_at_${type}`]!(out, rows, inner, idx, m, vals, vstride);
}

const BYTES: Record<AddAtType, number> = { f64: 8, f32: 4, i64: 8, i32: 4, i16: 2, i8: 1 };

/**
 * Targets of at most this many rows are spread (copies of SPREAD x rows
 * elements, zeroed and summed once): a bincount's counts, a histogram's.
 */
const SPREAD_ROWS = 1 << 16;

/** Whether checkedAddAt spreads the adds over copies (integers, rows of one element, many indices a row). */
const spreads = (type: AddAtType, rows: number, inner: number, m: number, vstride: number): type is CountType =>
  type !== 'f64' && type !== 'f32' && inner === 1 && (vstride === 1 || vstride === -1) && rows <= SPREAD_ROWS && m >= 4 * SPREAD * rows;

/** Indices a block of a count launch takes: enough to repay a claim, few enough to share out. */
const COUNT_BLOCK = 1 << 16;

/** A count launch (countJob): after it has run, the first bad index, then the counts added into a target. */
interface CountJob extends RoutineJob {
  /** The position of the first index outside [-rows, rows), or -1 (after the launch). */
  firstBad(): number;
  /** Adds the counts into the target at `out` (after the launch, its indices good). */
  addInto(out: number): void;
}

/**
 * checkedAddAt's spread adds as a launch of the scatter module's kernel for
 * up to `threads` threads at once, which a pool shares out by blocks of
 * COUNT_BLOCK indices, each thread counting into copies of its own; where
 * checkedAddAt would not spread them, undefined. After the launch, firstBad
 * names the first bad index as checkedAddAt does, and addInto adds every
 * thread's copies into the target: the sums wrap, so the bits are
 * checkedAddAt's whichever thread counted which block.
 */
function countJob(heap: HeapLike, type: AddAtType, rows: number, inner: number, idx: number, m: number, vals: number, vstride: number, threads: number): CountJob | undefined {
  if (!spreads(type, rows, inner, m, vstride)) return undefined;
  const blocks = Math.ceil(m / COUNT_BLOCK);
  const perThread = Math.ceil((SPREAD * rows * BYTES[type]) / 16) * 16;
  let bad = 0;
  // Each thread's copies are zeroed and added in on the calling thread: no more of them than the indices repay.
  const parts = Math.max(1, Math.min(threads, Math.floor(m / (4 * SPREAD * rows))));
  const job = routineJob(heap, {
    name: 'scatter', build: buildScatterModule, ids: [-3, -4], blocks, elements: m, threads: parts, perThread, wordBytes: COUNT_WORDS_BYTES,
    write: (at, alloc) => {
      bad = alloc(blocks * 4);
      new Int32Array(heap.memory.buffer, bad, blocks).fill(-1);
      at(COUNT_ARGS.op, COUNT_TYPES.indexOf(type));
      at(COUNT_ARGS.rows, rows);
      at(COUNT_ARGS.idx, idx);
      at(COUNT_ARGS.m, m);
      at(COUNT_ARGS.vals, vals);
      at(COUNT_ARGS.vstride, vstride);
      at(COUNT_ARGS.block, COUNT_BLOCK);
      at(COUNT_ARGS.bad, bad);
    },
  });
  new Uint8Array(heap.memory.buffer, job.scratch, job.slots * perThread).fill(0);
  return {
    ...job,
    firstBad: () => {
      // Each block names its own first; the first of the first block that has one is the first of all.
      for (const p of new Int32Array(heap.memory.buffer, bad, blocks)) if (p >= 0) return p;
      return -1;
    },
    addInto: (out) => {
      const merge = routinesOn(heap.memory, 'scatter', buildScatterModule)[`spread_merge_${type}`]!;
      for (let s = 0; s < job.slots; s++) merge(out, rows, job.scratch + s * perThread);
    },
  };
}

/**
 * addAt after firstIndexOutside: returns the position of the first index
 * outside [-rows, rows), having written nothing, or -1 once the adds are
 * done. `onChecked` runs once the indices are known good, before out is
 * written (the caller puts the target there). Integer rows of one element
 * with many more indices than rows are spread over copies in scratch taken
 * from `heap` (spread_count and spread_merge in scatter-module.ts), which
 * counted 2^23 indices into 1,000 bins in about half the time, the check
 * made as each index is read; the sums wrap, so the bits are addAt's.
 */
function checkedAddAt(
  heap: HeapLike, type: AddAtType, out: number, rows: number, inner: number, idx: number, m: number, vals: number, vstride: number, onChecked: () => void,
): number {
  const { memory } = heap;
  if (spreads(type, rows, inner, m, vstride)) {
    const r = routinesOn(memory, 'scatter', buildScatterModule);
    const scratch = scratchOn(heap);
    try {
      const copies = scratch.alloc(SPREAD * rows * BYTES[type]);
      new Uint8Array(memory.buffer, copies, SPREAD * rows * BYTES[type]).fill(0);
      const bad = r[`spread_count_${type}`]!(rows, idx, 0, m, vals, vstride, copies) as number;
      if (bad < 0) {
        onChecked();
        r[`spread_merge_${type}`]!(out, rows, copies);
      }
      return bad;
    } finally {
      scratch.release();
    }
  }
  const bad = firstIndexOutside(memory, idx, m, rows);
  if (bad < 0) {
    onChecked();
    addAt(memory, type, out, rows, inner, idx, m, vals, vstride);
  }
  return bad;
}

export { addAt, checkedAddAt, countJob, firstIndexOutside, spreads as countSpreads };
export type { CountJob };
export type { AddAtType };
