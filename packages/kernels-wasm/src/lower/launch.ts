// Runs a compiled kernel over an iteration space: binds sizes, pointers and
// strides through a launch block in the heap, runs every block (here on the
// calling thread, or on a worker pool through src/pool), and reads back the
// per-block partials and the flags. Where a block runs never changes what it
// computes: blocks are fixed by the data and partials land in block order.
import { Lru } from '../lru.js';
import { eachBlockOnePiece, readyOffset } from './scan-layout.js';
import { ARGS, CLAIMS_STOPPED, CONTRACTION, argsBytes, claimIndex, gatherOffset, launchBlockBytes, randomOffset, tempsOffset } from './args-layout.js';
import { checkGatheredArrays, checkRandomArrays, isRowMajor, writeGatherWords, writeLaunchBlock, writeRandomWords } from './launch-block.js';
import { planTemps, writeTemps } from './launch-temps.js';
import type { ContractionLaunch, ContractionOperand, Launch, LaunchArray, TempLaunch } from './launch-types.js';
import type { ContractionSpec, KernelSpec } from './kernel-spec.js';
import { at } from '../internal-error.js';
import type { CompiledModule, HostFunction } from './compile.js';

/** What a launch needs of the heap (kernels-wasm's Heap provides it). */
interface HeapLike {
  readonly memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  free(ptr: number): void;
}

/** Where a kernel's host imports come from; the same module is loaded by every worker. */
interface HostModule {
  hostFunction(key: string): HostFunction;
  /** Conditions the host functions counted since the last call (zeroed by the call). */
  takeFlags?(): { divide: number; invalid: number };
}

/** What it takes to instantiate a kernel anywhere: a worker receives exactly this. */
type KernelModule = Pick<CompiledModule, 'hash' | 'id' | 'module' | 'hostKeys'>;

interface LaunchResult {
  /**
   * Row kernels: partials[piece * slots + slot], pieces being reduced runs cut at block boundaries, in element order.
   * Column kernels: partials[slot * columns + column], final values.
   */
  readonly partials: Float64Array;
  readonly blocks: number;
  /** Number of pieces; pieceIndex(i) numbers the piece starting at element i. */
  readonly pieces: number;
  readonly pieceIndex: (i: number) => number;
  /** Counts of data conditions met: divisions by zero, invalid casts, and gather indices out of bounds ('raise' mode). */
  readonly flags: { readonly divide: number; readonly invalid: number; readonly index: number };
}

/** A launch block written into the heap, ready for any thread to run. */
interface PreparedLaunch {
  readonly argsPtr: number;
  readonly partialsPtr: number;
  /** Scratch of a kernel with pinned temporaries (the calling thread uses its first part), else 0. */
  readonly scratch: number;
  /** Launch blocks of the temporaries, whose flags count with the kernel's. */
  readonly tempArgs: readonly number[];
  /** Every heap block the launch holds, freed by finishLaunch. */
  readonly held: readonly number[];
  readonly blocks: number;
  readonly pieces: number;
  readonly slots: number;
  readonly total: number;
  readonly pieceIndex: (i: number) => number;
  /** A scan whose groups wait on the group before (emit-scan-chains.ts). */
  readonly lookBack: boolean;
}

/** 16 Ki elements: 128 KiB of float64 per array, which stays in L2 while a block runs. */
const BLOCK_SIZE = 16384;
/** Columns per block of a column kernel: 16 KiB of float64 partials per reduction, in L1. */
const COLUMN_BLOCK = 2048;

/**
 * Narrower blocks read memory in runs too short for the prefetchers: over a
 * 4096 x 2048 float64 matrix, one thread's column sum took 6.9 ms at 512 to
 * 2048 columns a block, 8.8 ms at 256 and 10.5 ms at 128.
 */
const MIN_COLUMN_BLOCK = 512;

/**
 * Columns per block of a column kernel, from the column count alone: about 16
 * blocks where the columns allow, so that the workers of a large pool each
 * take some (each block walks every row of its columns), but at least
 * MIN_COLUMN_BLOCK and at most COLUMN_BLOCK; a multiple of 8, so every block
 * but the last fills whole vectors. Each column is computed whole by one
 * block, so the bits do not depend on the blocks.
 */
