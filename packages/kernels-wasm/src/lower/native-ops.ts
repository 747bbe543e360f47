// Which operations the lowering writes as WebAssembly instructions, and which
// go to the math library (transcendentals) or to host functions (which the
// host supplies with its own scalar semantics, so that results agree
// exactly): all read from the op rules (op-rules.ts).
import type { KBinary, KType, KUnary } from './kernel-spec.js';
import { isFloatK } from './context.js';
import { BINARY_RULES, UNARY_RULES, ruleOf } from './op-rules.js';

const COMPARE: ReadonlySet<KBinary> = new Set(['equal', 'notEqual', 'less', 'lessEqual', 'greater', 'greaterEqual']);
const LOGICAL: ReadonlySet<KBinary> = new Set(['logicalAnd', 'logicalOr', 'logicalXor']);

/** Transcendentals the math library may provide (for floats). */
const MATH_UNARY: ReadonlySet<KUnary> = new Set((Object.keys(UNARY_RULES) as KUnary[]).filter((fn) => UNARY_RULES[fn].float === 'math'));
const MATH_BINARY: ReadonlySet<KBinary> = new Set((Object.keys(BINARY_RULES) as KBinary[]).filter((fn) => BINARY_RULES[fn].float === 'math'));

function isNativeUnary(fn: KUnary, t: KType): boolean {
  return UNARY_RULES[fn][isFloatK(t) ? 'float' : 'int'] === 'native';
}

function isNativeBinary(fn: KBinary, t: KType): boolean {
  return BINARY_RULES[fn][isFloatK(t) ? 'float' : 'int'] === 'native';
}

/** The name the math library knows an op by ('power' is its 'pow'). */
const mathName = (fn: KUnary | KBinary): string => ruleOf(fn).math ?? fn;

export { COMPARE, LOGICAL, MATH_UNARY, MATH_BINARY, isNativeUnary, isNativeBinary, mathName };
