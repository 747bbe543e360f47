// Builds matmul, dot and outer nodes with NumPy's shape rules. They are fusion
// boundaries: their operands are materialised before they run.
import { ShapeError } from './errors.js';
import { promoteTypes } from './promotion.js';
import { cast, elementwise } from './build-elementwise.js';
import { reduce } from './build-reduce.js';
import { makeNode } from './node.js';
import type { Node } from './node.js';
import { axisLength, broadcastShapes, formatShape } from './shape.js';

function mismatch(op: string, a: Node, b: Node, ka: number, kb: number, detail: string): ShapeError {
  return new ShapeError(
    `${op}: shapes ${formatShape(a.shape)} and ${formatShape(b.shape)} are not aligned: ${detail} (${ka} != ${kb})`,
  );
}

/** The broadcast batch shape; the error names the operands' whole shapes, which are what the user wrote. */
function matmulBatch(a: Node, b: Node, batchA: number[], batchB: number[]): number[] {
  try {
    return [...broadcastShapes([batchA, batchB], 'matmul batch dimensions')];
  } catch (e) {
    if (!(e instanceof ShapeError)) throw e;
    throw new ShapeError(
      `matmul: shapes ${formatShape(a.shape)} and ${formatShape(b.shape)} have batch dimensions ${formatShape(batchA)} and ` +
      `${formatShape(batchB)} (all axes but the last two), which do not broadcast; sizes must match or be 1`,
      { cause: e },
    );
  }
}

function matmul(a: Node, b: Node): Node {
  if (a.shape.length === 0 || b.shape.length === 0) {
    throw new ShapeError(`matmul: operands must have at least one dimension; got shapes ${formatShape(a.shape)} and ${formatShape(b.shape)} (use multiply for scalars)`);
  }
  // 1-D operands are promoted to matrices and the added axis is dropped afterwards.
  const as = a.shape.length === 1 ? [1, axisLength(a.shape, 0)] : [...a.shape];
  const bs = b.shape.length === 1 ? [axisLength(b.shape, 0), 1] : [...b.shape];
  const ka = axisLength(as, -1);
  const kb = axisLength(bs, -2);
  if (ka !== kb) throw mismatch('matmul', a, b, ka, kb, 'the last axis of the first must match the second-to-last of the second');
  const batch = matmulBatch(a, b, as.slice(0, -2), bs.slice(0, -2));
  const shape = [...batch];
  if (a.shape.length > 1) shape.push(axisLength(as, -2));
  if (b.shape.length > 1) shape.push(axisLength(bs, -1));
  return makeNode('matmul', [a, b], shape, promoteTypes(a.dtype, b.dtype));
}

function dot(a: Node, b: Node): Node {
  if (a.shape.length === 0 || b.shape.length === 0) return elementwise('multiply', [a, b]);
  const ka = axisLength(a.shape, -1);
  const kAxisB = b.shape.length === 1 ? 0 : b.shape.length - 2;
  const kb = axisLength(b.shape, kAxisB);
  if (ka !== kb) throw mismatch('dot', a, b, ka, kb, `axis ${a.shape.length - 1} of the first must match axis ${kAxisB} of the second`);
  const shape = [...a.shape.slice(0, -1), ...b.shape.filter((_, i) => i !== kAxisB)];
  return makeNode('dot', [a, b], shape, promoteTypes(a.dtype, b.dtype));
}

function outer(a: Node, b: Node): Node {
  const m = a.shape.reduce((x, y) => x * y, 1);
  const n = b.shape.reduce((x, y) => x * y, 1);
  return makeNode('outer', [a, b], [m, n], promoteTypes(a.dtype, b.dtype));
}

/**
 * A dot (or matmul) of two float vectors: one sum, which a k-ordered loop
 * would add as one chain on one thread. It is computed as the sum of the
 * products, added as NumPy's sum adds (pairwise, in blocks of eight lanes),
 * so it runs in vector lanes and over blocks shared between workers; the
 * reference evaluator follows (reference/linalg.ts).
 */
const isVectorDot = (n: Node): boolean =>
  (n.op === 'dot' || n.op === 'matmul') && n.inputs.length === 2 && n.inputs.every((x) => x.shape.length === 1) && (n.dtype === 'float64' || n.dtype === 'float32');

/**
 * isVectorDot's node as the kernels compute it: the sum of its products, one
 * fused kernel. A sum of -0 products is +0, as a product accumulated from +0
 * is (NumPy's dot gives +0): sums start from +0 on both backends (the
 * kernels' accumulators, the reference's running sum), and +0 + -0 is +0.
 */
function vectorDotAsSum(n: Node): Node {
  const [a, b] = n.inputs as [Node, Node];
  return reduce('sum', elementwise('multiply', [cast(a, n.dtype), cast(b, n.dtype)]));
}

export { matmul, dot, outer, isVectorDot, vectorDotAsSum };
