// Which operations the lowering writes as WebAssembly instructions, and which
// go to the math library (transcendentals) or to host functions (which the
// host supplies with its own scalar semantics, so that results agree
// exactly): all read from the op table (ops/elementwise-ops.ts).
import type { KBinary, KType, KUnary } from './kernel-spec.js';
import { MATH_BINARY, MATH_UNARY, loweringOf, mathName, opsWhere } from './op-rules.js';
import { rowOf } from '../ops/elementwise-ops.js';

const COMPARE = opsWhere<KBinary>('binary', (fn) => rowOf(fn).rule === 'compare');
const LOGICAL = opsWhere<KBinary>('binary', (fn) => rowOf(fn).rule === 'logical');

const isNativeUnary = (fn: KUnary, t: KType): boolean => loweringOf(fn, t) === 'native';
const isNativeBinary = (fn: KBinary, t: KType): boolean => loweringOf(fn, t) === 'native';

export { COMPARE, LOGICAL, MATH_UNARY, MATH_BINARY, isNativeUnary, isNativeBinary, mathName };
