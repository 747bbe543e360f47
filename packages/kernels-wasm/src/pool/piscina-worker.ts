// The piscina worker: starts its runtime as it loads and parks on the
// doorbell. Nothing here may throw at load time (piscina would respawn a
// worker that dies while starting, again and again); a failure to start is
// the reply to start()'s ping instead.
import { threadId, workerData } from 'node:worker_threads';
import { park } from './park.js';
import { serializeFailure } from './protocol.js';
import type { StartReply, WorkerInit } from './protocol.js';
import { WorkerRuntime } from './worker-runtime.js';

const init = workerData as WorkerInit;
const runtime = WorkerRuntime.start(init);
runtime.then((rt) => park(rt, init.control, threadId, init.threads), () => {});

/** The ping: whether this worker could start. */
export default async function handle(): Promise<StartReply> {
  try {
    await runtime;
    return null;
  } catch (e) {
    return { kind: 'failed', error: serializeFailure(e) };
  }
}
