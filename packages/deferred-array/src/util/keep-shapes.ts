// Objects kept for the process so that V8 keeps their shapes. V8 drops an
// object shape (its hidden class) in a full collection when no object of it
// is alive, and throws away the optimized code that tested for it. Code that
// makes its objects per call and keeps none (a graph built, executed and
// dropped, as a loop of small calls does) was then optimized again after
// every full collection: a few hundred calls at 2-4x their cost each time.
// One small object of each such shape, held here, keeps the shapes alive.

const kept = new Map<string, unknown>();

/** Keeps what `make` returns for the process, made on the first call for `key`; later calls make nothing. */
function keepShape(key: string, make: () => unknown): void {
  if (!kept.has(key)) kept.set(key, make());
}

export { keepShape };
