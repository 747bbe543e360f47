// expm1 and tanh for float32 lanes, evaluated in f64x2 on the promoted halves
// (the f32x4 wrapper of math-function.ts) with float-sized work: the double
// result carries ~2^-31 relative error, so the one rounding to float is all
// that shows (a float result is off by one ulp only when the truth lies within
// 2^-7 ulp of a rounding midpoint). The float64 algorithms (fdlibm's expm1,
// tanh from a double-double exp) spend their effort on the last bits of a
// double, which a float throws away.
//   expm1: x clamped to [-30, 89] (beyond, the float result is -1 or
//     overflows to Infinity either way; NaN passes); k = round(x/ln2) by the
//     1.5*2^52 trick, which also leaves k + 1023 in the low bits, so 2^k is
//     one shift; r = x - k*ln2 (one product is enough at float accuracy),
//     |r| <= ln2/2; expm1(r) = r*q(r), q a degree-6 fit (relative error
//     < 2^-31.8 on |r| <= ln2/2), in that product form so expm1(-0) is -0;
//     then expm1(x) = 2^k*expm1(r) + (2^k - 1) (one rounding; its two terms
//     never cancel by more than a factor of 2), written 2^k*expm1(r) -
//     (1 - 2^k) so that for k = 0 it is expm1(r) - 0, which keeps -0.
//   Checked on every float in [-30, 89] against the double expm1: at most
//   0.505 ulp; tanh on [0, 10]: 0.504 ulp.
//   tanh: E / (E + 2) with E = expm1(2x), x clamped to [-20, 20] (float
//     tanh is +-1 past 9.02): relatively accurate for every x, small ones
//     included, since E is, and E + 2 lies in (1, Infinity) without
//     cancellation.
import type { Emitter, V } from './emitter.js';

const MAGIC = 6755399441055744 + 1023; // 1.5 * 2^52 + the exponent bias
const INV_LN2 = 1.44269504088896338700e+00;
const LN2 = Math.LN2;
/**
 * q(r) ~ expm1(r)/r on |r| <= ln2/2: the degree-6 Chebyshev interpolant (mpmath's
 * chebyfit), relative error < 2^-31.8 with these double coefficients (Taylor to
 * the same degree: 2^-26; to degree 7: 2^-30.6).
 */
const Q = [1, 0.5000000047146057, 0.16666666719028936, 0.04166635277111221, 0.00833329846980059, 0.0013941118895837,
  0.00019899285575896282] as const;

/** expm1(x) to ~2^-31 relative for x in [-30, 89] (or NaN). */
function expm1Core(e: Emitter, x: V): V {
  const t = e.add(e.mul(x, e.f64(INV_LN2)), e.f64(MAGIC));
  const k = e.sub(t, e.f64(MAGIC));
  const twoK = e.shift('i64x2.shl', t, 52);
  // One product: k*ln2's rounding (|k| <= 129) is ~2^-46 absolute, and for k != 0 the result is at least ~0.29.
  const r = e.sub(x, e.mul(k, e.f64(LN2)));
  const p = e.mul(r, e.estrin(r, Q));
  // 2^k*p - (1 - 2^k): for k = 0 that is p - 0, which keeps p's sign when p is -0.
  return e.sub(e.mul(twoK, p), e.sub(e.f64(1), twoK));
}

function expm1F32ViaF64(e: Emitter, x: V): V {
  return expm1Core(e, e.clamp(x, -30, 89));
}

function tanhF32ViaF64(e: Emitter, x: V): V {
  const big = expm1Core(e, e.mul(e.clamp(x, -20, 20), e.f64(2)));
  return e.div(big, e.add(big, e.f64(2)));
}

export { expm1F32ViaF64, tanhF32ViaF64 };
