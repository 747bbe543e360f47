// Random test inputs per math function, spread over the domain with extra
// weight on the hard regions: near 0 and subnormals, near overflow and
// underflow thresholds, near 1 for the logarithms, near multiples of pi/2 and
// at large arguments for the trig functions, and raw random bit patterns.
// Deterministic: a seeded xorshift128+ drives everything.
import { MATH_ARITY } from './registry.js';
import type { MathFn } from './registry.js';
import { at } from '../internal-error.js';

type Dtype = 'float64' | 'float32';

class Rng {
  #s0: bigint;
  #s1: bigint;

  constructor(seed: number) {
    this.#s0 = BigInt.asUintN(64, BigInt(seed) * 0x9e3779b97f4a7c15n + 1n);
    this.#s1 = BigInt.asUintN(64, this.#s0 * 0xbf58476d1ce4e5b9n + 0x94d049bb133111ebn);
    for (let i = 0; i < 8; i++) this.#next();
  }

  #next(): bigint {
    let s1 = this.#s0;
    const s0 = this.#s1;
    this.#s0 = s0;
    s1 ^= BigInt.asUintN(64, s1 << 23n);
    this.#s1 = s1 ^ s0 ^ (s1 >> 17n) ^ (s0 >> 26n);
    return BigInt.asUintN(64, this.#s1 + s0);
  }