const columnBlock = (columns: number): number => Math.min(COLUMN_BLOCK, Math.max(MIN_COLUMN_BLOCK, Math.ceil(columns / 128) * 8));

/** A kernel runs blocks [blockBegin, blockEnd); `scratch` is its thread's part of the scratch area (kernels with pinned temporaries). */
type KernelFn = (args: number, blockBegin: number, blockEnd: number, scratch?: number) => void;

/** A module's `claim` export: runs blocks of the launch at `args` until none are left; returns how many it ran. */
type ClaimFn = (args: number, blocks: number) => number;

/** Instances by memory and host module: a kernel's host imports are bound when it is instantiated. */
const instances = new WeakMap<WebAssembly.Memory, WeakMap<HostModule, Lru<string, KernelFn>>>();
const claimers = new WeakMap<KernelFn, ClaimFn>();

function claimerOf(kernel: KernelFn): ClaimFn {
  const claim = claimers.get(kernel);
  if (!claim) throw new Error('internal: claiming blocks needs a kernel made by instantiate()');
  return claim;
}

/** Instances kept per (memory, host), least recently used dropped first (as compiled modules are). */
const INSTANCE_CACHE = 256;

/** The kernel instantiated on `memory` with `host`'s functions, once per (memory, host, module) while it stays cached. */
function instantiate(kernel: KernelModule, memory: WebAssembly.Memory, host: HostModule): KernelFn {
  let perHost = instances.get(memory);
  if (!perHost) instances.set(memory, (perHost = new WeakMap()));
  let perMemory = perHost.get(host);
  if (!perMemory) perHost.set(host, (perMemory = new Lru({ max: INSTANCE_CACHE })));
  const hit = perMemory.get(kernel.hash);
  if (hit) return hit;
  const hostImports = Object.fromEntries(kernel.hostKeys.map((k) => [k, host.hostFunction(k)]));
  const instance = new WebAssembly.Instance(kernel.module, { env: { memory }, host: hostImports });
  const fn = instance.exports['kernel'] as KernelFn;
  claimers.set(fn, instance.exports['claim'] as ClaimFn);
  perMemory.set(kernel.hash, fn);
  return fn;
}

/** How many kernels are instantiated on `memory` with `host` (at most INSTANCE_CACHE). */
function instanceCount(memory: WebAssembly.Memory, host: HostModule): number {
  return instances.get(memory)?.get(host)?.size ?? 0;
}

/** Multiply-adds a contraction block aims at: big enough to repay a claim, small enough to share out. */
const CONTRACTION_WORK = 1 << 17;

/** Rows of C per block: a multiple of 16 (the widest register tile), about CONTRACTION_WORK multiply-adds. */
function contractionRows(c: ContractionLaunch): number {
  const rows = c.batches * c.P;
  const want = Math.ceil(CONTRACTION_WORK / Math.max(1, c.K * c.Q) / 16) * 16;
  return Math.max(1, Math.min(rows, c.rowsPerBlock ?? want));
}

/** A contraction launch, checked, with its rows of C per block. */
interface CheckedContraction {
  readonly c: ContractionLaunch;
  readonly rowsPerBlock: number;
}

/** Checks a contraction launch against its spec. */
function checkContraction(spec: ContractionSpec, l: Launch, total: number): CheckedContraction {
  const c = l.contraction;
  if (!c) throw new RangeError('launch: the kernel computes a matrix product; give launch.contraction (sizes and operands)');
  for (const k of ['batches', 'P', 'K', 'Q'] as const) {
    if (!Number.isInteger(c[k]) || c[k] < 0) throw new RangeError(`launch.contraction.${k} must be a non-negative integer; got ${c[k]}`);
  }
  if (c.rowsPerBlock !== undefined && (!Number.isInteger(c.rowsPerBlock) || c.rowsPerBlock < 1)) {
    throw new RangeError(`launch.contraction.rowsPerBlock must be a positive integer; got ${c.rowsPerBlock}`);
  }
  if (c.batches * c.P * c.Q !== total) {
    throw new RangeError(`launch: the product has ${c.batches} x ${c.P} x ${c.Q} elements but the space ${JSON.stringify(l.shape)} has ${total}`);
  }
  if (spec.vectorise === 'rows' && c.a.col !== 1) throw new RangeError(`launch: a 'rows' contraction reads A contiguous along k; got column stride ${c.a.col}`);
  if (spec.vectorise === 'columns' && c.b.col !== 1) throw new RangeError(`launch: a 'columns' contraction reads B contiguous along its columns; got column stride ${c.b.col}`);
  if (total > 0 && !isRowMajor(l.shape, at(l.arrays, spec.product, 'array').strides)) {
    throw new RangeError('launch: the product array must be contiguous over the space');
  }
  return { c, rowsPerBlock: contractionRows(c) };
}

