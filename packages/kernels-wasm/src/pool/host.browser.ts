// The browser build's host.ts (scripts/bundle.mjs swaps it in): comlink over
// module Web Workers only. piscina is Node's, and nothing here imports it.
import type { KernelPool } from './pool.js';
import type { SpawnWorker } from './comlink-pool.js';
import { browserSpawn } from './browser-spawn.js';

const defaultPoolKind = (): 'piscina' | 'comlink' => 'comlink';

function piscinaPool(): Promise<KernelPool> {
  return Promise.reject(new TypeError("createPool: kind 'piscina' is Node's pool (worker_threads); in a browser the pool is 'comlink', over module Web Workers"));
}

async function defaultSpawn(): Promise<SpawnWorker> {
  return browserSpawn;
}

export { defaultPoolKind, defaultSpawn, piscinaPool };
