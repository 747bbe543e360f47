// A launch whose layout never changes (shape, strides, blocks): checked and
// written out once as an image of its launch block, so that each run only
// copies the image into a block the caller allocated, sets the arrays'
// addresses and calls the kernel on the calling thread (or hands the block to
// the pool: launchFixedOnPool in pool/pool.ts). This is the lean run's
// launch: a plan run again, or a graph of the same structure, pays for no
// checks, no block planning and no per-run closures. The kernel, blocks and
// partials are exactly those of launch(), so the results are the same bits.
import { ARGS, arrayPtrOffset, gatherOffset, launchBlockBytes } from './args-layout.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import { isRowMajor, writeGatherWords, writeLaunchBlock } from './launch-block.js';
import { checkArrays, planBlocks } from './launch.js';
import type { HostModule, KernelFn, Launch, LaunchResult } from './launch.js';
import type { CompiledModule } from './compile.js';

/** A launch's layout, fixed: what runFixed needs besides the addresses. */
interface FixedLaunch {
  readonly compiled: CompiledModule;
  /**
   * Bytes of a run's block: the launch block, the partials from the next
   * multiple of 64, then the caller's `extra` bytes at `extraAt` (8-aligned),
   * which the caller may point arrays into (a scalar passed in the block).
   */
  readonly bytes: number;
  readonly extraAt: number;
  readonly blocks: number;
  readonly pieces: number;
  readonly slots: number;
  readonly pieceIndex: (i: number) => number;
  /** The launch block's words with every address 0. */
  readonly image: Int32Array;
  readonly partialsAt: number;
  /** Word index, within the block, of each array's address. */
  readonly ptrWords: Int32Array;
  /** Elements a block covers, and in all. */
  readonly blockSize: number;
  readonly total: number;
  /** Per array, whether runFixed can drain it (an output that the blocks write in its own row-major order). */
  readonly drainable: readonly boolean[];
}

/**
 * An output array written through a small scratch block instead of its whole
 * extent: the kernel runs `blocks` blocks at a time, its address moved so that
 * each run's first element lands at the scratch's start, and `take` moves what
 * they wrote on. The caller's copy then reads from the caches, and the array
 * never takes its size in the heap. A drained kernel makes the same bits: it
 * runs the same blocks, in order.
 */
interface Drain {
  /** The array's index in the spec's order; fixLaunch must have found it drainable. */
  readonly array: number;
  /** Byte address of a block of drainBytes(f, blocks, array) bytes. */
  readonly scratch: number;
  /** Blocks per kernel call. */
  readonly blocks: number;
  /** After each call: its elements [from, to) of the array lie at the scratch's start. */
  take(from: number, to: number): void;
}

const NO_PARTIALS = new Float64Array(0);

/**
 * Fixes the layout of `l` (its arrays' addresses are ignored) for kernel
 * `compiled`, with `extra` bytes for the caller after the partials. Only
 * launches whose blocks hold nothing but addresses that changes per run: no
 * contraction, pinned temporaries, random arrays or scan starts. Gathered
 * arrays' words (their taken axes) are fixed with the rest.
 */
function fixLaunch(compiled: CompiledModule, l: Launch, extra = 0): FixedLaunch {
  const { spec } = compiled;
  if (spec.contraction || spec.temps || spec.body.some((ins) => ins.op === 'scan') || spec.arrays.some((a) => a.random)) {
    throw new RangeError('fixLaunch: a launch with a contraction, pinned temporaries, random arrays or scans writes more than addresses per run; use launch()');
  }
  checkArrays(spec, l);
  const total = l.shape.reduce((a, b) => a * b, 1);
  const plan = planBlocks(spec, l, total, undefined);
  const partialsAt = Math.ceil(launchBlockBytes(spec) / 64) * 64;
  const extraAt = partialsAt + Math.ceil((plan.pieces * spec.slots * 8) / 8) * 8;
  const image = new Int32Array(partialsAt / 4);
  const { blockSize, segment, segmentLcm } = plan;
  writeLaunchBlock(image, 0, { total, blockSize, partials: 0, segment, segmentLcm }, l.shape, l.arrays.map((a) => ({ ptr: 0, strides: a.strides })));
  // A gathered array's taken axis (length, stride) is part of the layout: the same every run.
  writeGatherWords(image, gatherOffset(spec), l.arrays);
  const ptrWords = Int32Array.from(l.arrays, (_, k) => arrayPtrOffset(spec.ndim, k) >>> 2);
  // Row kernels' blocks are runs of the row-major order: an output with the same order gets them in turn.
  const drainable = spec.arrays.map((a, k) => spec.mode !== 'columns' && a.role === 'out' && isRowMajor(l.shape, l.arrays[k]!.strides));
  return {
    compiled, bytes: Math.max(8, extraAt + extra), extraAt, blocks: plan.blocks, pieces: plan.pieces, slots: spec.slots,
    pieceIndex: plan.pieceIndex, image, partialsAt, ptrWords, blockSize, total, drainable,
  };
}

