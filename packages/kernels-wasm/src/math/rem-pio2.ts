// x mod pi/2 for f64x2: x = n*pi/2 + (y0 + y1), |y0 + y1| <= ~pi/4, the
// remainder as a double-double so the trig kernels can correct for it.
//
// |x| <= 2^20 * pi/2 (~1.647e6): Cody-Waite with pi/2 in three 33-bit parts
// and a 53-bit tail (fdlibm's pio2_1, pio2_2, pio2_3, pio2_3t): n < 2^20, so
// every n*part is exact and x - n*pio2_1 is exact (Sterbenz); the next two
// subtractions keep their rounding errors by TwoSum. pi/2 is carried to ~152
// bits, so the remainder is good to ~2^-131 absolute, against a smallest
// possible |remainder| of ~2^-61 for any double (Muller, Elementary
// Functions, ch. 11): always ~70 correct bits. As in fdlibm, the first
// stage alone (with pi/2's 53-bit tail after PIO2_1) serves unless more than
// ~15 bits cancel; a vector with such a lane runs all three stages.
// Beyond that bound (finite lanes only) each such lane is redone by the scalar
// Payne-Hanek helper in rem-pio2-large.ts, behind a vector test so that the
// common case pays one compare.
import type { Emitter, V } from './emitter.js';
import type { Local } from '../encode/function-builder.js';
import type { MathContext } from './context.js';
import { roundToInt, twoSum } from './f64-bits.js';
import { defineRemPio2Large } from './rem-pio2-large.js';

const INVPIO2 = 6.36619772367581382433e-01; // 0x3FE45F30 6DC9C883
const PIO2_1 = 1.57079632673412561417e+00; // 0x3FF921FB 54400000, 33 bits
const PIO2_1T = 6.07710050650619224932e-11; // 0x3DD0B461 1A626331, pi/2 - PIO2_1
const PIO2_2 = 6.07710050630396597660e-11; // 0x3DD0B461 1A600000, 33 bits
const PIO2_3 = 2.02226624871116645580e-21; // 0x3BA3198A 2E000000, 33 bits
const PIO2_3T = 8.47842766036889956997e-32; // 0x397B839A 252049C1
/** Past this |x|, n may reach 2^20 and n*PIO2_1 stops being exact. */
const CODY_WAITE_BOUND = 1647099; // < 2^20 * pi/2 = 1647099.33

type Mutable = V & { readonly local: Local };

interface Reduced {
  readonly y0: V;
  readonly y1: V;
  /** n as i64 lanes (only n mod 4 is meaningful for huge x). */
  readonly n: V;
}

/** The lanes of x whose |x| is past the Cody-Waite bound but finite. */
function largeLanes(e: Emitter, x: V): V {
  const ax = e.abs(x);
  return e.and(e.gt(ax, e.f64(CODY_WAITE_BOUND)), e.lt(ax, e.f64(Infinity)));
}

/**
 * Overwrites y0, y1 and n (i64 lanes) with the Payne-Hanek reduction on the
 * lanes set in `large`, one scalar helper call per such lane; lanes with
 * nothing to redo cost a vector test.
 */
function redoLargeLanes(e: Emitter, ctx: MathContext, x: V, large: V, out: { y0: Mutable; y1: Mutable; n: Mutable }): void {
  e.when(large, () => {
    const helper = ctx.helper('rem_pio2_large', defineRemPio2Large);
    const f = e.f;
    const ly0 = f.local('f64');
    const ly1 = f.local('f64');
    const ln = f.local('i32');
    for (let lane = 0; lane < 2; lane++) {
      e.push(large);
      f.op('i64x2.extract_lane', lane).op('i64.const', 0).op('i64.ne').if();
      e.push(x);
      f.op('f64x2.extract_lane', lane).op('call', helper).op('local.set', ln).op('local.set', ly1).op('local.set', ly0);
      e.push(out.y0);
      f.op('local.get', ly0).op('f64x2.replace_lane', lane).op('local.set', out.y0.local);
      e.push(out.y1);
      f.op('local.get', ly1).op('f64x2.replace_lane', lane).op('local.set', out.y1.local);
      e.push(out.n);
      f.op('local.get', ln).op('i64.extend_i32_s').op('i64x2.replace_lane', lane).op('local.set', out.n.local);
      f.end();
    }
  });
}

function remPio2(e: Emitter, ctx: MathContext, x: V): Reduced {
  const [nf, n] = roundToInt(e, e.mul(x, e.f64(INVPIO2)));
  // One stage (fdlibm's first iteration): pi/2 = PIO2_1 + PIO2_1T to ~86 bits.
  const r = e.sub(x, e.mul(nf, e.f64(PIO2_1)));
  const w = e.mul(nf, e.f64(PIO2_1T));
  const y0 = e.mutable(e.sub(r, w));
  const y1 = e.mutable(e.sub(e.sub(r, y0), w));
  // Where more than ~15 bits cancelled (x near a multiple of pi/2), redo with all
  // three stages, as fdlibm does; most vectors skip this.
  const cancelled = e.lt(e.abs(y0), e.mul(e.abs(x), e.f64(2 ** -15)));
  e.when(cancelled, () => {
    const [s1, e1] = twoSum(e, r, e.neg(e.mul(nf, e.f64(PIO2_2))));
    const [s2, e2] = twoSum(e, s1, e.neg(e.mul(nf, e.f64(PIO2_3))));
    const lo = e.sub(e.add(e1, e2), e.mul(nf, e.f64(PIO2_3T)));
    const h = e.add(s2, lo);
    e.assign(y0, e.select(cancelled, h, y0));
    e.assign(y1, e.select(cancelled, e.add(e.sub(s2, h), lo), y1));
  });
  const nOut = e.mutable(n);
  redoLargeLanes(e, ctx, x, largeLanes(e, x), { y0, y1, n: nOut });
  return { y0, y1, n: nOut };
}

export { remPio2, redoLargeLanes, largeLanes, CODY_WAITE_BOUND, INVPIO2, PIO2_1, PIO2_1T, PIO2_2, PIO2_3, PIO2_3T };
export type { Reduced, Mutable };