/** Writes a contraction's sizes, pointers and strides after the elementwise launch block at `at`. */
function writeContraction(words: Int32Array, at: number, { c, rowsPerBlock }: CheckedContraction): void {
  const fields: Array<[keyof typeof CONTRACTION, number]> = [
    ['rows', c.batches * c.P], ['P', c.P], ['K', c.K], ['Q', c.Q], ['rowsPerBlock', rowsPerBlock],
    ['aPtr', c.a.ptr], ['aBatch', c.a.batch], ['aRow', c.a.row], ['aCol', c.a.col],
    ['bPtr', c.b.ptr], ['bBatch', c.b.batch], ['bRow', c.b.row], ['bCol', c.b.col],
  ];
  for (const [name, v] of fields) words[(at + CONTRACTION[name]) >>> 2] = v;
}

/**
 * Checks the launch against the kernel and writes its launch block; the caller
 * frees it with finishLaunch. `threads`: how many threads may run its blocks at
 * once (each needs its own part of a pinned temporary's scratch).
 */
function prepareLaunch(compiled: CompiledModule, heap: HeapLike, l: Launch, threads = 1): PreparedLaunch {
  const { spec } = compiled;
  checkArrays(spec, l);
  const total = l.shape.reduce((a, b) => a * b, 1);
  const contraction = spec.contraction ? checkContraction(spec.contraction, l, total) : undefined;
  const plan = planBlocks(spec, l, total, contraction);
  const planned = spec.temps ? planTemps(spec.temps, l.shape, l.arrays, l.temps, plan.blocks, plan.blockSize, total) : undefined;
  const held: number[] = [];
  const alloc = (bytes: number): number => {
    const p = heap.alloc(bytes);
    held.push(p);
    return p;
  };
  try {
    // One heap block for both: the launch block, then the partials from the next multiple of
    // 64 bytes (one allocation per launch, not two).
    const partialsAt = Math.ceil(launchBlockBytes(spec) / 64) * 64;
    // A scan that looks back keeps a starting value per block and one past the last, then a ready word each.
    const lookBack = compiled.scanLookBack && eachBlockOnePiece(total, plan.segment, plan.blockSize);
    const partialsBytes = lookBack ? readyOffset(plan.blocks, spec.slots) + 4 * (plan.blocks + 1) : plan.pieces * spec.slots * 8;
    const argsPtr = alloc(partialsAt + Math.max(8, partialsBytes));
    const partialsPtr = argsPtr + partialsAt;
    const words = (): Int32Array => new Int32Array(heap.memory.buffer);
    const { blockSize, segment, segmentLcm } = plan;
    writeLaunchBlock(words(), argsPtr, { total, blockSize, partials: partialsPtr, segment, segmentLcm }, l.shape, l.arrays);
    if (lookBack) {
      if (l.initial !== undefined) throw new RangeError('launch: this scan finds its pieces\' starting values itself (each block is one piece); it takes no initial values');
      writeScanStarts(spec, new Float64Array(heap.memory.buffer, partialsPtr, (plan.blocks + 1) * spec.slots), undefined);
      // Block 0's starting value is ready; every other block's waits on the group before it.
      const ready = (partialsPtr + readyOffset(plan.blocks, spec.slots)) >>> 2;
      words().fill(0, ready, ready + plan.blocks + 1)[ready] = 1;
    } else {
      writeScanStarts(spec, new Float64Array(heap.memory.buffer, partialsPtr, plan.pieces * spec.slots), l.initial);
    }
    if (contraction) writeContraction(words(), argsPtr + argsBytes(spec.ndim, l.arrays.length), contraction);
    const { scratch, tempArgs } = planned
      ? writeTemps(spec, words, alloc, argsPtr, tempsOffset(spec), planned, Math.max(1, threads))
      : { scratch: 0, tempArgs: [] };
    writeRandomWords(words(), argsPtr + randomOffset(spec), l.arrays);
    writeGatherWords(words(), argsPtr + gatherOffset(spec), l.arrays);
    const { blocks, pieces, pieceIndex } = plan;
    return { argsPtr, partialsPtr, scratch, tempArgs, held, blocks, pieces, slots: spec.slots, total, pieceIndex, lookBack };
  } catch (e) {
    for (const p of held) heap.free(p);
    throw e;
  }
}

