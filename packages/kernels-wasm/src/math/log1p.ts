// log1p in f64x2, after fdlibm's s_log1p.c (Sun Microsystems, 1993; error
// < 1 ulp). For -0.2929 < x < 0.4142, 1+x lies in [sqrt(2)/2, sqrt(2)) and
// f = x is used directly (k = 0). Elsewhere u = fl(1+x) is reduced like log's
// argument, u = 2^k (1+f), and the rounding error of 1+x, recovered exactly
// as 1 - (u - x) or x - (u - 1), enters as the correction c/u; then
// log1p(x) = k*ln2HI + (f - (f^2/2 - (s*(f^2/2 + R) + (k*ln2LO + c)))),
// with s, R the log kernel's (log.ts). As in fdlibm, |f| < 2^-20 takes a
// short series and |x| < 2^-29 takes x - x^2/2 (x itself below 2^-54, which
// keeps -0 and subnormals).
import type { Emitter, V } from './emitter.js';
import { LN2HI, LN2LO } from './exp.js';
import { log1pTerms, logReduce } from './log.js';

const SQRT2_M1 = 0.41421356237309503; // fdlibm's 0x3FDA827A: sqrt(2) - 1
const ONE_M_SQRT1_2 = 0.29289321881345254; // fdlibm's 0x3FD2BEC4: 1 - sqrt(2)/2

/**
 * log1p(xh + xl) for xl a tail below ulp(xh)/2 (0 for plain log1p): the tail
 * joins the rounding error of 1+x in the correction term. Special values are
 * those of log1p(xh).
 */
function log1pDD(e: Emitter, x: V, xl?: V): V {
  const u = e.add(e.f64(1), x);
  // u > 0 wherever the answer is finite; other lanes are replaced below.
  const parts = logReduce(e, e.select(e.gt(u, e.f64(0)), u, e.f64(1)));
  let err = e.select(e.ge(u, e.f64(2)), e.sub(e.f64(1), e.sub(u, x)), e.sub(x, e.sub(u, e.f64(1))));
  if (xl) err = e.add(err, xl);
  const direct = e.and(e.lt(x, e.f64(SQRT2_M1)), e.gt(x, e.f64(-ONE_M_SQRT1_2)));
  const zero = e.f64(0);
  const f = e.select(direct, x, parts.f);
  const dk = e.select(direct, zero, parts.dk);
  // Direct lanes: d log1p/dx = 1/(1+x) carries the tail; others: the whole error of u, over u.
  const c = e.select(direct, xl ? e.div(xl, u) : zero, e.div(err, u));
  const { s, R, hfsq } = log1pTerms(e, f);
  const khi = e.mul(dk, e.f64(LN2HI));
  const klo = e.add(e.mul(dk, e.f64(LN2LO)), c);
  const general = e.sub(khi, e.sub(e.sub(hfsq, e.add(e.mul(s, e.add(hfsq, R)), klo)), f));
  // |f| < 2^-20 (top fraction bits of u near 1.0 or 2.0), never on the direct path.
  const hx = parts.hx;
  const tinyF = e.andnot(e.or(e.op('i64x2.eq', hx, e.i64(0n)), e.op('i64x2.ge_s', hx, e.i64(0xffffdn))), direct);
  const rShort = e.mul(hfsq, e.sub(e.f64(1), e.mul(e.f64(0.66666666666666666), f)));
  const short = e.sub(khi, e.sub(e.sub(rShort, klo), f));
  let y = e.select(tinyF, short, general);
  const ax = e.abs(x);
  let series = e.sub(x, e.mul(e.mul(x, x), e.f64(0.5)));
  if (xl) series = e.add(series, xl);
  y = e.select(e.lt(ax, e.f64(2 ** -29)), series, y);
  y = e.select(e.lt(ax, e.f64(2 ** -54)), x, y);
  // log1p(-1) = -Inf, log1p(x < -1) = NaN, log1p(+Inf) = +Inf, NaN stays NaN.
  const special = e.select(e.eq(x, e.f64(-1)), e.f64(-Infinity), e.select(e.lt(x, e.f64(-1)), e.f64(NaN), x));
  const ordinary = e.and(e.gt(x, e.f64(-1)), e.lt(x, e.f64(Infinity)));
  return e.select(ordinary, y, special);
}

function log1pF64(e: Emitter, x: V): V {
  return log1pDD(e, x);
}

export { log1pF64, log1pDD };
