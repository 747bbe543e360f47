// What the lowering reads from the op table (ops/elementwise-ops.ts): for an
// op and an operand type, whether it is written as instructions, taken from
// the math library or called on the host, and what type it produces.
import { ELEMENTWISE_OPS, isElementwiseOp, rowOf } from '../ops/elementwise-ops.js';
import type { ElementwiseOp, KBinary, KUnary, Lowering } from '../ops/elementwise-ops.js';
import { isFloatK } from './context.js';
import type { KType } from './kernel-spec.js';

const opsWhere = <K extends ElementwiseOp>(family: 'unary' | 'binary', test: (fn: K) => boolean): ReadonlySet<K> => {
  const names = Object.keys(ELEMENTWISE_OPS).filter(isElementwiseOp).filter((fn): fn is K => rowOf(fn).family === family);
  return new Set(names.filter(test));
};

/** How `fn` computes an operand of type `t`. */
const loweringOf = (fn: ElementwiseOp, t: KType): Lowering => rowOf(fn)[isFloatK(t) ? 'float' : 'int'];

/** Whether the op's result is bool whatever its operands' type (predicates, comparisons, logical ops). */
const isBoolResult = (fn: ElementwiseOp): boolean => {
  const rule = rowOf(fn).rule;
  return rule === 'predicate' || rule === 'compare' || rule === 'logical';
};

/** Whether a unary op's result is bool whatever its operand. */
const isPredicate = (fn: KUnary): boolean => isBoolResult(fn);

/** Transcendentals the math library may provide (for floats). */
const MATH_UNARY = opsWhere<KUnary>('unary', (fn) => rowOf(fn).float === 'math');
const MATH_BINARY = opsWhere<KBinary>('binary', (fn) => rowOf(fn).float === 'math');

/** The name the math library knows an op by ('power' is its 'pow'). */
const mathName = (fn: ElementwiseOp): string => rowOf(fn).math ?? fn;

/** Whether the vector loop may write `fn` as instructions in float or integer lanes. */
const hasNativeLanes = (fn: ElementwiseOp, lanes: 'float' | 'int'): boolean =>
  rowOf(fn)[lanes] === 'native' && !(lanes === 'int' && rowOf(fn).intLanes === false);

export { loweringOf, isBoolResult, isPredicate, MATH_UNARY, MATH_BINARY, mathName, hasNativeLanes, opsWhere };
export type { KUnary, KBinary };
