// A comlink pool worker as a module Web Worker. The worker's URL is written
// as new URL('./comlink-worker.js', import.meta.url), the form Vite and
// webpack 5 recognise and bundle; this file sits beside comlink-worker.js in
// dist/pool/, and the browser build writes its own self-contained
// comlink-worker.js beside its bundle (dist/browser/), so the form holds there
// too. A bundler that leaves the URL alone (esbuild) needs that file copied
// beside its output: see docs/browser.md.
import type { SpawnWorker } from './comlink-pool.js';

/** A module Web Worker; it dies as far as the pool cares on its first uncaught error. */
const browserSpawn: SpawnWorker = () => {
  const worker = new Worker(new URL('./comlink-worker.js', import.meta.url), { type: 'module' });
  return {
    endpoint: worker,
    onDeath: (listener) => worker.addEventListener('error', (e) => listener(e.message || 'error in the worker'), { once: true }),
    terminate: () => worker.terminate(),
  };
};

export { browserSpawn };
