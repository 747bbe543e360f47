// Integer <-> float tricks that baseline SIMD lacks instructions for: there is
// no f64x2 <-> i64x2 conversion and no ldexp, so we go through bit patterns.
import type { Emitter, V } from './emitter.js';

/**
 * 1.5 * 2^52: adding it to |v| < 2^51 rounds v to an integer (ties to even)
 * and leaves that integer, two's complement, in the low bits of the sum.
 */
const SHIFT = 6755399441055744;
const SHIFT_BITS = 0x4338000000000000n;

/** Rounds v (|v| < 2^51) to the nearest integer: [as f64, as i64 lanes]. */
function roundToInt(e: Emitter, v: V): [V, V] {
  const shifted = e.add(v, e.f64(SHIFT));
  return [e.sub(shifted, e.f64(SHIFT)), e.op('i64x2.sub', shifted, e.i64(SHIFT_BITS))];
}

/** An i64 lane value |k| < 2^51 as f64, exactly. */
function i64ToF64(e: Emitter, k: V): V {
  return e.sub(e.op('i64x2.add', k, e.i64(SHIFT_BITS)), e.f64(SHIFT));
}

/** 2^k for i64 lanes k in [-1022, 1023], as f64 bits. */
function pow2(e: Emitter, k: V): V {
  return e.shift('i64x2.shl', e.op('i64x2.add', k, e.i64(1023n)), 52);
}

/**
 * y * 2^k for i64 lanes k in [-2044, 2046], rounded once. Split into two
 * normal powers of two: the first product is exact whenever y is near 1, so
 * a subnormal or overflowing result is rounded by the second alone.
 */
function scaleByPow2(e: Emitter, y: V, k: V): V {
  // floor(k/2) by a logical shift of k + 4096 (baseline SIMD has no i64x2 arithmetic shift
  // in hardware before AVX-512, and V8 emulates it in several instructions).
  const k1 = e.op('i64x2.sub', e.shift('i64x2.shr_u', e.op('i64x2.add', k, e.i64(4096n)), 1), e.i64(2048n));
  const k2 = e.op('i64x2.sub', k, k1);
  return e.mul(e.mul(y, pow2(e, k1)), pow2(e, k2));
}

/** Knuth's TwoSum: s = fl(a + b) and the exact error t, a + b = s + t, whatever the magnitudes. */
function twoSum(e: Emitter, a: V, b: V): [V, V] {
  const s = e.add(a, b);
  const bb = e.sub(s, a);
  const err = e.add(e.sub(a, e.sub(s, bb)), e.sub(b, bb));
  return [s, err];
}

/** Dekker's Fast2Sum: valid when |a| >= |b| (or a = 0). */
function fastTwoSum(e: Emitter, a: V, b: V): [V, V] {
  const s = e.add(a, b);
  return [s, e.sub(b, e.sub(s, a))];
}

/** Veltkamp's split of a (|a| < 2^996) into 26-bit halves, hi + lo = a exactly. */
function split(e: Emitter, a: V): [V, V] {
  const c = e.mul(a, e.f64(134217729)); // 2^27 + 1
  const hi = e.sub(c, e.sub(c, a));
  return [hi, e.sub(a, hi)];
}

/** Dekker's TwoProduct without FMA: p = fl(a*b) and the exact error, a*b = p + err. */
function twoProd(e: Emitter, a: V, b: V): [V, V] {
  const p = e.mul(a, b);
  const [ah, al] = split(e, a);
  const [bh, bl] = split(e, b);
  const err = e.add(e.add(e.add(e.sub(e.mul(ah, bh), p), e.mul(ah, bl)), e.mul(al, bh)), e.mul(al, bl));
  return [p, err];
}

/** The f64 sign bit. */
const SIGN_BIT = -0x8000000000000000n;

/** magnitude with x's sign bit or-ed in: for a non-negative magnitude (or NaN), copysign(magnitude, x). */
function withSignOf(e: Emitter, magnitude: V, x: V): V {
  return e.or(magnitude, e.and(x, e.i64(SIGN_BIT)));
}

export { SHIFT, SHIFT_BITS, SIGN_BIT, roundToInt, i64ToF64, pow2, scaleByPow2, twoSum, fastTwoSum, split, twoProd, withSignOf };
