// sinh, cosh and tanh in f64x2 from the double-double exponential of
// exp-dd.ts, so that the subtraction, sum or quotient of exponentials costs
// no accuracy: every result is the double-double value rounded once, where
// fdlibm's versions (on plain exp and expm1; V8's Math.sinh and Math.tanh)
// measure up to 2 ulp from the correctly rounded result.
//   sinh |x| < 1:  x + x^3 * sum_{j<9} x^(2j)/(2j+3)!  (Taylor, truncation < 2^-66)
//   sinh |x| >= 1: 2^(k-1) * (E - 2^(-2k)/E),  E = exp(|x|)/2^k = 1 + P, 1/E in double-double
//   cosh:          2^(k-1) * (E + 2^(-2k)/E)
//   tanh |x| < 22: -m/(2 + m) with m = expm1(-2|x|) = (2^k - 1) + 2^k P, a double-double
//                  quotient; +-1 beyond (tanh(x) rounds to 1 past 19.1).
import type { Emitter, V } from './emitter.js';
import { expParts } from './exp-dd.js';
import { fastTwoSum, scaleByPow2, twoProd, twoSum } from './f64-bits.js';

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
  const t = e.mul(e.f64(-2), e.below(ax, 22));
  const { k, ph, pl } = expParts(e, t);
  // m = expm1(t) = (2^k - 1) + 2^k*(ph + pl), with 2^k - 1 split exactly (it needs 54 bits once k < -53,
  // where tanh is within an ulp or two of 1 and that last bit decides the rounding).
  const pow2k = scaleByPow2(e, e.f64(1), k);
  const [ch, cl] = fastTwoSum(e, e.f64(-1), pow2k);
  const [mh0, me] = twoSum(e, ch, e.mul(pow2k, ph));
  const [mh, ml] = fastTwoSum(e, mh0, e.add(e.add(me, cl), e.mul(pow2k, pl)));
  // tanh|x| = -m/(2 + m).
  const [dh, de] = fastTwoSum(e, e.f64(2), mh);
  const dl = e.add(de, ml);
  const qh = e.div(e.neg(mh), dh);
  const [p, perr] = twoProd(e, qh, dh);
  const rem = e.sub(e.sub(e.sub(e.sub(e.neg(mh), p), perr), ml), e.mul(qh, dl));
  const q = e.add(qh, e.div(rem, dh));
  const mag = e.select(e.ge(ax, e.f64(22)), e.f64(1), q);
  const signed = e.or(mag, e.and(x, e.i64(SIGN)));
  // Tiny |x|: tanh(x) rounds to x (keeps -0 and subnormals); NaN lanes carry NaN through q.
  return e.select(e.lt(ax, e.f64(2 ** -28)), x, signed);
}

export { sinhF64, coshF64, tanhF64 };
