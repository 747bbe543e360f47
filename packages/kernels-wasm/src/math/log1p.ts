// log1p in f64x2. u = fl(1+x) has its rounding error recovered exactly, as
// fdlibm's s_log1p.c does (1 - (u - x) past 2, else x - (u - 1)); then
// log1p(x) = log(u) + log(1 + err/u) = log(u) + err/u (the next term is
// below 2^-106 of the result), the table-driven log of log.ts carrying err/u
// into its small terms before its one last rounding. u is a positive normal
// finite double for every x in (-1, Infinity), so every ordinary lane takes
// the table form (fdlibm's three forms and its division by 2+f took twice
// as long). |x| < 2^-29 takes x - x^2/2 (x itself below 2^-54, which keeps
// -0 and subnormals). An optional tail xl (below ulp(x)/2: a double-double
// argument, inverse-hyperbolic.ts) joins err.
import type { Emitter, V } from './emitter.js';
import { logTable, offsetOf } from './log.js';

/** u = fl(1 + x) and its rounding error, exactly (fdlibm's c: 1 - (u - x) past 2, else x - (u - 1)). */
function onePlus(e: Emitter, x: V): [V, V] {
  const u = e.add(e.f64(1), x);
  return [u, e.select(e.ge(u, e.f64(2)), e.sub(e.f64(1), e.sub(u, x)), e.sub(x, e.sub(u, e.f64(1))))];
}

/**
 * log1p(xh + xl) for xl a tail below ulp(xh)/2 (0 for plain log1p): the tail
 * joins the rounding error of 1+x in the correction term. Special values are
 * those of log1p(xh). On `twice` lanes (a mask; there xh >= 2^28 and xl is
 * ignored) the result is log(2 xh) instead, from the same table lookup.
 */
function log1pDD(e: Emitter, x: V, xl?: V, twice?: V): V {
  const [u, rounding] = onePlus(e, x);
  const err = xl ? e.add(rounding, xl) : rounding;
  // -1 < x < Infinity; other lanes read the table at 1 and are replaced below.
  const ordinary = e.and(e.gt(x, e.f64(-1)), e.lt(x, e.f64(Infinity)));
  let us = e.select(ordinary, u, e.f64(1));
  let tail = e.div(err, us);
  if (twice) {
    us = e.select(twice, e.select(ordinary, x, e.f64(1)), us);
    tail = e.andnot(tail, twice);
  }
  let y = logTable(e, us, offsetOf(e, us), tail, twice);
  const ax = e.abs(x);
  let series = e.sub(x, e.mul(e.mul(x, x), e.f64(0.5)));
  if (xl) series = e.add(series, xl);
  y = e.select(e.lt(ax, e.f64(2 ** -29)), series, y);
  y = e.select(e.lt(ax, e.f64(2 ** -54)), x, y);
  // log1p(-1) = -Inf, log1p(x < -1) = NaN, log1p(+Inf) = +Inf, NaN stays NaN.
  const special = e.select(e.eq(x, e.f64(-1)), e.f64(-Infinity), e.select(e.lt(x, e.f64(-1)), e.f64(NaN), x));
  return e.select(ordinary, y, special);
}

/**
 * Vectors whose lanes all have 2^-29 <= |x| and -1 < x < Infinity (most of
 * most data) skip the series and special-value selects: log1pDD's common
 * lanes alone, the same bits.
 */
function log1pF64(e: Emitter, x: V): V {
  const common = e.and(e.and(e.gt(x, e.f64(-1)), e.lt(x, e.f64(Infinity))), e.ge(e.abs(x), e.f64(2 ** -29)));
  return e.choose(e.not(common), () => log1pDD(e, x), () => {
    const [u, err] = onePlus(e, x);
    return logTable(e, u, offsetOf(e, u), e.div(err, u));
  });
}

export { log1pF64, log1pDD };
