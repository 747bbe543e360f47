// asinh and acosh for float32 lanes. Vectors whose lanes all have
// 2 <= |x| < 2^100 take musl's plain form natively in f32x4,
//   asinh |x| = log(2|x| + 1/(|x| + sqrt(x^2 + 1)))
//   acosh x   = log(2x - 1/(x + sqrt(x^2 - 1)))
// through log's short form (log-f32.ts, within 0.954 ulp). 2x is exact and
// the other term at most 1/13.9 of 2x, so the argument is within
// 1.25 * 2^-24 relative, which moves a result of at least acosh 2 = 1.317 by
// at most 0.63 ulp: within 1.6 ulp of the true value, so at most 2 from the
// correctly rounded one. Past 2^64, x^2 overflows to Infinity and the small
// term goes to 0, leaving log(2x), which it rounds to anyway.
//
// Other lanes (small arguments, where the plain form cancels, and the
// special values) run in float64 on the promoted halves, fdlibm's log1p
// forms through log1p.ts, whose relative error (about 2^-51) is far below a
// float's:
//   asinh |x| = log1p(|x| + x^2/(1 + sqrt(1 + x^2)))
//   acosh x   = log1p(t + sqrt(t(2 + t))), t = x - 1
// A float's square is finite in float64, so neither form overflows.
import type { Emitter, V } from './emitter.js';
import type { MathContext } from './context.js';
import { logShort } from './log-f32.js';
import { log1pDD } from './log1p.js';
import { withSignOf } from './f64-bits.js';
import { viaF64 } from './via-f64.js';

const PLAIN_LO = 2;
const PLAIN_HI = 2 ** 100;
const SIGN = -0x80000000;

function plainLanes(e: Emitter, a: V): V {
  return e.and(e.op('f32x4.ge', a, e.f32(PLAIN_LO)), e.op('f32x4.lt', a, e.f32(PLAIN_HI)));
}

/** log(2a +- 1/(a + sqrt(a^2 +- 1))), `sign` the operation on both sides. */
function plainForm(e: Emitter, a: V, sign: 'add' | 'sub'): V {
  const F = (name: string, ...args: V[]): V => e.op(`f32x4.${name}`, ...args);
  const s = F('sqrt', F(sign, F('mul', a, a), e.f32(1)));
  return logShort(e, F(sign, F('add', a, a), F('div', e.f32(1), F('add', a, s))));
}

function asinhViaF64(e: Emitter, x: V): V {
  const a = e.abs(x);
  const q = e.mul(a, a);
  const w = e.add(a, e.div(q, e.add(e.f64(1), e.sqrt(e.add(e.f64(1), q)))));
  // log1p(w) keeps +0 at 0 and NaN; Infinity alone makes Inf/Inf of w.
  return withSignOf(e, e.select(e.eq(a, e.f64(Infinity)), a, log1pDD(e, w)), x);
}

function acoshViaF64(e: Emitter, x: V): V {
  const t = e.sub(x, e.f64(1));
  const y = log1pDD(e, e.add(t, e.sqrt(e.mul(t, e.add(e.f64(2), t)))));
  // x < 1 gives NaN (some such lanes reach log1p above -1); NaN and Infinity pass through.
  return e.select(e.lt(x, e.f64(1)), e.f64(NaN), y);
}

function asinhF32(e: Emitter, x: V, ctx: MathContext): V {
  const a = e.op('f32x4.abs', x);
  return e.byLane(plainLanes(e, a), () => e.or(plainForm(e, a, 'add'), e.and(x, e.i32(SIGN))),
    () => viaF64(e, [x], (g, [h]) => asinhViaF64(g, h), ctx));
}

function acoshF32(e: Emitter, x: V, ctx: MathContext): V {
  return e.byLane(plainLanes(e, x), () => plainForm(e, x, 'sub'), () => viaF64(e, [x], (g, [h]) => acoshViaF64(g, h), ctx));
}

export { asinhF32, acoshF32 };
