// The worker pool the WebAssembly backend runs big kernels on: made on first
// need with configure({ threads }) workers, remade when that changes, ended
// by shutdown(). A pool that cannot start is not retried: execution stays on
// the calling thread, with one warning saying why.
import { createPool, defaultHeap, heapIsShared } from 'kernels-wasm';
import type { KernelPool, PoolKind } from 'kernels-wasm';
import { getConfig } from '../execute/config.js';
import { hostModuleUrl } from './host-module.js';
import { emitWarning } from '../util/platform.js';

interface PoolSettings {
  /** The module workers load host functions from (tests substitute one that fails on cue). */
  readonly hostModule: string;
  readonly kind?: PoolKind;
}

const defaults = (): PoolSettings => ({ hostModule: hostModuleUrl() });

let settings: PoolSettings = defaults();
/** A pool for a thread count; `ready` once it has started (for its counts). */
interface PoolEntry { readonly threads: number; readonly pool: Promise<KernelPool | undefined>; ready?: KernelPool }
let current: PoolEntry | undefined;
/** Set once a pool failed to start: nothing is retried until shutdown(). */
let unavailable = false;
/** Jobs on each pool, so a pool being replaced or shut down finishes them first. */
const inFlight = new Map<Promise<KernelPool | undefined>, Set<Promise<unknown>>>();

async function startPool(threads: number): Promise<KernelPool | undefined> {
  let pool: KernelPool | undefined;
  try {
    pool = await createPool({ threads, memory: defaultHeap().memory, hostModule: settings.hostModule, ...(settings.kind ? { kind: settings.kind } : {}) });
    await pool.start();
    return pool;
  } catch (e) {
    unavailable = true;
    void pool?.close().catch(() => {});
    emitWarning(
      `deferred-array: ${(e as Error)?.message ?? String(e)}; ` +
      'kernels run on the calling thread from now on. da.shutdown() resets this.',
    );
    return undefined;
  }
}

/** Closes a pool once the jobs already given to it are done. */
async function retire(pool: Promise<KernelPool | undefined>): Promise<void> {
  await Promise.allSettled([...(inFlight.get(pool) ?? [])]);
  inFlight.delete(pool);
  await (await pool)?.close();
}

let warnedUnshared = false;
/** Blocks each worker of the current pool has run since it started (none without a pool). */
function workerBlocks(): number[] {
  return current?.ready ? [...current.ready.stats().blocksPerWorker] : [];
}

/**
 * Where the heap is not shared (a browser page without cross-origin
 * isolation has no SharedArrayBuffer) there is no pool: says so once, with
 * what to do, and kernels run on the calling thread. True when that is so.
 */
function noSharedHeap(): boolean {
  if (heapIsShared()) return false;
  if (!warnedUnshared) {
    warnedUnshared = true;
    emitWarning(
      'deferred-array: no shared memory (SharedArrayBuffer) here, so kernels run on the calling thread over an ordinary ' +
      'WebAssembly.Memory, with the same results; in a browser, serve the page cross-origin isolated ' +
      '(Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy: require-corp) for the worker pool.',
    );
  }
  return true;
}

/** Runs `job` with the pool for the configured thread count, or with none where there is no pool. */
async function withPool<T>(job: (pool: KernelPool | undefined) => Promise<T>): Promise<T> {
  const { threads } = getConfig();
  if (noSharedHeap()) return job(undefined);
  if (current && current.threads !== threads) {
    void retire(current.pool);
    current = undefined;
  }
  if (unavailable) return job(undefined);
  if (!current) {
    const entry: PoolEntry = { threads, pool: startPool(threads).then((p) => (entry.ready = p)) };
    current = entry;
  }
  const handle = current.pool;
  const run = handle.then(job);
  let jobs = inFlight.get(handle);
  if (!jobs) inFlight.set(handle, (jobs = new Set()));
  jobs.add(run);
  try {
    return await run;
  } finally {
    jobs.delete(run);
  }
}

/** Ends the pool after its running jobs; the next execute() starts a new one. */
async function shutdownPool(): Promise<void> {
  const old = current;
  current = undefined;
  unavailable = false;
  if (old) await retire(old.pool);
}

/** For tests: a different host module or pool kind, taking effect with the next pool. */
function setPoolSettings(s: Partial<PoolSettings> | undefined): void {
  settings = s ? { ...defaults(), ...s } : defaults();
}

export { noSharedHeap, withPool, shutdownPool, setPoolSettings, workerBlocks };
