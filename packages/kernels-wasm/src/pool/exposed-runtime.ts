// What a comlink worker exposes: start once with the shared memory, then run tasks.
import { serializeFailure } from './protocol.js';
import type { BlockTask, TaskReply, WorkerInit } from './protocol.js';
import { WorkerRuntime } from './worker-runtime.js';

interface ExposedRuntime {
  /** Resolves to null once started, or to why this worker cannot work. */
  start(init: WorkerInit): Promise<TaskReply | null>;
  run(task: BlockTask): TaskReply;
}

function exposedRuntime(id = 0): ExposedRuntime {
  let runtime: WorkerRuntime | undefined;
  return {
    async start(init) {
      try {
        runtime = await WorkerRuntime.start(init, id);
        return null;
      } catch (e) {
        return { kind: 'failed', worker: id, error: serializeFailure(e) };
      }
    },
    run(task) {
      if (!runtime) return { kind: 'failed', worker: id, error: { name: 'Error', message: 'the worker was not started' } };
      return runtime.run(task);
    },
  };
}

export { exposedRuntime };
export type { ExposedRuntime };
