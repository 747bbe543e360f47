// A least-recently-used cache over a Map, whose insertion order is the
// recency: a hit moves its entry to the end, and a set past `max` drops the
// first. The caches here and deferred-array's (its plan templates, a
// compiled function's instances: the subpath kernels-wasm/lru, a utility with
// no imports, not the backend) need nothing more (a bound), and a page loads
// this where lru-cache's 19 KB of code (TTLs, sizes, fetches) was a third of
// the pool's worker file and 5 KiB gzip of the bundle.

interface LruOptions<K, V> {
  readonly max: number;
  /** Called for an entry the bound evicts (not for delete() or clear()). */
  readonly dispose?: (value: V, key: K) => void;
}

class Lru<K, V> {
  readonly #map = new Map<K, V>();
  readonly #max: number;
  readonly #dispose: ((value: V, key: K) => void) | undefined;

  constructor(options: LruOptions<K, V>) {
    if (!Number.isInteger(options.max) || options.max < 1) throw new RangeError(`Lru: max must be a positive integer; got ${options.max}`);
    this.#max = options.max;
    this.#dispose = options.dispose;
  }

  get size(): number {
    return this.#map.size;
  }

  /** The value for `key`, now the most recently used; undefined if absent. */
  get(key: K): V | undefined {
    const map = this.#map;
    const v = map.get(key);
    if (v === undefined) return undefined;
    map.delete(key);
    map.set(key, v);
    return v;
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  /** Sets `key` as the most recently used, evicting the least recently used past the bound. */
  set(key: K, value: V): this {
    const map = this.#map;
    map.delete(key);
    map.set(key, value);
    if (map.size > this.#max) {
      const [oldest, v] = map.entries().next().value as [K, V];
      map.delete(oldest);
      this.#dispose?.(v, oldest);
    }
    return this;
  }

  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
  }

  /** The values, most recently used first (as lru-cache gives them). */
  values(): V[] {
    return [...this.#map.values()].reverse();
  }
}

export { Lru };
export type { LruOptions };
