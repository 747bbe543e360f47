// Module-level execution and lifetime: da.execute([a, b]), shutdown() and backend statistics.
import { INSTANCE_CACHE, MODULE_CACHE, defaultHeap, moduleCacheSize } from 'kernels-wasm';
import type { HeapStats } from 'kernels-wasm';
import { backendStats, runNodes, runNodesAsync } from '../execute/linker.js';
import type { OutputRecord } from '../execute/linker.js';
import type { StdNdarray } from '../util/stdlib.js';
import { DeferredArray, nodeOf } from './deferred-array.js';
import { describe } from './operand.js';
import { shutdownPool, workerBlocks } from '../wasm/pool.js';
import { resultRequest } from '../results/request.js';
import type { ExecuteOptions } from '../results/request.js';
import { viewStats } from '../results/views.js';
import { cachedBytes } from '../wasm/source-cache.js';
import { kernelInstanceCount } from '../wasm/backend.js';
import { TEMPLATES, stagePlanStats } from '../trace/stage-plans.js';
import { compiledStats } from './compile.js';

function checkArrays(xs: unknown): DeferredArray[] {
  if (!Array.isArray(xs) || xs.length === 0) {
    throw new TypeError(`execute: expected a non-empty array of DeferredArrays; got ${describe(xs)}`);
  }
  xs.forEach((x, i) => {
    if (!(x instanceof DeferredArray)) throw new TypeError(`execute: element ${i} is not a DeferredArray; got ${describe(x)}`);
  });
  return xs as DeferredArray[];
}

/**
 * Plans and runs several arrays together; resolves to one ndarray per array,
 * or the NEP record with result as that list. Options as DeferredArray.execute()
 * (out: a list of arrays, one per array executed, or a record).
 */
async function execute(xs: readonly DeferredArray[], options?: ExecuteOptions): Promise<StdNdarray[] | OutputRecord> {
  const roots = checkArrays(xs).map((x) => nodeOf(x));
  return (await runNodesAsync(roots, true, false, resultRequest('execute', options))) as StdNdarray[] | OutputRecord;
}

function executeSync(xs: readonly DeferredArray[], options?: ExecuteOptions): StdNdarray[] | OutputRecord {
  return runNodes(checkArrays(xs).map((x) => nodeOf(x)), true, false, resultRequest('executeSync', options)) as StdNdarray[] | OutputRecord;
}

/**
 * Ends the worker pool once the kernels already on it finish; the next
 * execute() starts a new one. An idle pool never keeps Node alive, so this is
 * for freeing the workers (or for a clean exit in tests), not for exiting.
 */
async function shutdown(): Promise<void> {
  await shutdownPool();
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
  /** Plans of in-place trace stages, kept by graph structure. */
  readonly stagePlans: number;
  readonly stagePlansLimit: number;
  /** Compiled functions alive, and the sizes they hold plans for (at most compiledSizesLimit each). */
  readonly compiledFunctions: number;
  readonly compiledSizes: number;
  readonly compiledSizesLimit: number;
}

function cacheStats(): CacheStats {
  const compiled = compiledStats();
  return {
    kernels: moduleCacheSize(),
    kernelsLimit: MODULE_CACHE,
    kernelInstances: kernelInstanceCount(),
    kernelInstancesLimit: INSTANCE_CACHE,
    stagePlans: stagePlanStats().templates,
    stagePlansLimit: TEMPLATES,
    compiledFunctions: compiled.functions,
    compiledSizes: compiled.sizes,
    compiledSizesLimit: compiled.sizesLimit,
  };
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
function stats(): {
  backend: string; runs: number; steps: number; pooled: number; joined: number; plans: number; stagePlansReused: number; writtenOver: number;
  kernelsCompiled: number; compileMs: number; bytesMoved: number;
  /** Blocks each worker of the pool has run since it started (empty without a pool; the calling thread's share is not counted). */
  workerBlocks: number[];
  caches: CacheStats;
} {
  return { ...backendStats(), workerBlocks: workerBlocks(), caches: cacheStats() };
}

/** kernels-wasm's heap statistics, with what view results and the source cache hold of the heap. */
interface HeapStatistics extends HeapStats {
  /** View results not yet released, and the heap bytes they hold. */
  readonly views: number;
  readonly viewBytes: number;
  /** Bytes of sources' heap copies kept between runs (freed by dispose(), evicted when the heap needs room). */
  readonly cachedBytes: number;
}

/** The shared heap's statistics, with what view results and the source cache hold of it. */
function heapStats(): HeapStatistics {
  return { ...defaultHeap().stats(), ...viewStats(), cachedBytes: cachedBytes() };
}

export { execute, executeSync, shutdown, stats, heapStats };
export type { HeapStatistics, CacheStats };
