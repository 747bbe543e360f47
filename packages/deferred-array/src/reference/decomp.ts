// Evaluates the matrix decompositions (da.linalg) over a stack: each matrix
// of the last two axes converted to float64, decomposed on its own
// (decompositions.ts, eigh.ts, svd.ts) and its results written, packed where
// the op packs several (build-decomp.ts says in what order).
import type { FamilyNode } from '../ir/node.js';
import { allocDense } from '../core/dense.js';
import type { Dense } from '../core/dense.js';
import type { NumberArray } from '../ir/dtypes.js';
import { choleskyMatrix, detMatrix, invMatrix, qrMatrix, slogdetMatrix, solveMatrix } from './decompositions.js';
import type { CholeskyFactor } from './decompositions.js';
import { eighMatrix } from './eigh.js';
import type { EighSolver } from './eigh.js';
import { svdMatrix } from './svd.js';
import type { SvdSweeps } from './svd.js';

/**
 * The inner work of qr, eigh, svd and cholesky, where a backend makes the reference's
 * operations in kernels of its own (the same bits); unset, the reference's.
 */
interface DecompKernels {
  readonly qr?: typeof qrMatrix;
  readonly eigh?: EighSolver;
  readonly svdSweeps?: SvdSweeps;
  readonly cholesky?: CholeskyFactor;
}

/** Matrix i of a stack (the last two axes, m x n), as float64. */
function matrixAt(x: Dense, i: number, size: number): Float64Array {
  return Float64Array.from((x.data as NumberArray).subarray(i * size, (i + 1) * size));
}

function decompDense(node: FamilyNode<'decomp'>, inputs: readonly Dense[]): Dense {
  const a = inputs[0]!;
  const out = allocDense(node.dtype, node.shape);
  const o = out.data as NumberArray;
  const m = a.shape[a.shape.length - 2] ?? 0;
  const n = a.shape[a.shape.length - 1] ?? 0;
  const count = a.shape.slice(0, -2).reduce((p, d) => p * d, 1);
  const total = count === 0 ? 0 : o.length / count;
  for (let i = 0; i < count; i++) {
    const mat = matrixAt(a, i, m * n);
    switch (node.op) {
      case 'solve': {
        const b = inputs[1]!;
        const k = b.shape.length === a.shape.length ? b.shape[b.shape.length - 1]! : 1;
        const rhs = Float64Array.from((b.data as NumberArray).subarray(i * n * k, (i + 1) * n * k));
        o.set(solveMatrix(mat, n, rhs, k), i * n * k);
        break;
      }
      case 'inv': o.set(invMatrix(mat, n), i * n * n); break;
      case 'det': o[i] = detMatrix(mat, n); break;
      case 'slogdet': o.set(slogdetMatrix(mat, n), i * 2); break;
      default: {
        // qr, eigh and svd pack their parts, cholesky gives its factor: what the node holds per matrix.
        let at = i * total;
        for (const part of packedParts(node, mat, m, n)) { o.set(part, at); at += part.length; }
      }
    }
  }
  return out;
}

/** The packed results of qr, eigh or svd (or cholesky's factor) of one m x n matrix, in build-decomp.ts's order. */
function packedParts(node: FamilyNode<'decomp'>, mat: Float64Array, m: number, n: number, kernels: DecompKernels = {}): Float64Array[] {
  const attrs = node.attrs;
  switch (node.op) {
    case 'cholesky': return [choleskyMatrix(mat, n, attrs.upper ?? false, kernels.cholesky)];
    case 'qr': {
      const { q, r } = (kernels.qr ?? qrMatrix)(mat, m, n, attrs.mode === 'complete', attrs.mode !== 'r');
      return attrs.mode === 'r' ? [r] : [q, r];
    }
    case 'eigh': {
      const vectors = attrs.vectors !== false;
      const { w, v } = eighMatrix(mat, n, attrs.upper ?? false, vectors, kernels.eigh);
      return vectors ? [w, v] : [w];
    }
    case 'svd': {
      const { u, s, vh } = svdMatrix(mat, m, n, attrs.full ?? false, kernels.svdSweeps, attrs.uv ?? false);
      return attrs.uv ? [s, u, vh] : [s];
    }
    default: throw new Error(`internal: ${node.op} packs nothing`);
  }
}

export { decompDense, packedParts };
export type { DecompKernels };
