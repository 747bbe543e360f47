// Random numbers generated inside kernels: da.random.defaultRng(seed) (also
// NumPy's spelling, default_rng) gives a Generator whose draws are random
// arrays. A random array is a leaf that no memory holds: Philox 4x32-10 computes
// element e from (seed, stream, e) wherever a kernel reads it, so
// `mean(u*u + v*v < 1)` over 10^8 points reads and writes no array, and the
// values do not depend on threads, blocks or what the array is fused with.
// Each draw takes the generator's next stream (normal takes two), so draws
// differ from each other and a seed repeats all of them.
import { checkDType, dtypeInfo, isFloat } from '../ir/dtypes.js';
import type { DType } from '../ir/dtypes.js';
import { NotSupportedError } from '../ir/errors.js';
import { makeNode } from '../ir/node.js';
import { broadcastShapes, checkShape, formatShape } from '../ir/shape.js';
import { tracingNow } from '../ir/symbols.js';
import { DeferredArray, wrapNode } from './deferred-array.js';
import { UFUNCS } from './functions.js';
import { describe } from './operand.js';
import type { Operand } from './ufunc.js';

const { add, multiply, subtract, sqrt, log1p, cos, floor } = UFUNCS;

type Shape = number | readonly number[];

const WORD = 2 ** 32;

function seedWords(seed: unknown): [number, number] {
  if (seed === undefined || seed === null) {
    const w = new Uint32Array(2);
    globalThis.crypto.getRandomValues(w);
    return [w[0]!, w[1]!];
  }
  if (typeof seed === 'bigint') {
    if (seed < 0n || seed >= 2n ** 64n) throw new RangeError(`defaultRng: a seed must be in 0..2^64-1; got ${seed}`);
    return [Number(seed & 0xffffffffn), Number(seed >> 32n)];
  }
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) {
    throw new TypeError(`defaultRng: a seed must be a non-negative integer (a BigInt up to 2^64-1 for larger ones); got ${describe(seed)}`);
  }
  return [seed % WORD, Math.floor(seed / WORD)];
}

const shapeOf = (fn: string, shape: Shape | undefined): number[] | undefined => (shape === undefined ? undefined : checkShape(shape, `${fn}: shape`));

/** The shape a draw with array parameters gets: the one asked for, which the parameters must broadcast to. */
function drawShape(fn: string, shape: number[] | undefined, params: readonly Operand[]): number[] {
  const shapes = params.filter((p): p is DeferredArray => p instanceof DeferredArray).map((p) => p.shape);
  if (shape === undefined) return shapes.length ? [...broadcastShapes(shapes, `${fn}'s parameters`)] : [];
  const joint = broadcastShapes([shape, ...shapes], `${fn}'s parameters and shape`);
  if (joint.length !== shape.length || joint.some((d, i) => d !== shape[i])) {
    throw new RangeError(`${fn}: parameters of shapes ${shapes.map(formatShape).join(', ')} do not broadcast to the shape ${formatShape(shape)} asked for`);
  }
  return shape;
}

function checkParam(fn: string, name: string, v: unknown): Operand {
  if (typeof v === 'number' || v instanceof DeferredArray) return v;
  throw new TypeError(`${fn}: ${name} must be a number or a DeferredArray; got ${describe(v)}`);
}

/** A seeded stream of random arrays. */
class Generator {
  readonly #key: readonly [number, number];
  readonly #seed: string;
  #next = 0;

  constructor(seed?: number | bigint) {
    this.#key = seedWords(seed);
    this.#seed = seed === undefined || seed === null ? `0x${(this.#key[1] * WORD + this.#key[0]).toString(16)} (from the system)` : String(seed);
  }

  /** A leaf of uniform [0, 1) values on the next stream. */
  #draw(fn: string, shape: readonly number[], dtype: 'float64' | 'float32'): DeferredArray {
    if (tracingNow()) {
      throw new NotSupportedError(`${fn}: a compiled function cannot draw random numbers (it would draw the same ones at every call); ` +
        'draw them outside and pass them in, or call the function uncompiled');
    }
    const stream = this.#next++;
    const words = { key: this.#key, stream: [stream % WORD, Math.floor(stream / WORD)] as const };
    return wrapNode(makeNode('random', [], shape, dtype, { random: words, label: `seed ${this.#seed}, stream ${stream}` }));
  }

