// The interface both pools (piscina in Node, comlink over Web Workers) offer.
// Both launch through the doorbell (doorbell.ts): as many parked workers as
// the launch has blocks are woken, and each claims blocks from the launch
// block's atomic counter until none are left. On a short launch the calling
// thread may claim blocks too, in place of one of the workers.
import { finishLaunch, instantiate, prepareLaunch, runBlocks } from '../lower/launch.js';
import type { HeapLike, HostModule, KernelModule, Launch, LaunchResult } from '../lower/launch.js';
import type { CompiledModule } from '../lower/compile.js';

interface PoolOptions {
  /** Workers in the pool (at least 1). */
  readonly threads: number;
  /** The shared memory every kernel runs on; each worker receives it once. */
  readonly memory: WebAssembly.Memory;
  /** URL of the ES module that provides host functions to kernels in the workers. */
  readonly hostModule?: string | URL;
}

/** One launch as a pool sees it: a launch block in the heap and its block count. */
interface PoolJob {
  /** The kernel, with its wasm bytes for workers that lack it. */
  readonly kernel: KernelModule & { readonly bytes: Uint8Array };
  readonly argsPtr: number;
  readonly blocks: number;
  /** Names the kernel in errors. */
  readonly label: string;
  /**
   * Runs blocks of the launch on the calling thread until none are left: given,
   * the calling thread joins the launch and one worker fewer is woken.
   */
  readonly here?: () => void;
}

/** Counters for tests and benchmarks. */
interface PoolStats {
  /** Workers alive now (a dead worker's replacement counts once it exists). */
  readonly workers: number;
  readonly jobs: number;
  /** Launches given to workers (one per worker woken per launch). */
  readonly tasks: number;
  /** Kernel modules delivered to workers that lacked them. */
  readonly modulesSent: number;
}

interface KernelPool {
  readonly threads: number;
  stats(): PoolStats;
  /** Resolves once every worker has started; rejects with a PoolStartError if one could not. */
  start(): Promise<void>;
  /** Runs every block of the job; rejects with a WorkerFailure, after every task of the job has settled. */
  run(job: PoolJob): Promise<void>;
  /** Stops the workers; pending jobs reject. */
  close(): Promise<void>;
}

/**
 * Runs a launch on the pool: the same launch block and blocks as launch() on
 * the calling thread. `join`: the calling thread runs blocks too, with these
 * host functions (a short launch, where waking one more worker and sleeping
 * until the workers are done costs more than it saves).
 */
async function launchOnPool(
  pool: KernelPool, compiled: CompiledModule, heap: HeapLike, l: Launch, label: string, join?: { readonly host: HostModule },
): Promise<LaunchResult> {
  const p = prepareLaunch(compiled, heap, l, pool.threads);
  try {
    const here = join ? (): void => { runBlocks(instantiate(compiled, heap.memory, join.host), heap.memory, p.argsPtr, p.blocks, join.host); } : undefined;
    if (p.blocks > 0) await pool.run({ kernel: compiled, argsPtr: p.argsPtr, blocks: p.blocks, label, ...(here ? { here } : {}) });
  } catch (e) {
    finishLaunch(p, heap, false);
    throw e;
  }
  return finishLaunch(p, heap, true);
}

export { launchOnPool };
export type { KernelPool, PoolJob, PoolOptions, PoolStats };
