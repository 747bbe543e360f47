// Which operations the lowering writes as WebAssembly instructions; the others
// go to the math library (transcendentals) or to host functions, which the
// host supplies with its own scalar semantics so that results agree exactly.
import type { KBinary, KType, KUnary } from './kernel-spec.js';
import { isFloatK } from './context.js';

const COMPARE: ReadonlySet<KBinary> = new Set(['equal', 'notEqual', 'less', 'lessEqual', 'greater', 'greaterEqual']);
const LOGICAL: ReadonlySet<KBinary> = new Set(['logicalAnd', 'logicalOr', 'logicalXor']);

const FLOAT_UNARY: ReadonlySet<KUnary> = new Set(['negative', 'abs', 'sign', 'sqrt', 'square', 'reciprocal', 'floor', 'ceil',
  'round', 'trunc', 'logicalNot', 'isnan', 'isinf', 'isfinite']);
const INT_UNARY: ReadonlySet<KUnary> = new Set(['negative', 'abs', 'sign', 'square', 'reciprocal', 'floor', 'ceil', 'round',
  'trunc', 'logicalNot', 'isnan', 'isinf', 'isfinite']);
const FLOAT_BINARY: ReadonlySet<KBinary> = new Set(['add', 'subtract', 'multiply', 'divide', 'minimum', 'maximum', ...COMPARE, ...LOGICAL]);
const INT_BINARY: ReadonlySet<KBinary> = new Set(['add', 'subtract', 'multiply', 'floorDivide', 'mod', 'minimum', 'maximum',
  ...COMPARE, ...LOGICAL]);

/** Transcendentals the math library may provide. */
const MATH_UNARY: ReadonlySet<KUnary> = new Set(['exp', 'expm1', 'exp2', 'log', 'log1p', 'log2', 'log10', 'sin', 'cos', 'tan',
  'asin', 'acos', 'atan', 'sinh', 'cosh', 'tanh', 'asinh', 'acosh', 'atanh', 'cbrt']);
const MATH_BINARY: ReadonlySet<KBinary> = new Set(['power', 'atan2', 'hypot']);

function isNativeUnary(fn: KUnary, t: KType): boolean {
  return (isFloatK(t) ? FLOAT_UNARY : INT_UNARY).has(fn);
}

function isNativeBinary(fn: KBinary, t: KType): boolean {
  return (isFloatK(t) ? FLOAT_BINARY : INT_BINARY).has(fn);
}

/** The name the math library knows an op by ('power' is its 'pow'). */
const mathName = (fn: KUnary | KBinary): string => (fn === 'power' ? 'pow' : fn);

export { COMPARE, LOGICAL, MATH_UNARY, MATH_BINARY, isNativeUnary, isNativeBinary, mathName };
