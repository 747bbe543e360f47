// Walking what callers pass and receive: arrays and plain objects (records)
// holding arrays, as execute() returns them and scopes hand them on.

/** A plain object (a record), not an instance of a class (an ndarray, a typed array). */
function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (typeof x !== 'object' || x === null) return false;
  const proto: unknown = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

/**
 * `x` with `leaf` applied to everything in it that is neither an array nor a
 * plain object, walking those (each once); a container comes back as itself
 * when nothing in it changed, else as a new one. `path` names each leaf for
 * messages ('out', 'out[1]', 'out.t').
 */
function mapNested(x: unknown, leaf: (v: unknown, path: string) => unknown, path = '', seen = new Set<unknown>()): unknown {
  if (!Array.isArray(x) && !isPlainObject(x)) return leaf(x, path);
  if (seen.has(x)) return x;
  seen.add(x);
  if (Array.isArray(x)) {
    const items = x.map((v, i) => mapNested(v, leaf, `${path}[${i}]`, seen));
    return items.some((v, i) => v !== x[i]) ? items : x;
  }
  const entries = Object.entries(x).map(([k, v]) => [k, mapNested(v, leaf, `${path}.${k}`, seen)] as const);
  if (entries.every(([k, v]) => v === x[k])) return x;
  return Object.assign(Object.create(Object.getPrototypeOf(x) as object | null) as object, Object.fromEntries(entries));
}

export { isPlainObject, mapNested };
