// Every error the package raises on purpose is a DeferredArrayError with a
// stable `code`, so callers can branch on it and errors rebuilt from workers
// keep their class (see `fromSerialized`).

class DeferredArrayError extends Error {
  readonly code: string;
  constructor(message: string, code = 'DEFERRED_ARRAY', options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** Incompatible or invalid shapes, axes or indices: raised when the graph is built. */
class ShapeError extends DeferredArrayError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'SHAPE', options);
  }
}

/** An operation that does not exist for the dtypes given: raised when the graph is built. */
class DTypeError extends DeferredArrayError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'DTYPE', options);
  }
}

/** A value was asked for after the data it depended on was overwritten. */
class StaleArrayError extends DeferredArrayError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'STALE_ARRAY', options);
  }
}

/** The array heap could not satisfy an allocation (wasm32 caps it at 4 GiB). */
class HeapError extends DeferredArrayError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'HEAP', options);
  }
}

/** A worker threw, trapped or exited while running a kernel. */
class WorkerError extends DeferredArrayError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'WORKER', options);
  }
}

/** A run-time error found in the data while executing (NEP: surfaces from execute()). */
class ExecutionError extends DeferredArrayError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'EXECUTION', options);
  }
}

/** A DeferredArray was used after dispose(). */
class DisposedError extends DeferredArrayError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'DISPOSED', options);
  }
}

/** Two outputs of one execute() share a name, or a name is reserved. */
class OutputNameError extends DeferredArrayError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'OUTPUT_NAME', options);
  }
}

/** A feature of the public API whose machinery has not landed yet. */
class NotSupportedError extends DeferredArrayError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'NOT_SUPPORTED', options);
  }
}

/** A file or byte string that is not what it says: a bad magic string, a header that lies, data cut short. */
class FileFormatError extends DeferredArrayError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'FILE_FORMAT', options);
  }
}

/** NumPy's LinAlgError: a singular matrix, one not positive definite, or a decomposition that did not converge. */
class LinAlgError extends DeferredArrayError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'LINALG', options);
  }
}

const ERROR_CLASSES = {
  DeferredArrayError,
  ShapeError,
  DTypeError,
  StaleArrayError,
  HeapError,
  WorkerError,
  ExecutionError,
  DisposedError,
  OutputNameError,
  NotSupportedError,
  FileFormatError,
  LinAlgError,
} as const;

interface SerializedError {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

/**
 * Rebuilds an error that crossed a thread boundary as the class it was thrown
 * as; anything else becomes a WorkerError (with `fallback.message` when given,
 * e.g. one naming the kernel that was running).
 */
function fromSerialized(e: SerializedError, fallback: { message?: string; cause?: unknown } = {}): Error {
  const options = { cause: fallback.cause };
  if (e.name === 'DeferredArrayError') return new DeferredArrayError(e.message, e.code, options);
  const ctor = Object.hasOwn(ERROR_CLASSES, e.name)
    ? ERROR_CLASSES[e.name as keyof typeof ERROR_CLASSES] as new (message: string, o: { cause?: unknown }) => Error
    : undefined;
  if (ctor) return new ctor(e.message, options);
  if (e.name === 'TypeError') return new TypeError(e.message, options);
  if (e.name === 'RangeError') return new RangeError(e.message, options);
  return new WorkerError(fallback.message ?? `${e.name}: ${e.message}`, options);
}

export {
  LinAlgError,
  DeferredArrayError,
  ShapeError,
  DTypeError,
  StaleArrayError,
  HeapError,
  WorkerError,
  ExecutionError,
  DisposedError,
  OutputNameError,
  NotSupportedError,
  FileFormatError,
  ERROR_CLASSES,
  fromSerialized,
};
export type { SerializedError };
