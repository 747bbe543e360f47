// Module-level execution and lifetime: da.execute([a, b]), shutdown() and backend statistics.
import { defaultHeap } from 'kernels-wasm';
import { backendStats, runNodes, runNodesAsync } from '../execute/linker.js';
import type { OutputRecord } from '../execute/linker.js';
import type { StdNdarray } from '../util/stdlib.js';
import { DeferredArray, nodeOf } from './deferred-array.js';
import { describe } from './operand.js';
import { shutdownPool } from '../wasm/pool.js';

function checkArrays(xs: unknown): DeferredArray[] {
  if (!Array.isArray(xs) || xs.length === 0) {
    throw new TypeError(`execute: expected a non-empty array of DeferredArrays; got ${describe(xs)}`);
  }
  xs.forEach((x, i) => {
    if (!(x instanceof DeferredArray)) throw new TypeError(`execute: element ${i} is not a DeferredArray; got ${describe(x)}`);
  });
  return xs as DeferredArray[];
}

/** Plans and runs several arrays together; resolves to one ndarray per array, or the NEP record with result as that list. */
async function execute(xs: readonly DeferredArray[]): Promise<StdNdarray[] | OutputRecord> {
  return (await runNodesAsync(checkArrays(xs).map((x) => nodeOf(x)), true)) as StdNdarray[] | OutputRecord;
}

function executeSync(xs: readonly DeferredArray[]): StdNdarray[] | OutputRecord {
  return runNodes(checkArrays(xs).map((x) => nodeOf(x)), true) as StdNdarray[] | OutputRecord;
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
 * Counters of the active backend (plans run, steps evaluated or kernels
 * launched, kernels run on the worker pool, bytes their plans read and write as planned), of the planner (plans made)
 * and of the kernel compiler (modules compiled, milliseconds spent):
 * tests use them to prove that nothing ran, or that nothing was planned or recompiled.
 */
function stats(): { backend: string; runs: number; steps: number; pooled: number; plans: number; kernelsCompiled: number; compileMs: number; bytesMoved: number } {
  return backendStats();
}

/** The shared heap's statistics: bytes in use, peak, live allocations, bytes and allocations made so far, heap size. */
function heapStats(): { bytesInUse: number; peakBytes: number; liveAllocations: number; allocatedBytes: number; allocations: number; heapBytes: number; freeBytes: number } {
  return defaultHeap().stats();
}

export { execute, executeSync, shutdown, stats, heapStats };
