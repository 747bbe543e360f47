// exp with a double-double result, for the functions whose answer is a
// difference, quotient or power of exponentials (sinh, cosh, tanh, pow) and
// which must stay within 1 ulp after that arithmetic: fdlibm's exp alone is
// < 1 ulp, but those operations would add their own rounding to its error.
//
//   x (+ xl) = k*ln2 + r,  ln2 = LN2HI + LN2LO + ~1.2e-26 (the tail is
//   dropped: k*tail < 2^-76), k*LN2HI exact, k*LN2LO exact by Dekker's
//   product, the subtractions by TwoSum, so r = rh + rl to ~2^-100;
//   exp(r) = 1 + P,  P = rh + rh^2/2 + rh^3*G(rh) + rl*(1 + rh),
// with G the Taylor series sum_{j=0..12} rh^j/(j+3)! (truncation error
// < 2^-68 for |rh| <= ln2/2) and rh^2 exact by Dekker's product. P comes
// back as ph + pl, with absolute error < 2^-58 and relative error < 2^-57 when
// k = 0, so exp(x) - 1 stays accurate too.
import type { Emitter, V } from './emitter.js';
import { INVLN2, LN2HI, LN2LO } from './exp.js';
import { fastTwoSum, roundToInt, twoProd, twoSum } from './f64-bits.js';

/** 1/n! for n = 3..15, the coefficients of G. */
const INV_FACTORIAL_3 = Array.from({ length: 13 }, (_, j) => {
  let f = 1;
  for (let n = 2; n <= j + 3; n++) f *= n;
  return 1 / f;
});

interface ExpParts {
  /** exp(x) = 2^k * (1 + ph + pl); k as i64 lanes ... */
  readonly k: V;
  /** ... and as f64. */
  readonly kf: V;
  readonly ph: V;
  readonly pl: V;
}

/** exp(xh + xl) as 2^k (1 + ph + pl), for |xh| <= ~746 (callers clamp); xl, if given, |xl| <= ulp(xh). */
function expParts(e: Emitter, xh: V, xl?: V): ExpParts {
  const [kf, k] = roundToInt(e, e.mul(xh, e.f64(INVLN2)));
  const a = e.sub(xh, e.mul(kf, e.f64(LN2HI)));
  const [bh, bl] = twoProd(e, kf, e.f64(LN2LO));
  const [s, e1] = twoSum(e, a, e.neg(bh));
  let lo = e.sub(e1, bl);
  if (xl) lo = e.add(lo, xl);
  const [rh, rl] = twoSum(e, s, lo);
  const [qh, ql] = twoProd(e, rh, rh);
  const p3 = e.mul(e.mul(rh, qh), e.horner(rh, INV_FACTORIAL_3));
  const [p0, pe] = fastTwoSum(e, rh, e.mul(e.f64(0.5), qh));
  const tail = e.add(e.add(e.add(pe, e.mul(e.f64(0.5), ql)), p3), e.mul(rl, e.add(e.f64(1), rh)));
  const [ph, pl] = fastTwoSum(e, p0, tail);
  return { k, kf, ph, pl };
}

export { expParts };
export type { ExpParts };
