// sin and cos in f64x2: reduce modulo pi/2 (rem-pio2.ts), evaluate both
// kernels on the double-double remainder, and pick and sign per lane by the
// quadrant n mod 4. Kernels are musl's __sin.c / __cos.c (fdlibm's k_sin.c,
// k_cos.c with the cos kernel's branch replaced by an exact-rounding trick):
// minimax polynomials on [-pi/4, pi/4] with |error| < 2^-58, and the y1 tail
// entering linearly. Both are < 1 ulp.
import type { Emitter, V } from './emitter.js';
import type { MathContext } from './context.js';
import { remPio2 } from './rem-pio2.js';

const S = [
  -1.66666666666666324348e-01, // S1 0xBFC55555 55555549
  8.33333333332248946124e-03, // S2 0x3F811111 1110F8A6
  -1.98412698298579493134e-04, // S3 0xBF2A01A0 19C161D5
  2.75573137070700676789e-06, // S4 0x3EC71DE3 57B1FE7D
  -2.50507602534068634195e-08, // S5 0xBE5AE5E6 8A2B9CEB
  1.58969099521155010221e-10, // S6 0x3DE5D93A 5ACFD57C
] as const;

const C = [
  4.16666666666666019037e-02, // C1 0x3FA55555 5555554C
  -1.38888888888741095749e-03, // C2 0xBF56C16C 16C15177
  2.48015872894767294178e-05, // C3 0x3EFA01A0 19CB1590
  -2.75573143513906633035e-07, // C4 0xBE927E4F 809C52AD
  2.08757232129817482790e-09, // C5 0x3E21EE9E BDB4B1C4
  -1.13596475577881948265e-11, // C6 0xBDA8FAE9 BE8838D4
] as const;

/** Below this |x|, sin(x) rounds to x (x^3/6 < half an ulp) and the input passes through: keeps -0 and subnormals exact. */
const SIN_TINY = 2 ** -26;

/** sin(y0 + y1) on [-pi/4, pi/4]: y0 - ((z*(y1/2 - v*r) - y1) - v*S1), z = y0^2, v = z*y0. */
function kernelSin(e: Emitter, y0: V, y1: V): V {
  const z = e.mul(y0, y0);
  const w = e.mul(z, z);
  const r = e.add(e.horner(z, [S[1], S[2], S[3]]), e.mul(e.mul(z, w), e.horner(z, [S[4], S[5]])));
  const v = e.mul(z, y0);
  const inner = e.sub(e.mul(z, e.sub(e.mul(e.f64(0.5), y1), e.mul(v, r))), y1);
  return e.sub(y0, e.sub(inner, e.mul(v, e.f64(S[0]))));
}

/**
 * cos(y0 + y1) on [-pi/4, pi/4]: with hz = z/2 and w = fl(1 - hz), the term
 * (1 - w) - hz recovers the rounding error of w exactly, so
 * w + (((1 - w) - hz) + (z*r - y0*y1)) needs no branch on |y|.
 */
function kernelCos(e: Emitter, y0: V, y1: V): V {
  const z = e.mul(y0, y0);
  const w2 = e.mul(z, z);
  const r = e.add(e.mul(z, e.horner(z, [C[0], C[1], C[2]])), e.mul(e.mul(w2, w2), e.horner(z, [C[3], C[4], C[5]])));
  const hz = e.mul(e.f64(0.5), z);
  const w = e.sub(e.f64(1), hz);
  const err = e.sub(e.sub(e.f64(1), w), hz);
  return e.add(w, e.add(err, e.sub(e.mul(z, r), e.mul(y0, y1))));
}

/** sin(n*pi/2 + y) from the two kernels: odd n swaps to cos, n & 2 flips the sign. */
function byQuadrant(e: Emitter, n: V, ksin: V, kcos: V): V {
  const odd = e.op('i64x2.ne', e.and(n, e.i64(1n)), e.i64(0n));
  const r = e.select(odd, kcos, ksin);
  return e.xor(r, e.shift('i64x2.shl', e.and(n, e.i64(2n)), 62));
}

function sinF64(e: Emitter, x: V, ctx: MathContext): V {
  const { y0, y1, n } = remPio2(e, ctx, x);
  const r = byQuadrant(e, n, kernelSin(e, y0, y1), kernelCos(e, y0, y1));
  return e.select(e.lt(e.abs(x), e.f64(SIN_TINY)), x, r);
}

function cosF64(e: Emitter, x: V, ctx: MathContext): V {
  const { y0, y1, n } = remPio2(e, ctx, x);
  // cos(x) = sin(x + pi/2): one quadrant on.
  return byQuadrant(e, e.op('i64x2.add', n, e.i64(1n)), kernelSin(e, y0, y1), kernelCos(e, y0, y1));
}

export { sinF64, cosF64, kernelSin, kernelCos, byQuadrant, SIN_TINY };
