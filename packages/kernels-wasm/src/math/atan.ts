// atan and atan2 in f64x2. atan reduces a = |x| by
// atan(a) = atan(c) + atan((a - c)/(1 + c*a)), with c read per lane from a
// table (tables.generated.ts): the centre of a's eighth of its binade for
// a in [2^-7, 2^7), so a - c is exact (Sterbenz) and |t| <= a/16 and <= 1/32;
// c = 0 below (t = a < 2^-7); c = inf above (t = -1/a, |t| <= 2^-7). atan(c)
// comes as hi + lo (mpmath), and atan(t) = t - t^3*S(t^2) with S four terms of
// the Taylor series (truncation < 2^-53.5 relative, on terms that are at most
// 1/16 of the result wherever |t| > 2^-7). fdlibm's s_atan.c, which this
// replaced, needs five intervals by select and eleven coefficients; the
// table's 129 rows cost one load per lane. The sum is fdlibm's:
// hi - ((t*t^2*S - lo) - t). The reduction's roundings (1 + c*a, the
// division) give t a relative error near 2^-52, worth at most 0.14 ulp of
// the result as |t| <= a/16. Against a long double reference over 1.7e7
// inputs (uniform on [-3, 3], log-uniform on [1e-10, 1e10], [1e-3, 1e3] and
// [1e-300, 1e300]) the largest error is 0.60 ulp; fdlibm's reached 0.86.
//
// atan2 adds a correction fdlibm lacks: y/x is formed as a double-double
// (Dekker's division) and its tail enters the polynomial step as
// q_lo/(1 + q^2), so the quotient's rounding does not add to atan's error.
// Quadrants and the C99 special cases (signed zeros, infinities) follow
// e_atan2.c.
import type { Emitter, V } from './emitter.js';
import { scaleByPow2, twoProd, twoSum, withSignOf } from './f64-bits.js';
import { ATAN_ROWS } from './tables.packed.generated.js';

/** atan(t) = t - t*z*S(z), z = t^2: S the series 1/3 - z/5 + z^2/7 - z^3/9 (on |t| <= 1/32, truncation < 2^-53.5 relative). */
const SERIES = [1 / 3, -1 / 5, 1 / 7, -1 / 9] as const;
const PI = 3.1415926535897931160e+00; // 0x400921FB 54442D18
const PI_LO = 1.2246467991473531772e-16; // 0x3CA1A626 33145C07
const PI_O_2 = 1.5707963267948965580e+00; // 0x3FF921FB 54442D18
const PI_O_4 = 7.8539816339744827900e-01; // 0x3FE921FB 54442D18

/**
 * atan(a + corr) for a >= 0 (or NaN), corr a small absolute correction to
 * the argument (0 for plain atan), with corr/(1 + a^2) folded into the
 * low-order term. Returns [zh, zl], zh the rounded result and zl its rounding
 * error, for callers that add to it.
 */
function atanNonNegative(e: Emitter, a: V, corr?: V): [V, V] {
  // Past 2^60 atan rounds to pi/2 whatever t is; b stops there, so that 0*b is never 0*Inf.
  const b = e.below(a, 2 ** 60);
  // The row: a's binade and the top three bits of its mantissa, a clamped to [2^-8, 2^8]
  // (operands in this order, a NaN lane clamps to 2^8 and stays in the table).
  const clamped = e.op('f64x2.pmax', e.f64(2 ** -8), e.op('f64x2.pmin', e.f64(2 ** 8), b));
  const row = e.shift('i64x2.shr_u', e.op('i64x2.sub', clamped, e.i64(0x3f70000000000000n)), 49);
  const [p, c, hi, lo0] = e.lookup(ATAN_ROWS, row) as [V, V, V, V];
  // t = (p*b - c)/(p + c*b): b itself, (b - c)/(1 + c*b) with b - c exact, or -1/b.
  const t = e.div(e.sub(e.mul(p, b), c), e.add(p, e.mul(c, b)));
  const z = e.mul(t, t);
  let lo = lo0;
  // d atan/d a = 1/(1 + a^2): the argument's tail, as a correction to the low part.
  if (corr) lo = e.add(lo, e.div(corr, e.add(e.f64(1), e.mul(a, a))));
  // zh = hi + lo + atan(t), adding t last but one as fdlibm does.
  const delta = e.sub(e.sub(e.mul(e.mul(t, z), e.horner(z, SERIES)), lo), t);
  const zh = e.sub(hi, delta);
  return [zh, e.sub(e.sub(hi, zh), delta)];
}

