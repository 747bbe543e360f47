// The interface both pools (piscina in Node, comlink over Web Workers) offer.
// Both launch through the doorbell (doorbell.ts): as many parked workers as
// the launch has blocks are woken, and each claims blocks from the launch
// block's atomic counter until none are left. On a short launch the calling
// thread may claim blocks too, in place of one of the workers.
import { finishLaunch, instantiate, prepareLaunch, runBlocks } from '../lower/launch.js';
import type { HeapLike, HostModule, KernelModule, Launch, LaunchResult } from '../lower/launch.js';
import { fixedResult, writeFixed } from '../lower/fixed-launch.js';
import type { FixedLaunch } from '../lower/fixed-launch.js';
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
  /** Blocks run by each worker slot since the pool started (the calling thread's share not counted). */
  readonly blocksPerWorker: readonly number[];
}

interface KernelPool {
  readonly threads: number;
  stats(): PoolStats;
  /** Resolves once every worker has started; rejects with a PoolStartError if one could not. */
  start(): Promise<void>;
  /** Runs every block of the job; rejects with a WorkerFailure (or the error `here` threw), after every task of the job has settled. */
  run(job: PoolJob): Promise<void>;
  /**
   * Binds the workers to a new memory (the heap started over): resolves to
   * true once every worker has it, false if one did not take it up (close
   * the pool then). Call with no job in flight; later jobs run on the new memory.
   */
  rebind(memory: WebAssembly.Memory): Promise<boolean>;
  /** Stops the workers; pending jobs reject. */
  close(): Promise<void>;
}

/**
 * The calling thread's offer to run blocks of a launch, with `host`'s
 * functions: taken when `accept` says yes to the launch's block count (a
 * short launch, where waking one more worker and sleeping until the workers
 * are done costs more than it saves).
 */
interface Join {
  readonly host: HostModule;
  readonly accept?: (blocks: number) => boolean;
}

/**
 * Runs a launch on the pool: the same launch block and blocks as launch() on
 * the calling thread, and with `join`, the calling thread among the threads
 * that run them. Rejects with a WorkerFailure, or with the calling thread's
 * own error when it failed running its blocks.
 */
async function launchOnPool(
  pool: KernelPool, compiled: CompiledModule, heap: HeapLike, l: Launch, label: string, join?: Join,
): Promise<LaunchResult> {
  const p = prepareLaunch(compiled, heap, l, pool.threads);
  try {
    // The calling thread does not join a scan whose groups wait on each other: it would wait
    // inside the kernel, where it could not see a worker die and stop the launch's claims, and
    // the wait sleeps (memory.atomic.wait32, emit-scan-chains.ts's awaitGroupBefore), which traps
    // on a browser's main thread.
    const here = p.lookBack ? undefined : joinedRun(compiled, heap.memory, p.argsPtr, p.blocks, join);
    if (p.blocks > 0) await pool.run({ kernel: compiled, argsPtr: p.argsPtr, blocks: p.blocks, label, ...(here ? { here } : {}) });
  } catch (e) {
    finishLaunch(p, heap, false);
    throw e;
  }
  return finishLaunch(p, heap, true);
}

/**
 * The calling thread's part of a launch: blocks run until none are left,
 * where `join` takes a launch of so many blocks. A launch of one block has no
 * place for a worker beside the calling thread: the pool runs it.
 */
function joinedRun(compiled: CompiledModule, memory: WebAssembly.Memory, argsPtr: number, blocks: number, join: Join | undefined): (() => void) | undefined {
  const host = join && blocks > 1 && (join.accept?.(blocks) ?? true) ? join.host : undefined;
  // Instantiated before the workers are woken: a failure here must not leave them every block.
  const fn = host && instantiate(compiled, memory, host);
  return fn ? (): void => { runBlocks(fn, memory, argsPtr, blocks, host); } : undefined;
}

/**
 * runFixed() on the pool: `f`'s launch block written at `at` (f.bytes long,
 * which the caller allocated and frees) with the arrays at `ptrs`, its
 * blocks run by the workers (and the calling thread, as `join` says, as in
 * launchOnPool). No checks, no block planning and no allocation beyond the
 * partials: the launch a plan run again sends. The same blocks as runFixed()
 * and launch(), so the same bits.
 */
async function launchFixedOnPool(
  pool: KernelPool, f: FixedLaunch, memory: WebAssembly.Memory, at: number, ptrs: ArrayLike<number>, label: string, join?: Join,
): Promise<LaunchResult> {
  const words = writeFixed(f, memory, at, ptrs);
  if (f.blocks > 0) {
    const here = joinedRun(f.compiled, memory, at, f.blocks, join);
    await pool.run({ kernel: f.compiled, argsPtr: at, blocks: f.blocks, label, ...(here ? { here } : {}) });
  }
  return fixedResult(f, memory, words, at);
}

export { launchOnPool, launchFixedOnPool };
export type { Join, KernelPool, PoolJob, PoolOptions, PoolStats };
