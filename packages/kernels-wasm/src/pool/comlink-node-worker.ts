// The comlink worker in Node (worker_threads through comlink's node adapter):
// the browser path, exercised where the tests run.
import { parentPort } from 'node:worker_threads';
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { exposedRuntime } from './exposed-runtime.js';

if (parentPort) expose(exposedRuntime(), nodeEndpoint(parentPort as unknown as Parameters<typeof nodeEndpoint>[0]));
