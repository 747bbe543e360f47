// The pool over Web Workers (browsers), driven through comlink. Unlike
// piscina, it addresses each worker itself, so a kernel's module goes to each
// worker exactly once. A worker that dies fails its pending tasks and is
// replaced; a worker that cannot start fails start() and is not replaced.
import { wrap } from 'comlink';
import type { Endpoint, Remote } from 'comlink';
import { PoolStartError, WorkerFailure } from './errors.js';
import type { ExposedRuntime } from './exposed-runtime.js';
import { blockTask, runRounds } from './pool.js';
import type { KernelPool, PoolJob, PoolOptions, PoolStats } from './pool.js';
import type { BlockTask, TaskReply, WorkerInit } from './protocol.js';

/** A started worker as the pool sees it, whatever the host (Web Worker, worker_threads). */
interface WorkerHandle {
  readonly endpoint: Endpoint;
  /** Calls `listener` once if the worker dies (exit, uncaught error). */
  onDeath(listener: (reason: string) => void): void;
  /** The worker has work pending (Node: keep the process alive for it). */
  busy?(): void;
  /** The worker has nothing pending (Node: let the process exit without it). */
  idle?(): void;
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
  /** Each position's worker once started; a dead worker's position gets a new promise for its replacement. */
  #ready: Promise<Slot>[] = [];
  #live: Slot[] = [];
  #started: Promise<void> | undefined;
  #closed = false;
  #jobs = 0;
  #tasks = 0;
  #modulesSent = 0;

  constructor(options: PoolOptions, spawn: SpawnWorker) {
    this.threads = options.threads;
    this.#spawn = spawn;
    this.#memory = options.memory;
    this.#init = { memory: options.memory, ...(options.hostModule ? { hostModule: String(options.hostModule) } : {}) };
  }

  start(): Promise<void> {
    this.#started ??= (async () => {
      this.#ready = Array.from({ length: this.threads }, (_, i) => this.#startSlot(i));
      await Promise.all(this.#ready);
    })();
    return this.#started;
  }

  stats(): PoolStats {
    return { workers: this.#live.filter((s) => !s.dead).length, jobs: this.#jobs, tasks: this.#tasks, modulesSent: this.#modulesSent };
  }

  async #startSlot(i: number): Promise<Slot> {
    const handle = this.#spawn();
    const slot: Slot = { handle, remote: wrap<ExposedRuntime>(handle.endpoint), kernels: new Set(), pending: new Set(), dead: false };
    let started = false;
    let died: (reason: string) => void = () => {};
    const death = new Promise<{ died: string }>((resolve) => { died = (reason) => resolve({ died: reason }); });
    handle.onDeath((reason) => {
      slot.dead = true;
      died(reason);
      for (const reject of slot.pending) reject(reason);
      slot.pending.clear();
      this.#live = this.#live.filter((s) => s !== slot);
      // A worker that died after starting is replaced; one that never started is not retried.
      if (!this.#closed && started) this.#ready[i] = this.#startSlot(i);
    });
    handle.busy?.();
    const reply = await Promise.race([slot.remote.start(this.#init), death]);
    if (reply && 'died' in reply) throw new PoolStartError(`a worker died while starting: ${reply.died}`);
    if (reply) {
      slot.dead = true;
      handle.terminate();
      throw new PoolStartError(reply.kind === 'failed' ? reply.error.message : 'unexpected reply');
    }
    started = true;
    this.#live.push(slot);
    handle.idle?.();
    return slot;
  }

  async run(job: PoolJob): Promise<void> {
    this.#jobs++;
    await this.start();
    const slots = await Promise.all(this.#ready);
    const send = (withKernel: boolean): Promise<TaskReply>[] => slots.map((slot) => {
      const attach = withKernel || !slot.kernels.has(job.kernel.id);
      const task = blockTask(job, attach);
      this.#tasks++;
      if (attach) this.#modulesSent++;
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
      slot.handle.busy?.();
      (slot.remote.run(task) as Promise<TaskReply>).then(resolve, reject).finally(() => {
        slot.pending.delete(fail);
        if (slot.pending.size === 0 && !slot.dead) slot.handle.idle?.();
      });
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const slots = await Promise.allSettled(this.#ready);
    for (const s of slots) {
      if (s.status !== 'fulfilled') continue;
      for (const reject of s.value.pending) reject('the pool was closed');
      s.value.dead = true;
      s.value.handle.terminate();
    }
    this.#ready = [];
    this.#live = [];
  }
}

export { ComlinkPool };
export type { SpawnWorker, WorkerHandle };
