// What a comlink worker exposes: one call that starts its runtime and parks
// it on the doorbell under the id the pool gave it.
import { park } from './park.js';
import type { Parked } from './park.js';
import { serializeFailure } from './protocol.js';
import type { StartReply, WorkerInit } from './protocol.js';
import { WorkerRuntime } from './worker-runtime.js';

interface ExposedRuntime {
  /** Resolves to null once started and parked, or to why this worker cannot work. */
  start(init: WorkerInit, id: number): Promise<StartReply>;
  /** Takes up the heap's new memory (of `generation`); before start() ends, as it parks. */
  rebind(memory: WebAssembly.Memory, generation: number): void;
}

function exposedRuntime(): ExposedRuntime {
  let parked: Parked | undefined;
  let pending: { readonly memory: WebAssembly.Memory; readonly generation: number } | undefined;
  return {
    async start(init, id) {
      try {
        parked = park(await WorkerRuntime.start(init), init.control, id, init.threads, init.generation);
        if (pending) parked.rebind(pending.memory, pending.generation);
        pending = undefined;
        return null;
      } catch (e) {
        return { kind: 'failed', error: serializeFailure(e) };
      }
    },
    rebind(memory, generation) {
      if (parked) parked.rebind(memory, generation);
      else pending = { memory, generation };
    },
  };
}

export { exposedRuntime };
export type { ExposedRuntime };