  /** Uniform in [0, 1) with 53 random bits. */
  next(): number {
    return Number(this.#next() >> 11n) / 2 ** 53;
  }

  /** 64 random bits. */
  bits(): bigint {
    return this.#next();
  }

  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  sign(): number {
    return this.next() < 0.5 ? -1 : 1;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}

const bitView = new DataView(new ArrayBuffer(8));

/** Any finite double (or float) from random bits, both signs. */
function randomBits(r: Rng, dtype: Dtype): number {
  for (;;) {
    let x: number;
    if (dtype === 'float64') {
      bitView.setBigUint64(0, r.bits());
      x = bitView.getFloat64(0);
    } else {
      bitView.setUint32(0, Number(r.bits() & 0xffffffffn));
      x = bitView.getFloat32(0);
    }
    if (Number.isFinite(x)) return x;
  }
}

/** |x| log-uniform in [lo, hi], random sign unless positive. */
function logUniform(r: Rng, lo: number, hi: number, positive = false): number {
  const x = Math.exp(r.uniform(Math.log(lo), Math.log(hi)));
  return positive ? x : r.sign() * x;
}

type Sampler = (r: Rng, dtype: Dtype) => number;

const MAX = { float64: 1.7976931348623157e308, float32: 3.4028234663852886e38 } as const;
const MIN_SUB = { float64: 5e-324, float32: 1.401298464324817e-45 } as const;
/** Where exp overflows and where it underflows to 0. */
const EXP_HI = { float64: 709.782712893384, float32: 88.72283905206835 } as const;
const EXP_LO = { float64: -745.1332191019412, float32: -103.97208178494026 } as const;

/** Equal mixtures of samplers (each a region of the domain). */
const mix = (...samplers: Sampler[]): Sampler => (r, d) => at(samplers, r.int(samplers.length), 'sampler')(r, d);

const tiny: Sampler = (r, d) => logUniform(r, MIN_SUB[d], 1e-6);
const nearPio2Multiple = (kMax: number): Sampler => (r) => {
  const k = Math.floor(logUniform(r, 1, kMax, true));
  const x = (k * Math.PI) / 2;
  return r.sign() * (x + x * Number.EPSILON * r.uniform(-64, 64));
};
const positives = (r: Rng, d: Dtype): number => Math.abs(randomBits(r, d));
const aroundOne: Sampler = (r) => 1 + logUniform(r, 1e-17, 0.5);

const DOMAINS: Record<MathFn, Sampler> = {
  exp: mix((r, d) => r.uniform(EXP_LO[d], EXP_HI[d]), (r) => logUniform(r, 1e-18, 2), (r, d) => r.uniform(EXP_HI[d] - 2, EXP_HI[d] + 0.5),
    (r, d) => r.uniform(EXP_LO[d] - 0.5, EXP_LO[d] + 40), tiny),
  expm1: mix((r, d) => r.uniform(EXP_LO[d], EXP_HI[d]), (r) => logUniform(r, 1e-18, 2), (r) => r.uniform(-40, 40),
    (r, d) => r.uniform(EXP_HI[d] - 2, EXP_HI[d] + 0.5), tiny),
  exp2: mix((r, d) => r.uniform(EXP_LO[d] * Math.LOG2E, EXP_HI[d] * Math.LOG2E), (r) => logUniform(r, 1e-18, 2),
    (r, d) => r.uniform(EXP_HI[d] * Math.LOG2E - 2, EXP_HI[d] * Math.LOG2E + 1), (r, d) => r.uniform(EXP_LO[d] * Math.LOG2E - 1, EXP_LO[d] * Math.LOG2E + 60), tiny),
  log: mix(positives, aroundOne, (r, d) => logUniform(r, MIN_SUB[d], MAX[d], true), (r) => logUniform(r, 1e-3, 1e3, true)),
  log2: mix(positives, aroundOne, (r, d) => logUniform(r, MIN_SUB[d], MAX[d], true), (r) => 2 ** (r.int(2000) - 1074)),
  log10: mix(positives, aroundOne, (r, d) => logUniform(r, MIN_SUB[d], MAX[d], true), (r) => 10 ** (r.int(600) - 300)),
  log1p: mix((r) => r.uniform(-1, 1), (r) => -1 + logUniform(r, 1e-17, 1, true), tiny, (r, d) => logUniform(r, 1e-3, MAX[d], true), positives),
  sin: mix((r) => r.uniform(-10, 10), nearPio2Multiple(1e6), (r) => logUniform(r, 1, 1e6), (r) => logUniform(r, 1e6, 1e22), randomBits, tiny),
  cos: mix((r) => r.uniform(-10, 10), nearPio2Multiple(1e6), (r) => logUniform(r, 1, 1e6), (r) => logUniform(r, 1e6, 1e22), randomBits, tiny),
  tan: mix((r) => r.uniform(-10, 10), nearPio2Multiple(1e6), (r) => logUniform(r, 1, 1e6), (r) => logUniform(r, 1e6, 1e22), randomBits, tiny),
  asin: mix((r) => r.uniform(-1, 1), (r) => r.sign() * (1 - logUniform(r, 1e-17, 0.5, true)), tiny),
  acos: mix((r) => r.uniform(-1, 1), (r) => r.sign() * (1 - logUniform(r, 1e-17, 0.5, true)), tiny),
  atan: mix((r) => r.uniform(-4, 4), (r, d) => logUniform(r, MIN_SUB[d], MAX[d]), randomBits, tiny),
  sinh: mix((r, d) => r.uniform(-EXP_HI[d] - 1, EXP_HI[d] + 1), (r) => r.uniform(-3, 3), (r) => logUniform(r, 1e-18, 1), tiny),
  cosh: mix((r, d) => r.uniform(-EXP_HI[d] - 1, EXP_HI[d] + 1), (r) => r.uniform(-3, 3), (r) => logUniform(r, 1e-18, 1), tiny),
  tanh: mix((r) => r.uniform(-25, 25), (r) => r.uniform(-2, 2), (r) => logUniform(r, 1e-18, 1), tiny, randomBits),
  asinh: mix((r) => r.uniform(-4, 4), (r, d) => logUniform(r, MIN_SUB[d], MAX[d]), randomBits, tiny),
  acosh: mix((r) => 1 + logUniform(r, 1e-17, 4, true), (r, d) => logUniform(r, 1, MAX[d], true), positives),
  atanh: mix((r) => r.uniform(-1, 1), (r) => r.sign() * (1 - logUniform(r, 1e-17, 0.5, true)), tiny),
  cbrt: mix((r) => r.uniform(-10, 10), randomBits, (r, d) => logUniform(r, MIN_SUB[d], MAX[d]), tiny),
  // For the binary functions this is the first operand; see secondOperand.
  pow: mix((r) => logUniform(r, 1e-3, 1e3, true), aroundOne, positives, (r) => -logUniform(r, 1e-3, 1e3, true)),
  atan2: mix((r) => r.uniform(-4, 4), randomBits, (r, d) => logUniform(r, MIN_SUB[d], MAX[d])),
  hypot: mix((r) => r.uniform(-4, 4), randomBits, (r, d) => logUniform(r, MIN_SUB[d], MAX[d])),
  logaddexp: mix((r) => r.uniform(-10, 10), (r) => r.uniform(-800, 800), (r) => logUniform(r, 1e-3, 1e4), tiny),
  logaddexp2: mix((r) => r.uniform(-10, 10), (r) => r.uniform(-1100, 1100), (r) => logUniform(r, 1e-3, 1e4), tiny),
  fmod: mix((r) => r.uniform(-100, 100), randomBits, (r, d) => logUniform(r, MIN_SUB[d], MAX[d]), tiny),
};

/** The second operand for the binary functions, given the first. */
function secondOperand(fn: MathFn, a: number, r: Rng, d: Dtype): number {
  switch (fn) {
    case 'pow': {
      if (a < 0) return r.int(80) - 40; // a negative base needs an integer exponent
      // Mostly exponents that keep the result finite and nonzero, some that do not.
      const la = Math.abs(Math.log(a)) || 1e-300;
      const limit = Math.min(EXP_HI[d] / la, 1e6);
      return r.next() < 0.8 ? r.uniform(-limit, limit) : r.uniform(-2, 2) * limit;
    }
    case 'atan2': return r.next() < 0.5 ? r.uniform(-4, 4) : randomBits(r, d);
    case 'hypot': return r.next() < 0.5 ? a * logUniform(r, 1e-20, 1e20) : randomBits(r, d);
    case 'logaddexp':
    case 'logaddexp2': {
      // Near a (where the sum doubles), a few units off (the log1p term matters), and far off (it vanishes).
      const pick = r.next();
      return a + (pick < 0.3 ? logUniform(r, 1e-17, 1) : pick < 0.8 ? r.uniform(-8, 8) : r.uniform(-200, 200));
    }
    case 'fmod': {
      // Quotients near an integer (where the division's rounding can make trunc one too many), across
      // the exponent range (huge ones take the scalar long division), and any bits at all.
      const pick = r.next();
      if (pick < 0.4) return (a / (1 + r.int(1000))) * (1 + r.sign() * logUniform(r, 1e-17, 1e-10));
      return pick < 0.8 ? a * logUniform(r, 1e-20, 1e20) : randomBits(r, d);
    }
    default: throw new TypeError(`${fn} takes one operand`);
  }
}

/** count inputs for fn (two arrays for the binary functions), rounded to dtype. */
function sampleInputs(fn: MathFn, dtype: Dtype, count: number, seed = 1): [Float64Array, Float64Array | undefined] {
  const r = new Rng(seed);
  const round = dtype === 'float32' ? Math.fround : (x: number): number => x;
  const a = new Float64Array(count);
  const binary = MATH_ARITY[fn] === 2;
  const b = binary ? new Float64Array(count) : undefined;
  const domain = DOMAINS[fn];
  for (let i = 0; i < count; i++) {
    const x = round(domain(r, dtype));
    a[i] = x;
    if (b) b[i] = round(secondOperand(fn, x, r, dtype));
  }
  return [a, b];
}

export { sampleInputs, Rng };
export type { Dtype };
