// sin and cos for float32 lanes, the polynomials in f32x4 (four lanes an
// instruction), the reduction in float64 on the promoted halves:
//   y = (x - n*pio2_1) - n*pio2_1t, n = nearest(x*2/pi), as trig-f32.ts does
//     (exact in its first step for n < 2^20, good to ~2^-66 absolute), then
//     split into float yh + yl, its relative error about 2^-48;
//   sin(y) = yh + (yl + yh z S(z)), cos(y) = w + (((1 - w) - z/2) + z^2 C(z)
//     - yh yl) with w = 1 - z/2 (musl's cosf order: (1 - w) - z/2 is w's
//     rounding error, exactly), z = yh^2, FreeBSD's k_sinf/k_cosf
//     coefficients in float, so that the last rounding dominates: within
//     0.87 ulp of the truth on 7e5 sampled floats.
// tan evaluates k_tanf.c's polynomial (trig-f32.ts; a fit to 2^-25.5, so
// within 0.8 ulp) in float64 on the halves after the same reduction, the odd
// quadrants' -1/t included.
// Vectors whose lanes all have |x| < 2^20 take these alone; other vectors
// (larger arguments, Infinity, NaN) also run the float64 form of trig-f32.ts
// on their promoted halves and take it on those lanes.
import type { Emitter, V } from './emitter.js';
import type { MathContext } from './context.js';
import { INVPIO2, PIO2_1, PIO2_1T } from './rem-pio2.js';
import { SINF_TINY, cosF32ViaF64, sinF32ViaF64, tanF32ViaF64, tanOfReduced } from './trig-f32.js';
import { joinLow, promoteHalf, viaF64 } from './via-f64.js';

// FreeBSD's k_sinf.c S1..S4 and k_cosf.c C1..C3 (C0 = -0.4999999973 is -1/2 in float),
// lowest degree first (Emitter.horner's order).
const S = [-0.166666666416265235595, 0.0083333293858894631756, -0.000198393348360966317347, 0.0000027183114939898219064] as const;
const C = [0.0416666233237390631894, -0.00138867637746099294692, 0.0000243904487962774090654] as const;
/** n < 2^20 keeps n*pio2_1 exact. */
const NATIVE_HI = 2 ** 20;

interface Reduced {
  readonly yh: V;
  readonly yl: V;
  /** n as i32x4. */
  readonly n: V;
}

/** x promoted, |x| < 2^20: n = nearest(x 2/pi) and y = x - n pi/2 in float64 (exact first step). */
function reduceF64(e: Emitter, x: V): { nd: V; y: V } {
  const nd = e.nearest(e.mul(x, e.f64(INVPIO2)));
  return { nd, y: e.sub(e.sub(x, e.mul(nd, e.f64(PIO2_1))), e.mul(nd, e.f64(PIO2_1T))) };
}

function reduce(e: Emitter, x: V): Reduced {
  const half = (high: boolean): Reduced => {
    const { nd, y } = reduceF64(e, promoteHalf(e, x, high));
    const yh = e.op('f32x4.demote_f64x2_zero', y);
    const yl = e.op('f32x4.demote_f64x2_zero', e.sub(y, e.op('f64x2.promote_low_f32x4', yh)));
    return { yh, yl, n: e.op('i32x4.trunc_sat_f64x2_s_zero', nd) };
  };
  const lo = half(false);
  const hi = half(true);
  return { yh: joinLow(e, lo.yh, hi.yh), yl: joinLow(e, lo.yl, hi.yl), n: joinLow(e, lo.n, hi.n) };
}

function kernels(e: Emitter, { yh, yl }: Reduced): [V, V] {
  const F = (name: string, ...args: V[]): V => e.op(`f32x4.${name}`, ...args);
  const z = F('mul', yh, yh);
  const sin = F('add', yh, F('add', yl, F('mul', F('mul', yh, z), e.horner(z, S, 'f32x4'))));
  // musl's cosf order: w = 1 - z/2 rounds once, and (1 - w) - z/2 recovers that rounding exactly.
  const hz = F('mul', e.f32(0.5), z);
  const w = F('sub', e.f32(1), hz);
  const small = F('sub', F('mul', F('mul', z, z), e.horner(z, C, 'f32x4')), F('mul', yh, yl));
  return [sin, F('add', w, F('add', F('sub', F('sub', e.f32(1), w), hz), small))];
}

/** sin on quadrant n: sin, cos, -sin, -cos. */
function byQuadrant(e: Emitter, n: V, sin: V, cos: V): V {
  const odd = e.op('i32x4.ne', e.and(n, e.i32(1)), e.i32(0));
  return e.xor(e.select(odd, cos, sin), e.shift('i32x4.shl', e.and(n, e.i32(2)), 30));
}

/** tan on promoted lanes with |x| < 2^20: the reduction above, k_tanf, -1/t on odd n. */
function tanHalf(e: Emitter, x: V): V {
  const { nd, y } = reduceF64(e, x);
  const half = e.mul(nd, e.f64(0.5));
  return tanOfReduced(e, x, y, e.ne(half, e.nearest(half)));
}

function withLargeLanes(e: Emitter, ctx: MathContext, x: V, native: () => V, f64: typeof sinF32ViaF64): V {
  const ok = e.op('f32x4.lt', e.op('f32x4.abs', x), e.f32(NATIVE_HI));
  return e.byLane(ok, native, () => viaF64(e, [x], (g, [h], c) => f64(g, h, c), ctx));
}

function sinF32(e: Emitter, x: V, ctx: MathContext): V {
  return withLargeLanes(e, ctx, x, () => {
    const r = reduce(e, x);
    const [sin, cos] = kernels(e, r);
    return e.select(e.op('f32x4.lt', e.op('f32x4.abs', x), e.f32(SINF_TINY)), x, byQuadrant(e, r.n, sin, cos));
  }, sinF32ViaF64);
}

function cosF32(e: Emitter, x: V, ctx: MathContext): V {
  return withLargeLanes(e, ctx, x, () => {
    const r = reduce(e, x);
    const [sin, cos] = kernels(e, r);
    return byQuadrant(e, e.op('i32x4.add', r.n, e.i32(1)), sin, cos);
  }, cosF32ViaF64);
}

function tanF32(e: Emitter, x: V, ctx: MathContext): V {
  return withLargeLanes(e, ctx, x, () => viaF64(e, [x], (g, [h]) => tanHalf(g, h), ctx), tanF32ViaF64);
}

export { sinF32, cosF32, tanF32 };
