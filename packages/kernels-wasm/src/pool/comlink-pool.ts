// The pool over Web Workers (browsers), driven through comlink. Unlike
// piscina, it addresses each worker itself, so a kernel's module goes to each
// worker exactly once. A worker that dies fails its pending tasks and is
// replaced; a worker that cannot start fails start() and is not replaced.
import { wrap } from 'comlink';
import type { Endpoint, Remote } from 'comlink';
import { PoolStartError, WorkerFailure } from './errors.js';
import type { ExposedRuntime } from './exposed-runtime.js';
import { runRounds } from './pool.js';
import type { KernelPool, PoolJob, PoolOptions } from './pool.js';
import type { BlockTask, TaskReply, WorkerInit } from './protocol.js';

/** A started worker as the pool sees it, whatever the host (Web Worker, worker_threads). */
interface WorkerHandle {
  readonly endpoint: Endpoint;
  /** Calls `listener` once if the worker dies (exit, uncaught error). */
  onDeath(listener: (reason: string) => void): void;
  terminate(): void;
}

type SpawnWorker = () => WorkerHandle;

interface Slot {
  readonly handle: WorkerHandle;
  readonly remote: Remote<ExposedRuntime>;
  readonly kernels: Set<number>;
  readonly pending: Set<(reason: string) => void>;
  dead: boolean;
}

class ComlinkPool implements KernelPool {
  readonly threads: number;
  readonly #spawn: SpawnWorker;
  readonly #init: WorkerInit;
  readonly #memory: WebAssembly.Memory;
  #slots: Slot[] = [];
  #started: Promise<void> | undefined;
  #closed = false;

  constructor(options: PoolOptions, spawn: SpawnWorker) {
    this.threads = options.threads;
    this.#spawn = spawn;
    this.#memory = options.memory;
    this.#init = { memory: options.memory, ...(options.hostModule ? { hostModule: String(options.hostModule) } : {}) };
  }

  start(): Promise<void> {
    this.#started ??= Promise.all(Array.from({ length: this.threads }, (_, i) => this.#startSlot(i))).then(() => undefined);
    return this.#started;
  }

  async #startSlot(i: number): Promise<void> {
    const handle = this.#spawn();
    const slot: Slot = { handle, remote: wrap<ExposedRuntime>(handle.endpoint), kernels: new Set(), pending: new Set(), dead: false };
    this.#slots[i] = slot;
    let died: ((reason: string) => void) | undefined;
    const death = new Promise<string>((resolve) => { died = resolve; });
    let started = false;
    handle.onDeath((reason) => {
      slot.dead = true;
      died!(reason);
      for (const reject of slot.pending) reject(reason);
      slot.pending.clear();
      // Replace a worker that died after starting; one that never started is not retried.
      if (!this.#closed && started) void this.#startSlot(i).catch(() => {});
    });
    const reply = await Promise.race([slot.remote.start(this.#init), death.then((reason) => ({ died: reason }))]);
    if (reply && 'died' in reply) throw new PoolStartError(`a worker died while starting: ${reply.died}`);
    if (reply) {
      handle.terminate();
      throw new PoolStartError(reply.kind === 'failed' ? reply.error.message : 'unexpected reply');
    }
    started = true;
  }

  async run(job: PoolJob): Promise<void> {
    await this.start();
    const send = (withKernel: boolean): Promise<TaskReply>[] => this.#slots.map((slot) => {
      const attach = withKernel || !slot.kernels.has(job.kernel.id);
      const task: BlockTask = {
        id: job.kernel.id,
        argsPtr: job.argsPtr,
        blocks: job.blocks,
        ...(attach ? { kernel: { hash: job.kernel.hash, id: job.kernel.id, module: job.kernel.module, hostKeys: job.kernel.hostKeys } } : {}),
      };
      return this.#call(slot, task).then((r) => {
        if (attach && r.kind === 'done') slot.kernels.add(job.kernel.id);
        return r;
      });
    });
    await runRounds(job, this.#memory, send, false);
  }

  #call(slot: Slot, task: BlockTask): Promise<TaskReply> {
    if (slot.dead) return Promise.reject(new Error('the worker had died'));
    return new Promise<TaskReply>((resolve, reject) => {
      const fail = (reason: string): void => reject(new Error(`worker exited: ${reason}`));
      slot.pending.add(fail);
      (slot.remote.run(task) as Promise<TaskReply>).then(resolve, reject).finally(() => slot.pending.delete(fail));
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const slot of this.#slots) {
      for (const reject of slot.pending) reject('the pool was closed');
      slot.handle.terminate();
    }
    this.#slots = [];
  }
}

export { ComlinkPool };
export type { SpawnWorker, WorkerHandle };
