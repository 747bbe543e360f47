// log2, log10 and log1p natively in f32x4, after FreeBSD msun's e_log2f.c,
// e_log10f.c and s_log1pf.c: the reduction and kernel of log's short form
// (log-f32.ts), x = 2^k (1+f) with 1+f in [sqrt(2)/2, sqrt(2)) and
// log(1+f) = f - hfsq + s (hfsq + R(s^2)), then
//   log2:  hi = f - hfsq cut to its top 12 bits (so hi times the 12-bit head
//          of 1/ln2 is exact), lo = (f - hi) - hfsq + s (hfsq + R),
//          k + hi/ln2 + lo/ln2 with 1/ln2 as head and tail;
//   log10: the same with 1/ln10, plus k log10(2) as head and tail;
//   log1p: u = fl(1 + x), its rounding error over u (c, exact: 1 - (u - x)
//          past 2, else x - (u - 1)) joins the small terms, and |x| < 2^-24
//          gives x (keeps -0 and subnormals).
// Vectors of lanes these serve (positive normal finite x; for log1p,
// -1 < x < Infinity) take them alone; any other vector (zeros, subnormals,
// negatives, Infinity, NaN) also runs the float64 routine on its promoted
// halves and takes it on those lanes.
import type { Emitter, V } from './emitter.js';
import type { MathContext } from './context.js';
import { log2F64, log10F64 } from './log2-log10.js';
import { log1pF64 } from './log1p.js';
import { viaF64 } from './via-f64.js';
import { LN2_HI, LN2_LO, reduceShort } from './log-f32.js';
import type { F64Generator } from './generator-types.js';

const bitsF32 = (b: number): number => new Float32Array(new Uint32Array([b]).buffer)[0]!;
const IVLN2HI = bitsF32(0x3fb8b000); // 1.4428710938e+00
const IVLN2LO = bitsF32(0xb9389ad4); // -1.7605285393e-04
const IVLN10HI = bitsF32(0x3ede6000); // 4.3432617188e-01
const IVLN10LO = bitsF32(0xb804ead9); // -3.1689971365e-05
const LOG10_2HI = bitsF32(0x3e9a2080); // 3.0102920532e-01
const LOG10_2LO = bitsF32(0x355427db); // 7.9034151668e-07

/** x = 2^k (1+f) for positive normal finite x, and log(1+f)'s terms. */
interface Parts {
  /** k as a float. */
  readonly dk: V;
  readonly f: V;
  readonly hfsq: V;
  /** s (hfsq + R): log(1+f) = f - hfsq + r. */
  readonly r: V;
}

/** log's short reduction (log-f32.ts), and fdlibm's k_log1pf terms from it. */
function reduce(e: Emitter, x: V): Parts {
  const F = (name: string, ...args: V[]): V => e.op(`f32x4.${name}`, ...args);
  const { dk, f, s, R } = reduceShort(e, x);
  const hfsq = F('mul', F('mul', e.f32(0.5), f), f);
  return { dk, f, hfsq, r: F('mul', s, F('add', hfsq, R)) };
}

/** log(1+f) as hi + lo, hi f - hfsq cut to 12 significant bits. */
function hiLo(e: Emitter, { f, hfsq, r }: Parts): [V, V] {
  const F = (name: string, ...args: V[]): V => e.op(`f32x4.${name}`, ...args);
  const hi = e.and(F('sub', f, hfsq), e.i32(-0x1000));
  return [hi, F('add', F('sub', F('sub', f, hi), hfsq), r)];
}

function log2Short(e: Emitter, x: V): V {
  const F = (name: string, ...args: V[]): V => e.op(`f32x4.${name}`, ...args);
  const parts = reduce(e, x);
  const [hi, lo] = hiLo(e, parts);
  const small = F('add', F('mul', F('add', lo, hi), e.f32(IVLN2LO)), F('mul', lo, e.f32(IVLN2HI)));
  return F('add', F('add', small, F('mul', hi, e.f32(IVLN2HI))), parts.dk);
}

function log10Short(e: Emitter, x: V): V {
  const F = (name: string, ...args: V[]): V => e.op(`f32x4.${name}`, ...args);
  const parts = reduce(e, x);
  const [hi, lo] = hiLo(e, parts);
  const small = F('add', F('mul', parts.dk, e.f32(LOG10_2LO)), F('mul', F('add', lo, hi), e.f32(IVLN10LO)));
  const mid = F('add', F('add', small, F('mul', lo, e.f32(IVLN10HI))), F('mul', hi, e.f32(IVLN10HI)));
  return F('add', mid, F('mul', parts.dk, e.f32(LOG10_2HI)));
}

function log1pShort(e: Emitter, x: V): V {
  const F = (name: string, ...args: V[]): V => e.op(`f32x4.${name}`, ...args);
  const one = e.f32(1);
  const u = F('add', one, x);
  const err = e.select(F('ge', u, e.f32(2)), F('sub', one, F('sub', u, x)), F('sub', x, F('sub', u, one)));
  const c = F('div', err, u);
  const { dk, f, hfsq, r } = reduce(e, u);
  const small = F('add', r, F('add', F('mul', dk, e.f32(LN2_LO)), c));
  const y = F('sub', F('mul', dk, e.f32(LN2_HI)), F('sub', F('sub', hfsq, small), f));
  return e.select(F('lt', F('abs', x), e.f32(2 ** -24)), x, y);
}

/** `short` on the `served` lanes, `f64` on the promoted halves for the others (Emitter.byLane). */
function withRareLanes(e: Emitter, ctx: MathContext, x: V, served: V, short: (e: Emitter, x: V) => V, f64: F64Generator): V {
  return e.byLane(served, () => short(e, x), () => viaF64(e, [x], f64, ctx));
}

/** Lanes positive, normal and finite: bits + 0x7f800000 (mod 2^32) is at most 0xfeffffff, signed, exactly for those. */
const normal = (e: Emitter, x: V): V => e.op('i32x4.le_s', e.op('i32x4.add', x, e.i32(0x7f800000)), e.i32(-16777217));

function log2F32(e: Emitter, x: V, ctx: MathContext): V {
  return withRareLanes(e, ctx, x, normal(e, x), log2Short, (g, [h]) => log2F64(g, h));
}

function log10F32(e: Emitter, x: V, ctx: MathContext): V {
  return withRareLanes(e, ctx, x, normal(e, x), log10Short, (g, [h]) => log10F64(g, h));
}

function log1pF32(e: Emitter, x: V, ctx: MathContext): V {
  const F = (name: string, ...args: V[]): V => e.op(`f32x4.${name}`, ...args);
  const served = e.and(F('gt', x, e.f32(-1)), F('lt', x, e.f32(Infinity)));
  return withRareLanes(e, ctx, x, served, log1pShort, (g, [h]) => log1pF64(g, h));
}

export { log2F32, log10F32, log1pF32 };