function atanF64(e: Emitter, x: V): V {
  // Below 2^-28 the kernel gives |x| itself (t = |x|, and t^3/3 is under half an ulp of it),
  // so x's sign bit restores x exactly, -0 and subnormals included: fdlibm's early return
  // for tiny x would cost a compare and a select per vector for nothing.
  const [zh] = atanNonNegative(e, e.abs(x));
  return withSignOf(e, zh, x);
}

function atan2F64(e: Emitter, y: V, x: V): V {
  // atan2 is invariant under a common power-of-two scaling: bring max(|x|, |y|) to [1, 2)
  // (below 1 when subnormal) so that Dekker's products below cannot overflow.
  const ay0 = e.abs(y);
  const ax0 = e.abs(x);
  const biased = e.shift('i64x2.shr_u', e.max(ax0, ay0), 52);
  const k = e.op('i64x2.sub', e.i64(1023n), biased);
  const ay = scaleByPow2(e, ay0, k);
  const ax = scaleByPow2(e, ax0, k);
  // |y/x| as a double-double qh + ql (Dekker: the remainder ay - qh*ax is exact via TwoProduct).
  const qh = e.div(ay, ax);
  const [p, perr] = twoProd(e, qh, ax);
  const ql = e.div(e.sub(e.sub(ay, p), perr), ax);
  // Where qh is 0, infinite or NaN the special cases below take over.
  const ok = e.and(e.lt(qh, e.f64(Infinity)), e.gt(qh, e.f64(0)));
  const [zh0, zl0] = atanNonNegative(e, qh, e.select(ok, ql, e.f64(0)));
  // |y/x| > 2^60 gives pi/2 (e_atan2.c), and x < 0 with |y/x| < 2^-60 gives 0 before the quadrant step.
  const xSignBit = e.op('i64x2.lt_s', x, e.i64(0n)); // x < 0 or x = -0
  const steep = e.gt(qh, e.f64(2 ** 60));
  const flat = e.and(xSignBit, e.lt(qh, e.f64(2 ** -60)));
  const zh = e.select(steep, e.f64(PI_O_2), e.select(flat, e.f64(0), zh0));
  const zl = e.select(steep, e.f64(PI_LO / 2), e.select(flat, e.f64(0), zl0));
  // x < 0: pi - z, with pi - zh exact by TwoSum and both tails added once.
  const [d, dErr] = twoSum(e, e.f64(PI), e.neg(zh));
  const left = e.add(d, e.add(dErr, e.sub(e.f64(PI_LO), zl)));
  let r = e.select(xSignBit, left, zh);
  // The special cases of e_atan2.c, for |y| (y's sign goes on last).
  const yZero = e.eq(y, e.f64(0));
  const xZero = e.eq(x, e.f64(0));
  const xInf = e.eq(ax0, e.f64(Infinity));
  const yInf = e.eq(ay0, e.f64(Infinity));
  r = e.select(yInf, e.select(xInf, e.select(xSignBit, e.f64(3 * PI_O_4), e.f64(PI_O_4)), e.f64(PI_O_2)), r);
  r = e.select(e.andnot(xInf, yInf), e.select(xSignBit, e.f64(PI), e.f64(0)), r);
  r = e.select(e.andnot(xZero, yZero), e.f64(PI_O_2), r);
  r = e.select(yZero, e.select(xSignBit, e.f64(PI), e.f64(0)), r);
  r = withSignOf(e, r, y);
  // NaN in either operand gives NaN.
  return e.select(e.or(e.ne(x, x), e.ne(y, y)), e.add(x, y), r);
}

export { atanF64, atan2F64, atanNonNegative };
