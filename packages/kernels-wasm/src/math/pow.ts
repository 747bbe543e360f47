// pow in f64x2, after fdlibm's e_pow.c (Sun Microsystems, 1993/2004: "x**y
// nearly rounded"; V8's Math.pow is the same code), with its branches turned
// into lane selects:
//   1. log2|x| = t1 + t2 to ~64 bits: |x| = 2^n * a with a near 1 or 1.5
//      (bp), s = (a - bp)/(a + bp) split into 32-bit head and exact tail,
//      log2(a) = log2(bp) + 2/(3 ln2) * (3s + s^3 * L(s^2)) with fdlibm's
//      degree-6 Remez L, every product's rounding carried in a tail word.
//      For |y| > 2^31 and |x| within 2^-20 of 1: the series of log(1 + t).
//   2. y*log2|x| = p_h + p_l exactly enough: y cut to 32 bits times t1 (21
//      bits) is exact. Over- and underflow are decided on p_h + p_l.
//   3. 2^(p_h + p_l) = 2^n * exp((p_h - n + p_l)*ln2), the argument a
//      double-double through ln2's 32-bit head, and exp by fdlibm's kernel
//      (exp.ts), scaled back in two steps so subnormals round once.
// Then C99's special cases: pow(x, +-0) = 1 and pow(1, y) = 1 even for NaN,
// pow(-1, +-Inf) = 1, signed zeros and infinities by the parity of y, and
// NaN for a negative finite x with a finite non-integer y.
import type { Emitter, V } from './emitter.js';
import { SIGN_BIT, i64ToF64, roundToInt, scaleByPow2 } from './f64-bits.js';
import { EXP_P } from './exp.js';

const DP_H = 5.84962487220764160156e-01; // log2(1.5) head 0x3FE2B803 40000000
const DP_L = 1.35003920212974897128e-08; // log2(1.5) tail 0x3E4CFDEB 43CFD006
const L = [
  5.99999999999994648725e-01, // L1 0x3FE33333 33333303
  4.28571428578550184252e-01, // L2 0x3FDB6DB6 DB6FABFF
  3.33333329818377432918e-01, // L3 0x3FD55555 518F264D
  2.72728123808534006489e-01, // L4 0x3FD17460 A91D4101
  2.30660745775561754067e-01, // L5 0x3FCD864A 93C9DB65
  2.06975017800338417784e-01, // L6 0x3FCA7E28 4A454EEF
] as const;
const LG2 = 6.93147180559945286227e-01; // 0x3FE62E42 FEFA39EF
const LG2_H = 6.93147182464599609375e-01; // 0x3FE62E43 00000000
const LG2_L = -1.90465429995776804525e-09; // 0xBE205C61 0CA86C39
const OVT = 8.0085662595372944372e-17; // 1024 - log2(largest double + half an ulp)
const CP = 9.61796693925975554329e-01; // 2/(3 ln2) 0x3FEEC709 DC3A03FD
const CP_H = 9.61796700954437255859e-01; // 0x3FEEC709 E0000000
const CP_L = -7.02846165095275826516e-09; // 0xBE3E2FE0 145B01F5
const IVLN2 = 1.44269504088896338700e+00; // 0x3FF71547 652B82FE
const IVLN2_H = 1.44269502162933349609e+00; // 0x3FF71547 60000000
const IVLN2_L = 1.92596299112661746887e-08; // 0x3E54AE0B F85DDF44
const HIGH = 0xffffffff00000000n;
const MIN_NORMAL = 2.2250738585072014e-308;

