// atan and atan2 in f64x2, after fdlibm's s_atan.c and e_atan2.c (Sun
// Microsystems, 1993). atan reduces |x| to one of five intervals by
// atan(x) = atan(c) + atan((x - c)/(1 + c*x)), c in {0, 1/2, 1, 3/2, inf},
// with atan(c) as hi + lo, and evaluates fdlibm's degree-22 odd minimax
// polynomial (|error| < 2^-56.9 on |t| <= 7/16). Lanes pick their interval's
// constants by select; the reduction (a*x - b)/(c + d*x) is exact in its
// numerator as in fdlibm.
//
// atan2 adds a correction fdlibm lacks: y/x is formed as a double-double
// (Dekker's division) and its tail enters the polynomial step as
// q_lo/(1 + q^2), so the quotient's rounding does not add to atan's error.
// Quadrants and the C99 special cases (signed zeros, infinities) follow
// e_atan2.c.
import type { Emitter, V } from './emitter.js';
import { scaleByPow2, twoProd, twoSum } from './f64-bits.js';

const ATANHI = [
  4.63647609000806093515e-01, // atan(0.5)hi 0x3FDDAC67 0561BB4F
  7.85398163397448278999e-01, // atan(1.0)hi 0x3FE921FB 54442D18
  9.82793723247329054082e-01, // atan(1.5)hi 0x3FEF730B D281F69B
  1.57079632679489655800e+00, // atan(inf)hi 0x3FF921FB 54442D18
] as const;
const ATANLO = [
  2.26987774529616870924e-17, // atan(0.5)lo 0x3C7A2B7F 222F65E2
  3.06161699786838301793e-17, // atan(1.0)lo 0x3C81A626 33145C07
  1.39033110312309984516e-17, // atan(1.5)lo 0x3C700788 7AF0CBBD
  6.12323399573676603587e-17, // atan(inf)lo 0x3C91A626 33145C07
] as const;
const AT = [
  3.33333333333329318027e-01, // 0x3FD55555 5555550D
  -1.99999999998764832476e-01, // 0xBFC99999 9998EBC4
  1.42857142725034663711e-01, // 0x3FC24924 920083FF
  -1.11111104054623557880e-01, // 0xBFBC71C6 FE231671
  9.09088713343650656196e-02, // 0x3FB745CD C54C206E
  -7.69187620504482999495e-02, // 0xBFB3B0F2 AF749A6D
  6.66107313738753120669e-02, // 0x3FB10D66 A0D03D51
  -5.83357013379057348645e-02, // 0xBFADDE2D 52DEFD9A
  4.97687799461593236017e-02, // 0x3FA97B4B 24760DEB
  -3.65315727442169155270e-02, // 0xBFA2B444 2C6A6C2F
  1.62858201153657823623e-02, // 0x3F90AD3A E322DA11
] as const;
const PI = 3.1415926535897931160e+00; // 0x400921FB 54442D18
const PI_LO = 1.2246467991473531772e-16; // 0x3CA1A626 33145C07
const PI_O_2 = 1.5707963267948965580e+00; // 0x3FF921FB 54442D18
const PI_O_4 = 7.8539816339744827900e-01; // 0x3FE921FB 54442D18
const SIGN = 0x8000000000000000n;

/**
 * atan(a + corr) for a >= 0 (or NaN), corr a small absolute correction to
 * the argument (0 for plain atan): the fdlibm kernel with corr/(1 + a^2)
 * folded into its low-order term. Returns [zh, zl], zh = fdlibm's rounded
 * result and zl its rounding error, for callers that add to it.
 */
function atanNonNegative(e: Emitter, a: V, corr?: V): [V, V] {
  // Intervals: [0, 7/16) none; [7/16, 11/16) c=1/2; [11/16, 19/16) c=1; [19/16, 39/16) c=3/2; beyond, c=inf.
  const ge = (t: number): V => e.ge(a, e.f64(t));
  const i0 = ge(0.4375);
  const i1 = ge(0.6875);
  const i2 = ge(1.1875);
  const i3 = ge(2.4375);
  const pick = (none: number, v0: number, v1: number, v2: number, v3: number): V =>
    e.select(i3, e.f64(v3), e.select(i2, e.f64(v2), e.select(i1, e.f64(v1), e.select(i0, e.f64(v0), e.f64(none)))));
  // t = (pa*a - pb)/(pc + pd*a): a, (2a-1)/(2+a), (a-1)/(a+1), (a-1.5)/(1+1.5a); beyond, -1/a
  // (selected apart, so that a = Inf gives -0 rather than 0*Inf).
  const pa = pick(1, 2, 1, 1, 0);
  const pb = pick(0, 1, 1, 1.5, 0);
  const pc = pick(1, 2, 1, 1, 0);
  const pd = pick(0, 1, 1, 1.5, 0);
  const num = e.select(i3, e.f64(-1), e.sub(e.mul(pa, a), pb));
  const t = e.div(num, e.select(i3, a, e.add(pc, e.mul(pd, a))));
  const z = e.mul(t, t);
  const w = e.mul(z, z);
  const s1 = e.mul(z, e.horner(w, [AT[0], AT[2], AT[4], AT[6], AT[8], AT[10]]));
  const s2 = e.mul(w, e.horner(w, [AT[1], AT[3], AT[5], AT[7], AT[9]]));
  let lo = pick(0, ATANLO[0], ATANLO[1], ATANLO[2], ATANLO[3]);
  // d atan/d a = 1/(1 + a^2): the argument's tail, as a correction to the low part.
  if (corr) lo = e.add(lo, e.div(corr, e.add(e.f64(1), e.mul(a, a))));
  const hi = pick(0, ATANHI[0], ATANHI[1], ATANHI[2], ATANHI[3]);
  const delta = e.sub(e.sub(e.mul(t, e.add(s1, s2)), lo), t);
  const zh = e.sub(hi, delta);
  return [zh, e.sub(e.sub(hi, zh), delta)];
}

function atanF64(e: Emitter, x: V): V {
  const [zh] = atanNonNegative(e, e.abs(x));
  const r = e.or(zh, e.and(x, e.i64(SIGN)));
  // |x| < 2^-28: atan(x) rounds to x (keeps -0 and subnormals).
  return e.select(e.lt(e.abs(x), e.f64(2 ** -28)), x, r);
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
  r = e.or(r, e.and(y, e.i64(SIGN)));
  // NaN in either operand gives NaN.
  return e.select(e.or(e.ne(x, x), e.ne(y, y)), e.add(x, y), r);
}

export { atanF64, atan2F64, atanNonNegative };
