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

/** Node's modules for collectGarbage, loaded with this one: a trim can come after a test's environment is gone. */
const gcModules: { readonly v8?: typeof import('node:v8'); readonly vm?: typeof import('node:vm') } = (() => {
  try {
    return { v8: require('node:v8') as typeof import('node:v8'), vm: require('node:vm') as typeof import('node:vm') };
  } catch {
    return {};
  }
})();

/**
 * A full collection now, where the host allows it: after the heap started
 * over, the old memory (hundreds of MB) stays mapped until the collector
 * frees its dead JS objects, and an idle process allocates nothing to make
 * it run. Node has no API for it; gc() is made for one new context and the
 * flag put back at once, so no other context gets a gc global.
 */
function collectGarbage(): void {
  // Started with --expose-gc: the flag is the user's, and stays as it is.
  const own = (globalThis as { gc?: () => void }).gc;
  if (own) return own();
  const { v8, vm } = gcModules;
  if (!v8 || !vm) return;
  try {
    try {
      v8.setFlagsFromString('--expose-gc');
      (vm.runInNewContext('typeof gc === "function" ? gc : () => {}') as () => void)();
    } finally {
      v8.setFlagsFromString('--no-expose-gc');
    }
  } catch {
    // The memory still goes at the next collection.
  }
}

export { availableCores, emitWarning, asyncContext, collectGarbage };
