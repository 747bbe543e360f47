// Builds elementwise, cast and leaf nodes: shapes broadcast now, dtypes resolve now.
import { DTYPES } from './dtypes.js';
import type { DType, Scalar, TypedArray } from './dtypes.js';
import { castValue } from './cast-value.js';
import { makeNode, nodeAt } from './node.js';
import type { HeapLease, Node } from './node.js';
import type { BinaryOp, TernaryOp, UnaryOp } from './op-table.js';
import { SCALAR_SHAPE, broadcastShapes, sizeOf, vectorShape } from './shape.js';
import type { Shape } from './shape.js';
import { resolveElementwise } from './type-rules.js';

/**
 * A leaf over `data`, which the node owns from now on. It stays in ordinary
 * JS memory, which the garbage collector manages; a backend that needs it
 * elsewhere (the WebAssembly heap) keeps its own copy as a cache.
 */
/** A leaf holding `data`; `lease` when the data is heap memory the graph reads in place rather than owns. */
function source(data: TypedArray, shape: Shape, dtype: DType, lease?: HeapLease): Node {
  if (data.length !== sizeOf(shape)) {
    throw new RangeError(`source data holds ${data.length} elements but shape (${shape.join(', ')}) needs ${sizeOf(shape)}`);
  }
  return makeNode('source', [], shape.length === 1 ? vectorShape(shape[0]!) : shape, dtype, lease ? { data, lease } : { data });
}

/** A constant node of its own. */
function scalar(value: Scalar, dtype: DType): Node {
  return makeNode('scalar', [], SCALAR_SHAPE, dtype, { value: castValue(value, dtype) });
}

/**
 * Constant operands' nodes made recently, by a hash of their value's bits
 * and dtype (a direct-mapped table: a new constant takes its slot's place).
 * A node is immutable and an operand's constant has no identity of its own
 * (equal ones are one leaf to the planner anyway), so code that builds the
 * same expression per call reuses its constants' nodes rather than making
 * (and freezing) one per constant per call: about a third of the nodes of
 * the benchmarks' 10-op chain. Only for operands: a node a handle wraps can
 * be marked (output(), pin()), and a mark on a shared node would reach every
 * graph that shares it.
 */
const CONSTANT_SLOTS = 256;
const constantNodes = new Array<Node | undefined>(CONSTANT_SLOTS).fill(undefined);
const constantBits = new Int32Array(CONSTANT_SLOTS * 2);
const valueBits = new Float64Array(1);
const valueWords = new Int32Array(valueBits.buffer);

function operandScalar(value: Scalar, dtype: DType): Node {
  const v = castValue(value, dtype);
  // A bigint constant is rarer: made afresh each time, and compared by value by the planner.
  if (typeof v === 'bigint') return makeNode('scalar', [], SCALAR_SHAPE, dtype, { value: v });
  valueBits[0] = v;
  const lo = valueWords[0]!;
  const hi = valueWords[1]!;
  const slot = ((Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) ^ dtype.length ^ dtype.charCodeAt(0)) >>> 0) % CONSTANT_SLOTS;
  const known = constantNodes[slot];
  // Bits, not values: -0 is not 0, and each NaN keeps its own.
  if (known !== undefined && known.dtype === dtype && constantBits[2 * slot] === lo && constantBits[2 * slot + 1] === hi) return known;
  const node = makeNode('scalar', [], SCALAR_SHAPE, dtype, { value: v });
  constantNodes[slot] = node;
  constantBits[2 * slot] = lo;
  constantBits[2 * slot + 1] = hi;
  return node;
}

/**
 * An elementwise node. Its shape is the widest operand's own where every
 * other is that very shape or a scalar's (nearly always: nodes share frozen
 * shapes), found without a list, a message or the general rule, and shared.
 */
function elementwise(op: UnaryOp | BinaryOp | TernaryOp, inputs: readonly Node[]): Node {
  let widest = inputs[0]!.shape;
  for (let i = 1; i < inputs.length; i++) if (inputs[i]!.shape.length > widest.length) widest = inputs[i]!.shape;
  let same = true;
  for (let i = 0; i < inputs.length && same; i++) same = inputs[i]!.shape === widest || inputs[i]!.shape.length === 0;
  if (same) return nodeAt(op, inputs, widest, outDType(op, inputs));
  return makeNode(op, inputs, broadcastShapes(inputs.map((n) => n.shape), `operands of ${op}`), outDType(op, inputs));
}

/**
 * Each op's result dtype by its operands' dtypes (one or two), as
 * resolveElementwise found them: at index(a) * ROW + index(b), or
 * index(a) * ROW + DTYPES.length for one operand.
 */
const outDTypes = new Map<string, Array<DType | undefined>>();
const DTYPE_INDEX = Object.fromEntries(DTYPES.map((d, i) => [d, i])) as Record<DType, number>;
const ROW = DTYPES.length + 1;

/** The dtype `op` gives over `inputs`: looked up for one or two operands, resolved (and checked) the first time. */
function outDType(op: UnaryOp | BinaryOp | TernaryOp, inputs: readonly Node[]): DType {
  if (inputs.length > 2) return resolveElementwise(op, inputs.map((n) => n.dtype)).out;
  let known = outDTypes.get(op);
  if (!known) outDTypes.set(op, (known = []));
  const a = inputs[0]!.dtype;
  const b = inputs.length === 2 ? inputs[1]!.dtype : undefined;
  const at = DTYPE_INDEX[a] * ROW + (b === undefined ? DTYPES.length : DTYPE_INDEX[b]);
  let out = known[at];
  // A pair the rule refuses throws here every time: nothing is stored for it.
  if (out === undefined) known[at] = out = resolveElementwise(op, b === undefined ? [a] : [a, b]).out;
  return out;
}

function cast(x: Node, dtype: DType): Node {
  if (x.dtype === dtype) return x;
  return makeNode('astype', [x], x.shape, dtype, { label: dtype });
}

export { source, scalar, operandScalar, elementwise, cast };
