// Picks the pool for the host: piscina under Node, comlink over module Web
// Workers in browsers. Both are loaded on demand, so neither is a cost where
// it is not used.
import type { KernelPool, PoolOptions } from './pool.js';
import type { SpawnWorker } from './comlink-pool.js';
import { workerUrl } from './worker-url.js';
import { packageRoot } from '../package-root.js';

type PoolKind = 'piscina' | 'comlink';

interface CreatePoolOptions extends PoolOptions {
  /** Default: 'piscina' under Node, 'comlink' elsewhere. */
  readonly kind?: PoolKind;
  /** How a comlink worker is started (default: a module Web Worker, or worker_threads under Node). */
  readonly spawn?: SpawnWorker;
}

const isNode = (): boolean => typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string';

function checkOptions(o: CreatePoolOptions): void {
  if (!Number.isInteger(o.threads) || o.threads < 1) throw new RangeError(`createPool: threads must be an integer of at least 1; got ${String(o.threads)}`);
  if (!(o.memory instanceof WebAssembly.Memory) || !(o.memory.buffer instanceof SharedArrayBuffer)) {
    throw new TypeError('createPool: memory must be a shared WebAssembly.Memory');
  }
  if (o.kind !== undefined && o.kind !== 'piscina' && o.kind !== 'comlink') {
    throw new TypeError(`createPool: kind must be 'piscina' or 'comlink'; got ${JSON.stringify(o.kind)}`);
  }
}

async function createPool(options: CreatePoolOptions): Promise<KernelPool> {
  checkOptions(options);
  const kind = options.kind ?? (isNode() ? 'piscina' : 'comlink');
  if (kind === 'piscina') {
    const { PiscinaPool } = await import('./piscina-pool.js');
    return new PiscinaPool(options);
  }
  const { ComlinkPool } = await import('./comlink-pool.js');
  return new ComlinkPool(options, options.spawn ?? (isNode() ? await nodeSpawn() : browserSpawn));
}

/** A module Web Worker; it dies as far as the pool cares on its first uncaught error. */
const browserSpawn: SpawnWorker = () => {
  const WorkerCtor = (globalThis as unknown as { Worker: new (url: URL, o: { type: 'module' }) => Worker }).Worker;
  const worker = new WorkerCtor(workerUrl('pool/comlink-worker', packageRoot), { type: 'module' });
  return {
    endpoint: worker,
    onDeath: (listener) => worker.addEventListener('error', (e) => listener(e.message || 'error in the worker'), { once: true }),
    terminate: () => worker.terminate(),
  };
};

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

export { createPool };
export type { CreatePoolOptions, PoolKind };
