// Builds the matrix decompositions' nodes (da.linalg). Each works on the last
// two axes, the leading ones a stack of matrices; the result is float64, or
// float32 for float32 input (computed in float64, rounded once). qr, eigh,
// slogdet and svd pack their several results along one last axis (per
// matrix: Q then R; w then v; sign then log|det|; s then u then vh), which
// the API slices apart.
import { isBigInt } from './dtypes.js';
import type { DType } from './dtypes.js';
import { DTypeError, ShapeError } from './errors.js';
import { broadcastTo } from './build-view.js';
import { broadcastShapes, formatShape } from './shape.js';
import { makeNode } from './node.js';
import type { DecompAttrs, Node } from './node.js';
import type { DecompOp } from './op-table.js';

/** The dtype a decomposition gives: float32 for float32, float64 for every other real type. */
function resultDType(fn: string, d: DType): DType {
  if (isBigInt(d)) throw new DTypeError(`linalg.${fn}: ${d} matrices are not supported; cast with astype('float64')`);
  return d === 'float32' ? 'float32' : 'float64';
}

/** A stack of matrices: the batch shape and the two matrix axes. */
function matrices(fn: string, a: Node, square: boolean): { batch: number[]; m: number; n: number } {
  if (a.shape.length < 2) {
    throw new ShapeError(`linalg.${fn}: ${a.shape.length}-dimensional array given; the array must be at least two-dimensional (a matrix, or a stack of them)`);
  }
  const m = a.shape[a.shape.length - 2]!;
  const n = a.shape[a.shape.length - 1]!;
  if (square && m !== n) throw new ShapeError(`linalg.${fn}: the last 2 dimensions of the array must be square; got ${formatShape(a.shape)}`);
  return { batch: a.shape.slice(0, -2), m, n };
}

/** Per matrix, how many values each packed result holds, in order. */
function packedSizes(op: DecompOp, m: number, n: number, attrs: DecompAttrs): number[] {
  const k = Math.min(m, n);
  switch (op) {
    case 'slogdet': return [1, 1];
    case 'eigh': return attrs.vectors === false ? [n] : [n, n * n];
    case 'qr':
      if (attrs.mode === 'r') return [k * n];
      return attrs.mode === 'complete' ? [m * m, m * n] : [m * k, k * n];
    case 'svd':
      if (!attrs.uv) return [k];
      return attrs.full ? [k, m * m, n * n] : [k, m * k, k * n];
    default: return [];
  }
}

/** One matrix decomposition of a (and, for solve, the right-hand side b). */
function decompNode(op: DecompOp, a: Node, attrs: DecompAttrs = {}, b?: Node): Node {
  const dtype = resultDType(op, b ? promoteFloat(a.dtype, b.dtype) : a.dtype);
  const square = op !== 'qr' && op !== 'svd';
  const { batch, m, n } = matrices(op, a, square);
  const label = { ...attrs, label: op };
  switch (op) {
    case 'solve': {
      if (!b) throw new Error('internal: solve without b');
      // NumPy 2: a 1-d b is one vector; otherwise b is a stack of n x k matrices.
      const vector = b.shape.length === 1;
      if (b.shape.length === 0) throw new ShapeError('linalg.solve: b must be at least one-dimensional');
      const rows = vector ? b.shape[0]! : b.shape[b.shape.length - 2]!;
      if (rows !== n) throw new ShapeError(`linalg.solve: b has ${rows} rows where a is ${n} x ${n} (shapes ${formatShape(a.shape)} and ${formatShape(b.shape)})`);
      const bBatch = vector ? [] : b.shape.slice(0, -2);
      const common = broadcastShapes([batch, bBatch], 'linalg.solve: the stacks of a and b');
      const k = vector ? 1 : b.shape[b.shape.length - 1]!;
      const aFull = broadcastTo(a, [...common, n, n]);
      const bFull = vector ? broadcastTo(b, [...common, n]) : broadcastTo(b, [...common, n, k]);
      return makeNode('solve', [aFull, bFull], bFull.shape, dtype, label);
    }
    case 'inv': case 'cholesky':
      return makeNode(op, [a], a.shape, dtype, label);
    case 'det':
      return makeNode(op, [a], batch, dtype, label);
    default: {
      const total = packedSizes(op, m, n, attrs).reduce((p, s) => p + s, 0);
      return makeNode(op, [a], [...batch, total], dtype, label);
    }
  }
}

/** solve's dtype: float32 only when both are float32 (NumPy's common type). */
function promoteFloat(a: DType, b: DType): DType {
  return a === 'float32' && b === 'float32' ? 'float32' : isBigInt(a) ? a : isBigInt(b) ? b : 'float64';
}

export { decompNode, packedSizes, matrices };
