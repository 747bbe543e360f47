// The Node side of create-pool.ts (host.browser.ts is the browser build's):
// piscina, and comlink over worker_threads through its node adapter, each
// imported only when asked for. A non-Node host running this build (Deno,
// a bundler that ignores the "browser" condition) still gets Web Workers.
import type { KernelPool, PoolOptions } from './pool.js';
import type { SpawnWorker } from './comlink-pool.js';
import { browserSpawn } from './browser-spawn.js';
import { workerUrl } from './worker-url.js';
import { packageRoot } from '../package-root.js';

const isNode = (): boolean => typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string';

const defaultPoolKind = (): 'piscina' | 'comlink' => (isNode() ? 'piscina' : 'comlink');

async function piscinaPool(options: PoolOptions): Promise<KernelPool> {
  const { PiscinaPool } = await import('./piscina-pool.js');
  return new PiscinaPool(options);
}

async function defaultSpawn(): Promise<SpawnWorker> {
  return isNode() ? nodeSpawn() : browserSpawn;
}

/** comlink's path in Node: worker_threads through its node adapter (unreferenced, so idle workers never hold the process). */
async function nodeSpawn(): Promise<SpawnWorker> {
  const { Worker } = await import('node:worker_threads');
  const { default: nodeEndpoint } = await import('comlink/dist/esm/node-adapter.mjs');
  return () => {
    const worker = new Worker(workerUrl('pool/comlink-node-worker', packageRoot));
    let reported = false;
    const deaths: ((reason: string) => void)[] = [];
    const report = (reason: string): void => {
      if (reported) return;
      reported = true;
      for (const d of deaths) d(reason);
    };
    worker.on('error', (e) => report(`${e.name}: ${e.message}`));
    worker.on('exit', (code) => report(`exit code ${code}`));
    return {
      endpoint: nodeEndpoint(worker as unknown as Parameters<typeof nodeEndpoint>[0]),
      onDeath: (listener) => { deaths.push(listener); },
      // comlink adds a message listener per call, which references the worker again.
      busy: () => worker.ref(),
      idle: () => worker.unref(),
      terminate: () => { reported = true; void worker.terminate(); },
    };
  };
}

export { defaultPoolKind, defaultSpawn, piscinaPool };
