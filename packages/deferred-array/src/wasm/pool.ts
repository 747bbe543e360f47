// The worker pool the WebAssembly backend runs big kernels on: made on first
// need with the runtime's thread count, remade when that changes, ended by
// shutdown(). A pool that cannot start is not retried: execution stays on
// the calling thread, with one warning saying why. Each runtime's backend
// holds its own pool, whose workers import that runtime's heap.
import { createPool, heapIsShared } from 'kernels-wasm';
import type { KernelPool, PoolKind } from 'kernels-wasm';
import { hostModuleUrl } from './host-module.js';
import { emitWarning } from '../util/platform.js';
import type { WasmHeap } from './heap.js';

interface PoolSettings {
  /** The module workers load host functions from (tests substitute one that fails on cue). */
  readonly hostModule: string;
  readonly kind?: PoolKind;
}

const defaults = (): PoolSettings => ({ hostModule: hostModuleUrl() });

/** For tests, process-wide: what every pool started from now on uses. */
const testSettings: { current: PoolSettings | undefined } = { current: undefined };

/** A pool for a thread count; `ready` once it has started (for its counts). */
interface PoolEntry { readonly threads: number; readonly pool: Promise<KernelPool | undefined>; ready?: KernelPool }

/** Says once per process that there is no shared memory: the fact is the host's, not a runtime's. */
const warned = { unshared: false };

/**
 * Where the heap is not shared (a browser page without cross-origin
 * isolation has no SharedArrayBuffer) there is no pool: says so once, with
 * what to do, and kernels run on the calling thread. True when that is so.
 */
function noSharedHeap(): boolean {
  if (heapIsShared()) return false;
  if (!warned.unshared) {
    warned.unshared = true;
    emitWarning(
      'deferred-array: no shared memory (SharedArrayBuffer) here, so kernels run on the calling thread over an ordinary ' +
      'WebAssembly.Memory, with the same results; in a browser, serve the page cross-origin isolated ' +
      '(Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy: require-corp) for the worker pool.',
    );
  }
  return true;
}

class WorkerPool {
  readonly #heap: WasmHeap;
  #current: PoolEntry | undefined;
  /** Set once a pool failed to start: nothing is retried until shutdown(). */
  #unavailable = false;
  /** Jobs on each pool, so a pool being replaced or shut down finishes them first. */
  readonly #inFlight = new Map<Promise<KernelPool | undefined>, Set<Promise<unknown>>>();
  /** The workers taking up the heap's new memory: jobs wait for it. */
  #rebinding: Promise<void> | undefined;

  constructor(heap: WasmHeap) {
    this.#heap = heap;
  }

  /** Blocks each worker of the current pool has run since it started (none without a pool). */
  workerBlocks(): number[] {
    return this.#current?.ready ? [...this.#current.ready.stats().blocksPerWorker] : [];
  }

  /** Runs `job` with the pool for `threads` workers, or with none where there is no pool. */
  async withPool<T>(threads: number, job: (pool: KernelPool | undefined) => Promise<T>): Promise<T> {
    if (noSharedHeap()) return job(undefined);
    if (this.#rebinding) await this.#rebinding;
    if (this.#current && this.#current.threads !== threads) {
      void this.#retire(this.#current.pool);
      this.#current = undefined;
    }
    if (this.#unavailable) return job(undefined);
    const handle = (this.#current ??= this.#entry(threads)).pool;
    const run = handle.then(job);
    let jobs = this.#inFlight.get(handle);
    if (!jobs) this.#inFlight.set(handle, (jobs = new Set()));
    jobs.add(run);
    try {
      return await run;
    } finally {
      jobs.delete(run);
    }
  }

  /**
   * The heap started over on a new memory, with no job in flight: the
   * workers take it up (a message each, where restarting them would cost
   * 100-200 ms), and jobs wait until they have. A pool still starting, or
   * whose workers do not all take it up, ends instead; the next job starts
   * one on the new memory.
   */
  rebind(): Promise<void> {
    const entry = this.#current;
    if (!entry) return Promise.resolve();
    const done = (async (): Promise<void> => {
      const ok = entry.ready ? await entry.ready.rebind(this.#heap.kernels.memory) : false;
      if (ok || this.#current !== entry) return;
      this.#current = undefined;
      await this.#retire(entry.pool);
    })().finally(() => {
      if (this.#rebinding === done) this.#rebinding = undefined;
    });
    this.#rebinding = done;
    return done;
  }

  /** Ends the pool after its running jobs; the next withPool() starts a new one. */
  async shutdown(): Promise<void> {
    const old = this.#current;
    this.#current = undefined;
    this.#unavailable = false;
    if (old) await this.#retire(old.pool);
  }

  #entry(threads: number): PoolEntry {
    const entry: PoolEntry = { threads, pool: this.#start(threads).then((p) => (entry.ready = p)) };
    return entry;
  }

  async #start(threads: number): Promise<KernelPool | undefined> {
    const settings = testSettings.current ?? defaults();
    let pool: KernelPool | undefined;
    try {
      pool = await createPool({ threads, memory: this.#heap.kernels.memory, hostModule: settings.hostModule, ...(settings.kind ? { kind: settings.kind } : {}) });
      await pool.start();
      return pool;
    } catch (e) {
      this.#unavailable = true;
      void pool?.close().catch(() => {});
      emitWarning(
        `deferred-array: ${e instanceof Error ? e.message : String(e)}; ` +
        'kernels run on the calling thread from now on. da.shutdown() resets this.',
      );
      return undefined;
    }
  }

  /** Closes a pool once the jobs already given to it are done. */
  async #retire(pool: Promise<KernelPool | undefined>): Promise<void> {
    await Promise.allSettled([...(this.#inFlight.get(pool) ?? [])]);
    this.#inFlight.delete(pool);
    await (await pool)?.close();
  }
}

/** For tests: a different host module or pool kind, taking effect with the next pool of every runtime. */
function setPoolSettings(s: Partial<PoolSettings> | undefined): void {
  testSettings.current = s ? { ...defaults(), ...s } : undefined;
}

export { WorkerPool, noSharedHeap, setPoolSettings };
