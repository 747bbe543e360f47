// lappy's symbolic sizes: `da.size('n')` names a size that a compiled
// function's placeholders share and a call binds. The graph is traced once,
// with each symbol at a stand-in size; the plan holds for any size the symbol
// takes. A symbol is never a broadcast axis: an axis that should broadcast is
// written as 1.
import { DTypeError, NotSupportedError, ShapeError } from './errors.js';
import { DTYPES } from './dtypes.js';
import type { DType } from './dtypes.js';
import { axisLength, formatShape } from './shape.js';
import { at, lookup } from '../util/lookup.js';
import { formatValue } from './format.js';

class Size {
  readonly name: string;

  /** @internal Made by da.size(name). */
  constructor(name: string) {
    this.name = name;
  }

  toString(): string {
    return this.name;
  }
}

/** One axis of a placeholder: a fixed length or a symbol. */
type Dim = number | Size;

/** An argument slot of a compiled function: its shape (symbols allowed) and dtype. */
interface Placeholder {
  readonly shape: readonly Dim[];
  readonly dtype: DType;
}

const placeholders = new WeakSet<Placeholder>();

function size(name: unknown): Size {
  if (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new TypeError(`size(name): name must be an identifier such as 'n' or 'rows'; got ${formatValue(name)}`);
  }
  return new Size(name);
}

const formatDims = (dims: readonly Dim[]): string => `(${dims.map(String).join(', ')}${dims.length === 1 ? ',' : ''})`;

function placeholder(shape: unknown, dtype: unknown = 'float64'): Placeholder {
  const dims = typeof shape === 'number' || shape instanceof Size ? [shape] : shape;
  if (!Array.isArray(dims) || dims.some((d) => !(d instanceof Size) && !(typeof d === 'number' && Number.isInteger(d) && d >= 0))) {
    throw new TypeError(`placeholder(shape, dtype): shape must list non-negative integers and da.size() symbols; got ${String(shape)}`);
  }
  if (typeof dtype !== 'string' || !(DTYPES as readonly string[]).includes(dtype)) {
    throw new DTypeError(`placeholder(shape, dtype): unknown dtype ${formatValue(dtype)}; expected one of ${DTYPES.join(', ')}`);
  }
  const p: Placeholder = Object.freeze({
    shape: Object.freeze([...dims] as Dim[]),
    dtype: dtype as DType,
    toString: () => `placeholder${formatDims(dims as Dim[])} ${dtype}`,
  });
  placeholders.add(p);
  return p;
}

const isPlaceholder = (x: unknown): x is Placeholder => typeof x === 'object' && x !== null && placeholders.has(x as Placeholder);

/** The symbols' names, in order of first appearance. */
const symbolsOf = (ps: readonly Placeholder[]): string[] =>
  [...new Set(ps.flatMap((p) => p.shape.flatMap((d) => (d instanceof Size ? [d.name] : []))))];

/** A placeholder's shape with each symbol at its size in `sizes`. */
const shapeAt = (p: Placeholder, sizes: ReadonlyMap<string, number>): number[] =>
  p.shape.map((d) => (d instanceof Size ? sizes.get(d.name)! : d));

/**
 * Binds the symbols to the sizes of the arguments' shapes (in argument order),
 * checking fixed axes and that a symbol takes one size in one call.
 */
