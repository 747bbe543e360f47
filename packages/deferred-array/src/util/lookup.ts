// Lookups whose miss is a bug in this package, not in the caller's code: they
// fail with a named error instead of a `!` that would let undefined run on.

/** A broken invariant inside the package; its message starts with 'internal:' and says which. */
class InternalError extends Error {
  constructor(message: string) {
    super(`internal: ${message}`);
    this.name = 'InternalError';
  }
}

/** `map.get(key)`, which the caller knows is there; `what` names the value for the error. */
function lookup<K, V>(map: ReadonlyMap<K, V>, key: K, what: string): V {
  const v = map.get(key);
  if (v === undefined) throw new InternalError(`${what} is missing`);
  return v;
}

/** `xs[i]`, which the caller knows is in range. */
function at<T>(xs: readonly T[], i: number, what: string): T {
  const v = xs[i];
  if (v === undefined) throw new InternalError(`${what}: no entry ${i} of ${xs.length}`);
  return v;
}

export { InternalError, lookup, at };