/** log2|x| as t1 + t2 (t1 cut to 32 bits), for finite nonzero x; fdlibm's general branch. */
function log2Parts(e: Emitter, ax0: V): [V, V] {
  const sub = e.lt(ax0, e.f64(MIN_NORMAL));
  const ax = e.select(sub, e.mul(ax0, e.f64(2 ** 53)), ax0);
  const hx = e.shift('i64x2.shr_u', ax, 32);
  const j = e.and(hx, e.i64(0xfffffn));
  // Intervals of the fraction: up to sqrt(3/2) -> bp = 1; up to sqrt(3) -> bp = 1.5; above: halve, bp = 1.
  const k1 = e.and(e.op('i64x2.gt_s', j, e.i64(0x3988en)), e.op('i64x2.lt_s', j, e.i64(0xbb67an)));
  const wrap = e.op('i64x2.ge_s', j, e.i64(0xbb67an));
  let n = e.op('i64x2.sub', e.shift('i64x2.shr_u', hx, 20), e.i64(1023n));
  n = e.op('i64x2.add', n, e.and(sub, e.i64(-53n)));
  n = e.op('i64x2.sub', n, wrap); // wrap lanes are -1: n + 1
  const ix = e.op('i64x2.add', e.or(j, e.i64(0x3ff00000n)), e.and(wrap, e.i64(-0x100000n)));
  const a = e.or(e.shift('i64x2.shl', ix, 32), e.and(ax, e.i64(0xffffffffn)));
  const bp = e.select(k1, e.f64(1.5), e.f64(1));
  const dpH = e.and(k1, e.f64(DP_H));
  const dpL = e.and(k1, e.f64(DP_L));
  // ss = s_h + s_l = (a - bp)/(a + bp), s_h cut to 32 bits, t_h the 32-bit head of a + bp.
  const u = e.sub(a, bp);
  const v = e.div(e.f64(1), e.add(a, bp));
  const ss = e.mul(u, v);
  const sH = e.and(ss, e.i64(HIGH));
  const thWord = e.op('i64x2.add', e.or(e.shift('i64x2.shr_u', ix, 1), e.i64(0x20000000n)),
    e.op('i64x2.add', e.i64(0x00080000n), e.and(k1, e.i64(1n << 18n))));
  const tH = e.shift('i64x2.shl', thWord, 32);
  const tL = e.sub(a, e.sub(tH, bp));
  const sL = e.mul(v, e.sub(e.sub(u, e.mul(sH, tH)), e.mul(sH, tL)));
  // log(a/bp) = 2s + 2/3 s^3 + s^5 L(s^2), scaled by 3/2 and carried as head and tail.
  const s2 = e.mul(ss, ss);
  const r = e.add(e.mul(e.mul(s2, s2), e.horner(s2, L)), e.mul(sL, e.add(sH, ss)));
  const sH2 = e.mul(sH, sH);
  const th = e.and(e.add(e.add(e.f64(3), sH2), r), e.i64(HIGH));
  const tl = e.sub(r, e.sub(e.sub(th, e.f64(3)), sH2));
  const uu = e.mul(sH, th);
  const vv = e.add(e.mul(sL, th), e.mul(tl, ss));
  const pH = e.and(e.add(uu, vv), e.i64(HIGH));
  const pL = e.sub(vv, e.sub(pH, uu));
  const zH = e.mul(e.f64(CP_H), pH);
  const zL = e.add(e.add(e.mul(e.f64(CP_L), pH), e.mul(pL, e.f64(CP))), dpL);
  const tn = i64ToF64(e, n);
  const t1 = e.and(e.add(e.add(e.add(zH, zL), dpH), tn), e.i64(HIGH));
  const t2 = e.sub(zL, e.sub(e.sub(e.sub(t1, tn), dpH), zH));
  return [t1, t2];
}

/** log2|x| for |x| within 2^-20 of 1 from the series of log(1+t), t = |x| - 1 exact. */
function log2NearOne(e: Emitter, ax: V): [V, V] {
  const t = e.sub(ax, e.f64(1));
  const w = e.mul(e.mul(t, t), e.sub(e.f64(0.5), e.mul(t, e.sub(e.f64(0.3333333333333333333333), e.mul(t, e.f64(0.25))))));
  const u = e.mul(e.f64(IVLN2_H), t);
  const v = e.sub(e.mul(t, e.f64(IVLN2_L)), e.mul(w, e.f64(IVLN2)));
  const t1 = e.and(e.add(u, v), e.i64(HIGH));
  return [t1, e.sub(v, e.sub(t1, u))];
}

