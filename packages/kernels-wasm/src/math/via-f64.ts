// An f64x2 generator run on f32x4 operands: each half promoted (exactly),
// computed in float64, demoted once. Native float32 routines use it too, for
// the lanes their short form does not serve (special values, hard ranges).
import { HIGH_TO_LOW, JOIN_LOW_HALVES } from '../encode/shuffles.js';
import type { Emitter, V } from './emitter.js';
import type { MathContext } from './context.js';
import type { F64Generator, Operands } from './generator-types.js';

/** f(each operand), keeping the operands' count in the type. */
function mapOperands(args: Operands, f: (a: V) => V): Operands {
  if (args.length === 1) return [f(args[0])];
  const x = f(args[0]);
  return [x, f(args[1])];
}

/** The low (or high) two f32 lanes of `a`, promoted to f64x2 (exactly). */
function promoteHalf(e: Emitter, a: V, high: boolean): V {
  if (!high) return e.op('f64x2.promote_low_f32x4', a);
  e.push(a).push(a);
  e.f.shuffle(HIGH_TO_LOW);
  return e.op('f64x2.promote_low_f32x4', e.save());
}

/** The low two 32-bit lanes of a, then those of b: two halves' results (demoted, or i32 from f64x2) as one vector. */
function joinLow(e: Emitter, a: V, b: V): V {
  e.push(a).push(b);
  e.f.shuffle(JOIN_LOW_HALVES);
  return e.save();
}

/** gen on the promoted halves of f32x4 `args`, the two results demoted and joined. */
function viaF64(e: Emitter, args: Operands, gen: F64Generator, ctx: MathContext): V {
  const half = (high: boolean): V =>
    e.op('f32x4.demote_f64x2_zero', gen(e, mapOperands(args, (a) => promoteHalf(e, a, high)), ctx));
  const lo = half(false);
  return joinLow(e, lo, half(true));
}

export { viaF64, promoteHalf, joinLow };
