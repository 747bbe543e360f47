// The little this package asks of its host, in one place: Node's side
// (platform.browser.ts is the browser build's).
import { createRequire } from 'node:module';
import { stackContext } from './stack-context.js';
import type { AsyncContext } from './stack-context.js';

const require = createRequire(import.meta.url);

function availableCores(): number {
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
  if (nav?.hardwareConcurrency) return nav.hardwareConcurrency;
  try {
    const os = require('node:os') as { availableParallelism?: () => number; cpus: () => unknown[] };
    return os.availableParallelism?.() ?? os.cpus().length;
  } catch {
    return 1;
  }
}

/** A warning the way the host reports them: process.emitWarning in Node, console.warn elsewhere. */
function emitWarning(message: string, type = 'RuntimeWarning'): void {
  const proc = (globalThis as { process?: { emitWarning?: (m: string, t: string) => void } }).process;
  if (proc?.emitWarning) proc.emitWarning(message, type);
  else console.warn(`${type}: ${message}`);
}

/** Node's AsyncLocalStorage where the host has it; elsewhere a stack (stack-context.ts). */
function asyncContext<T>(): AsyncContext<T> {
  try {
    const { AsyncLocalStorage } = require('node:async_hooks') as typeof import('node:async_hooks');
    const als = new AsyncLocalStorage<T>();
    return { run: (value, fn) => als.run(value, fn), get: () => als.getStore() };
  } catch {
    return stackContext<T>();
  }
}

export { availableCores, emitWarning, asyncContext };