/** Checks the launch's shape and arrays against the kernel's. */
function checkArrays(spec: KernelSpec, l: Launch): void {
  if (l.shape.length !== spec.ndim) throw new RangeError(`launch: the kernel has ${spec.ndim} axes but the shape ${JSON.stringify(l.shape)} has ${l.shape.length}`);
  if (l.arrays.length !== spec.arrays.length) {
    throw new RangeError(`launch: the kernel takes ${spec.arrays.length} arrays; got ${l.arrays.length}`);
  }
  checkRandomArrays(spec.arrays, l.arrays, 'launch');
  checkGatheredArrays(spec.arrays, l.arrays, 'launch');
  if (l.shape.every((d) => d > 0) && l.arrays.some((a) => a.gather?.length === 0)) {
    throw new RangeError('launch: a gathered axis of length 0 has nothing to read; an empty gather has no elements to launch');
  }
}

/** How a launch's space is cut into blocks, and its reductions' runs into pieces. */
interface BlockPlan {
  readonly blockSize: number;
  readonly blocks: number;
  readonly segment: number;
  readonly segmentLcm: number;
  readonly pieces: number;
  readonly pieceIndex: (i: number) => number;
}

function planBlocks(spec: KernelSpec, l: Launch, total: number, contraction: CheckedContraction | undefined): BlockPlan {
  const columns = spec.mode === 'columns';
  // Column kernels share out columns (each block owns COLUMN_BLOCK of them); row kernels share out elements;
  // contraction kernels, rows of the product (and the body the same rows' elements).
  // A column kernel's space is [rows, columns] (validateSpec checks it).
  const columnCount = columns ? at(l.shape, 1, 'axis') : 0;
  const blockSize = contraction ? Math.max(1, contraction.rowsPerBlock * contraction.c.Q) : l.blockSize ?? (columns ? columnBlock(columnCount) : BLOCK_SIZE);
  const blocks = columns ? (total === 0 ? 0 : Math.ceil(columnCount / blockSize)) : Math.ceil(total / blockSize);
  const segment = Math.max(1, l.segment ?? total);
  if (total % segment !== 0) throw new RangeError(`launch: segment ${segment} does not divide the ${total} elements`);
  const lcm = (segment / gcd(segment, blockSize)) * blockSize;
  const segmentLcm = lcm > 0xfffffffe ? 0xffffffff : lcm;
  const pieceIndex = (i: number): number =>
    Math.floor(i / segment) + Math.floor(i / blockSize) - Math.floor(i / segmentLcm);
  const pieces = columns ? columnCount : total === 0 ? 0 : pieceIndex(total - 1) + 1;
  return { blockSize, blocks, segment, segmentLcm, pieces, pieceIndex };
}

/** Fills a scan kernel's partials with each piece's starting value: the launch's, or each scan's identity. */
function writeScanStarts(spec: KernelSpec, partials: Float64Array, initial: Float64Array | undefined): void {
  const scans = spec.body.flatMap((ins) => (ins.op === 'scan' ? [ins] : []));
  if (initial !== undefined) {
    if (scans.length === 0) throw new RangeError('launch: initial values are for scan kernels; this kernel has no scan');
    if (spec.mode === 'columns') throw new RangeError("launch: a 'columns' kernel scans each column whole, from the identity; it takes no initial values");
    if (initial.length !== partials.length) {
      throw new RangeError(`launch: initial holds ${initial.length} values; the kernel's ${partials.length / Math.max(1, spec.slots)} pieces of ${spec.slots} slots need ${partials.length}`);
    }
    partials.set(initial);
    return;
  }
  // A column kernel starts its columns' running values itself, in its own layout.
  if (spec.mode === 'columns') return;
  for (const x of scans) for (let at = x.slot; at < partials.length; at += spec.slots) partials[at] = x.fn === 'prod' ? 1 : 0;
}

