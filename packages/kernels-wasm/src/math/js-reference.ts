// The JavaScript Math function each MathFn is compared against in tests.
// V8's Math functions are fdlibm ports (< 1 ulp, not correctly rounded), so a
// result within 1 ulp of the true value can sit 2 ulp from Math's.
import type { MathFn } from './registry.js';

const JS_REFERENCE: Record<MathFn, (a: number, b: number) => number> = {
  exp: Math.exp, expm1: Math.expm1, exp2: (x) => 2 ** x,
  log: Math.log, log1p: Math.log1p, log2: Math.log2, log10: Math.log10,
  sin: Math.sin, cos: Math.cos, tan: Math.tan, asin: Math.asin, acos: Math.acos, atan: Math.atan,
  sinh: Math.sinh, cosh: Math.cosh, tanh: Math.tanh, asinh: Math.asinh, acosh: Math.acosh, atanh: Math.atanh,
  cbrt: Math.cbrt, pow: Math.pow, atan2: Math.atan2, hypot: (a, b) => Math.hypot(a, b),
  // NumPy's npy_logaddexp(2) with V8's Math, as deferred-array's reference evaluator computes them.
  logaddexp: (a, b) => (a === b ? a + Math.LN2 : a - b > 0 ? a + Math.log1p(Math.exp(b - a)) : a - b <= 0 ? b + Math.log1p(Math.exp(a - b)) : a - b),
  logaddexp2: (a, b) => (a === b ? a + 1 : a - b > 0 ? a + Math.LOG2E * Math.log1p(2 ** (b - a)) : a - b <= 0 ? b + Math.LOG2E * Math.log1p(2 ** (a - b)) : a - b),
  // JavaScript's % on numbers is C's fmod, exactly.
  fmod: (a, b) => a % b,
};

export { JS_REFERENCE };
