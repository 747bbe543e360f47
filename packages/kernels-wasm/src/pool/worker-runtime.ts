// The worker's side of the pool, shared by the piscina and comlink workers:
// keeps the shared memory and the instantiated kernels, and runs launches by
// claiming blocks until none are left. Never throws: failures are replies,
// so a worker stays usable after a kernel traps.
import { instantiate, runBlocks } from '../lower/launch.js';
import type { HostModule, KernelFn } from '../lower/launch.js';
import { serializeFailure } from './protocol.js';
import type { BlockTask, TaskReply, WorkerInit } from './protocol.js';

const NO_HOST: HostModule = {
  hostFunction: (key) => {
    throw new Error(`kernel imports host function ${key}, but the pool was created without a hostModule`);
  },
};

class WorkerRuntime {
  readonly #memory: WebAssembly.Memory;
  readonly #host: HostModule;
  readonly #id: number;
  /** The kernels this worker has instantiated, by id. */
  readonly #kernels = new Map<number, KernelFn>();

  private constructor(memory: WebAssembly.Memory, host: HostModule, id: number) {
    this.#memory = memory;
    this.#host = host;
    this.#id = id;
  }

  /** Loads the host module; rejects with the reason when this worker cannot work. */
  static async start(init: WorkerInit, id: number): Promise<WorkerRuntime> {
    if (!(init.memory instanceof WebAssembly.Memory) || !(init.memory.buffer instanceof SharedArrayBuffer)) {
      throw new Error('the worker did not receive a shared WebAssembly.Memory (is shared memory available here?)');
    }
    const host = init.hostModule ? (await import(init.hostModule)) as HostModule : NO_HOST;
    if (typeof host.hostFunction !== 'function') throw new Error(`host module ${init.hostModule} exports no hostFunction`);
    return new WorkerRuntime(init.memory, host, id);
  }

  run(task: BlockTask): TaskReply {
    try {
      let fn = this.#kernels.get(task.id);
      if (!fn) {
        if (!task.kernel) return { kind: 'missing', worker: this.#id };
        fn = instantiate(task.kernel, this.#memory, this.#host);
        this.#kernels.set(task.id, fn);
      }
      const blocks = runBlocks(fn, this.#memory, task.argsPtr, task.blocks, this.#host);
      return { kind: 'done', worker: this.#id, blocks };
    } catch (e) {
      return { kind: 'failed', worker: this.#id, error: serializeFailure(e) };
    }
  }
}

export { WorkerRuntime };
