// A runtime of its own: a heap, a worker pool, kernel and plan caches,
// settings and counters apart from the default runtime's (the one da.execute,
// da.configure and da.stats use). Arrays belong to no runtime: any runtime
// executes any array, copying into its heap what lies in another's (a view
// result of another runtime, a mutable array, which lives in the process heap).
import type { Linker, OutputRecord } from '../execute/linker.js';
import type { Config, ConfigureOptions } from '../execute/config.js';
import type { ExecuteOptions } from '../results/request.js';
import type { StdNdarray } from '../util/stdlib.js';
import type { DeferredArray } from './deferred-array.js';
import { createLinker } from './default-linker.js';
import { executeOn, executeSyncOn, heapStatsOf, statsOf } from './execute.js';
import type { HeapStatistics, Stats } from './execute.js';

/**
 * An execution runtime: its own heap, worker pool, kernel and plan caches,
 * settings and statistics. The module-level functions (`da.execute`,
 * `da.configure`, `da.stats`, `da.heapStats`, `da.flush`, `da.shutdown`) use
 * a default one, whose heap is the process heap; make another to run with
 * other settings beside it (two runtimes with different thread counts coexist
 * and give bit-identical results), to keep a piece of work's memory apart, or
 * to count it apart. Its heap is made on its first run. What it reads from
 * another heap it copies in: a view result of another runtime, and mutable
 * arrays, which live in the process heap (their in-place writes are copied
 * back). Shut it down when done with it; `await using` does so.
 *
 * @example
 * const rt = da.createRuntime({ threads: 2 });
 * const [y] = await rt.execute([da.sin(x)]);
 * console.log(rt.stats().pooled);
 * await rt.shutdown();
 */
class Runtime {
  readonly #linker: Linker;

  /** Options as `da.configure()`; the rest from the environment, as for the default runtime. */
  constructor(options: ConfigureOptions = {}) {
    this.#linker = createLinker();
    this.#linker.configure(options);
  }

  /** The settings in force. */
  get config(): Config {
    return this.#linker.config;
  }

  /** As `da.configure()`, for this runtime: changes settings and returns the whole configuration now in force. */
  configure(options?: ConfigureOptions): Config {
    return this.#linker.configure(options);
  }

  /** As `da.execute()`, on this runtime. */
  execute(xs: readonly DeferredArray[], options?: ExecuteOptions): Promise<StdNdarray[] | OutputRecord> {
    return executeOn(this.#linker, xs, options);
  }

  /** As `da.executeSync()`, on this runtime. */
  executeSync(xs: readonly DeferredArray[], options?: ExecuteOptions): StdNdarray[] | OutputRecord {
    return executeSyncOn(this.#linker, xs, options);
  }

  /** As `da.flush()`: runs every pending in-place computation, on this runtime. */
  async flush(): Promise<void> {
    await this.#linker.runNodesAsync([], false, true);
  }

  /** As `da.flushSync()`, on this runtime. */
  flushSync(): void {
    this.#linker.runNodes([], false, true);
  }

  /** As `da.stats()`: this runtime's counters only (compiled functions run on the default runtime and are counted there). */
  stats(): Stats {
    return statsOf(this.#linker);
  }

  /** As `da.heapStats()`: this runtime's heap, and what its view results and cached sources hold of it. */
  heapStats(): HeapStatistics {
    return heapStatsOf(this.#linker);
  }

  /** Ends this runtime's worker pool once the kernels already on it finish; a later execute() starts a new one. */
  async shutdown(): Promise<void> {
    await this.#linker.shutdown();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.shutdown();
  }
}

/** A new runtime with these settings (options as `da.configure()`); see {@link Runtime}. */
function createRuntime(options?: ConfigureOptions): Runtime {
  return new Runtime(options);
}

export { Runtime, createRuntime };
