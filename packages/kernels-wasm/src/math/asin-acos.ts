// asin and acos in f64x2, after fdlibm's e_asin.c and e_acos.c (Sun
// Microsystems, 1993; error < 1 ulp). Both use fdlibm's rational minimax
// R(t) = p(t)/q(t) (degree 6/4, |error| < 2^-58.75) for (asin(x) - x)/x^3
// in t = x^2:
//   |x| < 1/2:  asin x = x + x*R(x^2),  acos x = pi/2 - (x - (pio2_lo - x*R(x^2)))
//   |x| >= 1/2: t = (1 - |x|)/2, s = sqrt(t), asin|x| = pi/2 - 2(s + s*R(t)),
//               with s split into a 32-bit head and an exact tail c =
//               (t - head^2)/(s + head) where cancellation would cost accuracy
//               (|x| < 0.975 for asin, x > 1/2 for acos); acos(x < -1/2) = pi - 2(s + s*R(t)).
// One R evaluation serves every lane: t is selected per lane before it.
import type { Emitter, V } from './emitter.js';
import { withSignOf } from './f64-bits.js';

const PIO2_HI = 1.57079632679489655800e+00; // 0x3FF921FB 54442D18
const PIO2_LO = 6.12323399573676603587e-17; // 0x3C91A626 33145C07
const PIO4_HI = 7.85398163397448278999e-01; // 0x3FE921FB 54442D18
const PI = 3.14159265358979311600e+00; // 0x400921FB 54442D18
const PS = [
  1.66666666666666657415e-01, // pS0 0x3FC55555 55555555
  -3.25565818622400915405e-01, // pS1 0xBFD4D612 03EB6F7D
  2.01212532134862925881e-01, // pS2 0x3FC9C155 0E884455
  -4.00555345006794114027e-02, // pS3 0xBFA48228 B5688F3B
  7.91534994289814532176e-04, // pS4 0x3F49EFE0 7501B288
  3.47933107596021167570e-05, // pS5 0x3F023DE1 0DFDF709
] as const;
const QS = [
  1,
  -2.40339491173441421878e+00, // qS1 0xC0033A27 1C8A2D4B
  2.02094576023350569471e+00, // qS2 0x40002AE5 9C598AC8
  -6.88283971605453293030e-01, // qS3 0xBFE6066C 1B8D0159
  7.70381505559019352791e-02, // qS4 0x3FB3B8C5 B12E9282
] as const;
const HIGH_WORD = 0xffffffff00000000n;

interface Parts {
  readonly ax: V;
  /** |x| < 1/2 */
  readonly small: V;
  /** x^2 (small lanes) or (1 - |x|)/2 */
  readonly t: V;
  /** R(t) */
  readonly r: V;
  /** sqrt(t) (meaningful on the other lanes) */
  readonly s: V;
  /** s cut to its top 32 bits, and c = (t - head^2)/(s + head) with head + c = s to ~2^-80 */
  readonly head: V;
  readonly c: V;
}

function parts(e: Emitter, x: V): Parts {
  const ax = e.abs(x);
  const small = e.lt(ax, e.f64(0.5));
  const t = e.select(small, e.mul(x, x), e.mul(e.sub(e.f64(1), ax), e.f64(0.5)));
  const r = e.div(e.mul(t, e.horner(t, PS)), e.horner(t, QS));
  const s = e.sqrt(t);
  const head = e.and(s, e.i64(HIGH_WORD));
  const c = e.div(e.sub(t, e.mul(head, head)), e.add(s, head));
  return { ax, small, t, r, s, head, c };
}

/** |x| > 1 gives NaN, NaN stays NaN. */
function outsideDomain(e: Emitter, x: V, r: V): V {
  return e.select(e.gt(e.abs(x), e.f64(1)), e.f64(NaN), r);
}

function asinF64(e: Emitter, x: V): V {
  const { ax, small, r, s, head, c } = parts(e, x);
  const nearOne = e.add(e.mul(x, r), x);
  // 0.975 <= |x| <= 1: pi/2 - (2(s + s*R) - pio2_lo).
  const steep = e.sub(e.f64(PIO2_HI), e.sub(e.mul(e.f64(2), e.add(s, e.mul(s, r))), e.f64(PIO2_LO)));
  // 1/2 <= |x| < 0.975: pi/4 - ((2s*R - (pio2_lo - 2c)) - (pi/4 - 2*head)).
  const p = e.sub(e.mul(e.mul(e.f64(2), s), r), e.sub(e.f64(PIO2_LO), e.mul(e.f64(2), c)));
  const q = e.sub(e.f64(PIO4_HI), e.mul(e.f64(2), head));
  const mid = e.sub(e.f64(PIO4_HI), e.sub(p, q));
  const big = withSignOf(e, e.select(e.ge(ax, e.f64(0.975)), steep, mid), x);
  let y = e.select(small, nearOne, big);
  // |x| < 2^-26: asin x rounds to x (keeps -0 and subnormals).
  y = e.select(e.lt(ax, e.f64(2 ** -26)), x, y);
  return outsideDomain(e, x, y);
}

function acosF64(e: Emitter, x: V): V {
  const { small, r, s, head, c } = parts(e, x);
  const central = e.sub(e.f64(PIO2_HI), e.sub(x, e.sub(e.f64(PIO2_LO), e.mul(x, r))));
  // x <= -1/2: pi - 2(s + (R*s - pio2_lo)).
  const negative = e.sub(e.f64(PI), e.mul(e.f64(2), e.add(s, e.sub(e.mul(r, s), e.f64(PIO2_LO)))));
  // x >= 1/2: 2(head + (R*s + c)).
  const positive = e.mul(e.f64(2), e.add(head, e.add(e.mul(r, s), c)));
  let y = e.select(small, central, e.select(e.lt(x, e.f64(0)), negative, positive));
  // acos(1) = +0 exactly (there the tail c is 0/0).
  y = e.select(e.eq(x, e.f64(1)), e.f64(0), y);
  return outsideDomain(e, x, y);
}

export { asinF64, acosF64 };
