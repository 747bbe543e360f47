// exp2 in f64x2 (fdlibm has none): x = k + f with k = round(x) and f exact,
// |f| <= 1/2; then 2^f = exp(f*ln2), where f*ln2 is formed exactly as a
// double-double by Dekker's product with ln2 (plus the product with ln2's own
// tail), and handed to the exp kernel of exp.ts in its hi - lo form: the same
// structure fdlibm's exp proves < 1 ulp for (|r| <= ln2/2, lo tiny).
// Integers give exact powers of two.
import type { Emitter, V } from './emitter.js';
import { expReduced } from './exp.js';
import { roundToInt, scaleByPow2, twoProd } from './f64-bits.js';

const LN2 = 6.93147180559945286227e-01; // 0x3FE62E42 FEFA39EF
const LN2_TAIL = 2.319046813846299558e-17; // ln2 - LN2

function exp2F64(e: Emitter, x0: V): V {
  // 2^-1080 rounds to 0 and 2^1030 overflows; NaN passes the clamp as NaN.
  const x = e.clamp(x0, -1080, 1030);
  const [kf, k] = roundToInt(e, x);
  const f = e.sub(x, kf);
  const [p, err] = twoProd(e, f, e.f64(LN2));
  const lo = e.neg(e.add(err, e.mul(f, e.f64(LN2_TAIL))));
  return scaleByPow2(e, expReduced(e, p, lo), k);
}

export { exp2F64 };
