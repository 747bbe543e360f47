// The piscina worker: receives the shared memory once through workerData and
// answers block tasks. Nothing here may throw at load time (piscina would
// respawn a worker that dies while starting, again and again); a failure to
// start is the reply to the first task instead.
import { threadId, workerData } from 'node:worker_threads';
import { serializeFailure } from './protocol.js';
import type { BlockTask, TaskReply, WorkerInit } from './protocol.js';
import { WorkerRuntime } from './worker-runtime.js';

let runtime: Promise<WorkerRuntime> | undefined;

/** A ping (no task) starts the runtime and reports whether it could. */
export default async function handle(task: BlockTask | { readonly ping: true }): Promise<TaskReply> {
  runtime ??= WorkerRuntime.start(workerData as WorkerInit, threadId);
  let rt: WorkerRuntime;
  try {
    rt = await runtime;
  } catch (e) {
    return { kind: 'failed', worker: threadId, error: serializeFailure(e) };
  }
  if ('ping' in task) return { kind: 'done', worker: threadId, blocks: 0 };
  return rt.run(task);
}