function bindSizes(ps: readonly Placeholder[], shapes: ReadonlyArray<readonly number[]>, fn: string): Map<string, number> {
  const sizes = new Map<string, number>();
  const from = new Map<string, [number, number]>();
  ps.forEach((p, i) => {
    const shape = at(shapes, i, `${fn}: argument shape`);
    // Messages are built only when one is thrown: this runs at every call.
    const which = (): string => `argument ${i} (shape ${formatShape(shape)})`;
    if (shape.length !== p.shape.length) {
      throw new ShapeError(`${fn}: ${which()} has ${shape.length} axes but its placeholder ${formatDims(p.shape)} has ${p.shape.length}`);
    }
    p.shape.forEach((d, axis) => {
      const got = axisLength(shape, axis);
      if (!(d instanceof Size)) {
        if (got !== d) throw new ShapeError(`${fn}: ${which()} has length ${got} on axis ${axis}, where its placeholder ${formatDims(p.shape)} fixes ${d}`);
        return;
      }
      const bound = sizes.get(d.name);
      if (bound === undefined) {
        sizes.set(d.name, got);
        from.set(d.name, [i, axis]);
      } else if (bound !== got) {
        const [j, first] = lookup(from, d.name, `where size '${d.name}' was bound`);
        throw new ShapeError(`${fn}: size '${d.name}' is ${bound} in argument ${j} (shape ${formatShape(at(shapes, j, 'argument shape'))}), axis ${first} ` +
          `but ${got} in ${which()}, axis ${axis}; one symbol takes one size in a call`);
      }
    });
  });
  return sizes;
}

/** A map's sizes as a cache key. */
const sizesKey = (sizes: ReadonlyMap<string, number>): string => [...sizes.values()].join(',');

function primesFrom(start: number, count: number): number[] {
  const out: number[] = [];
  for (let p = Math.max(2, start); out.length < count; p++) {
    let prime = true;
    for (let q = 2; q * q <= p; q++) if (p % q === 0) { prime = false; break; }
    if (prime) out.push(p);
  }
  return out;
}

/** Each symbol at a distinct prime from `from` on. */
function primeSizes(ps: readonly Placeholder[], from: number): Map<string, number> {
  const names = symbolsOf(ps);
  const primes = primesFrom(from, names.length);
  return new Map(names.map((n, i) => [n, at(primes, i, 'prime size')]));
}

/**
 * The stand-in sizes the graph is traced with: distinct primes above every
 * fixed length, so that no two symbols, and no symbol and a fixed length,
 * meet by coincidence (a product of sizes names its factors).
 */
function standInSizes(ps: readonly Placeholder[]): Map<string, number> {
  const fixed = ps.flatMap((p) => p.shape.filter((d): d is number => typeof d === 'number'));
  return primeSizes(ps, Math.max(1009, ...fixed.map((d) => d + 1)));
}

/** Small distinct sizes from `from` (at least 2: a symbol is never a broadcast axis), for compiling the kernels before the first call. */
const probeSizes = (ps: readonly Placeholder[], from: number): Map<string, number> => primeSizes(ps, Math.max(2, from));

/** While a compiled function is traced: whether it read an array's sizes (then it is traced again per size). */
let tracing: { shapeRead: boolean } | undefined;

/** Runs `fn` as a compiled function's trace; says whether it read any array's shape or size. */
function traceWith<T>(fn: () => T): { value: T; shapeRead: boolean } {
  if (tracing) throw new NotSupportedError('compile: a compiled function cannot compile another while it is traced; compile it outside');
  tracing = { shapeRead: false };
  try {
    const value = fn();
    return { value, shapeRead: tracing.shapeRead };
  } finally {
    tracing = undefined;
  }
}

/** Whether a compiled function is being traced now. */
const tracingNow = (): boolean => tracing !== undefined;

function noteShapeRead(): void {
  if (tracing) tracing.shapeRead = true;
}

/** In-place writes record into the global execution trace, which a compiled function does not replay. */
function checkNotTracing(what: string): void {
  if (!tracing) return;
  throw new NotSupportedError(`${what}: in-place operations inside a compiled function are not supported; ` +
    'write the function with operations that return new arrays (x.add(y) for x.iadd(y), da.where for a masked set), or call it outside da.compile');
}

export { traceWith, tracingNow, noteShapeRead, checkNotTracing };
export { Size, size, placeholder, isPlaceholder, symbolsOf, shapeAt, bindSizes, sizesKey, standInSizes, probeSizes, formatDims };
export type { Dim, Placeholder };