/** 2^(pH + pL) for |pH + pL| <= 1075 (the caller has handled over- and underflow). */
function exp2Parts(e: Emitter, pH0: V, pL: V): V {
  const [nf, n] = roundToInt(e, e.add(pH0, pL));
  const pH = e.sub(pH0, nf);
  const t = e.and(e.add(pL, pH), e.i64(HIGH));
  const u = e.mul(t, e.f64(LG2_H));
  const v = e.add(e.mul(e.sub(pL, e.sub(t, pH)), e.f64(LG2)), e.mul(t, e.f64(LG2_L)));
  const z = e.add(u, v);
  const w = e.sub(v, e.sub(z, u));
  const tt = e.mul(z, z);
  const t1 = e.sub(z, e.mul(tt, e.horner(tt, EXP_P)));
  const r = e.sub(e.div(e.mul(z, t1), e.sub(t1, e.f64(2))), e.add(w, e.mul(z, w)));
  return scaleByPow2(e, e.sub(e.f64(1), e.sub(r, z)), n);
}

function powF64(e: Emitter, x: V, y: V): V {
  const ax = e.abs(x);
  const ay = e.abs(y);
  const [g1, g2] = log2Parts(e, ax);
  const [n1, n2] = log2NearOne(e, ax);
  const nearOne = e.and(e.gt(ay, e.f64(2 ** 31)), e.and(e.ge(ax, e.f64(1 - 2 ** -21)), e.lt(ax, e.f64(1 + 2 ** -20))));
  const t1 = e.select(nearOne, n1, g1);
  const t2 = e.select(nearOne, n2, g2);
  // y*log2|x| with y split into a 32-bit head: y1*t1 is exact.
  const y1 = e.and(y, e.i64(HIGH));
  const pL = e.add(e.mul(e.sub(y, y1), t1), e.mul(y, t2));
  const pH = e.mul(y1, t1);
  const z = e.add(pL, pH);
  const over = e.or(e.gt(z, e.f64(1024)), e.and(e.eq(z, e.f64(1024)), e.gt(e.add(pL, e.f64(OVT)), e.sub(z, pH))));
  const under = e.or(e.lt(z, e.f64(-1075)), e.and(e.eq(z, e.f64(-1075)), e.le(pL, e.sub(z, pH))));
  // Lanes that over- or underflow (or are special) get a harmless argument.
  const safe = e.not(e.or(e.or(over, under), e.ne(z, z)));
  let r = exp2Parts(e, e.and(safe, pH), e.and(safe, pL));
  r = e.select(over, e.f64(Infinity), e.select(under, e.f64(0), r));
  // Parity of y: an integer when trunc(y) = y; odd when y/2 is not (every |y| >= 2^53 is even).
  const yInt = e.eq(e.trunc(y), y);
  const half = e.mul(y, e.f64(0.5));
  const yOdd = e.and(yInt, e.ne(e.trunc(half), half));
  const yNeg = e.lt(y, e.f64(0));
  // |x| = 0 or Inf: 0 or Inf by the sign of y.
  r = e.select(e.eq(ax, e.f64(0)), e.select(yNeg, e.f64(Infinity), e.f64(0)), r);
  r = e.select(e.eq(ax, e.f64(Infinity)), e.select(yNeg, e.f64(0), e.f64(Infinity)), r);
  // x < 0 (or -0, -Inf) and y odd: the result takes x's sign.
  r = e.or(r, e.and(e.and(x, e.i64(SIGN_BIT)), yOdd));
  // Finite x < 0 with finite non-integer y: NaN.
  const yFinite = e.lt(ay, e.f64(Infinity));
  r = e.select(e.and(e.and(e.lt(x, e.f64(0)), e.gt(x, e.f64(-Infinity))), e.andnot(yFinite, yInt)), e.f64(NaN), r);
  // y = +-Inf: 1 for |x| = 1, else Inf when (|x| < 1) = (y < 0), else 0.
  const below = e.lt(ax, e.f64(1));
  const infCase = e.select(e.eq(ax, e.f64(1)), e.f64(1), e.select(e.op('i64x2.eq', below, yNeg), e.f64(Infinity), e.f64(0)));
  r = e.select(e.eq(ay, e.f64(Infinity)), infCase, r);
  r = e.select(e.or(e.ne(x, x), e.ne(y, y)), e.f64(NaN), r);
  return e.select(e.or(e.eq(x, e.f64(1)), e.eq(y, e.f64(0))), e.f64(1), r);
}

export { powF64 };
