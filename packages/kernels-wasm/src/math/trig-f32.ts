// sin, cos and tan for float32 lanes on every argument, evaluated in f64x2 on
// the promoted halves (via-f64.ts) with float-sized work: the forms
// trig-f32-native.ts falls back to on lanes of 2^20 and past, the design
// of glibc's and FreeBSD's sinf/cosf: the double precision result carries
// ~2^-32 relative error, so the one rounding to float is all that shows.
//   reduction: n = round(x*2/pi), y = (x - n*pio2_1) - n*pio2_1t, exact in
//     its first step (pio2_1 has 33 bits, n < 2^20) and good to ~2^-66
//     absolute, against a smallest |y| of ~2^-30 for float inputs; past the
//     Cody-Waite bound each lane is redone by the Payne-Hanek helper.
//   kernels: FreeBSD's k_sinf.c and k_cosf.c (Bruce D. Evans), minimax in
//     double: |sin(y)/y - s(y)| < 2^-37.5, |cos(y) - c(y)| < 2^-34.1 on
//     [-pi/4, pi/4]; k_tanf.c for tan, |tan(y)/y - t(y)| < 2^-25.5, and
//     -1/t(y) in odd quadrants (within 1 ulp of float: the fit's error is
//     not far below the last rounding here).
import type { Emitter, V } from './emitter.js';
import type { MathContext } from './context.js';
import { roundToInt } from './f64-bits.js';
import { INVPIO2, PIO2_1, PIO2_1T, largeLanes, redoLargeLanes } from './rem-pio2.js';
import { byQuadrant } from './trig.js';

const S = [
  -0.166666666416265235595, // -0x15555554cbac77p-55
  0.0083333293858894631756, // 0x111110896efbb2p-59
  -0.000198393348360966317347, // -0x1a00f9e2cae774p-65
  0.0000027183114939898219064, // 0x16cd878c3b46a7p-71
] as const;
const C = [
  -0.499999997251031003120, // -0x1ffffffd0c5e81p-54
  0.0416666233237390631894, // 0x155553e1053a42p-57
  -0.00138867637746099294692, // -0x16c087e80f1e27p-62
  0.0000243904487962774090654, // 0x199342e0ee5069p-68
] as const;
/** Below this |x| (in float), sin(x) rounds to x: keeps -0 and subnormals. */
const SINF_TINY = 2 ** -12;

function reduce(e: Emitter, ctx: MathContext, x: V): [V, V] {
  const [nf, n] = roundToInt(e, e.mul(x, e.f64(INVPIO2)));
  const y = e.mutable(e.sub(e.sub(x, e.mul(nf, e.f64(PIO2_1))), e.mul(nf, e.f64(PIO2_1T))));
  const tail = e.mutable(e.f64(0));
  const nOut = e.mutable(n);
  redoLargeLanes(e, ctx, x, largeLanes(e, x), { y0: y, y1: tail, n: nOut });
  return [e.add(y, tail), nOut];
}

function sinKernel(e: Emitter, y: V): V {
  const z = e.mul(y, y);
  const w = e.mul(z, z);
  const s = e.mul(z, y);
  return e.add(e.add(y, e.mul(s, e.horner(z, [S[0], S[1]]))), e.mul(e.mul(s, w), e.horner(z, [S[2], S[3]])));
}

function cosKernel(e: Emitter, y: V): V {
  const z = e.mul(y, y);
  const w = e.mul(z, z);
  return e.add(e.add(e.add(e.f64(1), e.mul(z, e.f64(C[0]))), e.mul(w, e.f64(C[1]))), e.mul(e.mul(w, z), e.horner(z, [C[2], C[3]])));
}

// k_tanf.c's T[0..5], 0x15554d3418c99f.0p-54 ... 0x1362b9bf971bcd.0p-59.
const T = [
  0x15554d3418c99f * 2 ** -54, // 0.333331395030791399758
  0x1112fd38999f72 * 2 ** -55, // 0.133392002712976742718
  0x1b54c91d865afe * 2 ** -57, // 0.0533812378445670393523
  0x191df3908c33ce * 2 ** -58, // 0.0245283181166547278873
  0x185dadfcecf44e * 2 ** -61, // 0.00297435743359967304927
  0x1362b9bf971bcd * 2 ** -59, // 0.00946564784943673166728
] as const;

/** k_tanf: y + s u + s w (t + w r), in its order of evaluation. */
function tanKernel(e: Emitter, y: V): V {
  const z = e.mul(y, y);
  const r = e.add(e.f64(T[4]), e.mul(z, e.f64(T[5])));
  const t = e.add(e.f64(T[2]), e.mul(z, e.f64(T[3])));
  const w = e.mul(z, z);
  const s = e.mul(z, y);
  const u = e.add(e.f64(T[0]), e.mul(z, e.f64(T[1])));
  return e.add(e.add(y, e.mul(s, u)), e.mul(e.mul(s, w), e.add(t, e.mul(w, r))));
}

function sinF32ViaF64(e: Emitter, x: V, ctx: MathContext): V {
  const [y, n] = reduce(e, ctx, x);
  const r = byQuadrant(e, n, sinKernel(e, y), cosKernel(e, y));
  return e.select(e.lt(e.abs(x), e.f64(SINF_TINY)), x, r);
}

function cosF32ViaF64(e: Emitter, x: V, ctx: MathContext): V {
  const [y, n] = reduce(e, ctx, x);
  return byQuadrant(e, e.op('i64x2.add', n, e.i64(1n)), sinKernel(e, y), cosKernel(e, y));
}

/** tan x from y, x reduced by n quarter turns: k_tanf, -1/t where n is odd (the `odd` lane mask). */
function tanOfReduced(e: Emitter, x: V, y: V, odd: V): V {
  const t = tanKernel(e, y);
  const r = e.select(odd, e.div(e.f64(-1), t), t);
  // Below 2^-12, tan x rounds to x in float (x^2/3 < 2^-25.6): keeps -0 and subnormals.
  return e.select(e.lt(e.abs(x), e.f64(SINF_TINY)), x, r);
}

function tanF32ViaF64(e: Emitter, x: V, ctx: MathContext): V {
  const [y, n] = reduce(e, ctx, x);
  return tanOfReduced(e, x, y, e.op('i64x2.ne', e.and(n, e.i64(1n)), e.i64(0n)));
}

export { sinF32ViaF64, cosF32ViaF64, tanF32ViaF64, tanOfReduced, SINF_TINY };
