// The Node pool: piscina workers over the shared heap. Piscina hands each task
// to an idle worker, so the tasks of one launch spread over the pool; which
// worker has which kernel is learnt from the replies.
import { Piscina } from 'piscina';
import { PoolStartError } from './errors.js';
import { blockTask, runRounds } from './pool.js';
import type { KernelPool, PoolJob, PoolOptions, PoolStats } from './pool.js';
import type { TaskReply, WorkerInit } from './protocol.js';
import { workerUrl } from './worker-url.js';
import { packageRoot } from '../package-root.js';

class PiscinaPool implements KernelPool {
  readonly threads: number;
  readonly #piscina: Piscina;
  readonly #memory: WebAssembly.Memory;
  /** Worker thread ids known to hold each kernel. */
  readonly #holders = new Map<number, Set<number>>();
  #started: Promise<void> | undefined;
  #jobs = 0;
  #tasks = 0;
  #modulesSent = 0;

  constructor(options: PoolOptions) {
    this.threads = options.threads;
    this.#memory = options.memory;
    const init: WorkerInit = {
      memory: options.memory,
      ...(options.hostModule ? { hostModule: String(options.hostModule) } : {}),
    };
    this.#piscina = new Piscina({
      filename: workerUrl('pool/piscina-worker', packageRoot).href,
      minThreads: options.threads,
      maxThreads: options.threads,
      idleTimeout: Infinity,
      concurrentTasksPerWorker: 1,
      workerData: init,
    });
    // Errors reach the pending tasks; an unhandled 'error' event would end the process.
    this.#piscina.on('error', () => {});
  }

  start(): Promise<void> {
    this.#started ??= (async () => {
      const replies = await Promise.allSettled(
        Array.from({ length: this.threads }, () => this.#piscina.run({ ping: true }) as Promise<TaskReply>),
      );
      for (const r of replies) {
        if (r.status === 'rejected') throw new PoolStartError(String((r.reason as Error)?.message ?? r.reason), { cause: r.reason });
        if (r.value.kind === 'failed') throw new PoolStartError(r.value.error.message);
      }
    })();
    return this.#started;
  }

  stats(): PoolStats {
    return { workers: this.#piscina.threads.length, jobs: this.#jobs, tasks: this.#tasks, modulesSent: this.#modulesSent };
  }

  async run(job: PoolJob): Promise<void> {
    this.#jobs++;
    const holders = this.#holders.get(job.kernel.id) ?? new Set<number>();
    this.#holders.set(job.kernel.id, holders);
    const everyoneHas = this.#piscina.threads.every((t) => holders.has(t.threadId));
    const send = (withKernel: boolean): Promise<TaskReply>[] => {
      const task = blockTask(job, withKernel);
      this.#tasks += this.threads;
      if (withKernel) this.#modulesSent += this.threads;
      return Array.from({ length: this.threads }, () => (this.#piscina.run(task) as Promise<TaskReply>).then((r) => {
        if (withKernel && r.kind !== 'missing') holders.add(r.worker);
        return r;
      }));
    };
    await runRounds(job, this.#memory, send, !everyoneHas);
  }

  async close(): Promise<void> {
    await this.#piscina.destroy();
  }
}

export { PiscinaPool };
