// Sorting and selecting lines on the pool: a launch of the sorting module's
// kernel (sort-kernel.ts) over lines in the heap, which the calling thread
// runs whole or a pool shares out by blocks of lines. Blocks are fixed by the
// line length, never by the threads, and each line is sorted whole by one
// thread as sortLines sorts it, so the results are sortLines' bits
// wherever they run.
import type { HeapLike, HostModule, KernelModule } from '../lower/launch.js';
import { instantiate, runBlocks } from '../lower/launch.js';
import { isSharedBuffer } from '../support.js';
import { buildSortModule } from './radix-module.js';
import { routineModule } from './instances.js';
import { KINDS } from './radix-keys.js';
import type { KeyKind, SortKind } from './radix-keys.js';
import type { SortOutput } from './radix-sort.js';
import { SORT_ARGS, SORT_ARGS_BYTES, lineScratch, selectOp, selectPositions, selectScratch, sortOp } from './sort-kernel.js';
import { ARGS } from '../lower/args-layout.js';

/** Elements a block of lines aims at: enough to repay a claim, few enough to share out. */
const BLOCK_ELEMENTS = 1 << 14;

/** A launch of the sorting kernel, ready for the calling thread or a pool. */
interface SortJob {
  /** The sorting module, as a pool sends it to a worker that lacks it. */
  readonly module: KernelModule & { readonly bytes: Uint8Array };
  readonly argsPtr: number;
  readonly blocks: number;
  /** Elements sorted in all. */
  readonly elements: number;
  /** Runs the blocks left on the calling thread (claiming them, as a pool's threads do). */
  runHere(): void;
  /** Gives the launch block and the scratch back to the heap (after the launch). */
  release(): void;
}

/** The sorting module as a kernel module (negative ids: never a compiled kernel's), compiled once with the routines' copy. */
function sortModule(shared: boolean): KernelModule & { readonly bytes: Uint8Array } {
  const { bytes, module } = routineModule('sort', buildSortModule, shared);
  return { hash: `routine:sort:${shared ? 'shared' : 'unshared'}`, id: shared ? -2 : -1, module, hostKeys: [], bytes };
}

/** The sorting module imports no host function. */
const NO_HOST: HostModule = {
  hostFunction: (key) => {
    throw new Error(`internal: the sorting module imports no host function (asked for ${key})`);
  },
};

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
  const slots = Math.max(1, Math.min(w.threads, blocks));
  const held: number[] = [];
  try {
    const argsPtr = heap.alloc(SORT_ARGS_BYTES);
    held.push(argsPtr);
    const scratch = heap.alloc(Math.max(16, slots * w.perThread));
    held.push(scratch);
    const positions = w.positions ? heap.alloc(w.positions.byteLength) : 0;
    if (w.positions) held.push(positions);
    if (w.positions) new Int32Array(heap.memory.buffer, positions, w.positions.length).set(w.positions);
    const words = new Int32Array(heap.memory.buffer, argsPtr, SORT_ARGS_BYTES / 4).fill(0);
    const at = (offset: number, v: number): void => { words[(ARGS.shape + offset) / 4] = v; };
    at(SORT_ARGS.op, w.op);
    at(SORT_ARGS.src, w.src);
    at(SORT_ARGS.dst, w.dst);
    at(SORT_ARGS.n, n);
    at(SORT_ARGS.lines, lines);
    at(SORT_ARGS.linesPerBlock, linesPerBlock);
    at(SORT_ARGS.srcLine, n * w.kind.bytes);
    at(SORT_ARGS.dstLine, w.dstLine);
    at(SORT_ARGS.scratch, scratch);
    at(SORT_ARGS.perThread, w.perThread);
    at(SORT_ARGS.slots, slots);
    at(SORT_ARGS.positions, positions);
    at(SORT_ARGS.budget, w.budget ?? 0);
    const module = sortModule(isSharedBuffer(heap.memory.buffer));
    return {
      module, argsPtr, blocks, elements: n * lines,
      runHere: () => { runBlocks(instantiate(module, heap.memory, NO_HOST), heap.memory, argsPtr, blocks); },
      release: () => { for (const p of held.splice(0)) heap.free(p); },
    };
  } catch (e) {
    for (const p of held) heap.free(p);
    throw e;
  }
}

const kindOf = (name: SortKind): KeyKind => KINDS.find((k) => k.name === name)!;

export { selectJob, sortJob };
export type { SortJob };
