// One long line sorted on the pool (long-sort-kernel.ts): a launch a step,
// the places of each pass worked out here between launches from every
// block's counts. Blocks are fixed by the line's length, never by the
// threads, and the sort is stable whatever runs each block, so the line
// comes out as sortLines sorts it.
import type { HeapLike } from '../lower/launch.js';
import { routinesOn } from './instances.js';
import { buildSortModule } from './radix-module.js';
import { keyBits, kindOf } from './radix-keys.js';
import type { SortKind } from './radix-keys.js';
import type { SortOutput } from './radix-sort.js';
import { TABLE, passesOf } from './radix-layout.js';
import { routineJob } from './routine-kernel.js';
import type { RoutineJob, RoutineSequence } from './routine-kernel.js';
import { scratchOn } from './scratch.js';
import { LONG_ARGS, LONG_DIGIT, LONG_STEPS, LONG_WORDS_BYTES, tableBytes } from './long-sort-kernel.js';
import { longOp } from './sort-kernel.js';

/** Elements a block at least: enough to repay a claim and a table of counts. */
const MIN_BLOCK = 1 << 16;
/** Blocks a line at most: each holds every pass's table (48 KiB for 64-bit keys), and the host sums them a pass. */
const MAX_BLOCKS = 256;

/** Elements a block of a line of n: a power of two, fixed by n alone. */
function blockOf(n: number): number {
  let b = MIN_BLOCK;
  while (b * MAX_BLOCKS < n) b *= 2;
  return b;
}

/**
 * Sorts `lines` lines of `n` elements of `kind` at `src` into `dst` as
 * sortLines(heap, name, src, dst, n, lines, output) does (the same bits),
 * one line after another, each as a sequence of launches of the sorting
 * kernel shared out by blocks of the line over up to `threads` threads: the
 * keys and every pass's counts; then for each pass that moves keys, its
 * counts (after the first) and its scatter; then the values or positions.
 * Scratch (a line's keys twice, its positions twice, the tables) is taken
 * from the heap until release. Zeros and NaNs get their own bits back after
 * a line's last launch, on the calling thread, as sortLines does.
 */
function longSortJobs(heap: HeapLike, name: SortKind, src: number, dst: number, n: number, lines: number, output: SortOutput, threads: number): RoutineSequence {
  const kind = kindOf(name);
  const width = keyBits(kind);
  const positions = output === 'positions';
  const block = blockOf(n);
  const blocks = Math.ceil(n / block);
  const stride = tableBytes(width);
  const scratch = scratchOn(heap);
  let job: RoutineJob | undefined;
  const done = (): void => {
    job?.release();
    job = undefined;
  };
  try {
    const kb = width / 8;
    const keys = [scratch.alloc(n * kb), scratch.alloc(n * kb)] as const;
    const idx = positions ? [scratch.alloc(n * 4), scratch.alloc(n * 4)] as const : [0, 0] as const;
    const tables = scratch.alloc(blocks * stride);
    const res = scratch.alloc(blocks * 16);
    const totals = scratch.alloc(TABLE * 4);
    const r = routinesOn(heap.memory, 'sort', buildSortModule);
    const launch = (step: number, words: Partial<Record<keyof typeof LONG_ARGS, number>>): RoutineJob => routineJob(heap, {
      name: 'sort', build: buildSortModule, ids: [-1, -2], blocks, elements: n, threads, perThread: 16, wordBytes: LONG_WORDS_BYTES,
      write: (at) => {
        at(LONG_ARGS.op, longOp(name, positions));
        at(LONG_ARGS.step, step);
        at(LONG_ARGS.n, n);
        at(LONG_ARGS.block, block);
        at(LONG_ARGS.tables, tables);
        at(LONG_ARGS.tableStride, stride);
        at(LONG_ARGS.res, res);
        for (const [word, value] of Object.entries(words)) at(LONG_ARGS[word as keyof typeof LONG_ARGS], value);
      },
    });
    const offsets = (p: number, make: boolean): number => r['block_offsets']!(tables + p * TABLE * 4, blocks, stride, n, totals, make ? 1 : 0);
    /** Whether pass p moves keys: no digit holds every key. */
    const moves = (p: number): boolean => offsets(p, false) === 0;
    /** Pass p's places from every block's counts. */
    const places = (p: number): void => { offsets(p, true); };
    // Each step's code runs once the launch before it has run.
    function* steps(): Generator<RoutineJob, void, void> {
      if (n === 0) return;
      for (let l = 0; l < lines; l++) yield* line(src + l * n * kind.bytes, dst + l * n * (positions ? 4 : kind.bytes));
    }
    function* line(src: number, dst: number): Generator<RoutineJob, void, void> {
      yield launch(LONG_STEPS.keys, { src, dst: keys[0], dstIdx: idx[0] });
      // The passes that move keys, from the counts of the line as it came, which give the first one's places too.
      const moving = [...Array(passesOf(width, LONG_DIGIT)).keys()].filter(moves);
      let from = 0;
      for (const [i, pass] of moving.entries()) {
        // After the first, the keys have moved since those counts: this pass's counts of the blocks as they now lie.
        if (i > 0) yield launch(LONG_STEPS.count, { src: keys[from], pass });
        places(pass);
        yield launch(LONG_STEPS.scatter, { src: keys[from], dst: keys[1 - from], srcIdx: idx[from], dstIdx: idx[1 - from], pass });
        from = 1 - from;
      }
      yield launch(LONG_STEPS.out, positions ? { srcIdx: idx[from], dst } : { src: keys[from], dst });
      if (!kind.float || positions) return;
      // Zeros and NaNs came back as +0 and one NaN: their own bits, where the keys met any.
      const counts = new Int32Array(heap.memory.buffer, res, blocks * 4);
      const total = [0, 0, 0];
      for (let b = 0; b < blocks; b++) for (let k = 0; k < 3; k++) total[k]! += counts[4 * b + k]!;
      if (total[1]! + total[2]! > 0) {
        new Int32Array(heap.memory.buffer, res, 3).set(total);
        r[`fix_${name}`]!(src, dst, n, res);
      }
    }
    const order = steps();
    const next = (): RoutineJob | undefined => {
      done();
      const step = order.next();
      return step.done ? undefined : (job = step.value);
    };
    return {
      next,
      release: () => {
        done();
        scratch.release();
      },
    };
  } catch (e) {
    scratch.release();
    throw e;
  }
}

export { longSortJobs };
