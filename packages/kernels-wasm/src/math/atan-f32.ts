// atan natively in f32x4: four lanes per instruction, where the float-sized
// f64 version on the promoted halves ran every step twice, its division in
// double (2.2 -> 1.2 ns per element in the harness). Float arithmetic
// throughout, within 0.799 ulp of the double Math.atan on every float (all
// 2^32 checked), so at most 1 ulp from the correctly rounded result.
//   reduction (Cephes atanf's three forms, one division for every lane):
//     a = |x| > 5/3:  atan(a) = pi/2 + atan(-1/a)
//     a > 0.6:        atan(a) = pi/4 + atan((a - 1) / (a + 1))
//     else            atan(a) = atan(a)
//   Not Cephes' tan(pi/8) and tan(3pi/8): the rounding of a + 1 and of the
//   quotient (half an ulp of t each) costs about |t| / atan(a) ulps of the
//   result, which near a = tan(pi/8) (t = -0.41 against a result of 0.39,
//   and a - 1 not exact below 0.5) is well past one ulp. With 0.6 and 5/3,
//   |t| <= 0.25 where the result is >= 0.54 (a - 1 exact by Sterbenz), and the
//   far form (one rounding) keeps results >= 1.03 (ulp 2^-23); |t| <= 0.6 in
//   all three.
//   kernel: atan(t) = t + t*z*P(z), z = t^2, P of degree 5 by Horner (Estrin's
//     rounding measured 0.91 ulp), a relative-error minimax on t in [0, 0.6]
//     (Lawson's iteration in mpmath, then each coefficient rounded to float
//     and the rest refitted): |(t + t*z*P(z)) / atan(t) - 1| < 2^-28.58.
//   sum: pi/2 and pi/4 as k*PIO4_HI + k*PIO4_LO (k = 0, 1, 2), k*PIO4_HI + t
//     by Fast2Sum (k*PIO4_HI >= |t| or k = 0) so that only the last add
//     rounds at the result's scale (k*PIO4_HI + (t + tail) measured 0.98 ulp,
//     0.91 with the far form from 2; 3% faster, not measurably so in
//     sum(atan(x))).
//   tiny and huge: a is clamped to [2^-12, 2^30] so that no lane makes a
//     subnormal (t^3 and 1/a would be, for a tiny or a huge a; checked on
//     every float in a scalar model that matches this bit for bit). Below 2^-12
//     atan(a) rounds to a; the clamped lane's result (about 2^-12) is larger,
//     so min(result, a) gives a there (atan(a) < a: elsewhere the min keeps
//     the result, or a where it rounded past a). Past 2^30, atan(a) rounds to
//     float(pi/2) as atan(2^30) does: atan(+-Inf) = +-float(pi/2).
//   sign: the result takes x's sign bit, so atan(-0) = -0 and subnormals come
//     back unchanged; NaN passes (the clamp and min keep it, every comparison
//     is false, so t = NaN).
import type { Emitter, V } from './emitter.js';

const MID = 0.6;
const FAR = 5 / 3;
const TINY = 2 ** -12;
const HUGE = 2 ** 30;
const PIO4_HI = 0.78539818525314331; // float(pi/4), 0x3f490fdb
/** PIO4_LO / PIO4_HI: k*PIO4_LO is one multiply of k*PIO4_HI (the ratio's rounding is 2^-24 of PIO4_LO, itself 0.37 ulp of pi/4). */
const LO_OVER_HI = Math.fround((Math.PI / 4 - PIO4_HI) / PIO4_HI);
const P = [
  -0.333332896232605, 0.19997571408748627, -0.14240241050720215, 0.10710931569337845, -0.0722905844449997,
  0.029481014236807823,
] as const;

function atanF32(e: Emitter, x: V): V {
  const F = (name: string, ...args: V[]): V => e.op(`f32x4.${name}`, ...args);
  const a = e.and(x, e.i32(0x7fffffff));
  const ac = e.clamp(a, TINY, HUGE, 'f32x4');
  const mid = F('gt', ac, e.f32(MID));
  const far = F('gt', ac, e.f32(FAR));
  // t = n / d: a / 1, (a - 1) / (a + 1) or -1 / a, selected by masking a and 1.
  const one = e.f32(1);
  const n = F('sub', e.andnot(ac, far), e.and(mid, one));
  const d = F('add', e.and(ac, mid), e.andnot(one, far));
  const t = F('div', n, d);
  const z = F('mul', t, t);
  const tail = F('mul', F('mul', t, z), e.horner(z, P, 'f32x4'));
  const hi = F('add', e.and(mid, e.f32(PIO4_HI)), e.and(far, e.f32(PIO4_HI)));
  const low = F('add', F('mul', hi, e.f32(LO_OVER_HI)), tail);
  const s = F('add', hi, t);
  const y = F('add', s, F('add', F('sub', t, F('sub', s, hi)), low));
  return e.xor(F('pmin', y, a), e.xor(x, a));
}

export { atanF32 };
