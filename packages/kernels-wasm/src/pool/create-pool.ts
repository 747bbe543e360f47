// Picks the pool for the host: piscina under Node, comlink over module Web
// Workers in browsers. What only one host has (piscina and worker_threads in
// Node, the Worker constructor in browsers) lives in host.ts, which the
// browser build swaps for host.browser.ts, so a browser bundle reaches no
// Node module. Both pools are loaded on demand.
import { isSharedBuffer } from '../support.js';
import type { KernelPool, PoolOptions } from './pool.js';
import type { SpawnWorker } from './comlink-pool.js';
import { defaultPoolKind, defaultSpawn, piscinaPool } from './host.js';

type PoolKind = 'piscina' | 'comlink';

interface CreatePoolOptions extends PoolOptions {
  /** Default: 'piscina' under Node, 'comlink' elsewhere. */
  readonly kind?: PoolKind;
  /** How a comlink worker is started (default: a module Web Worker, or worker_threads under Node). */
  readonly spawn?: SpawnWorker;
}

function checkOptions(o: CreatePoolOptions): void {
  if (!Number.isInteger(o.threads) || o.threads < 1) throw new RangeError(`createPool: threads must be an integer of at least 1; got ${String(o.threads)}`);
  if (!(o.memory instanceof WebAssembly.Memory) || !isSharedBuffer(o.memory.buffer)) {
    throw new TypeError('createPool: memory must be a shared WebAssembly.Memory');
  }
  if (o.kind !== undefined && o.kind !== 'piscina' && o.kind !== 'comlink') {
    throw new TypeError(`createPool: kind must be 'piscina' or 'comlink'; got ${JSON.stringify(o.kind)}`);
  }
}

async function createPool(options: CreatePoolOptions): Promise<KernelPool> {
  checkOptions(options);
  const kind = options.kind ?? defaultPoolKind();
  if (kind === 'piscina') return piscinaPool(options);
  const { ComlinkPool } = await import('./comlink-pool.js');
  return new ComlinkPool(options, options.spawn ?? await defaultSpawn());
}

export { createPool };
export type { CreatePoolOptions, PoolKind };
