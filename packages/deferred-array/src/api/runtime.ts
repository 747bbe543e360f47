// A runtime of its own: a worker pool, kernel and plan caches, settings and
// counters apart from the default runtime's (the one da.execute, da.configure
// and da.stats use). Arrays, mutable arrays and view results belong to no
// runtime: they live in the one process heap, and any runtime may execute them.
import type { Linker, OutputRecord } from '../execute/linker.js';
import type { Config, ConfigureOptions } from '../execute/config.js';
import type { ExecuteOptions } from '../results/request.js';
import type { StdNdarray } from '../util/stdlib.js';
import type { DeferredArray } from './deferred-array.js';
import { createLinker } from './default-linker.js';
import { executeOn, executeSyncOn, statsOf } from './execute.js';
import type { Stats } from './execute.js';

/**
 * An execution runtime: its own worker pool, kernel and plan caches,
 * settings and statistics. The module-level functions (`da.execute`,
 * `da.configure`, `da.stats`, `da.flush`, `da.shutdown`) use a default one;
 * make another to run with other settings beside it (two runtimes with
 * different thread counts coexist and give bit-identical results), or to
 * count a piece of work apart. Shut it down when done with it; `await using`
 * does so.
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
