// sinh, cosh and tanh in f64x2 from double-double exponentials (exp-dd.ts for
// sinh and cosh, the table-driven expm1 of expm1.ts for tanh), so that the
// subtraction, sum or quotient of exponentials costs no accuracy: every
// result is a double-double value rounded once, where fdlibm's versions (on
// plain exp and expm1; V8's Math.sinh and Math.tanh) measure up to 2 ulp from
// the correctly rounded result.
//   sinh |x| < 1:  x + x^3 * sum_{j<9} x^(2j)/(2j+3)!  (Taylor, truncation < 2^-66)
//   sinh |x| >= 1: 2^(k-1) * (E - 2^(-2k)/E),  E = exp(|x|)/2^k = 1 + P, 1/E in double-double
//   cosh:          2^(k-1) * (E + 2^(-2k)/E)
//   tanh:          -m/(2 + m), m = expm1(-2|x|) as a double-double from expm1.ts
//                  (table-driven, relative error ~2^-60), a double-double quotient:
//                  0.67 ulp at most against a long double reference (1.7e7 inputs).
import type { Emitter, V } from './emitter.js';
import { expParts } from './exp-dd.js';
import { expm1Parts } from './expm1.js';
import { fastTwoSum, scaleByPow2, split, twoProd, twoSum } from './f64-bits.js';

const SIGN = 0x8000000000000000n;

/** sum_{j=0..8} z^j/(2j+3)!: the odd Taylor series of sinh after x + x^3*... */
const SINH_SERIES = Array.from({ length: 9 }, (_, j) => {
  let f = 1;
  for (let n = 2; n <= 2 * j + 3; n++) f *= n;
  return 1 / f;
});

/** a/(bh + bl) as a double-double, a a double (Dekker's division step). */
function divDD(e: Emitter, a: V, bh: V, bl: V): [V, V] {
  const qh = e.div(a, bh);
  const [p, perr] = twoProd(e, qh, bh);
  const rem = e.sub(e.sub(e.sub(a, p), perr), e.mul(qh, bl));
  return [qh, e.div(rem, bh)];
}

/** E = 1 + ph + pl as a normalised double-double. */
function onePlus(e: Emitter, ph: V, pl: V): [V, V] {
  const [h, l] = fastTwoSum(e, e.f64(1), ph);
  return [h, e.add(l, pl)];
}

/** 2^k * (E +- 2^(-2k)/E) / 2 for |x| clamped to [0, 711]: the shared body of sinh and cosh. */
function halfExpPlusMinus(e: Emitter, ax: V, sign: 1 | -1): V {
  const { k, ph, pl } = expParts(e, ax);
  const [eh, el] = onePlus(e, ph, pl);
  const [bh0, bl0] = divDD(e, e.f64(1), eh, el);
  // 2^(-2k): past 2k = 200 the term is far below an ulp; clamping keeps the scale in range.
  const twoK = e.op('i64x2.add', k, k);
  const minus2k = e.op('i64x2.sub', e.i64(0n), e.select(e.op('i64x2.gt_s', twoK, e.i64(200n)), e.i64(200n), twoK));
  const bh = scaleByPow2(e, bh0, minus2k);
  const bl = scaleByPow2(e, bl0, minus2k);
  const [sh, se] = sign === 1 ? twoSum(e, eh, bh) : twoSum(e, eh, e.neg(bh));
  const lo = sign === 1 ? e.add(e.add(se, el), bl) : e.sub(e.add(se, el), bl);
  return scaleByPow2(e, e.add(sh, lo), e.op('i64x2.sub', k, e.i64(1n)));
}

function sinhF64(e: Emitter, x: V): V {
  const ax = e.below(e.abs(x), 711);
  const big = halfExpPlusMinus(e, ax, -1);
  const z = e.mul(x, x);
  const small = e.add(x, e.mul(e.mul(x, z), e.horner(z, SINH_SERIES)));
  const signed = e.or(big, e.and(x, e.i64(SIGN)));
  // NaN lanes: the comparison fails and the big branch carries the NaN.
  return e.select(e.lt(e.abs(x), e.f64(1)), small, signed);
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
  return e.or(q, e.and(x, e.i64(SIGN)));
}

export { sinhF64, coshF64, tanhF64 };