/** Bytes of the scratch block that drains `array` `blocks` blocks at a time. */
function drainBytes(f: FixedLaunch, blocks: number, array: number): number {
  return Math.min(f.total, blocks * f.blockSize) * KTYPE_BYTES[f.compiled.spec.arrays[array]!.dtype];
}

/**
 * Writes `f`'s launch block at `at` (f.bytes long, which the caller
 * allocated; its extra bytes are left as the caller wrote them) with the
 * arrays at `ptrs` (byte addresses, in the spec's order); the view of the
 * memory it wrote through.
 */
function writeFixed(f: FixedLaunch, memory: WebAssembly.Memory, at: number, ptrs: ArrayLike<number>): Int32Array {
  const words = new Int32Array(memory.buffer);
  const base = at >>> 2;
  words.set(f.image, base);
  words[base + (ARGS.partials >>> 2)] = at + f.partialsAt;
  for (let k = 0; k < f.ptrWords.length; k++) words[base + f.ptrWords[k]!] = ptrs[k]!;
  return words;
}

/** What the blocks of `f`'s launch at `at` left: its partials, copied out, and its flags. */
function fixedResult(f: FixedLaunch, memory: WebAssembly.Memory, words: Int32Array, at: number): LaunchResult {
  const base = at >>> 2;
  const count = f.pieces * f.slots;
  return {
    partials: count === 0 ? NO_PARTIALS : new Float64Array(memory.buffer, at + f.partialsAt, count).slice(),
    blocks: f.blocks,
    pieces: f.pieces,
    pieceIndex: f.pieceIndex,
    flags: { divide: words[base + (ARGS.flagDivide >>> 2)]!, invalid: words[base + (ARGS.flagInvalid >>> 2)]!, index: words[base + (ARGS.flagIndex >>> 2)]! },
  };
}

/**
 * Runs `f` on the calling thread over the arrays at `ptrs` (byte addresses, in
 * the spec's order), through the launch block at `at` (f.bytes long, which the
 * caller allocated and frees; its extra bytes are left as the caller wrote
 * them). The partials are copied out.
 */
function runFixed(f: FixedLaunch, memory: WebAssembly.Memory, kernel: KernelFn, at: number, ptrs: ArrayLike<number>, host?: HostModule, drain?: Drain): LaunchResult {
  const words = writeFixed(f, memory, at, ptrs);
  if (f.blocks > 0) {
    host?.takeFlags?.();
    try {
      if (drain) runDrained(f, words, kernel, at, drain);
      else kernel(at, 0, f.blocks, 0);
    } finally {
      const h = host?.takeFlags?.();
      if (h) {
        const base = at >>> 2;
        words[base + (ARGS.flagDivide >>> 2)]! += h.divide;
        words[base + (ARGS.flagInvalid >>> 2)]! += h.invalid;
      }
    }
  }
  return fixedResult(f, memory, words, at);
}

/** The kernel over its blocks `drain.blocks` at a time, the drained array's address moved for each call. */
function runDrained(f: FixedLaunch, words: Int32Array, kernel: KernelFn, at: number, drain: Drain): void {
  const { array, scratch, blocks } = drain;
  if (!f.drainable[array] || !(blocks >= 1)) throw new RangeError(`runFixed: array ${array} cannot be drained ${blocks} block(s) at a time`);
  const bytes = KTYPE_BYTES[f.compiled.spec.arrays[array]!.dtype];
  const word = (at >>> 2) + f.ptrWords[array]!;
  for (let b = 0; b < f.blocks; b += blocks) {
    const end = Math.min(f.blocks, b + blocks);
    const from = b * f.blockSize;
    // Addresses are i32 arithmetic in the kernel, so one below 0 wraps back to the scratch.
    words[word] = (scratch - from * bytes) | 0;
    kernel(at, b, end, 0);
    drain.take(from, Math.min(f.total, end * f.blockSize));
  }
}

export { fixLaunch, runFixed, writeFixed, fixedResult, drainBytes };
export type { FixedLaunch, Drain };
