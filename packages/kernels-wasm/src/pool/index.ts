// The worker pool: kernels run on workers that share the heap.
export { createPool } from './create-pool.js';
export { launchOnPool, launchFixedOnPool } from './pool.js';
export { WorkerFailure, PoolStartError } from './errors.js';
export type { CreatePoolOptions, PoolKind } from './create-pool.js';
export type { Join, KernelPool, PoolJob, PoolOptions, PoolStats } from './pool.js';
export type { SpawnWorker, WorkerHandle } from './comlink-pool.js';
export { workerUrl as builtModuleUrl } from './worker-url.js';
export type { SerializedFailure } from './protocol.js';
