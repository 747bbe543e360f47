// Module-level execution and lifetime on the default runtime: da.execute([a, b]),
// configure(), shutdown() and statistics.
import type { HeapStats } from '../core/heap.js';
import { NotSupportedError } from '../ir/errors.js';
import { streamerFor } from '../ir/mapped.js';
import type { Linker, OutputRecord } from '../execute/linker.js';
import type { Config, ConfigureOptions } from '../execute/config.js';
import type { StdNdarray } from '../util/stdlib.js';
import { DeferredArray, nodeOf } from './deferred-array.js';
import { describe } from './operand.js';
import { resultRequest } from '../results/request.js';
import type { ExecuteOptions } from '../results/request.js';
import { viewStats } from '../results/views.js';
import { sourcesOf } from '../core/source-cache.js';
import { TEMPLATES } from '../trace/stage-plans.js';
import { compiledStats } from './compile.js';
import { defaultLinker } from './default-linker.js';

function checkArrays(xs: unknown): DeferredArray[] {
  if (!Array.isArray(xs) || xs.length === 0) {
    throw new TypeError(`execute: expected a non-empty array of DeferredArrays; got ${describe(xs)}`);
  }
  xs.forEach((x, i) => {
    if (!(x instanceof DeferredArray)) throw new TypeError(`execute: element ${i} is not a DeferredArray; got ${describe(x)}`);
  });
  return xs as DeferredArray[];
}

/** execute() on `linker`: its arrays planned and run together. */
async function executeOn(linker: Linker, xs: readonly DeferredArray[], options?: ExecuteOptions): Promise<StdNdarray[] | OutputRecord> {
  const roots = checkArrays(xs).map((x) => nodeOf(x));
  if (linker !== defaultLinker && streamerFor(roots)) {
    throw new NotSupportedError('execute: arrays loaded with mmapMode or from fromZarr are read through the default runtime (da.execute), not through a Runtime of its own');
  }
  return (await linker.runNodesAsync(roots, true, false, resultRequest('execute', options))) as StdNdarray[] | OutputRecord;
}

function executeSyncOn(linker: Linker, xs: readonly DeferredArray[], options?: ExecuteOptions): StdNdarray[] | OutputRecord {
  const roots = checkArrays(xs).map((x) => nodeOf(x));
  if (streamerFor(roots)) {
    throw new NotSupportedError('executeSync: arrays loaded with mmapMode or from fromZarr are read from their files or stores as a run goes, which only execute() does; await da.execute([...])');
  }
  return linker.runNodes(roots, true, false, resultRequest('executeSync', options)) as StdNdarray[] | OutputRecord;
}

/**
 * Plans and runs several arrays together; resolves to one ndarray per array,
 * or the NEP record with result as that list. Options as DeferredArray.execute()
 * (out: a list of arrays, one per array executed, or a record).
 */
async function execute(xs: readonly DeferredArray[], options?: ExecuteOptions): Promise<StdNdarray[] | OutputRecord> {
  // Arrays over files loaded with mmapMode stream together, in one pass over the files.
  const roots = checkArrays(xs).map((x) => nodeOf(x));
  const streamer = streamerFor(roots);
  if (streamer) return (await streamer(roots, { options, many: true })) as StdNdarray[] | OutputRecord;
  return executeOn(defaultLinker, xs, options);
}

function executeSync(xs: readonly DeferredArray[], options?: ExecuteOptions): StdNdarray[] | OutputRecord {
  return executeSyncOn(defaultLinker, xs, options);
}

/** Changes settings and returns the whole configuration now in force. */
function configure(options?: ConfigureOptions): Config {
  return defaultLinker.configure(options);
}

/**
 * Ends the worker pool once the kernels already on it finish; the next
 * execute() starts a new one. An idle pool never keeps Node alive, so this is
 * for freeing the workers (or for a clean exit in tests), not for exiting.
 */
async function shutdown(): Promise<void> {
  await defaultLinker.shutdown();
}

/**
 * What the caches hold now, beside their limits: each drops its least
 * recently used entry past the limit, so a program making ever new graphs
 * keeps its memory bounded (it compiles or plans some again).
 */
