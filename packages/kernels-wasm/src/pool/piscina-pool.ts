// The Node pool: piscina owns the workers' lives (start, replacement after a
// crash, shutdown); launches reach them through the doorbell, not as tasks.
// Each worker parks itself on the doorbell as it loads, so a replacement
// joins on its own; a message (a ping) is only how start() learns that every
// worker could load.
import { BroadcastChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { Doorbell } from './doorbell.js';
import { PoolStartError } from './errors.js';
import type { KernelPool, PoolJob, PoolOptions, PoolStats } from './pool.js';
import type { MutableInit, Rebind, StartReply } from './protocol.js';
import { workerUrl } from './worker-url.js';
import { packageRoot } from '../package-root.js';

/** Numbers the pools' channels in this thread. */
const channels = { next: 1 };

class PiscinaPool implements KernelPool {
  readonly threads: number;
  readonly #piscina: Piscina;
  readonly #doorbell: Doorbell;
  /** What each worker starts with: piscina starts a replacement with the same object, so a rebind changes it. */
  readonly #init: MutableInit;
  /** Where a new memory is sent to every worker. */
  readonly #channel: BroadcastChannel;
  #started: Promise<void> | undefined;
  #closed = false;
  #jobs = 0;

  constructor(options: PoolOptions) {
    this.threads = options.threads;
    this.#doorbell = new Doorbell(options.threads, options.memory, (worker) => this.#piscina.threads.some((t) => t.threadId === worker), () => this.#send());
    const channel = `kernels-wasm-pool-${channels.next++}-${Math.random().toString(36).slice(2)}`;
    this.#channel = new BroadcastChannel(channel);
    this.#channel.unref();
    const init: MutableInit = {
      memory: options.memory,
      control: this.#doorbell.buffer,
      threads: options.threads,
      generation: 0,
      channel,
      ...(options.hostModule ? { hostModule: String(options.hostModule) } : {}),
    };
    this.#init = init;
    this.#piscina = new Piscina({
      filename: workerUrl('pool/piscina-entry', packageRoot, 'cjs').href,
      minThreads: options.threads,
      maxThreads: options.threads,
      idleTimeout: Infinity,
      concurrentTasksPerWorker: 1,
      // piscina's own Atomics.wait loop would block the worker's event loop, where it parks on the doorbell.
      atomics: 'disabled',
      workerData: init,
    });
    // Errors reach the pending tasks; an unhandled 'error' event would end the process.
    this.#piscina.on('error', () => {});
    this.#piscina.on('workerDestroy', () => this.#doorbell.sweep());
  }

  start(): Promise<void> {
    this.#started ??= (async () => {
      const replies = await Promise.allSettled(
        Array.from({ length: this.threads }, () => this.#piscina.run({ ping: true }) as Promise<StartReply>),
      );
      for (const r of replies) {
        if (r.status === 'rejected' && this.#closed) throw new PoolStartError('the pool was closed while its workers were starting', { cause: r.reason });
        if (r.status === 'rejected') throw new PoolStartError(String((r.reason as Error)?.message ?? r.reason), { cause: r.reason });
        if (r.value) throw new PoolStartError(r.value.error.message);
      }
      await this.#doorbell.allParked();
    })();
    return this.#started;
  }

  stats(): PoolStats {
    return { workers: this.#piscina.threads.length, jobs: this.#jobs, ...this.#doorbell.counts() };
  }

  async run(job: PoolJob): Promise<void> {
    this.#jobs++;
    await this.start();
    await this.#doorbell.run(job);
  }

  rebind(memory: WebAssembly.Memory): Promise<boolean> {
    return this.#doorbell.rebind(memory, this.#init);
  }

  /** The current memory to every worker (one that has it already ignores it). */
  #send(): void {
    const message: Rebind = { memory: this.#init.memory, generation: this.#init.generation };
    this.#channel.postMessage(message);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#channel.close();
    this.#doorbell.close();
    await this.#piscina.destroy();
  }
}

export { PiscinaPool };
