// What crosses between the calling thread and a worker. A worker receives the
// shared memory once, each kernel's compiled module once, and then per launch
// only the address of a launch block already written in the shared heap.
import type { KernelModule } from '../lower/launch.js';

interface WorkerInit {
  readonly memory: WebAssembly.Memory;
  /** URL of an ES module exporting hostFunction(key) and optionally takeFlags() (see HostModule). */
  readonly hostModule?: string;
}

interface BlockTask {
  /** Which kernel (CompiledModule.id); `kernel` carries the module itself the first time a worker needs it. */
  readonly id: number;
  readonly kernel?: KernelModule;
  /** Byte address of the launch block; its claim word hands out the blocks. */
  readonly argsPtr: number;
  readonly blocks: number;
}

interface SerializedFailure {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

type TaskReply =
  | { readonly kind: 'done'; readonly worker: number; readonly blocks: number }
  /** The worker lacked the kernel and claimed nothing: send it the module. */
  | { readonly kind: 'missing'; readonly worker: number }
  | { readonly kind: 'failed'; readonly worker: number; readonly error: SerializedFailure };

function serializeFailure(e: unknown): SerializedFailure {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    return { name: e.name, message: e.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { name: 'Error', message: String(e) };
}

export { serializeFailure };
export type { WorkerInit, BlockTask, TaskReply, SerializedFailure };
