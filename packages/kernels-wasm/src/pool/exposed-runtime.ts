// What a comlink worker exposes: one call that starts its runtime and parks
// it on the doorbell under the id the pool gave it.
import { park } from './park.js';
import { serializeFailure } from './protocol.js';
import type { StartReply, WorkerInit } from './protocol.js';
import { WorkerRuntime } from './worker-runtime.js';

interface ExposedRuntime {
  /** Resolves to null once started and parked, or to why this worker cannot work. */
  start(init: WorkerInit, id: number): Promise<StartReply>;
}

function exposedRuntime(): ExposedRuntime {
  return {
    async start(init, id) {
      try {
        park(await WorkerRuntime.start(init), init.control, id, init.threads);
        return null;
      } catch (e) {
        return { kind: 'failed', error: serializeFailure(e) };
      }
    },
  };
}

export { exposedRuntime };
export type { ExposedRuntime };
