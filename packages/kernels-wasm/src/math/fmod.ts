// fmod in f64x2: C's fmod (NumPy's), x - trunc(x/y) y computed exactly, with
// x's sign. The remainder of two doubles is itself a double, so the result
// is exact, not rounded.
//
// Lanes with |x|, |y| < 2^996, y != 0 and a quotient below 2^52 (most of
// most data): q = trunc(|x|/|y|) is the true quotient or one more (the
// division rounds monotonically and the integers near it are doubles);
// q|y| = ph + pl exactly by Dekker's product (q is an integer, so every
// partial product is a multiple of ulp(|y|), exact even where it is
// subnormal; the bounds keep the split and q|y| from overflowing); |x| - ph is exact by Sterbenz's lemma, and so is the
// subtraction of pl, because the exact remainder it yields is a double. A
// negative remainder (q one too many) takes |y| back, exactly again.
//
// Other lanes (huge quotients, zero or infinite or NaN operands, the ends of
// the range) call a scalar helper, musl's fmod: the long division of the
// integer significands, one bit per exponent step (up to about 2100 steps).
import type { ModuleBuilder } from '../encode/module-builder.js';
import type { Emitter, V } from './emitter.js';
import type { MathContext } from './context.js';
import { twoProd, withSignOf } from './f64-bits.js';

/** Below this the Dekker split of either operand (times 2^27 + 1) stays finite. */
const SPLIT_SAFE = 2 ** 996;
/** Quotients below this are doubles exactly, with their neighbours. */
const EXACT_QUOTIENT = 2 ** 52;

function fmodF64(e: Emitter, x: V, y: V, ctx: MathContext): V {
  const ax = e.abs(x);
  const ay = e.abs(y);
  const q = e.trunc(e.div(ax, ay));
  // NaN fails every comparison, so NaN operands (and q = NaN or Infinity) are not fast lanes.
  const fast = e.and(e.and(e.lt(ax, e.f64(SPLIT_SAFE)), e.lt(ay, e.f64(SPLIT_SAFE))),
    e.and(e.gt(ay, e.f64(0)), e.lt(q, e.f64(EXACT_QUOTIENT))));
  const exact = (): V => {
    const [ph, pl] = twoProd(e, q, ay);
    const r = e.sub(e.sub(ax, ph), pl);
    return withSignOf(e, e.select(e.lt(r, e.f64(0)), e.add(r, ay), r), x);
  };
  return e.choose(e.not(fast), () => {
    const out = e.mutable(exact());
    const helper = ctx.helper('fmod', defineFmod);
    const f = e.f;
    for (let lane = 0; lane < 2; lane++) {
      e.push(fast);
      f.op('i64x2.extract_lane', lane).op('i64.eqz').if();
      e.push(out);
      e.push(x);
      f.op('f64x2.extract_lane', lane);
      e.push(y);
      f.op('f64x2.extract_lane', lane).op('call', helper).op('f64x2.replace_lane', lane).op('local.set', out.local);
      f.end();
    }
    return out;
  }, exact);
}

