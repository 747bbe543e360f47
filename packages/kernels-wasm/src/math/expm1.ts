// expm1 in f64x2, table-driven (the table: 2^(j/64) as hi + lo, from mpmath):
//   x = (64m + j)*ln2/64 + r, |r| <= ln2/128, r = rh + rl (ln2/64 in fdlibm's
//   hi/lo split, so k*hi is exact);
//   exp(x) = 2^m * T (1 + p), T = 2^(j/64), p = rh + rl(1 + rh) + q,
//   q = rh^2 (1/2 + rh/6 + ... + rh^4/720) (truncation < 2^-65 absolute);
//   expm1(x) = c + p + c*p with c = 2^m*T - 1 = ch + cl exactly (TwoSum), and
//   ch + rh summed exactly (Fast2Sum): the products left to round, c*p and
//   rh^2*Q, are small against the result wherever it is small (|c| or |p|
//   is), so only the last addition rounds at the result's scale, even near 0
//   and across k = +-1 (x near +-ln2/128, where 2^m*T - 1 and p nearly
//   cancel). At m = 1024 (x >= 709.776) 2^m overflows: 2*T*(1 + p) * 2^(m-1).
// Against a long double reference over 2.5e7 inputs (uniform on [-10, 10],
// [-1, 1], [-0.02, 0.02], [-40, -0.001] and [30, 709.78]; log-uniform on
// [1e-300, 709.78]) the largest error is 0.67 ulp.
// fdlibm's s_expm1.c, which this replaced, has a division and six forms
// chosen by k, all computed and selected here before. The parts are exported
// for tanh (hyperbolic.ts), which needs expm1 as a double-double.
import type { Emitter, V } from './emitter.js';
import { SHIFT, SHIFT_BITS, fastTwoSum, twoSum, withSignOf } from './f64-bits.js';
import { LN2HI, LN2LO } from './exp.js';
import { EXP2_ROWS } from './tables.packed.generated.js';

/** The Taylor series of (expm1(r) - r)/r^2, to r^4/720. */
const Q = [1 / 2, 1 / 6, 1 / 24, 1 / 120, 1 / 720] as const;

/** The table reduction x = (64m + j)*ln2/64 + rh + rl, with T = 2^(j/64) as t + tlo. */
interface ExpReduction {
  /** x*64/ln2 + SHIFT: its bits are SHIFT_BITS + k (for powerOf2m). */
  readonly shifted: V;
  /** k = 64m + j, as f64. */
  readonly kf: V;
  readonly t: V;
  readonly tlo: V;
  readonly rh: V;
  /** rl + rh^2*Q(rh): expm1(r) = rh + small to 2^-65. */
  readonly small: V;
}

/** The reduction of x, for |x| <= 746 (callers clamp; NaN passes as NaN). */
function expReduce(e: Emitter, x: V): ExpReduction {
  const shifted = e.add(e.mul(x, e.f64(64 / Math.LN2)), e.f64(SHIFT));
  const kf = e.sub(shifted, e.f64(SHIFT));
  const a = e.sub(x, e.mul(kf, e.f64(LN2HI / 64)));
  const b = e.mul(kf, e.f64(LN2LO / 64));
  const rh = e.sub(a, b);
  const rl = e.sub(e.sub(a, rh), b);
  const [t, tlo] = e.lookup(EXP2_ROWS, e.and(shifted, e.i64(63n))) as [V, V];
  const rh2 = e.mul(rh, rh);
  return { shifted, kf, t, tlo, rh, small: e.add(rl, e.mul(rh2, e.pairedHorner(rh, rh2, Q))) };
}

/**
 * 2^(m + offset), m = k >> 6, as bits: (k + 64*(1023 + offset)) with its low six bits
 * cleared, moved to the exponent field. Needs 1 <= m + offset + 1023 <= 2046.
 */
function powerOf2m(e: Emitter, { shifted }: ExpReduction, offset: number): V {
  const bias = e.i64(BigInt.asIntN(64, 64n * BigInt(1023 + offset) - SHIFT_BITS));
  return e.shift('i64x2.shl', e.and(e.op('i64x2.add', shifted, bias), e.i64(-64n)), 46);
}

/**
 * expm1(x) = c + p + c*p, c = 2^m*T - 1 (exact, as ch + cl), p = expm1(r):
 * [ch + rh by Fast2Sum] + the small terms, as hi + lo. Valid for m <= 1023
 * (x < 709.776; x clamped below at -40, where expm1 rounds to -1), where 2^m
 * is finite; NaN passes as NaN. hi carries the result to within the
 * small terms' magnitude (a few ulps of hi at most), lo the rest.
 */
function expm1Parts(e: Emitter, x0: V): { readonly hi: V; readonly lo: V; readonly r: ExpReduction } {
  const r = expReduce(e, e.clamp(x0, -40, 710));
  const pow2m = powerOf2m(e, r, 0);
  const [ch, cl0] = twoSum(e, e.mul(r.t, pow2m), e.f64(-1));
  const cl = e.add(cl0, e.mul(r.tlo, pow2m));
  // |ch| >= 2^(1/64) - 1 > |rh| unless c = 0 (k = 0): Fast2Sum applies.
  const [hi, he] = fastTwoSum(e, ch, r.rh);
  const cp = e.mul(ch, e.add(r.rh, r.small));
  return { hi, lo: e.add(e.add(he, cl), e.add(r.small, cp)), r };
}

/** exp(x)/2^m as eh + el (eh = T + T*rh by Fast2Sum; T*rh's rounding, < 2^-59 relative, is dropped). */
function expScaled(e: Emitter, r: ExpReduction): [V, V] {
  const [eh, ee] = fastTwoSum(e, r.t, e.mul(r.t, r.rh));
  return [eh, e.add(ee, e.add(e.mul(r.t, r.small), e.mul(r.tlo, e.add(e.f64(1), r.rh))))];
}

function expm1F64(e: Emitter, x: V): V {
  const { hi, lo, r } = expm1Parts(e, x);
  // m = 1024 (x >= 709.776), where 2^m overflows: expm1 is exp to far below an ulp, and
  // 2^m*T(1 + p) as (2*T(1 + p))*2^(m-1) overflows exactly when exp does.
  const [eh, el] = expScaled(e, r);
  const whole = e.add(eh, el);
  const big = e.mul(e.add(whole, whole), powerOf2m(e, r, -1));
  const y = e.select(e.ge(r.kf, e.f64(1024 * 64)), big, e.add(hi, lo));
  // x's sign bit keeps expm1(-0) = -0 (every other result already has x's sign).
  return withSignOf(e, y, x);
}

export { expm1F64, expm1Parts, expReduce, expScaled, powerOf2m };
export type { ExpReduction };
