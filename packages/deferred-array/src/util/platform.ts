// The little this package asks of its host, in one place.
import { createRequire } from 'node:module';

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

/** A value that follows the code that set it, through awaits (a scope's frame). */
interface AsyncContext<T> {
  /** Runs `fn` with `value` as the context, for its synchronous part and every continuation it schedules. */
  run<R>(value: T, fn: () => R): R;
  get(): T | undefined;
}

const isThenable = (x: unknown): x is PromiseLike<unknown> => typeof (x as { then?: unknown } | null)?.then === 'function';

/**
 * Node's AsyncLocalStorage where the host has it. Elsewhere, a stack: exact
 * for synchronous code, and for async code while scopes do not interleave
 * (the value set by an async `fn` stays current until its promise settles).
 */
function asyncContext<T>(): AsyncContext<T> {
  try {
    const { AsyncLocalStorage } = require('node:async_hooks') as typeof import('node:async_hooks');
    const als = new AsyncLocalStorage<T>();
    return { run: (value, fn) => als.run(value, fn), get: () => als.getStore() };
  } catch {
    let current: T | undefined;
    return {
      run: (value, fn) => {
        const prev = current;
        current = value;
        let r: ReturnType<typeof fn>;
        try {
          r = fn();
        } catch (e) {
          current = prev;
          throw e;
        }
        if (!isThenable(r)) {
          current = prev;
          return r;
        }
        const restore = (): void => { if (current === value) current = prev; };
        (r as PromiseLike<unknown>).then(restore, restore);
        return r;
      },
      get: () => current,
    };
  }
}

export { availableCores, emitWarning, asyncContext, isThenable };
