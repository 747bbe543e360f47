// log in f64x2, after fdlibm's e_log.c (Sun Microsystems, 1993), proved
// accurate to < 1 ulp and table-free:
//   x = 2^k * (1+f), sqrt(2)/2 < 1+f < sqrt(2);
//   s = f/(2+f), log(1+f) = 2s + s*R(s^2), R fdlibm's degree-7 Remez fit
//   (|error| < 2^-58.45) in the even powers Lg1..Lg7;
//   log(x) = k*ln2HI + (f - (f^2/2 - (s*(f^2/2 + R) + k*ln2LO))),
// where k*ln2HI is exact (ln2HI has 32 significant bits).
//
// Two paths. Vectors of positive normal finite lanes (one integer add and
// compare tells) take the short one: fdlibm's hfsq form alone (written out
// above), with k from the difference of the input's bits and its reduced
// mantissa's. Over 1.2e7 inputs (1 + f near both ends of its interval, [0.5,
// 2], and 2^-1000..2^1000) it is within 0.87 ulp of the correctly rounded
// result (a long double reference), where fdlibm is within 0.90; the other
// form, f - s*(f - R), alone reached 0.97. Any other vector (zeros,
// subnormals, negatives, Infinity, NaN) also runs the long one, which
// computes fdlibm's three forms (|f| < 2^-20, and a hfsq form for 1+f near
// its extremes), selects per lane as fdlibm branches, and handles the
// special cases; it takes those lanes.
import type { Emitter, V } from './emitter.js';
import { SHIFT, SHIFT_BITS, i64ToF64 } from './f64-bits.js';
import { LN2HI, LN2LO } from './exp.js';

const LG = [
  6.666666666666735130e-01, // Lg1 0x3FE55555 55555593
  3.999999999940941908e-01, // Lg2 0x3FD99999 9997FA04
  2.857142874366239149e-01, // Lg3 0x3FD24924 94229359
  2.222219843214978396e-01, // Lg4 0x3FCC71C5 1D8E78AF
  1.818357216161805012e-01, // Lg5 0x3FC74664 96CB03DE
  1.531383769920937332e-01, // Lg6 0x3FC39A09 D078C69F
  1.479819860511658591e-01, // Lg7 0x3FC2F112 DF3E5244
] as const;

const MIN_NORMAL = 2.2250738585072014e-308;
const MANTISSA = 0x000fffffffffffffn;

interface LogParts {
  /** k as f64 */
  readonly dk: V;
  /** 1+f - 1 */
  readonly f: V;
  /** The top 20 fraction bits of 1+f before halving, as i64 lanes (fdlibm's `hx & 0xfffff`). */
  readonly hx: V;
}

/** Splits x > 0 (subnormals included) into 2^k * (1+f) with sqrt(2)/2 < 1+f < sqrt(2). */
function logReduce(e: Emitter, x: V): LogParts {
  // Subnormals: scale by 2^54 so the exponent field tells the truth.
  const tiny = e.lt(x, e.f64(MIN_NORMAL));
  const xs = e.select(tiny, e.mul(x, e.f64(2 ** 54)), x);
  const bits = xs;
  const m = e.and(bits, e.i64(MANTISSA));
  // 0x95f64 in the top fraction word: mantissas past sqrt(2) carry into bit 52.
  const i = e.and(e.op('i64x2.add', m, e.i64(0x95f64n << 32n)), e.i64(1n << 52n));
  const xn = e.or(m, e.xor(i, e.i64(0x3ff0000000000000n)));
  const biased = e.shift('i64x2.shr_u', bits, 52);
  let k = e.op('i64x2.add', e.op('i64x2.sub', biased, e.i64(1023n)), e.shift('i64x2.shr_u', i, 52));
  k = e.op('i64x2.add', k, e.and(tiny, e.i64(-54n)));
  return { dk: i64ToF64(e, k), f: e.sub(xn, e.f64(1)), hx: e.shift('i64x2.shr_u', m, 32) };
}

interface Log1pTerms {
  /** f/(2+f) */
  readonly s: V;
  /** fdlibm's R(s^2) = s^2*Lg1 + s^4*Lg2 + ... */
  readonly R: V;
  /** f^2/2 */
  readonly hfsq: V;
}

