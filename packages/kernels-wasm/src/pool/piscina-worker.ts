// The piscina worker: starts its runtime as it loads and parks on the
// doorbell. Nothing here may throw at load time (piscina would respawn a
// worker that dies while starting, again and again); a failure to start is
// the reply to start()'s ping instead.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BroadcastChannel, threadId, workerData } from 'node:worker_threads';
import { park } from './park.js';
import { serializeFailure } from './protocol.js';
import type { MutableInit, Rebind, StartReply } from './protocol.js';
import { WorkerRuntime } from './worker-runtime.js';

const init = workerData as MutableInit;
const runtime = WorkerRuntime.start(init);
const parked = runtime.then((rt) => park(rt, init.control, threadId, init.threads, init.generation, collect));
parked.catch(() => {});
// A new memory comes by a channel of the pool's own: piscina takes every message to the worker as its start.
if (init.channel) {
  const channel = new BroadcastChannel(init.channel);
  channel.unref();
  channel.onmessage = (e: unknown): void => {
    const { memory, generation } = (e as { data: Rebind }).data;
    // workerData is held for the worker's life (piscina keeps it too): it must not hold the old memory.
    if (generation > init.generation) Object.assign(init, { memory, generation });
    parked.then((p) => p.rebind(memory, generation), () => {});
  };
}

/**
 * A full collection in this worker, once it has dropped the old memory: an
 * idle worker allocates nothing, so its collector would not run for a long
 * time, and until it does its dead instances keep the old memory (hundreds
 * of MB) mapped. Node has no API for it; gc() is made for this one context
 * and the flag put back at once, so no other context gets a gc global.
 */
function collect(): void {
  // Started with --expose-gc: the flag is the user's, and stays as it is.
  const own = (globalThis as { gc?: () => void }).gc;
  if (own) return own();
  // The flag is the process's: another thread may put it back between the two calls, so a few tries.
  for (let i = 0; i < 3; i++) {
    try {
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('typeof gc === "function" ? gc : undefined') as (() => void) | undefined;
      if (gc) return gc();
    } catch {
      // Without it the memory still goes at this worker's next collection.
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
}

/** The ping: whether this worker could start. */
export default async function handle(): Promise<StartReply> {
  try {
    await runtime;
    return null;
  } catch (e) {
    return { kind: 'failed', error: serializeFailure(e) };
  }
}
