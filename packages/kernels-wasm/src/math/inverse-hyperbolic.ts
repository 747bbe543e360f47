// asinh, acosh and atanh in f64x2. fdlibm (s_asinh.c, e_acosh.c, e_atanh.c;
// V8's Math versions, measured up to 2 ulp off) reduces each to log or log1p
// of an expression it rounds first, which adds up to about half an ulp to
// log1p's own error. Here the expression is carried as a double-double
// (Dekker's products, TwoSum, and a Newton-corrected square root) and its
// tail enters log1p's correction term (log1p.ts), so the one rounding left
// is log1p's:
//   asinh |x| = log1p(|x| + (sqrt(1 + x^2) - 1))             |x| < 2^28
//   acosh x   = log1p(t + sqrt(t*(2 + t))), t = x - 1 exact   x < 2^28
//   atanh |x| = log1p(2|x|/(1 - |x|)) / 2
// and past 2^28, asinh |x| = acosh x = log(2x) (the next term, 1/(4x^2), is
// below 2^-58), from log1p's own table lookup with the exponent raised by one
// (log.ts), exact even at the top of the range.
//
// That path costs about three logs. Vectors whose lanes all have
// 4 <= |x| < 2^28 (most lanes of most data) take musl's plain form instead,
//   asinh |x| = log(2|x| + 1/(|x| + sqrt(x^2 + 1)))
//   acosh x   = log(2x - 1/(x + sqrt(x^2 - 1)))
// with one log from the table: the argument's relative error is at most
// 1.05 * 2^-53 (2x is exact, the other term at most 1/63 of it), which moves
// a result of at least acosh 4 = 2.06 by at most 0.27 ulp, on top of log's 0.51.
import type { Emitter, V } from './emitter.js';
import { fastTwoSum, twoProd, twoSum, withSignOf } from './f64-bits.js';
import { log1pDD } from './log1p.js';
import { logTable, offsetOf } from './log.js';

const BIG = 2 ** 28;
/** From here to BIG the plain form is within 0.78 ulp (see above). */
const PLAIN = 4;

/** The lanes of `a` in [PLAIN, BIG) (NaN is not). */
function plainLane(e: Emitter, a: V): V {
  return e.and(e.ge(a, e.f64(PLAIN)), e.lt(a, e.f64(BIG)));
}

/** log(v) for v positive, normal and finite on every lane. */
const logOf = (e: Emitter, v: V): V => logTable(e, v, offsetOf(e, v));

/** sqrt(vh + vl) as a double-double: one Newton step on the rounded root, its square exact by Dekker. */
function sqrtDD(e: Emitter, vh: V, vl: V): [V, V] {
  const sh = e.sqrt(vh);
  const [p, perr] = twoProd(e, sh, sh);
  const sl = e.div(e.add(e.sub(e.sub(vh, p), perr), vl), e.mul(e.f64(2), sh));
  return [sh, sl];
}

function asinhF64(e: Emitter, x: V): V {
  const a = e.abs(x);
  const plain = (): V => {
    const s = e.sqrt(e.add(e.mul(a, a), e.f64(1)));
    return withSignOf(e, logOf(e, e.add(e.add(a, a), e.div(e.f64(1), e.add(a, s)))), x);
  };
  return e.byLane(plainLane(e, a), plain, () => asinhExact(e, x));
}

function acoshF64(e: Emitter, x: V): V {
  const plain = (): V => {
    const s = e.sqrt(e.sub(e.mul(x, x), e.f64(1)));
    return logOf(e, e.sub(e.add(x, x), e.div(e.f64(1), e.add(x, s))));
  };
  return e.byLane(plainLane(e, x), plain, () => acoshExact(e, x));
}

/** Every lane: the double-double argument (see above). */
function asinhExact(e: Emitter, x: V): V {
  const a = e.abs(x);
  const am = e.below(a, BIG); // keeps the double-double path finite on lanes it does not serve
  const [qh, ql] = twoProd(e, am, am);
  const [vh, ve] = twoSum(e, e.f64(1), qh);
  const [sh, sl] = sqrtDD(e, vh, e.add(ve, ql));
  const [mh0, me] = twoSum(e, am, e.sub(sh, e.f64(1))); // sh - 1 is exact: sh in [1, 2^28]
  const [mh, ml] = fastTwoSum(e, mh0, e.add(me, sl));
  const big = e.ge(a, e.f64(BIG));
  let y = log1pDD(e, e.select(big, a, mh), ml, big);
  y = withSignOf(e, y, x);
  // |x| < 2^-28: asinh x rounds to x (keeps -0 and subnormals). NaN lanes carry NaN from log.
  return e.select(e.lt(a, e.f64(2 ** -28)), x, y);
}

function acoshExact(e: Emitter, x: V): V {
  const xm = e.clamp(x, 1, BIG);
  const t = e.sub(xm, e.f64(1));
  const [wh, wl] = twoSum(e, e.f64(2), t);
  const [vh, ve] = twoProd(e, t, wh);
  const [sh, sl] = sqrtDD(e, vh, e.add(ve, e.mul(t, wl)));
  const [mh0, me] = twoSum(e, t, sh);
  const [mh, ml] = fastTwoSum(e, mh0, e.add(me, sl));
  const big = e.ge(x, e.f64(BIG));
  let y = log1pDD(e, e.select(big, x, mh), ml, big);
  // acosh(1) = +0 (where sqrtDD divides 0 by 0); x < 1 gives NaN; NaN stays NaN.
  y = e.select(e.eq(x, e.f64(1)), e.f64(0), y);
  return e.select(e.lt(x, e.f64(1)), e.f64(NaN), e.select(e.ne(x, x), x, y));
}

function atanhF64(e: Emitter, x: V): V {
  const a = e.abs(x);
  const [dh, dl] = twoSum(e, e.f64(1), e.neg(a));
  const twoA = e.mul(e.f64(2), a);
  const qh = e.div(twoA, dh);
  const [p, perr] = twoProd(e, qh, dh);
  const ql = e.div(e.sub(e.sub(e.sub(twoA, p), perr), e.mul(qh, dl)), dh);
  // |x| = 1 gives qh = Inf and |x| > 1 gives qh < -1, so log1p itself yields Inf and NaN.
  let y = e.mul(e.f64(0.5), log1pDD(e, qh, ql));
  y = withSignOf(e, y, x);
  // |x| < 2^-28: atanh x rounds to x (keeps -0 and subnormals).
  return e.select(e.lt(a, e.f64(2 ** -28)), x, y);
}

export { asinhF64, acoshF64, atanhF64 };