/** musl's fmod (src/math/fmod.c) as a scalar function (f64, f64) -> f64. */
function defineFmod(m: ModuleBuilder): number {
  const [index, f] = m.func('math.fmod', ['f64', 'f64'], ['f64'], false);
  const x = f.param(0);
  const y = f.param(1);
  const ux = f.local('i64');
  const uy = f.local('i64');
  const ex = f.local('i64');
  const ey = f.local('i64');
  const i = f.local('i64');
  const TOP = -0x8000000000000000n;
  const HIDDEN = 1n << 52n;
  const MANTISSA = HIDDEN - 1n;
  const zeroTimesX = (): void => { f.op('f64.const', 0).op('local.get', x).op('f64.mul').op('return'); };
  f.op('local.get', x).op('i64.reinterpret_f64').op('local.set', ux);
  f.op('local.get', y).op('i64.reinterpret_f64').op('local.set', uy);
  const exponent = (u: number, to: number): void => {
    f.op('local.get', u).op('i64.const', 52).op('i64.shr_u').op('i64.const', 0x7ff).op('i64.and').op('local.set', to);
  };
  exponent(ux, ex);
  exponent(uy, ey);
  // y = 0, y NaN or x not finite: NaN, as (x*y)/(x*y).
  f.op('local.get', uy).op('i64.const', 1).op('i64.shl').op('i64.eqz');
  f.op('local.get', y).op('local.get', y).op('f64.ne').op('i32.or');
  f.op('local.get', ex).op('i64.const', 0x7ff).op('i64.eq').op('i32.or').if();
  f.op('local.get', x).op('local.get', y).op('f64.mul').op('local.get', x).op('local.get', y).op('f64.mul').op('f64.div').op('return');
  f.end();
  // |x| <= |y|: x itself, or a zero of x's sign where they are equal.
  f.op('local.get', ux).op('i64.const', 1).op('i64.shl').op('local.get', uy).op('i64.const', 1).op('i64.shl').op('i64.le_u').if();
  f.op('local.get', ux).op('i64.const', 1).op('i64.shl').op('local.get', uy).op('i64.const', 1).op('i64.shl').op('i64.eq').if();
  zeroTimesX();
  f.end();
  f.op('local.get', x).op('return');
  f.end();
  // Normalise each significand to an integer with its leading bit at 52 (subnormals shifted up, exponent below 1).
  const normalise = (u: number, e: number): void => {
    f.op('local.get', e).op('i64.eqz').if();
    f.op('local.get', u).op('i64.const', 12).op('i64.shl').op('local.set', i);
    f.block().loop();
    f.op('local.get', i).op('i64.const', 0).op('i64.lt_s').op('br_if', 1);
    f.op('local.get', e).op('i64.const', 1).op('i64.sub').op('local.set', e);
    f.op('local.get', i).op('i64.const', 1).op('i64.shl').op('local.set', i);
    f.op('br', 0);
    f.end().end();
    f.op('local.get', u).op('i64.const', 1).op('local.get', e).op('i64.sub').op('i64.shl').op('local.set', u);
    f.else();
    f.op('local.get', u).op('i64.const', MANTISSA).op('i64.and').op('i64.const', HIDDEN).op('i64.or').op('local.set', u);
    f.end();
  };
  normalise(ux, ex);
  normalise(uy, ey);
  // One step of the long division: i = ux - uy; where it is not negative it becomes ux (0 ends it).
  const step = (): void => {
    f.op('local.get', ux).op('local.get', uy).op('i64.sub').op('local.tee', i).op('i64.const', 0).op('i64.ge_s').if();
    f.op('local.get', i).op('i64.eqz').if();
    zeroTimesX();
    f.end();
    f.op('local.get', i).op('local.set', ux);
    f.end();
  };
  f.block().loop();
  f.op('local.get', ex).op('local.get', ey).op('i64.le_s').op('br_if', 1);
  step();
  f.op('local.get', ux).op('i64.const', 1).op('i64.shl').op('local.set', ux);
  f.op('local.get', ex).op('i64.const', 1).op('i64.sub').op('local.set', ex);
  f.op('br', 0);
  f.end().end();
  step();
  // Renormalise: the leading bit back to 52.
  f.block().loop();
  f.op('local.get', ux).op('i64.const', 52).op('i64.shr_u').op('i64.const', 0).op('i64.ne').op('br_if', 1);
  f.op('local.get', ux).op('i64.const', 1).op('i64.shl').op('local.set', ux);
  f.op('local.get', ex).op('i64.const', 1).op('i64.sub').op('local.set', ex);
  f.op('br', 0);
  f.end().end();
  // Scale: a normal result takes its exponent; a subnormal one is shifted down.
  f.op('local.get', ex).op('i64.const', 0).op('i64.gt_s').if();
  f.op('local.get', ux).op('i64.const', HIDDEN).op('i64.sub').op('local.get', ex).op('i64.const', 52).op('i64.shl').op('i64.or').op('local.set', ux);
  f.else();
  f.op('local.get', ux).op('i64.const', 1).op('local.get', ex).op('i64.sub').op('i64.shr_u').op('local.set', ux);
  f.end();
  f.op('local.get', ux).op('local.get', x).op('i64.reinterpret_f64').op('i64.const', TOP).op('i64.and').op('i64.or');
  f.op('f64.reinterpret_i64');
  return index;
}

export { fmodF64 };
