// log natively in f32x4, after FreeBSD msun's e_logf.c (the float
// translation of fdlibm's log by Ian Lance Taylor, with Bruce D. Evans'
// degree-4 minimax Lg1..Lg4: |(log(1+s) - log(1-s))/s - Lg(s)| < 2^-34.24):
// x = 2^k (1+f), s = f/(2+f), log(1+f) = f - (f^2/2 - s*(f^2/2 + R(s^2))),
// fdlibm's three forms selected per lane as in log.ts; subnormals prescaled
// by 2^25. Measured < 1 ulp against correctly rounded results.
//
// Two paths. Vectors of positive normal finite lanes (one integer add and
// compare tells) take the short one: a single form of the three,
// k*ln2_hi - ((s*(f - R) - k*ln2_lo) - f), within 0.954 ulp of the double
// log on every positive normal float (all 2^31 checked), and k from
// the difference of the input's bits and its reduced mantissa's. Any other
// vector (zeros, subnormals, negatives, Infinity, NaN) also runs the long
// one, fdlibm's three forms with the special cases, and takes it on those
// lanes.
import type { Emitter, V } from './emitter.js';

const LN2_HI = 6.9313812256e-01; // 0x3f317180
const LN2_LO = 9.0580006145e-06; // 0x3717f7d1
const LG1 = 0xaaaaaa * 2 ** -24; // 0.66666662693
const LG2 = 0xccce13 * 2 ** -25; // 0.40000972152
const LG3 = 0x91e9ee * 2 ** -25; // 0.28498786688
const LG4 = 0xf89e26 * 2 ** -26; // 0.24279078841
const MIN_NORMAL = 1.1754943508222875e-38;
/** bits(fround(sqrt(2)/2)): 1 + f = xn in [0x3f3504f3, 0x3fb504f3), fdlibm's interval (whose ends are 0x..04e0): the same form applies. */
const SQRT1_2_BITS = 0x3f3504f3;

function logF32(e: Emitter, x: V): V {
  const y = e.mutable(logShort(e, x));
  // bits + 0x7f800000 (mod 2^32) is at most 0xfeffffff, signed, exactly for bits in
  // [0x00800000, 0x7f7fffff]: the positive normal finite floats.
  const other = e.op('i32x4.gt_s', e.op('i32x4.add', x, e.i32(0x7f800000)), e.i32(-16777217));
  e.when(other, () => e.assign(y, e.select(other, logEverywhere(e, x), y)));
  return y;
}

/** x = 2^k (1+f) with 1+f in [sqrt(2)/2, sqrt(2)), s = f/(2+f) and R(s^2), for positive normal finite x. */
interface ShortParts {
  /** k as a float. */
  readonly dk: V;
  readonly f: V;
  readonly s: V;
  readonly R: V;
}

function reduceShort(e: Emitter, x: V): ShortParts {
  const F = (name: string, ...args: V[]): V => e.op(`f32x4.${name}`, ...args);
  // x = 2^k * xn with xn in [sqrt(2)/2, sqrt(2)): tmp = bits(x) - bits(sqrt(2)/2) holds k in its
  // exponent field and xn's place in the binade below it.
  const tmp = e.op('i32x4.sub', x, e.i32(SQRT1_2_BITS));
  const xn = e.op('i32x4.sub', x, e.and(tmp, e.i32(-0x800000)));
  const dk = F('convert_i32x4_s', e.shift('i32x4.shr_s', tmp, 23));
  const f = F('sub', xn, e.f32(1));
  const s = F('div', f, F('add', e.f32(2), f));
  const z = F('mul', s, s);
  const w = F('mul', z, z);
  const R = F('add', F('mul', z, e.horner(w, [LG1, LG3], 'f32x4')), F('mul', w, e.horner(w, [LG2, LG4], 'f32x4')));
  return { dk, f, s, R };
}

/** log(x) for positive normal finite x (any other lane gives garbage). */
function logShort(e: Emitter, x: V): V {
  const F = (name: string, ...args: V[]): V => e.op(`f32x4.${name}`, ...args);
  const { dk, f, s, R } = reduceShort(e, x);
  const tail = F('sub', F('sub', F('mul', s, F('sub', f, R)), F('mul', dk, e.f32(LN2_LO))), f);
  return F('sub', F('mul', dk, e.f32(LN2_HI)), tail);
}

/** log(x) on every lane: fdlibm's three forms, subnormals, zeros, negatives, Infinity and NaN. */
function logEverywhere(e: Emitter, x: V): V {
  const F = (name: string, ...args: V[]): V => e.op(`f32x4.${name}`, ...args);
  const I = (name: string, ...args: V[]): V => e.op(`i32x4.${name}`, ...args);
  const tiny = F('lt', x, e.f32(MIN_NORMAL));
  const xs = e.select(tiny, F('mul', x, e.f32(2 ** 25)), x);
  const m = e.and(xs, e.i32(0x007fffff));
  // 0x95f64 << 3: mantissas past sqrt(2) carry into bit 23 (the exponent field).
  const i = e.and(I('add', m, e.i32(0x95f64 << 3)), e.i32(0x800000));
  const xn = e.or(m, e.xor(i, e.i32(0x3f800000)));
  let k = I('sub', e.shift('i32x4.shr_u', xs, 23), e.i32(127));
  k = I('add', I('add', k, e.shift('i32x4.shr_u', i, 23)), e.and(tiny, e.i32(-25)));
  const dk = F('convert_i32x4_s', k);
  const f = F('sub', xn, e.f32(1));
  const s = F('div', f, F('add', e.f32(2), f));
  const z = F('mul', s, s);
  const w = F('mul', z, z);
  const R = F('add', F('mul', z, e.horner(w, [LG1, LG3], 'f32x4')), F('mul', w, e.horner(w, [LG2, LG4], 'f32x4')));
  const khi = F('mul', dk, e.f32(LN2_HI));
  const klo = F('mul', dk, e.f32(LN2_LO));
  const hfsq = F('mul', F('mul', e.f32(0.5), f), f);
  const a = F('sub', khi, F('sub', F('sub', hfsq, F('add', F('mul', s, F('add', hfsq, R)), klo)), f));
  const b = F('sub', khi, F('sub', F('sub', F('mul', s, F('sub', f, R)), klo), f));
  const r3 = F('mul', F('mul', f, f), F('sub', e.f32(0.5), F('mul', e.f32(0.33333333333333333), f)));
  const c = F('sub', khi, F('sub', F('sub', r3, klo), f));
  // e_logf.c's branch tests on the fraction bits m of 1+f before halving.
  const useA = e.and(I('ge_s', m, e.i32(0x6147a << 3)), I('le_s', m, e.i32(0x6b851 << 3)));
  const useC = I('lt_s', e.and(I('add', m, e.i32(0x8000)), e.i32(0x007fffff)), e.i32(0xc000));
  const y = e.select(useC, c, e.select(useA, a, b));
  // log(+-0) = -Inf, log(x < 0) = NaN, log(+Inf) = +Inf, NaN stays NaN.
  const ok = e.and(F('gt', x, e.f32(0)), F('lt', x, e.f32(Infinity)));
  const special = e.select(F('eq', x, e.f32(0)), e.f32(-Infinity), e.select(F('lt', x, e.f32(0)), e.f32(NaN), x));
  return e.select(ok, y, special);
}

export { logF32, logShort, reduceShort, LN2_HI, LN2_LO };
