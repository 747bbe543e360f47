// tan in f64x2: the reduction of rem-pio2.ts and musl's __tan.c (fdlibm's
// k_tan.c, Sun Microsystems 1993/2004, error < 1 ulp). On [-pi/4, pi/4]
// tan(y) = y + y^3*(T0 + y^2 T(y^2)), a degree-27 odd minimax fit with
// |error| < 2^-58.7; for |y| >= 0.6744 the argument is reflected,
// tan(pi/4 - y) = (1 - tan y)/(1 + tan y), to keep the polynomial small.
// Odd quadrants need -1/tan(y), computed from a 32-bit-truncated head so the
// division's error is corrected. Every branch is computed; lanes select.
import type { Emitter, V } from './emitter.js';
import type { MathContext } from './context.js';
import { remPio2 } from './rem-pio2.js';

const T = [
  3.33333333333334091986e-01, // 0x3FD55555 55555563
  1.33333333333201242699e-01, // 0x3FC11111 1110FE7A
  5.39682539762260521377e-02, // 0x3FABA1BA 1BB341FE
  2.18694882948595424599e-02, // 0x3F9664F4 8406D637
  8.86323982359930005737e-03, // 0x3F8226E3 E96E8493
  3.59207910759131235356e-03, // 0x3F6D6D22 C9560328
  1.45620945432529025516e-03, // 0x3F57DBC8 FEE08315
  5.88041240820264096874e-04, // 0x3F4344D8 F2F26501
  2.46463134818469906812e-04, // 0x3F3026F7 1A8D1068
  7.81794442939557092300e-05, // 0x3F147E88 A03792A6
  7.14072491382608190305e-05, // 0x3F12B80F 32F0A7E9
  -1.85586374855275456654e-05, // 0xBEF375CB DB605373
  2.59073051863633712884e-05, // 0x3EFB2A70 74BF7AD4
] as const;
const PIO4 = 7.85398163397448278999e-01; // 0x3FE921FB 54442D18
const PIO4LO = 3.06161699786838301793e-17; // 0x3C81A626 33145C07
const BIG = 0.6744; // fdlibm's 0x3FE59428
const HIGH_WORD = 0xffffffff00000000n;
/** Below this |x|, tan(x) rounds to x (x^2/3 < 2^-54): keeps -0 and subnormals exact. */
const TAN_TINY = 2 ** -27;

/** tan(y0 + y1) for even n, -1/tan(y0 + y1) for odd n (|y0 + y1| <= ~pi/4). */
function kernelTan(e: Emitter, y0: V, y1: V, odd: V): V {
  const big = e.ge(e.abs(y0), e.f64(BIG));
  const negative = e.lt(y0, e.f64(0));
  // Reflect: x = (pi/4 - |y0|) + (pio4lo - y1*sign), y = 0.
  const flip = (v: V): V => e.select(negative, e.neg(v), v);
  const xr = e.add(e.sub(e.f64(PIO4), flip(y0)), e.sub(e.f64(PIO4LO), flip(y1)));
  const x = e.select(big, xr, y0);
  const y = e.select(big, e.f64(0), y1);
  const z = e.mul(x, x);
  const w = e.mul(z, z);
  const rOdd = e.horner(w, [T[1], T[3], T[5], T[7], T[9], T[11]]);
  const v = e.mul(z, e.horner(w, [T[2], T[4], T[6], T[8], T[10], T[12]]));
  const s = e.mul(z, x);
  const r = e.add(e.add(y, e.mul(z, e.add(e.mul(s, e.add(rOdd, v)), y))), e.mul(s, e.f64(T[0])));
  const ww = e.add(x, r);
  // Reflected lanes: (1 - 2*odd) - 2*(x + (r - w^2/(w + s1))), sign restored.
  const s1 = e.select(odd, e.f64(-1), e.f64(1));
  const vBig = e.sub(s1, e.mul(e.f64(2), e.add(x, e.sub(r, e.div(e.mul(ww, ww), e.add(ww, s1))))));
  const bigResult = flip(vBig);
  // Odd, not reflected: -1/(x + r) with its error corrected through 32-bit heads.
  const w0 = e.and(ww, e.i64(HIGH_WORD));
  const vv = e.sub(r, e.sub(w0, x));
  const a = e.div(e.f64(-1), ww);
  const a0 = e.and(a, e.i64(HIGH_WORD));
  const oddResult = e.add(a0, e.mul(a, e.add(e.add(e.f64(1), e.mul(a0, w0)), e.mul(a0, vv))));
  return e.select(big, bigResult, e.select(odd, oddResult, ww));
}

function tanF64(e: Emitter, x: V, ctx: MathContext): V {
  const { y0, y1, n } = remPio2(e, ctx, x);
  const odd = e.op('i64x2.ne', e.and(n, e.i64(1n)), e.i64(0n));
  const t = kernelTan(e, y0, y1, odd);
  return e.select(e.lt(e.abs(x), e.f64(TAN_TINY)), x, t);
}

export { tanF64, kernelTan };