  /** Uniform floats in [0, 1): float64 (53 random bits, NumPy's next_double) or float32 (24 bits). */
  random(shape?: Shape, options?: { dtype?: 'float64' | 'float32' }): DeferredArray {
    const dtype: DType = options?.dtype === undefined ? 'float64' : checkDType(options.dtype, 'random: dtype');
    if (dtype !== 'float64' && dtype !== 'float32') throw new TypeError(`random: dtype must be 'float64' or 'float32'; got '${dtype}'`);
    return this.#draw('random', shapeOf('random', shape) ?? [], dtype);
  }

  /** Uniform float64 in [low, high): low + (high - low) * random(), as NumPy computes it. */
  uniform(low: Operand = 0, high: Operand = 1, shape?: Shape): DeferredArray {
    const lo = checkParam('uniform', 'low', low);
    const hi = checkParam('uniform', 'high', high);
    const s = drawShape('uniform', shapeOf('uniform', shape), [lo, hi]);
    return add(lo, multiply(subtract(hi, lo), this.#draw('uniform', s, 'float64')));
  }

  /**
   * Normal float64 with mean loc and standard deviation scale, by the
   * Box-Muller transform of two uniform draws: sqrt(-2 log(1 - u)) cos(2 pi v).
   * The distribution is NumPy's; the values are not (NumPy uses a ziggurat,
   * which rejects and so cannot be computed per element).
   */
  normal(loc: Operand = 0, scale: Operand = 1, shape?: Shape): DeferredArray {
    const mu = checkParam('normal', 'loc', loc);
    const sigma = checkParam('normal', 'scale', scale);
    const s = drawShape('normal', shapeOf('normal', shape), [mu, sigma]);
    const u = this.#draw('normal', s, 'float64');
    const v = this.#draw('normal', s, 'float64');
    const z = multiply(sqrt(multiply(log1p(u.negative()), -2)), cos(multiply(v, 2 * Math.PI)));
    return add(mu, multiply(sigma, z));
  }

  /**
   * Integers in [low, high) ([low, high] with endpoint), or [0, low) when high
   * is omitted: low + floor(random() * n) for n = high - low values. Each value
   * has probability 1/n to within a relative n / 2^53 (no rejection, so every
   * element is computed where it is read); NumPy rejects to make it exact.
   */
  integers(low: number, high?: number, shape?: Shape, options?: { dtype?: DType; endpoint?: boolean }): DeferredArray {
    const dtype = options?.dtype === undefined ? 'int32' : checkDType(options.dtype, 'integers: dtype');
    if (isFloat(dtype)) throw new TypeError(`integers: dtype must be an integer dtype; got '${dtype}'`);
    const [lo, hi0] = high === undefined ? [0, low] : [low, high];
    for (const [name, v] of [['low', lo], ['high', hi0]] as const) {
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new TypeError(`integers: ${name} must be an integer; got ${describe(v)}`);
    }
    const hi = options?.endpoint ? hi0 + 1 : hi0;
    if (hi <= lo) throw new RangeError(`integers: low (${lo}) must be below high (${hi0})${options?.endpoint ? ' or equal to it' : ''}`);
    const { min, max } = dtypeInfo(dtype);
    if (lo < min || hi - 1 > max) throw new RangeError(`integers: [${lo}, ${hi - 1}] does not fit in ${dtype} (${min}..${max})`);
    const u = this.#draw('integers', shapeOf('integers', shape) ?? [], 'float64');
    return add(floor(multiply(u, hi - lo)), lo).astype(dtype);
  }
}

/** A Generator seeded with `seed` (a non-negative integer, a BigInt up to 2^64 - 1, or none for one from the system). */
function defaultRng(seed?: number | bigint): Generator {
  return new Generator(seed);
}

const random = Object.freeze({ defaultRng, default_rng: defaultRng, Generator });

export { random, Generator };
