// The ufunc-like calls: operands become nodes (weak JS scalars resolved per
// NEP 50 against the arrays beside them), then an elementwise node is built.
import { NotSupportedError } from '../ir/errors.js';
import { promoteTypes } from '../ir/promotion.js';
import type { DType } from '../ir/dtypes.js';
import { elementwise, operandScalar, scalar } from '../ir/build-elementwise.js';
import type { Node } from '../ir/node.js';
import type { BinaryOp, OpName, TernaryOp, UnaryOp } from '../ir/op-table.js';
import { defaultDType, weakScalarDType } from '../ir/type-rules.js';
import { isStdNdarray } from '../util/stdlib.js';
import { DeferredArray, nodeOf, wrapNode } from './deferred-array.js';
import { describe, isArrayInput, sourceFrom } from './operand.js';
import type { ArrayInput } from './operand.js';

type Operand = DeferredArray | number | bigint | boolean | ArrayInput;

interface UfuncOptions {
  /** NEP: with deferred inputs, out must be a DeferredArray; a plain array is a TypeError. */
  readonly out?: unknown;
}

/** Converts a non-scalar operand to a node. */
function arrayNode(x: unknown, op: string, position: number): Node {
  if (x instanceof DeferredArray) return nodeOf(x);
  if (isArrayInput(x)) return sourceFrom(x, undefined, true);
  throw new TypeError(`${op}: operand ${position} must be a DeferredArray, a number, a bigint, a boolean or an array; got ${describe(x)}`);
}

const isScalar = (x: unknown): x is number | bigint | boolean => typeof x === 'number' || typeof x === 'bigint' || typeof x === 'boolean';

/**
 * Nodes for every operand. Scalars next to arrays are weak (NEP 50): they take
 * the dtype of the arrays they meet, as far as their kind allows. `weakPeers`
 * picks which operands a scalar resolves against (where's condition stands apart).
 */
function operandNodes(op: OpName, operands: readonly unknown[], weakPeers: readonly number[]): Node[] {
  // Loops, not array methods: this runs for every operation built, and each callback and
  // intermediate list was an allocation (most of building's garbage).
  // Sized up front: an empty list grown by index reserves room for 17.
  const nodes = new Array<Node>(operands.length);
  let scalars = false;
  for (let i = 0; i < operands.length; i++) {
    const x = operands[i];
    if (isScalar(x)) scalars = true;
    else nodes[i] = arrayNode(x, op, i);
  }
  if (!scalars) return nodes;
  let strong: DType | undefined;
  for (const i of weakPeers) {
    const n = nodes[i];
    if (n !== undefined) strong = strong === undefined ? n.dtype : promoteTypes(strong, n.dtype);
  }
  for (let i = 0; i < operands.length; i++) {
    if (nodes[i] !== undefined) continue;
    const v = operands[i] as number | bigint | boolean;
    const d = strong !== undefined && weakPeers.includes(i) ? weakScalarDType(op, strong, v) : defaultDType(v);
    nodes[i] = operandScalar(typeof v === 'boolean' ? Number(v) : v, d);
  }
  return nodes;
}

/** Operands that resolve scalars against each other: a unary op's one, a binary op's two. */
const FIRST = [0] as const;
const BOTH = [0, 1] as const;

function checkUfuncOptions(op: string, options: unknown): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options) || isStdNdarray(options)) {
    throw new TypeError(`${op}: the last argument must be an options object like { out }; got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (key !== 'out') throw new TypeError(`${op}: unknown option '${key}' (expected out)`);
  }
  const out = (options as UfuncOptions).out;
  if (out === undefined) return;
  if (out instanceof DeferredArray) {
    throw new NotSupportedError(
      `${op}: out= with a DeferredArray is not supported; write out.assign(da.${op}(...)) for the in-place form ` +
      '(it is queued in the execution trace like any in-place write), or use the returned array',
    );
  }
  throw new TypeError(
    `${op}: out must be a DeferredArray when the inputs are deferred (NEP); got ${describe(out)}. ` +
    `Use the returned DeferredArray, or wrap the target with da.wrap()`,
  );
}

function unary(op: UnaryOp, x: Operand, options?: UfuncOptions): DeferredArray {
  checkUfuncOptions(op, options);
  return wrapNode(elementwise(op, operandNodes(op, [x], FIRST)));
}

function binary(op: BinaryOp, a: Operand, b: Operand, options?: UfuncOptions): DeferredArray {
  checkUfuncOptions(op, options);
  return wrapNode(elementwise(op, operandNodes(op, [a, b], BOTH)));
}

function ternary(op: TernaryOp, a: Operand, b: Operand, c: Operand, options?: UfuncOptions): DeferredArray {
  checkUfuncOptions(op, options);
  // where's condition does not take part in promotion; clip's bounds do.
  const peers = op === 'where' ? [1, 2] : [0, 1, 2];
  return wrapNode(elementwise(op, operandNodes(op, [a, b, c], peers)));
}

/** Any operand as a node; a standalone scalar becomes a 0-d float64 (or bool) array. */
function anyNode(x: unknown, op: string, position = 0): Node {
  if (isScalar(x)) return scalar(typeof x === 'boolean' ? Number(x) : x, defaultDType(x));
  return arrayNode(x, op, position);
}

export { unary, binary, ternary, anyNode, checkUfuncOptions, operandNodes };
export type { Operand, UfuncOptions };
