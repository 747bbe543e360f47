// logaddexp and logaddexp2 in f64x2, NumPy's npy_logaddexp and
// npy_logaddexp2 written with this library's exp, exp2 and log1p:
//   a == b (infinities of one sign included): a + ln 2 (a + 1);
//   otherwise max(a, b) + log1p(exp(-|a - b|))  (and log1p(2^-|a - b|) / ln 2),
// so nothing overflows; a NaN operand gives NaN. Where a and b nearly cancel
// the log1p term (max(a, b) near -ln 2) the sum loses the term's relative
// accuracy, as NumPy's does.
import type { Emitter, V } from './emitter.js';
import { expF64 } from './exp.js';
import { exp2F64 } from './exp2.js';
import { log1pF64 } from './log1p.js';

/** max(a, b) + term(-|a - b|), or `same` where a == b. */
function addExp(e: Emitter, a: V, b: V, term: (negAbsDiff: V) => V, same: (a: V) => V): V {
  const d = e.sub(a, b);
  // d > 0: a is the larger; otherwise b (a NaN d makes the term NaN).
  const m = e.select(e.gt(d, e.f64(0)), a, b);
  const y = e.add(m, term(e.neg(e.abs(d))));
  return e.select(e.eq(a, b), same(a), y);
}

function logaddexpF64(e: Emitter, a: V, b: V): V {
  return addExp(e, a, b, (t) => log1pF64(e, expF64(e, t)), (x) => e.add(x, e.f64(Math.LN2)));
}

function logaddexp2F64(e: Emitter, a: V, b: V): V {
  return addExp(e, a, b, (t) => e.mul(e.f64(Math.LOG2E), log1pF64(e, exp2F64(e, t))), (x) => e.add(x, e.f64(1)));
}

export { logaddexpF64, logaddexp2F64 };
