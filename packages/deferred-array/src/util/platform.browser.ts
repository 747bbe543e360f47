// The browser build's platform.ts (scripts/bundle.mjs swaps it in): the
// page's cores, console.warn, and the stack context (a page has no
// AsyncLocalStorage).
import { stackContext } from './stack-context.js';
import type { AsyncContext } from './stack-context.js';

function availableCores(): number {
  return (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency || 1;
}

function emitWarning(message: string, type = 'RuntimeWarning'): void {
  console.warn(`${type}: ${message}`);
}

function asyncContext<T>(): AsyncContext<T> {
  return stackContext<T>();
}

/** A page cannot ask for a collection: the old heap memory goes at the browser's next one. */
function collectGarbage(): void {}

export { availableCores, emitWarning, asyncContext, collectGarbage };
