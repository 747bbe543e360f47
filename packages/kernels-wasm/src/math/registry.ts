// The math functions: names, arity, and which generator emits each one.
// A function missing from GENERATORS is not implemented yet: isMathAvailable
// says false and mathFunction refuses it.
import type { Emitter, V } from './emitter.js';
import type { MathContext } from './context.js';
import { InternalError } from '../internal-error.js';
import type { F32Generator, F64Generator, Operands } from './generator-types.js';
import { expF64 } from './exp.js';
import { logF64 } from './log.js';
import { cosF64, sinF64 } from './trig.js';
import { tanF64 } from './tan.js';
import { expm1F64 } from './expm1.js';
import { exp2F64 } from './exp2.js';
import { log1pF64 } from './log1p.js';
import { log2F64, log10F64 } from './log2-log10.js';
import { coshF64, sinhF64, tanhF64 } from './hyperbolic.js';
import { atan2F64, atanF64 } from './atan.js';
import { acosF64, asinF64 } from './asin-acos.js';
import { acoshF64, asinhF64, atanhF64 } from './inverse-hyperbolic.js';
import { cbrtF64 } from './cbrt.js';
import { hypotF64 } from './hypot.js';
import { powF64 } from './pow.js';
import { logaddexp2F64, logaddexpF64 } from './logaddexp.js';
import { fmodF64 } from './fmod.js';
import { expF32 } from './exp-f32.js';
import { logF32 } from './log-f32.js';
import { expm1F32ViaF64, tanhF32ViaF64 } from './expm1-tanh-f32.js';
import { atanF32 } from './atan-f32.js';
import { acoshF32, asinhF32 } from './inverse-hyperbolic-f32.js';
import { log10F32, log1pF32, log2F32 } from './log-family-f32.js';
import { cosF32, sinF32, tanF32 } from './trig-f32-native.js';

const MATH_ARITY = {
  exp: 1, expm1: 1, exp2: 1, log: 1, log1p: 1, log2: 1, log10: 1,
  sin: 1, cos: 1, tan: 1, asin: 1, acos: 1, atan: 1,
  sinh: 1, cosh: 1, tanh: 1, asinh: 1, acosh: 1, atanh: 1,
  cbrt: 1, pow: 2, atan2: 2, hypot: 2, logaddexp: 2, logaddexp2: 2, fmod: 2,
} as const satisfies Record<string, 1 | 2>;

type MathFn = keyof typeof MATH_ARITY;
type MathLanes = 'f64x2' | 'f32x4';

const unary = (g: (e: Emitter, x: V, ctx: MathContext) => V): F64Generator => (e, args, ctx) => g(e, args[0], ctx);
const binary = (g: (e: Emitter, x: V, y: V, ctx: MathContext) => V): F64Generator => (e, args, ctx) => {
  const [x, y] = args;
  if (y === undefined) throw new InternalError('a binary math function got one operand');
  return g(e, x, y, ctx);
};

const GENERATORS: Partial<Record<MathFn, F64Generator>> = {
  exp: unary(expF64),
  log: unary(logF64),
  sin: unary(sinF64),
  cos: unary(cosF64),
  tan: unary(tanF64),
  expm1: unary(expm1F64),
  exp2: unary(exp2F64),
  log1p: unary(log1pF64),
  log2: unary(log2F64),
  log10: unary(log10F64),
  sinh: unary(sinhF64),
  cosh: unary(coshF64),
  tanh: unary(tanhF64),
  atan: unary(atanF64),
  asin: unary(asinF64),
  acos: unary(acosF64),
  atan2: binary(atan2F64),
  asinh: unary(asinhF64),
  acosh: unary(acoshF64),
  atanh: unary(atanhF64),
  cbrt: unary(cbrtF64),
  hypot: binary(hypotF64),
  pow: binary(powF64),
  logaddexp: binary(logaddexpF64),
  logaddexp2: binary(logaddexp2F64),
  fmod: binary(fmodF64),
};

/**
 * Native f32x4 versions (four lanes per instruction). Functions without one
 * run an f64x2 generator on each promoted half (math-function.ts).
 */
const F32_NATIVE: Partial<Record<MathFn, F32Generator>> = {
  exp: unary(expF32),
  log: unary(logF32),
  atan: unary(atanF32),
  asinh: unary(asinhF32),
  acosh: unary(acoshF32),
  log1p: unary(log1pF32),
  log2: unary(log2F32),
  log10: unary(log10F32),
  sin: unary(sinF32),
  cos: unary(cosF32),
  tan: unary(tanF32),
};

/**
 * float32-accuracy versions in f64x2 (cheaper polynomials than the float64
 * ones), run on the promoted halves of f32x4 operands in place of GENERATORS.
 */
const F32_VIA_F64: Partial<Record<MathFn, F64Generator>> = {
  expm1: unary(expm1F32ViaF64),
  tanh: unary(tanhF32ViaF64),
};

const MATH_FNS = Object.keys(MATH_ARITY) as MathFn[];

function isMathFn(name: string): name is MathFn {
  return Object.hasOwn(MATH_ARITY, name);
}

export { MATH_ARITY, MATH_FNS, GENERATORS, F32_NATIVE, F32_VIA_F64, isMathFn };
export type { MathFn, MathLanes, F64Generator, F32Generator, Operands };