interface CacheStats {
  /** Compiled kernel modules (kernels-wasm, by spec hash). */
  readonly kernels: number;
  readonly kernelsLimit: number;
  /** Kernels instantiated on the calling thread (each pool worker keeps as many at most). */
  readonly kernelInstances: number;
  readonly kernelInstancesLimit: number;
  /** Plans of requests (execute() calls), kept by graph structure. */
  readonly plans: number;
  readonly plansLimit: number;
  /** Plans of in-place trace stages, kept by graph structure. */
  readonly stagePlans: number;
  readonly stagePlansLimit: number;
  /** Compiled functions alive, and the sizes they hold plans for (at most compiledSizesLimit each). */
  readonly compiledFunctions: number;
  readonly compiledSizes: number;
  readonly compiledSizesLimit: number;
}

interface Stats {
  backend: string; runs: number; steps: number; pooled: number; joined: number; plans: number; plansReused: number; stagePlansReused: number; writtenOver: number;
  kernelsCompiled: number; compileMs: number; bytesMoved: number;
  /** Blocks each worker of the pool has run since it started (empty without a pool; the calling thread's share is not counted). */
  workerBlocks: number[];
  caches: CacheStats;
}

/** A runtime's statistics; compiled functions (which run on the default runtime) are counted with it only. */
function statsOf(linker: Linker): Stats {
  const compiled = linker === defaultLinker ? compiledStats() : { functions: 0, sizes: 0, sizesLimit: compiledStats().sizesLimit };
  const caches: CacheStats = {
    ...linker.cacheStats(),
    stagePlansLimit: TEMPLATES,
    compiledFunctions: compiled.functions,
    compiledSizes: compiled.sizes,
    compiledSizesLimit: compiled.sizesLimit,
  };
  return { ...linker.stats(), caches };
}

/**
 * Counters of the active backend (plans run, steps evaluated or kernels
 * launched, kernels run on the worker pool and those the calling thread took part in, bytes their plans read and
 * write as planned), of the planner (plans made)
 * and of the kernel compiler (modules compiled, milliseconds spent), and of
 * the trace (stages bound to a plan made before, versions written over the
 * block of the one they replace): tests use them to prove that nothing ran,
 * or that nothing was planned or recompiled.
 */
function stats(): Stats {
  return statsOf(defaultLinker);
}

/** kernels-wasm's heap statistics, with what view results and the source cache hold of the heap. */
interface HeapStatistics extends HeapStats {
  /** View results not yet released, and the heap bytes they hold. */
  readonly views: number;
  readonly viewBytes: number;
  /** Bytes of sources' heap copies kept between runs (freed by dispose(), evicted when the heap needs room, dropped when the heap is trimmed). */
  readonly cachedBytes: number;
  /** Bytes in use by neither: mutable arrays, and runs in progress. Views and these keep the heap from being trimmed. */
  readonly otherBytes: number;
  /**
   * The calling thread's private heap, once a run has used it: a run that
   * copies every argument in and its result out (a compiled call over
   * ordinary arrays, a few MiB in all) takes its blocks there, because V8
   * copies to and from a shared heap a word at a time. At most 8 MiB; it
   * holds nothing between calls, and is let go when the runtime is idle.
   */
  readonly privateHeap: HeapStats | undefined;
}

/** `linker`'s heap statistics, with what view results and the source cache hold of it. */
function heapStatsOf(linker: Linker): HeapStatistics {
  const { heap } = linker;
  const stats = heap.stats();
  const views = viewStats(heap);
  const { cachedBytes } = sourcesOf(heap);
  return {
    ...stats, ...views, cachedBytes, otherBytes: Math.max(0, stats.bytesInUse - views.viewBytes - cachedBytes), privateHeap: linker.backend.privateHeap?.(),
  };
}

/** The default runtime's heap (the process heap) statistics, with what view results and the source cache hold of it. */
function heapStats(): HeapStatistics {
  return heapStatsOf(defaultLinker);
}

export { execute, executeSync, executeOn, executeSyncOn, configure, shutdown, stats, statsOf, heapStats, heapStatsOf };
export type { HeapStatistics, CacheStats, Stats };
