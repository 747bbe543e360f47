// The pool over Web Workers (browsers), driven through comlink: the pool
// starts each worker and replaces one that dies; launches reach them through
// the doorbell like the piscina pool's. A worker that cannot start fails
// start() and is not replaced.
import { wrap } from 'comlink';
import type { Endpoint, Remote } from 'comlink';
import { Doorbell } from './doorbell.js';
import { PoolStartError } from './errors.js';
import type { ExposedRuntime } from './exposed-runtime.js';
import type { KernelPool, PoolJob, PoolOptions, PoolStats } from './pool.js';
import type { MutableInit } from './protocol.js';

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

class ComlinkPool implements KernelPool {
  readonly threads: number;
  readonly #spawn: SpawnWorker;
  /** What each worker starts with; a rebind changes it, so a replacement starts with the new memory. */
  readonly #init: MutableInit;
  readonly #doorbell: Doorbell;
  /**
   * Live workers by the id each was given, with their comlink proxies: held
   * for the worker's life, because comlink releases a collected proxy's
   * endpoint, and a Node worker whose endpoint is released has nothing left
   * to listen to and exits (code 0), which the pool would take for a death.
   */
  readonly #live = new Map<number, { readonly handle: WorkerHandle; readonly remote: Remote<ExposedRuntime> }>();
  #nextId = 1;
  #started: Promise<void> | undefined;
  #closed = false;
  /** Rejects when the pool closes: a worker still starting then never answers, and start() must not wait on it forever. */
  readonly #closing: Promise<never>;
  #close: () => void = () => {};
  #jobs = 0;

  constructor(options: PoolOptions, spawn: SpawnWorker) {
    this.threads = options.threads;
    this.#spawn = spawn;
    this.#doorbell = new Doorbell(options.threads, options.memory, (id) => this.#live.has(id), () => this.#send());
    this.#init = {
      memory: options.memory,
      control: this.#doorbell.buffer,
      threads: options.threads,
      generation: 0,
      ...(options.hostModule ? { hostModule: String(options.hostModule) } : {}),
    };
    this.#closing = new Promise<never>((_, reject) => {
      this.#close = () => reject(new PoolStartError('the pool was closed while its workers were starting'));
    });
    this.#closing.catch(() => {});
  }

  start(): Promise<void> {
    this.#started ??= (async () => {
      await Promise.all(Array.from({ length: this.threads }, () => this.#startWorker()));
      await this.#doorbell.allParked();
    })();
    return this.#started;
  }

  stats(): PoolStats {
    return { workers: this.#live.size, jobs: this.#jobs, ...this.#doorbell.counts() };
  }

  async #startWorker(): Promise<void> {
    const id = this.#nextId++;
    const handle = this.#spawn();
    const remote: Remote<ExposedRuntime> = wrap<ExposedRuntime>(handle.endpoint);
    let started = false;
    let died: (reason: string) => void = () => {};
    const death = new Promise<{ died: string }>((resolve) => { died = (reason) => resolve({ died: reason }); });
    handle.onDeath((reason) => {
      died(reason);
      this.#live.delete(id);
      this.#doorbell.sweep(`the worker exited (${reason})`);
      // A worker that died after starting is replaced; one that never started is not retried.
      if (!this.#closed && started) void this.#startWorker().catch(() => {});
    });
    handle.busy?.();
    this.#live.set(id, { handle, remote });
    const reply = await Promise.race([remote.start(this.#init, id), death, this.#closing]);
    if (reply && 'died' in reply) throw new PoolStartError(`a worker died while starting: ${reply.died}`);
    if (reply) {
      this.#live.delete(id);
      handle.terminate();
      throw new PoolStartError(reply.error.message);
    }
    started = true;
    // Parked workers wait on the doorbell, which holds no process open.
    handle.idle?.();
  }

  async run(job: PoolJob): Promise<void> {
    this.#jobs++;
    await this.start();
    await this.#doorbell.run(job);
  }

  rebind(memory: WebAssembly.Memory): Promise<boolean> {
    return this.#doorbell.rebind(memory, this.#init);
  }

  /** The current memory to every live worker (one that has it already ignores it). */
  #send(): void {
    const { memory, generation } = this.#init;
    for (const { remote } of this.#live.values()) void Promise.resolve(remote.rebind(memory, generation)).catch(() => {});
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#close();
    this.#doorbell.close();
    for (const { handle } of this.#live.values()) handle.terminate();
    this.#live.clear();
  }
}

export { ComlinkPool };
export type { SpawnWorker, WorkerHandle };
