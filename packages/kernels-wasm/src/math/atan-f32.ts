// atan for float32 lanes, evaluated in f64x2 on the promoted halves (the f32x4
// wrapper of math-function.ts) with float-sized work: ~2^-35 relative error
// before the one rounding to float, where the float64 algorithm (fdlibm's,
// five intervals, eleven coefficients) works for the last bits of a double.
//   reduction (Cephes atanf's intervals, one division for every lane):
//     a = |x| > tan(3pi/8): atan(a) = pi/2 + atan(-1/a)
//     a > tan(pi/8):         atan(a) = pi/4 + atan((a - 1) / (a + 1))
//     else                   atan(a) = atan(a)
//     (a - 1 and a + 1 are exact in double for a float a), so |t| <= tan(pi/8).
//   kernel: atan(t) = t * g(t^2), g a degree-6 fit of atan(sqrt z)/sqrt z on
//     [0, tan(pi/8)^2] minimising relative error (Lawson's iteration over
//     Chebyshev nodes in mpmath): |t*g(t^2)/atan(t) - 1| < 2^-35.4.
//   sign: the result takes x's sign bit, so atan(-0) = -0; NaN passes (every
//     comparison false leaves t = NaN); atan(+-Inf) = +-pi/2 (t = -0).
import type { Emitter, V } from './emitter.js';

const TAN_3PI_8 = 2.414213562373095;
const TAN_PI_8 = 0.41421356237309503;
const G = [
  0.9999999999797383, -0.33333332153323514, 0.19999887621397433, -0.14281681962768314,
  0.11041532981212039, -0.08461584961858075, 0.04717799537094153,
] as const;
const SIGN = -0x8000000000000000n;

function atanF32ViaF64(e: Emitter, x: V): V {
  const a = e.abs(x);
  const far = e.gt(a, e.f64(TAN_3PI_8));
  const mid = e.gt(a, e.f64(TAN_PI_8));
  const num = e.select(far, e.f64(-1), e.select(mid, e.sub(a, e.f64(1)), a));
  const den = e.select(far, a, e.select(mid, e.add(a, e.f64(1)), e.f64(1)));
  const t = e.div(num, den);
  const base = e.select(far, e.f64(Math.PI / 2), e.and(mid, e.f64(Math.PI / 4)));
  const r = e.add(base, e.mul(t, e.estrin(e.mul(t, t), G)));
  return e.or(r, e.and(x, e.i64(SIGN)));
}

export { atanF32ViaF64 };
