// hypot in f64x2: both operands scaled by one power of two that brings the
// larger to [1, 2) (so no square overflows or underflows), x^2 + y^2 summed
// exactly as a double-double from Dekker's products, its square root taken
// and corrected by one Newton step on the double-double (so the result is
// the exact root rounded, give or take ~2^-100), then scaled back by the
// same power of two (once, so a subnormal result is rounded once more at
// worst). C99: hypot(+-Inf, anything) = +Inf even for NaN; otherwise NaN
// in gives NaN; hypot(x, +-0) = |x|.
import type { Emitter, V } from './emitter.js';
import { fastTwoSum, scaleByPow2, twoProd } from './f64-bits.js';

function hypotF64(e: Emitter, x: V, y: V): V {
  const ax = e.abs(x);
  const ay = e.abs(y);
  const big = e.max(ax, ay);
  const small = e.min(ax, ay);
  // Scale 2^(1023 - biased exponent of big): big to [1, 2), or below 1 when subnormal.
  const biased = e.shift('i64x2.shr_u', big, 52);
  const down = e.op('i64x2.sub', e.i64(1023n), biased);
  const a = scaleByPow2(e, big, down);
  const b = scaleByPow2(e, small, down);
  const [ph, pl] = twoProd(e, a, a);
  const [qh, ql] = twoProd(e, b, b);
  const [sh, se] = fastTwoSum(e, ph, qh);
  const sl = e.add(e.add(se, pl), ql);
  const r = e.sqrt(sh);
  const [rr, rre] = twoProd(e, r, r);
  const root = e.add(r, e.div(e.add(e.sub(e.sub(sh, rr), rre), sl), e.add(r, r)));
  let h = scaleByPow2(e, root, e.op('i64x2.sub', biased, e.i64(1023n)));
  // hypot(x, 0) = |x| exactly (also covers 0/0 in the Newton step when both are 0).
  h = e.select(e.eq(small, e.f64(0)), big, h);
  const inf = e.or(e.eq(ax, e.f64(Infinity)), e.eq(ay, e.f64(Infinity)));
  const nan = e.or(e.ne(x, x), e.ne(y, y));
  return e.select(inf, e.f64(Infinity), e.select(nan, e.f64(NaN), h));
}

export { hypotF64 };
