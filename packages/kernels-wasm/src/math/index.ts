// Vectorised transcendental functions emitted as WebAssembly SIMD.
export { mathFunction, emitMathInline, isMathAvailable } from './math-function.js';
export { MATH_ARITY, MATH_FNS } from './registry.js';
export type { MathFn, MathLanes } from './registry.js';
