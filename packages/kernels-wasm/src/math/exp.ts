// exp in f64x2, after fdlibm's e_exp.c (Sun Microsystems, 1993), which is
// proved accurate to < 1 ulp and needs no table (wasm SIMD has no gather):
//   x = k*ln2 + r, |r| <= ln2/2, with ln2 split Cody-Waite style into ln2HI
//   (32 significant bits, so k*ln2HI is exact for |k| < 2^21) and ln2LO;
//   exp(r) = 1 + r + r*c(r)/(2 - c(r)), where c(r) = r - r^2*P(r^2) and P is
//   fdlibm's degree-5 Remez fit (error < 2^-59) of the function R with
//   r*(exp(r)+1)/(exp(r)-1) = 2 + R(r^2).
// The hi and lo parts of r stay separate in the last step, so the reduction's
// rounding error never reaches the result. Branch-free: lanes are clamped to
// [-746, 710] (beyond which the answer is 0 or Inf anyway) and 2^k is applied
// as two normal powers of two, so subnormal results are rounded once.
import type { Emitter, V } from './emitter.js';
import { roundToInt, scaleByPow2 } from './f64-bits.js';

const INVLN2 = 1.44269504088896338700e+00; // 0x3FF71547 652B82FE
const LN2HI = 6.93147180369123816490e-01; // 0x3FE62E42 FEE00000
const LN2LO = 1.90821492927058770002e-10; // 0x3DEA39EF 35793C76
const P = [
  1.66666666666666019037e-01, // P1 0x3FC55555 5555553E
  -2.77777777770155933842e-03, // P2 0xBF66C16C 16BEBD93
  6.61375632143793436117e-05, // P3 0x3F11566A AF25DE2C
  -1.65339022054652515390e-06, // P4 0xBEBBBD41 C5D26BF1
  4.13813679705723846039e-08, // P5 0x3E663769 72BEA4D0
] as const;

/**
 * exp(r) for an already reduced r = hi - lo (|r| <= ~0.35), as fdlibm's
 * 1 - ((lo - r*c/(2 - c)) - hi); shared with expm1-free callers.
 */
function expReduced(e: Emitter, hi: V, lo: V): V {
  const r = e.sub(hi, lo);
  const t = e.mul(r, r);
  const c = e.sub(r, e.mul(t, e.estrin(t, P)));
  const q = e.div(e.mul(r, c), e.sub(e.f64(2), c));
  return e.sub(e.f64(1), e.sub(e.sub(lo, q), hi));
}

function expF64(e: Emitter, x0: V): V {
  // The clamp keeps a NaN lane NaN, which then flows through to the result.
  const x = e.clamp(x0, -746, 710);
  const [kf, k] = roundToInt(e, e.mul(x, e.f64(INVLN2)));
  const hi = e.sub(x, e.mul(kf, e.f64(LN2HI)));
  const lo = e.mul(kf, e.f64(LN2LO));
  return scaleByPow2(e, expReduced(e, hi, lo), k);
}

export { expF64, expReduced, INVLN2, LN2HI, LN2LO, P as EXP_P };
