// The op vocabulary of the KernelSpec contract: the elementwise ops and how each is computed.
export { ELEMENTWISE_OPS, isElementwiseOp, rowOf, arity } from './elementwise-ops.js';
export type { ElementwiseRow, ElementwiseRule, ElementwiseOp, KUnary, KBinary, NativeOp, LaneOp, Lowering, UlpBound } from './elementwise-ops.js';
