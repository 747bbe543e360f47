// log in f64x2. Vectors of positive normal finite lanes (tested on scalars,
// first: see logF64) take a table-driven form:
//   x = 2^k * z, z in [OFF, 2*OFF), OFF ~ 0.7052 (so x near 1 has k = 0);
//   z's bucket (1024 per binade-sized range, bits 42-51 of bits(x) - bits(OFF),
//   read per lane in scalar code) gives 1/c, 26 significant bits near
//   1/midpoint (exactly 1 for the bucket holding 1), and log c, one double:
//   c is chosen among 6001 candidates so that log c is within 0.003 ulp of a
//   double (tables.generated.ts, from mpmath);
//   r = z/c - 1 is formed exactly as rh + rl, from d = z - 1 and its top 27
//   bits (their product with the 26-bit 1/c is exact);
//   log x = [k*ln2HI + log c + rh, summed exactly] + (the low parts + r^2*Q(r)),
//   Q a cubic (|error of r^2*Q| < 2^-70 on |r| <= 2^-10.99).
// Only the last addition rounds to speak of, so the result is within a hair
// of half an ulp: 0.510 ulp at most against a long double reference over 2e7
// inputs (log-uniform on [1e-300, 1e300] and [1e-3, 1e3]; uniform on [0.5, 2],
// [0.999, 1.001] and [1 - 1e-7, 1 + 1e-7]). fdlibm's e_log.c reached 0.87 and
// has a division; a 128-row table with log c as hi + lo (two 16-byte loads a
// lane), a degree-5 tail and the test for other lanes in vector code took
// 2.85 ns/element (one core, the math harness) against 1.82 now. Any other
// vector (zeros, subnormals, negatives, Infinity, NaN) runs fdlibm's code
// below (e_log.c,
// Sun Microsystems, 1993: x = 2^k*(1+f), s = f/(2+f), log(1+f) = 2s +
// s*R(s^2) with its Remez fit Lg1..Lg7, three forms selected per lane as
// fdlibm branches), with the special cases, and takes that on those lanes.
import type { Emitter, Lanes64, V } from './emitter.js';
import { HIGH_WORDS } from '../encode/shuffles.js';
import { fastTwoSum, i64ToF64 } from './f64-bits.js';
import { LOG1P_TAIL, LOG_ROWS } from './tables.packed.generated.js';
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

/**
 * bits(OFF), OFF ~ 0.7052: x = 2^k * z with z in [OFF, 2*OFF), so x near 1 has k = 0 and z
 * near 1, and 1 lies two thirds into its bucket, where z - 1 then spans as much either side.
 */
const OFF = 0x3fe6915500000000n;
/** The bucket is bits 42-51 of bits(x) - OFF: 1024 rows (tables.generated.ts). */
const BUCKET = { shift: 42, width: 10 } as const;
/** dh is d = z - 1 cut to 27 significant bits (1/c has 26, so dh * (1/c) is exact), by its bits. */
const DH_MASK = -(1n << 26n);

/** The positive normal finite doubles' bits: [bits(2^-1022), bits(MAX_VALUE)]. */
const NORMAL_LO = 0x0010000000000000n;
const NORMAL_HI = 0x7fefffffffffffffn;

/** bits(x) - OFF, and its lanes in scalars (the bucket and the test for other lanes read them there). */
interface Offset {
  readonly tmp: V;
  readonly lanes: Lanes64;
}

function offsetOf(e: Emitter, x: V): Offset {
  const tmp = e.op('i64x2.sub', x, e.i64(OFF));
  return { tmp, lanes: e.lanes64(tmp) };
}

function logF64(e: Emitter, x: V): V {
  return byTable(e, x, (at) => logTable(e, x, at), () => logSpecials(e, x, logFromParts(e, logReduce(e, x))));
}

/**
 * `table(at)` where every lane of x is positive, normal and finite, else
 * `other()` on the lanes that are not. A lane is when bits - NORMAL_LO <=
 * NORMAL_HI - NORMAL_LO (unsigned), tested on the scalar lanes the lookup
 * reads anyway, and before anything else, so that nothing of the common path
 * is live across the branch. Other vectors (zeros, subnormals, negatives,
 * Infinity, NaN) are rare: fdlibm's code on those lanes.
 */
