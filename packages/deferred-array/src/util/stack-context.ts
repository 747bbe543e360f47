// A value that follows the code that set it, without Node's AsyncLocalStorage:
// a stack, exact for synchronous code, and for async code while scopes do
// not interleave (the value set by an async `fn` stays current until its
// promise settles). platform.ts uses it where the host has nothing better.

/** A value that follows the code that set it, through awaits (a scope's frame). */
interface AsyncContext<T> {
  /** Runs `fn` with `value` as the context, for its synchronous part and every continuation it schedules. */
  run<R>(value: T, fn: () => R): R;
  get(): T | undefined;
}

const isThenable = (x: unknown): x is PromiseLike<unknown> => typeof (x as { then?: unknown } | null)?.then === 'function';

function stackContext<T>(): AsyncContext<T> {
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

export { stackContext, isThenable };
export type { AsyncContext };
