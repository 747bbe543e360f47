// sinh, cosh and tanh in f64x2 from double-double exponentials (the table
// reduction of expm1.ts: exp and expm1 as 2^m * (hi + lo)), so that the
// subtraction, sum or quotient of exponentials costs no accuracy: every
// result is a double-double value rounded once, where fdlibm's versions (on
// plain exp and expm1; V8's Math.sinh and Math.tanh) measure up to 2 ulp from
// the correctly rounded result.
//   sinh |x| < 1/2: x + x^3 * sum_{j<9} x^(2j)/(2j+3)!  (Taylor, truncation < 2^-66)
//   sinh |x| >= 1/2: (exp(|x|) - exp(-|x|))/2, each 2^m * (eh + el) from the table
//                  (cancelling at most a factor coth(1/2) = 2.2 against their 2^-59 error)
//   cosh:          (exp(|x|) + exp(-|x|))/2, the same; one TwoSum, one rounding
//   tanh:          -m/(2 + m), m = expm1(-2|x|) as a double-double from expm1.ts
//                  (table-driven, relative error ~2^-60), a double-double quotient:
//                  0.67 ulp at most against a long double reference (1.7e7 inputs).
import type { Emitter, V } from './emitter.js';
import { expReduce, expScaled, expm1Parts, powerOf2m } from './expm1.js';
import { fastTwoSum, split, twoSum, withSignOf } from './f64-bits.js';

/** sum_{j=0..8} z^j/(2j+3)!: the odd Taylor series of sinh after x + x^3*... */
const SINH_SERIES = Array.from({ length: 9 }, (_, j) => {
  let f = 1;
  for (let n = 2; n <= 2 * j + 3; n++) f *= n;
  return 1 / f;
});

/**
 * (exp(a) +- exp(-a))/2 for a = |x| clamped to [0, 711]: both exponentials by the table
 * reduction (expm1.ts) as 2^m * (eh + el), summed by TwoSum, rounded once. exp(-a) stops at
 * a = 40 (it is below 2^-115 of exp(a) there), so its scale stays normal; exp(a)/2 is
 * (2*eh)*2^(m-2), finite up to cosh's own overflow.
 */
function halfExpPlusMinus(e: Emitter, ax: V, sign: 1 | -1): V {
  const up = expReduce(e, ax);
  const down = expReduce(e, e.clamp(e.neg(ax), -40, 0));
  const [eh, el] = expScaled(e, up);
  const [fh, fl] = expScaled(e, down);
  const qa = powerOf2m(e, up, -2);
  // exp(-a)/2's scale carries the sign, so its whole part and its tail both subtract for sinh.
  const qb = sign === 1 ? powerOf2m(e, down, -1) : e.neg(powerOf2m(e, down, -1));
  const big = e.mul(e.add(eh, eh), qa);
  const [sh, se] = twoSum(e, big, e.mul(fh, qb));
  const y = e.add(sh, e.add(se, e.add(e.mul(e.add(el, el), qa), e.mul(fl, qb))));
  // Past the overflow TwoSum's error is NaN: the Inf stands.
  return e.select(e.eq(big, e.f64(Infinity)), big, y);
}

function sinhF64(e: Emitter, x: V): V {
  const ax = e.below(e.abs(x), 711);
  const big = halfExpPlusMinus(e, ax, -1);
  const z = e.mul(x, x);
  const small = e.add(x, e.mul(e.mul(x, z), e.horner(z, SINH_SERIES)));
  const signed = withSignOf(e, big, x);
  // NaN lanes: the comparison fails and the big branch carries the NaN.
  return e.select(e.lt(e.abs(x), e.f64(0.5)), small, signed);
}

function coshF64(e: Emitter, x: V): V {
  return halfExpPlusMinus(e, e.below(e.abs(x), 711), 1);
}

function tanhF64(e: Emitter, x: V): V {
  const ax = e.abs(x);
  // m = expm1(-2|x|) as mh + ml (expm1.ts; past |x| = 20 its clamp at -40 gives m ~ -1, and
  // tanh rounds to 1 from 19.1 on, Inf and all).
  // Normalised: expm1Parts' lo holds c*p, up to ~0.5% of hi, and the quotient's one correction
  // step below needs ml below an ulp or so of mh.
  const parts = expm1Parts(e, e.mul(e.f64(-2), ax));
  const [mh, ml] = fastTwoSum(e, parts.hi, parts.lo);
  // tanh|x| = -m/(2 + m) = qh + rem/d, rem = -m - qh*d formed exactly: d's top 26 bits times
  // each half of qh (Veltkamp) are exact products, and the two subtractions are exact (Sterbenz);
  // only the small products with d's tail and ml round.
  const [dh, de] = fastTwoSum(e, e.f64(2), mh);
  const dl = e.add(de, ml);
  const qh = e.div(e.neg(mh), dh);
  const dTop = e.and(dh, e.i64(-(1n << 27n)));
  const [qTop, qTail] = split(e, qh);
  const exact = e.sub(e.sub(e.neg(mh), e.mul(qTop, dTop)), e.mul(qTail, dTop));
  const rem = e.sub(exact, e.add(e.add(e.mul(qh, e.sub(dh, dTop)), ml), e.mul(qh, dl)));
  const q = e.add(qh, e.div(rem, dh));
  // x's sign bit: tanh(-x) = -tanh(x), and -0 stays -0; tiny and subnormal x come out as x.
  return withSignOf(e, q, x);
}

export { sinhF64, coshF64, tanhF64 };