function byTable(e: Emitter, x: V, table: (at: Offset) => V, other: () => V): V {
  const at = offsetOf(e, x);
  const anyOther = (): void => {
    for (const lane of at.lanes) {
      e.f.op('local.get', lane).op('i64.const', OFF - NORMAL_LO).op('i64.add');
      e.f.op('i64.const', NORMAL_HI - NORMAL_LO).op('i64.gt_u');
    }
    e.f.op('i32.or');
  };
  const rare = (): V => {
    // The same test on the vector: bits - NORMAL_LO moved by 2^63 so that the unsigned
    // comparison becomes the signed one SIMD has.
    const notNormal = e.op('i64x2.gt_s', e.op('i64x2.add', x, e.i64(BigInt.asIntN(64, (1n << 63n) - NORMAL_LO))),
      e.i64(NORMAL_HI - NORMAL_LO - (1n << 63n)));
    return e.select(notNormal, other(), table(at));
  };
  return e.choose(anyOther, rare, () => table(at));
}

/**
 * log(x) + tail (+ ln 2 on `twice` lanes) for positive normal finite x (any
 * other lane gives a value to replace), the tail (well below ulp(log x)'s
 * scale: log1p's correction term) joining the small terms before the last
 * rounding, and ln 2 one more in the exponent, so log(2x) is as exact as log x.
 */
function logTable(e: Emitter, x: V, at: Offset, tail?: V, twice?: V): V {
  const { dk, logc, rh, rl, poly } = tableParts(e, x, at, twice);
  // log x = k*ln2HI + log c + rh, summed exactly by Fast2Sum (|k*ln2HI| >= 0.69 > |log c| or
  // k = 0; |log c| > |r| or c = 1: generate_tables.py checks), plus the small terms, so that
  // the one rounding that matters is the last, even where log x is near 0. log c is one
  // double, chosen (by the choice of c) within 0.003 ulp of the smallest log x it serves.
  const [w, we] = fastTwoSum(e, e.mul(dk, e.f64(LN2HI)), logc);
  const [hi, hlo] = fastTwoSum(e, w, rh);
  const low = tail ? e.add(rl, tail) : rl;
  const small = e.add(e.add(e.add(hlo, we), e.add(low, e.mul(dk, e.f64(LN2LO)))), poly);
  return e.add(hi, small);
}

/** The table form's pieces: log x = k ln2 + log c + rh + rl + poly, |rl| < 2^-26 |rh|. */
interface TableParts {
  readonly dk: V;
  readonly logc: V;
  readonly rh: V;
  readonly rl: V;
  /** log1p(r) - r, as r^2 Q(r). */
  readonly poly: V;
}

function tableParts(e: Emitter, x: V, { tmp, lanes }: Offset, twice?: V): TableParts {
  // z = x / 2^k: x's bits less k in the exponent field; k = tmp >> 52, from the high words.
  const z = e.op('i64x2.sub', x, e.and(tmp, e.i64(-(1n << 52n))));
  const kWords = e.shift('i32x4.shr_s', tmp, 20);
  e.push(kWords).push(kWords);
  e.f.shuffle(HIGH_WORDS);
  let dk = e.op('f64x2.convert_low_i32x4_s', e.save());
  if (twice) dk = e.add(dk, e.and(twice, e.f64(1)));
  const [invc, logc] = e.lookup(LOG_ROWS, lanes, BUCKET) as [V, V];
  // r = z/c - 1 = d/c + (1/c - 1), d = z - 1 (exact), = rh + rl exactly but for rl's rounding
  // (c is 1/invc by definition): dh, d cut to 27 significant bits, times invc (26) is exact,
  // and so is the sum rh (generate_tables.py checks every bucket); |rl| < 2^-26 |d|. Where
  // c = 1, rh = dh and rl = dl: r = d exactly, its high and low parts never cancelling.
  const d = e.sub(z, e.f64(1));
  const dh = e.and(d, e.i64(DH_MASK));
  const rh = e.add(e.mul(dh, invc), e.sub(invc, e.f64(1)));
  const rl = e.mul(e.sub(d, dh), invc);
  const r = e.add(rh, rl);
  const r2 = e.mul(r, r);
  return { dk, logc, rh, rl, poly: e.mul(r2, e.pairedHorner(r, r2, LOG1P_TAIL)) };
}

export { logF64, logReduce, logFromParts, logSpecials, logTable, tableParts, byTable, offsetOf, log1pTerms, LG };
export type { Offset };
export type { LogParts, Log1pTerms };
