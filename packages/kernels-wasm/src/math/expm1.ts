// expm1 in f64x2, after fdlibm's s_expm1.c (Sun Microsystems, 1993; error
// < 1 ulp): x = k*ln2 + r with the reduction's rounding error kept as c;
// on |r| <= ln2/2, expm1(r) = r + r^2/2 + r^3/2 * (3 - (R1 + R1*r/2)) / (6 - r*(3 - R1*r/2)),
// where R1(r^2/2) is fdlibm's degree-5 Remez fit (error < 2^-61) of
// 6/r * ((exp(r)+1)/(exp(r)-1) - 2/r). The k-dependent reconstruction
// (k = 0, -1, 1, 2..19, 20..56, else) picks the cancellation-free form for
// each range; here every form is computed and the lanes select theirs.
import type { Emitter, V } from './emitter.js';
import { roundToInt, scaleByPow2 } from './f64-bits.js';
import { INVLN2, LN2HI, LN2LO } from './exp.js';

const Q = [
  -3.33333333333331316428e-02, // Q1 0xBFA11111 111110F4
  1.58730158725481460165e-03, // Q2 0x3F5A01A0 19FE5585
  -7.93650757867487942473e-05, // Q3 0xBF14CE19 9EAADBB7
  4.00821782732936239552e-06, // Q4 0x3ED0CFCA 86E65239
  -2.01099218183624371326e-07, // Q5 0xBE8AFDB7 6E09C32D
] as const;

/** Below this |x|, expm1(x) rounds to x: keeps -0 and subnormals exact. */
const TINY = 2 ** -54;

function expm1F64(e: Emitter, x0: V): V {
  // Past -40, expm1 rounds to -1; past 710 it overflows. NaN passes the clamp as NaN.
  const x = e.clamp(x0, -40, 710);
  const [kf, k] = roundToInt(e, e.mul(x, e.f64(INVLN2)));
  const hi = e.sub(x, e.mul(kf, e.f64(LN2HI)));
  const lo = e.mul(kf, e.f64(LN2LO));
  const r = e.sub(hi, lo);
  const c = e.sub(e.sub(hi, r), lo);
  // expm1(r) ~ r - (r*E - r^2/2), E as in fdlibm.
  const hfx = e.mul(e.f64(0.5), r);
  const hxs = e.mul(r, hfx);
  const r1 = e.add(e.f64(1), e.mul(hxs, e.horner(hxs, Q)));
  const t = e.sub(e.f64(3), e.mul(r1, hfx));
  const E0 = e.mul(hxs, e.div(e.sub(r1, t), e.sub(e.f64(6), e.mul(r, t))));
  const k0 = e.sub(r, e.sub(e.mul(r, E0), hxs));
  // k != 0: fold the reduction error c in.
  const E = e.sub(e.sub(e.mul(r, e.sub(E0, c)), c), hxs);
  const kMinus1 = e.sub(e.mul(e.f64(0.5), e.sub(r, E)), e.f64(0.5));
  const kPlus1 = e.select(e.lt(r, e.f64(-0.25)),
    e.mul(e.f64(-2), e.sub(E, e.add(r, e.f64(0.5)))),
    e.add(e.f64(1), e.mul(e.f64(2), e.sub(r, E))));
  // k <= -2 or k > 56: exp(x) - 1 with no cancellation worth avoiding.
  const far = e.sub(scaleByPow2(e, e.sub(e.f64(1), e.sub(E, r)), k), e.f64(1));
  // 2 <= k < 20: (1 - 2^-k) - (E - r), scaled; 20 <= k <= 56: (r - (E + 2^-k)) + 1, scaled.
  const twoMinusK = scaleByPow2(e, e.f64(1), e.op('i64x2.neg', k));
  const mid = scaleByPow2(e, e.sub(e.sub(e.f64(1), twoMinusK), e.sub(E, r)), k);
  const high = scaleByPow2(e, e.add(e.sub(r, e.add(E, twoMinusK)), e.f64(1)), k);
  const is = (v: bigint): V => e.op('i64x2.eq', k, e.i64(v));
  const kLt = (v: bigint): V => e.op('i64x2.lt_s', k, e.i64(v));
  let y = e.select(kLt(20n), mid, high);
  y = e.select(e.or(kLt(-1n), e.op('i64x2.gt_s', k, e.i64(56n))), far, y);
  y = e.select(is(1n), kPlus1, y);
  y = e.select(is(-1n), kMinus1, y);
  y = e.select(is(0n), k0, y);
  return e.select(e.lt(e.abs(x0), e.f64(TINY)), x0, y);
}

export { expm1F64 };
