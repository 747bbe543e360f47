// Pool errors carry code 'WORKER' (deferred-array shows them as its WorkerError,
// or, when a worker threw one of its own error classes, as that class).
import type { SerializedFailure } from './protocol.js';

/** A kernel could not finish on the pool: a worker threw, trapped or exited mid-launch. */
class WorkerFailure extends Error {
  readonly code = 'WORKER';
  /** Which kernel was running. */
  readonly kernel: string;
  /** What the worker threw (name, message, code), when it threw rather than died. */
  readonly thrown: SerializedFailure | undefined;
  constructor(kernel: string, cause: string, options?: { cause?: unknown; thrown?: SerializedFailure }) {
    super(`kernel ${kernel} failed on the worker pool: ${cause}`, options);
    this.name = 'WorkerFailure';
    this.kernel = kernel;
    this.thrown = options?.thrown;
  }
}

/** The pool could not start its workers; the caller should run on its own thread. */
class PoolStartError extends Error {
  readonly code = 'WORKER';
  constructor(cause: string, options?: { cause?: unknown }) {
    super(`the worker pool could not start: ${cause}`, options);
    this.name = 'PoolStartError';
  }
}

export { WorkerFailure, PoolStartError };
