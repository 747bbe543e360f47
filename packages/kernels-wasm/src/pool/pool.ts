// The interface both pools (piscina in Node, comlink over Web Workers) offer,
// and the launch protocol they share: one task per worker per launch; each
// worker claims blocks from the launch block's atomic counter until none are
// left; a worker that lacks the kernel says so and is sent the module.
import { ARGS } from '../lower/args-layout.js';
import { finishLaunch, prepareLaunch } from '../lower/launch.js';
import type { HeapLike, KernelModule, Launch, LaunchResult } from '../lower/launch.js';
import type { CompiledModule } from '../lower/compile.js';
import { WorkerFailure } from './errors.js';
import type { BlockTask, TaskReply } from './protocol.js';

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
  readonly kernel: KernelModule;
  readonly argsPtr: number;
  readonly blocks: number;
  /** Names the kernel in errors. */
  readonly label: string;
}

/** Counters for tests and benchmarks. */
interface PoolStats {
  /** Workers alive now (a dead worker's replacement counts once it exists). */
  readonly workers: number;
  readonly jobs: number;
  readonly tasks: number;
  /** Tasks that carried a kernel's compiled module. */
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

/** A worker's task for `job`; with `attach`, it carries the kernel's module for a worker that lacks it. */
function blockTask(job: PoolJob, attach: boolean): BlockTask {
  const { kernel } = job;
  return {
    id: kernel.id,
    argsPtr: job.argsPtr,
    blocks: job.blocks,
    ...(attach ? { kernel: { hash: kernel.hash, id: kernel.id, module: kernel.module, hostKeys: kernel.hostKeys } } : {}),
  };
}

/**
 * Sends one task per worker, then sends the module to any worker that lacked
 * it while blocks remain, and reports the first failure once all have settled.
 */
async function runRounds(
  job: PoolJob,
  memory: WebAssembly.Memory,
  send: (withKernel: boolean) => Promise<TaskReply>[],
  needsKernel: boolean,
): Promise<void> {
  const claim = (job.argsPtr + ARGS.claim) >>> 2;
  const unclaimed = (): boolean => Atomics.load(new Int32Array(memory.buffer), claim) < job.blocks;
  let withKernel = needsKernel;
  for (let round = 0; round < 3; round++) {
    const tasks = send(withKernel).map((t) => t.catch((e: unknown) => {
      // A worker died mid-launch: no one else starts a block of this job.
      Atomics.store(new Int32Array(memory.buffer), claim, job.blocks);
      throw e;
    }));
    const settled = await Promise.allSettled(tasks);
    const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (rejected) {
      const cause = rejected.reason instanceof Error ? `${rejected.reason.name}: ${rejected.reason.message}` : String(rejected.reason);
      throw new WorkerFailure(job.label, cause, { cause: rejected.reason });
    }
    const replies = settled.map((s) => (s as PromiseFulfilledResult<TaskReply>).value);
    const failed = replies.find((r): r is Extract<TaskReply, { kind: 'failed' }> => r.kind === 'failed');
    if (failed) {
      throw new WorkerFailure(job.label, `${failed.error.name}: ${failed.error.message} (in worker ${failed.worker})`, { thrown: failed.error });
    }
    if (!unclaimed()) return;
    withKernel = true;
  }
  throw new WorkerFailure(job.label, 'no worker took the remaining blocks');
}

/** Runs a launch on the pool: the same launch block and blocks as launch() on the calling thread. */
async function launchOnPool(
  pool: KernelPool, compiled: CompiledModule, heap: HeapLike, l: Launch, label: string,
): Promise<LaunchResult> {
  const p = prepareLaunch(compiled, heap, l, pool.threads);
  try {
    if (p.blocks > 0) await pool.run({ kernel: compiled, argsPtr: p.argsPtr, blocks: p.blocks, label });
  } catch (e) {
    finishLaunch(p, heap, false);
    throw e;
  }
  return finishLaunch(p, heap, true);
}

export { runRounds, launchOnPool, blockTask };
export type { KernelPool, PoolJob, PoolOptions, PoolStats };
