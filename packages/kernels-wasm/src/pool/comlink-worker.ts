// The Web Worker entry for browsers: the runtime exposed through comlink.
import { expose } from 'comlink';
import { exposedRuntime } from './exposed-runtime.js';

expose(exposedRuntime(), globalThis as unknown as Parameters<typeof expose>[1]);