/** The pieces of log(1+f) = f - hfsq + s*(hfsq + R) (fdlibm's k_log1p), for |f| < sqrt(2) - 1. */
function log1pTerms(e: Emitter, f: V): Log1pTerms {
  const s = e.div(f, e.add(e.f64(2), f));
  const z = e.mul(s, s);
  const w = e.mul(z, z);
  const t1 = e.mul(w, e.horner(w, [LG[1], LG[3], LG[5]]));
  const t2 = e.mul(z, e.horner(w, [LG[0], LG[2], LG[4], LG[6]]));
  return { s, R: e.add(t2, t1), hfsq: e.mul(e.mul(e.f64(0.5), f), f) };
}

/** fdlibm's log(1+f) + k*ln2, branches as selects; x must be positive and finite for the answer to mean anything. */
function logFromParts(e: Emitter, { dk, f, hx }: LogParts): V {
  const { s, R, hfsq } = log1pTerms(e, f);
  const khi = e.mul(dk, e.f64(LN2HI));
  const klo = e.mul(dk, e.f64(LN2LO));
  // 1+f near the ends of its interval: the hfsq form.
  const a = e.sub(khi, e.sub(e.sub(hfsq, e.add(e.mul(s, e.add(hfsq, R)), klo)), f));
  // Elsewhere: f - s*(f - R).
  const b = e.sub(khi, e.sub(e.sub(e.mul(s, e.sub(f, R)), klo), f));
  // |f| < 2^-20: a short series.
  const r3 = e.mul(e.mul(f, f), e.sub(e.f64(0.5), e.mul(e.f64(0.33333333333333333), f)));
  const c = e.sub(khi, e.sub(e.sub(r3, klo), f));
  const useA = e.and(e.op('i64x2.ge_s', hx, e.i64(0x6147an)), e.op('i64x2.le_s', hx, e.i64(0x6b851n)));
  // (hx + 2) & 0xfffff < 3: hx in {0xffffe, 0xfffff, 0}.
  const useC = e.op('i64x2.lt_s', e.and(e.op('i64x2.add', hx, e.i64(2n)), e.i64(0xfffffn)), e.i64(3n));
  return e.select(useC, c, e.select(useA, a, b));
}

/** C99 specials: log(+-0) = -Inf, log(x<0) = NaN, log(+Inf) = +Inf, NaN in gives NaN out. */
function logSpecials(e: Emitter, x: V, result: V): V {
  const finitePositive = e.and(e.gt(x, e.f64(0)), e.lt(x, e.f64(Infinity)));
  const special = e.select(e.eq(x, e.f64(0)), e.f64(-Infinity), e.select(e.lt(x, e.f64(0)), e.f64(NaN), x));
  return e.select(finitePositive, result, special);
}

function logF64(e: Emitter, x: V): V {
  const y = e.mutable(logShort(e, x));
  // bits + 0x7ff0...0 (mod 2^64) is at most 0xffdf_ffff_ffff_ffff, signed, exactly for bits in
  // [0x0010...0, 0x7fef_ffff_ffff_ffff]: the positive normal finite doubles.
  const other = e.op('i64x2.gt_s', e.op('i64x2.add', x, e.i64(0x7ff0000000000000n)), e.i64(-0x20000000000001n));
  e.when(other, () => e.assign(y, e.select(other, logSpecials(e, x, logFromParts(e, logReduce(e, x))), y)));
  return y;
}

/** log(x) for positive normal finite x (any other lane gives garbage). */
function logShort(e: Emitter, x: V): V {
  const m = e.and(x, e.i64(MANTISSA));
  const i = e.and(e.op('i64x2.add', m, e.i64(0x95f64n << 32n)), e.i64(1n << 52n));
  const xn = e.or(m, e.xor(i, e.i64(0x3ff0000000000000n)));
  // x and xn differ only in the exponent field, by k: (x - xn + 1023 << 52) >> 52 is k + 1023.
  const kBiased = e.shift('i64x2.shr_u', e.op('i64x2.add', e.op('i64x2.sub', x, xn), e.i64(1023n << 52n)), 52);
  const dk = e.sub(e.op('i64x2.add', kBiased, e.i64(SHIFT_BITS)), e.f64(SHIFT + 1023));
  const f = e.sub(xn, e.f64(1));
  const { s, R, hfsq } = log1pTerms(e, f);
  const tail = e.sub(e.sub(hfsq, e.add(e.mul(s, e.add(hfsq, R)), e.mul(dk, e.f64(LN2LO)))), f);
  return e.sub(e.mul(dk, e.f64(LN2HI)), tail);
}

export { logF64, logReduce, logFromParts, logSpecials, log1pTerms, LG };
export type { LogParts, Log1pTerms };