/** Reads what the blocks left (on success) and frees the launch block. */
function finishLaunch(p: PreparedLaunch, heap: HeapLike, ok: boolean): LaunchResult {
  try {
    if (!ok) return { partials: new Float64Array(0), blocks: p.blocks, pieces: p.pieces, pieceIndex: p.pieceIndex, flags: { divide: 0, invalid: 0, index: 0 } };
    const words = new Int32Array(heap.memory.buffer);
    const flag = (offset: number): number => [p.argsPtr, ...p.tempArgs].reduce((n, at) => n + (words[(at + offset) >>> 2] ?? 0), 0);
    return {
      partials: new Float64Array(heap.memory.buffer, p.partialsPtr, p.pieces * p.slots).slice(),
      blocks: p.blocks,
      pieces: p.pieces,
      pieceIndex: p.pieceIndex,
      flags: { divide: flag(ARGS.flagDivide), invalid: flag(ARGS.flagInvalid), index: flag(ARGS.flagIndex) },
    };
  } finally {
    for (const ptr of p.held) heap.free(ptr);
  }
}

/**
 * Marks every block of a launch claimed, so that no thread starts another
 * block of a launch that has failed, and a scan waiting on a block that will
 * not end gives up.
 */
function stopClaims(memory: WebAssembly.Memory, argsPtr: number): void {
  Atomics.store(new Int32Array(memory.buffer), claimIndex(argsPtr), CLAIMS_STOPPED);
}

/**
 * Whether a launch of `compiled` finds its scans' starting values itself
 * (emit-scan-chains.ts): then it takes no `initial`, and needs no totals
 * launch before it.
 */
function scanLooksBack(compiled: CompiledModule, l: Pick<Launch, 'shape' | 'segment' | 'blockSize'>): boolean {
  if (!compiled.scanLookBack) return false;
  const total = l.shape.reduce((a, b) => a * b, 1);
  return eachBlockOnePiece(total, Math.max(1, l.segment ?? total), l.blockSize ?? BLOCK_SIZE);
}

/**
 * Claims blocks of a prepared launch until none are left and runs them: what
 * each thread taking part does (the calling thread alone, or every worker).
 * Host-function flags are added to the launch block's counters.
 */
function runBlocks(kernel: KernelFn, memory: WebAssembly.Memory, argsPtr: number, blocks: number, host?: HostModule): number {
  host?.takeFlags?.();
  const claim = claimerOf(kernel);
  try {
    return claim(argsPtr, blocks);
  } catch (e) {
    stopClaims(memory, argsPtr);
    throw e;
  } finally {
    addHostFlags(memory, argsPtr, host);
  }
}

/** Runs a launch to the end on the calling thread. */
function launch(compiled: CompiledModule, heap: HeapLike, kernel: KernelFn, l: Launch, host?: HostModule): LaunchResult {
  const p = prepareLaunch(compiled, heap, l);
  try {
    if (p.blocks > 0) {
      // One call over every block: the calling thread alone needs no claims (a scan
      // takes the range in its groups, in order: emit-scan-chains.ts).
      host?.takeFlags?.();
      try {
        kernel(p.argsPtr, 0, p.blocks, p.scratch);
      } finally {
        addHostFlags(heap.memory, p.argsPtr, host);
      }
    }
  } catch (e) {
    finishLaunch(p, heap, false);
    throw e;
  }
  return finishLaunch(p, heap, true);
}

function addHostFlags(memory: WebAssembly.Memory, argsPtr: number, host?: HostModule): void {
  const f = host?.takeFlags?.();
  if (!f || (!f.divide && !f.invalid)) return;
  const words = new Int32Array(memory.buffer);
  Atomics.add(words, (argsPtr + ARGS.flagDivide) >>> 2, f.divide);
  Atomics.add(words, (argsPtr + ARGS.flagInvalid) >>> 2, f.invalid);
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

export { launch, instantiate, instanceCount, prepareLaunch, finishLaunch, runBlocks, stopClaims, scanLooksBack, checkArrays, planBlocks, BLOCK_SIZE, INSTANCE_CACHE };
export type { HeapLike, HostModule, KernelModule, Launch, LaunchArray, LaunchResult, PreparedLaunch, KernelFn, ContractionLaunch, ContractionOperand, TempLaunch };
