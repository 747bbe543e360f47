// The worker's side of the pool, shared by the piscina and comlink workers:
// keeps the shared memory and the instantiated kernels, and runs its part of
// a launch by claiming blocks until none are left. Never throws: failures are
// replies, so a worker stays usable after a kernel traps.
import { Lru } from '../lru.js';
import { isSharedBuffer } from '../support.js';
import { INSTANCE_CACHE, instantiate, runBlocks } from '../lower/launch.js';
import type { HostModule, KernelFn, KernelModule } from '../lower/launch.js';
import { serializeFailure } from './protocol.js';
import type { SerializedFailure, WorkerInit } from './protocol.js';

const NO_HOST: HostModule = {
  hostFunction: (key) => {
    throw new Error(`kernel imports host function ${key}, but the pool was created without a hostModule`);
  },
};

/** What a worker made of its part of a launch. */
type Served =
  /** `blocks`: how many of the launch's blocks this worker ran. */
  | { readonly kind: 'done'; readonly blocks: number }
  /** The worker lacked the kernel and none was sent: it claimed nothing. */
  | { readonly kind: 'missing' }
  | { readonly kind: 'failed'; readonly error: SerializedFailure };

class WorkerRuntime {
  #memory: WebAssembly.Memory;
  readonly #host: HostModule;
  /** The kernels this worker was sent, compiled, by id: kept across a new memory, so none is sent or compiled again. */
  readonly #modules = new Lru<number, KernelModule>({ max: INSTANCE_CACHE });
  /** The kernels this worker has instantiated on its memory, by id. */
  readonly #kernels = new Lru<number, KernelFn>({ max: INSTANCE_CACHE });

  private constructor(memory: WebAssembly.Memory, host: HostModule) {
    this.#memory = memory;
    this.#host = host;
  }

  /** Loads the host module; rejects with the reason when this worker cannot work. */
  static async start(init: WorkerInit): Promise<WorkerRuntime> {
    if (!(init.memory instanceof WebAssembly.Memory) || !isSharedBuffer(init.memory.buffer)) {
      throw new Error('the worker did not receive a shared WebAssembly.Memory (is shared memory available here?)');
    }
    // A URL known only at run time: bundlers that would resolve the import themselves (webpack,
    // Vite) are told to leave it to the host.
    const host = init.hostModule ? (await import(/* webpackIgnore: true */ /* @vite-ignore */ init.hostModule)) as HostModule : NO_HOST;
    if (typeof host.hostFunction !== 'function') throw new Error(`host module ${init.hostModule} exports no hostFunction`);
    return new WorkerRuntime(init.memory, host);
  }

  /** Takes up the heap's new memory: kernels are instantiated on it as they are next run. */
  rebind(memory: WebAssembly.Memory): void {
    this.#memory = memory;
    this.#kernels.clear();
  }

  /** Runs blocks of the launch at `argsPtr` until none are left; `kernel` comes with the launch when this worker may lack it. */
  serve(id: number, argsPtr: number, blocks: number, kernel?: () => KernelModule): Served {
    try {
      let fn = this.#kernels.get(id);
      if (!fn) {
        // A kernel this worker never had, or dropped (least recently used first): the pool sends it again.
        const module = this.#modules.get(id) ?? kernel?.();
        if (!module) return { kind: 'missing' };
        this.#modules.set(id, module);
        fn = instantiate(module, this.#memory, this.#host);
        this.#kernels.set(id, fn);
      }
      return { kind: 'done', blocks: runBlocks(fn, this.#memory, argsPtr, blocks, this.#host) };
    } catch (e) {
      return { kind: 'failed', error: serializeFailure(e) };
    }
  }
}

export { WorkerRuntime };
