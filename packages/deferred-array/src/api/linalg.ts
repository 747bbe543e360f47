// da.linalg: NumPy's numpy.linalg over the last two axes (a stack of matrices
// where there are more). The decompositions are graph ops (deferred, one step
// each between kernels); norm, matrixRank and pinv are built of them and of
// elementwise work and reductions, as NumPy's Python builds them. Results
// agree with NumPy's to rounding: LAPACK's blocked algorithms round
// differently from these, and eigenvectors and singular vectors are unique
// only up to sign. A singular matrix (solve, inv) or one that is not
// positive definite (cholesky) fails the run with a LinAlgError, as NumPy
// raises one; NaN and infinities in eigh's and svd's input give NaN results,
// as NumPy 2's do.
import { decompNode, matrices, packedSizes } from '../ir/build-decomp.js';
import type { DecompAttrs } from '../ir/node.js';
import type { DecompOp } from '../ir/op-table.js';
import { checkOptionKeys } from '../ir/options.js';
import { noteShapeRead } from '../ir/symbols.js';
import { ShapeError } from '../ir/errors.js';
import { DeferredArray, nodeOf, wrapNode } from './deferred-array.js';
import { UFUNCS, where } from './functions.js';
import * as shaping from './shaping.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';
import { denseNow } from './selection.js';
import { full, zeros } from './creation.js';

const { abs, sqrt, power, multiply, greater, notEqual, reciprocal } = UFUNCS;

/** Zeros of x's shape and dtype. */
const zerosLike = (x: DeferredArray): DeferredArray => full(x.shape, 0, { dtype: x.dtype });

const arrayOf = (x: Operand, fn: string): DeferredArray => (x instanceof DeferredArray ? x : wrapNode(anyNode(x, `linalg.${fn}`)));

/** The parts of a packed decomposition, each reshaped to the stack's shape and its own. */
function unpack(op: DecompOp, a: DeferredArray, attrs: DecompAttrs, shapes: ReadonlyArray<readonly number[]>): DeferredArray[] {
  noteShapeRead();
  const { batch, m, n } = matrices(op, nodeOf(a), op !== 'qr' && op !== 'svd');
  const packed = wrapNode(decompNode(op, nodeOf(a), attrs));
  const sizes = packedSizes(op, m, n, attrs);
  let at = 0;
  return sizes.map((size, i) => {
    const part = packed.get(`..., ${at}:${at + size}`);
    at += size;
    return shaping.reshape(part, [...batch, ...shapes[i]!]);
  });
}

/** The solution x of a x = b: b a vector (n,) or a stack of n x k matrices. */
function solve(a: Operand, b: Operand): DeferredArray {
  return wrapNode(decompNode('solve', nodeOf(arrayOf(a, 'solve')), {}, nodeOf(arrayOf(b, 'solve'))));
}

/** The inverse of each square matrix. */
function inv(a: Operand): DeferredArray {
  return wrapNode(decompNode('inv', nodeOf(arrayOf(a, 'inv'))));
}

/** The determinant of each square matrix (from its LU factorisation; 0 for a singular one). */
function det(a: Operand): DeferredArray {
  return wrapNode(decompNode('det', nodeOf(arrayOf(a, 'det'))));
}

/** [sign, log|det|] of each square matrix: a determinant too large or small for a float, as NumPy's slogdet. */
function slogdet(a: Operand): [DeferredArray, DeferredArray] {
  const [sign, log] = unpack('slogdet', arrayOf(a, 'slogdet'), {}, [[], []]);
  return [sign!, log!];
}

/** The Cholesky factor of each symmetric positive-definite matrix (lower, or upper with `upper`), from its lower triangle. */
function cholesky(a: Operand, options?: { readonly upper?: boolean }): DeferredArray {
  const o = checkOptionKeys<{ upper: boolean }>('linalg.cholesky', options, ['upper']);
  return wrapNode(decompNode('cholesky', nodeOf(arrayOf(a, 'cholesky')), { upper: o.upper ?? false }));
}

/** The QR decomposition [Q, R] of each matrix (mode 'reduced', 'complete', or 'r' for R alone). */
function qr(a: Operand, options?: { readonly mode?: 'reduced' | 'complete' | 'r' }): DeferredArray | [DeferredArray, DeferredArray] {
  const o = checkOptionKeys<{ mode: 'reduced' | 'complete' | 'r' }>('linalg.qr', options, ['mode']);
  const mode = o.mode ?? 'reduced';
  if (!['reduced', 'complete', 'r'].includes(mode)) throw new TypeError(`linalg.qr: mode must be 'reduced', 'complete' or 'r'; got ${String(mode)}`);
  const x = arrayOf(a, 'qr');
  const { m, n } = matrices('qr', nodeOf(x), false);
  const k = Math.min(m, n);
  if (mode === 'r') return unpack('qr', x, { mode }, [[k, n]])[0]!;
  const [q, r] = unpack('qr', x, { mode }, mode === 'complete' ? [[m, m], [m, n]] : [[m, k], [k, n]]);
  return [q!, r!];
}

interface EighOptions {
  /** Read the upper triangle ('U') rather than the lower ('L', the default), as NumPy's UPLO. */
  readonly UPLO?: 'L' | 'U';
}

function uploOf(fn: string, o: EighOptions): boolean {
  const uplo = o.UPLO ?? 'L';
  if (uplo !== 'L' && uplo !== 'U') throw new TypeError(`linalg.${fn}: UPLO must be 'L' or 'U'; got ${String(uplo)}`);
  return uplo === 'U';
}

/** The eigenvalues (ascending) and eigenvectors (columns) [w, v] of each symmetric matrix, read from one triangle. */
function eigh(a: Operand, options?: EighOptions): [DeferredArray, DeferredArray] {
  const o = checkOptionKeys<EighOptions>('linalg.eigh', options, ['UPLO']);
  const x = arrayOf(a, 'eigh');
  const { n } = matrices('eigh', nodeOf(x), true);
  const [w, v] = unpack('eigh', x, { upper: uploOf('eigh', o) }, [[n], [n, n]]);
  return [w!, v!];
}

/**
 * The eigenvalues (ascending) of each symmetric matrix: eigh's, bit for bit,
 * without the eigenvectors' O(n^3) work (their accumulation and rotations).
 */
function eigvalsh(a: Operand, options?: EighOptions): DeferredArray {
  const o = checkOptionKeys<EighOptions>('linalg.eigvalsh', options, ['UPLO']);
  const x = arrayOf(a, 'eigvalsh');
  const { n } = matrices('eigvalsh', nodeOf(x), true);
  return unpack('eigh', x, { upper: uploOf('eigvalsh', o), vectors: false }, [[n]])[0]!;
}

interface SvdOptions {
  /** U m x m and Vh n x n (true, NumPy's default), or m x k and k x n with k = min(m, n). */
  readonly fullMatrices?: boolean;
  /** Compute U and Vh (default); false returns S alone. */
  readonly computeUV?: boolean;
}

/** The singular value decomposition [U, S, Vh] of each matrix (S descending), or S alone. */
function svd(a: Operand, options?: SvdOptions): DeferredArray | [DeferredArray, DeferredArray, DeferredArray] {
  const o = checkOptionKeys<SvdOptions>('linalg.svd', options, ['fullMatrices', 'computeUV']);
  const x = arrayOf(a, 'svd');
  const { m, n } = matrices('svd', nodeOf(x), false);
  const k = Math.min(m, n);
  if (o.computeUV === false) return unpack('svd', x, { uv: false, full: false }, [[k]])[0]!;
  const full = o.fullMatrices ?? true;
  const [s, u, vh] = unpack('svd', x, { uv: true, full }, full ? [[k], [m, m], [n, n]] : [[k], [m, k], [k, n]]);
  return [u!, s!, vh!];
}

/** The singular values of each matrix, descending. */
function svdvals(a: Operand): DeferredArray {
  return svd(a, { computeUV: false }) as DeferredArray;
}

type NormOrder = number | 'fro' | 'nuc' | null;

interface NormOptions {
  /** The norm (NumPy's ord): for vectors any number, Infinity, -Infinity or 0; for matrices 'fro', 'nuc', 1, -1, 2, -2, Infinity, -Infinity. */
  readonly ord?: NormOrder;
  /** One axis (vector norms) or two (matrix norms); by default x flattened (ord null), or its only one or two axes. */
  readonly axis?: number | readonly [number, number] | null;
  readonly keepdims?: boolean;
}

/** NumPy's norm: a vector norm over one axis, or a matrix norm over two. */
function norm(x: Operand, options?: NormOptions): DeferredArray {
  const o = checkOptionKeys<NormOptions>('linalg.norm', options, ['ord', 'axis', 'keepdims']);
  let a = arrayOf(x, 'norm');
  if (a.dtype !== 'float32' && a.dtype !== 'float64') a = shaping.astype(a, 'float64');
  noteShapeRead();
  const ord = o.ord ?? null;
  const keepdims = o.keepdims ?? false;
  let axis = o.axis ?? null;
  if (axis === null) {
    // NumPy: with no ord, the 2-norm of x flattened; with an ord, x must be 1-d or 2-d.
    if (ord === null || ord === 'fro') {
      if (ord === 'fro' && a.ndim !== 2) throw new ShapeError(`linalg.norm: ord 'fro' needs a matrix (2-d) or a pair of axes; got ${a.ndim} dimensions`);
      const flat = shaping.reshape(a, [-1]);
      const r = sqrt(multiply(flat, flat).sum());
      return keepdims ? shaping.reshape(r, a.shape.map(() => 1)) : r;
    }
    if (a.ndim > 2) throw new ShapeError('linalg.norm: improper number of dimensions to norm: give axis for an array of more than two');
    axis = a.ndim === 1 ? 0 : [0, 1];
  }
  if (typeof axis === 'number') return vectorNorm(a, ord, axis, keepdims);
  if (Array.isArray(axis) && axis.length === 2) return matrixNorm(a, ord, axis as readonly [number, number], keepdims);
  throw new TypeError(`linalg.norm: axis must be one integer, a pair of them, or null; got ${String(axis)}`);
}

function vectorNorm(a: DeferredArray, ord: NormOrder, axis: number, keepdims: boolean): DeferredArray {
  const opts = { axis, keepdims };
  if (ord === 'fro' || ord === 'nuc') throw new RangeError(`linalg.norm: ord '${ord}' is a matrix norm; a vector norm (one axis) takes a number`);
  if (ord === null || ord === 2) return sqrt(multiply(a, a).sum(opts));
  // NumPy takes the largest with initial 0: an empty axis's is 0.
  if (ord === Infinity) return a.shape[axis < 0 ? axis + a.ndim : axis] === 0 ? zerosLike(abs(a).sum(opts)) : abs(a).max(opts);
  if (ord === -Infinity) return abs(a).min(opts);
  if (ord === 0) return shaping.astype(notEqual(a, 0), a.dtype).sum(opts);
  if (ord === 1) return abs(a).sum(opts);
  if (typeof ord !== 'number' || ord !== ord) throw new RangeError(`linalg.norm: invalid norm order ${String(ord)} for vectors`);
  return power(power(abs(a), ord).sum(opts), 1 / ord);
}

function matrixNorm(a: DeferredArray, ord: NormOrder, axes: readonly [number, number], keepdims: boolean): DeferredArray {
  const nd = a.ndim;
  const [r0, c0] = axes.map((x) => (x < 0 ? x + nd : x)) as [number, number];
  if (r0 === c0 || r0 < 0 || c0 < 0 || r0 >= nd || c0 >= nd) throw new ShapeError(`linalg.norm: axes ${axes.join(', ')} are not two distinct axes of an array of ${nd} dimensions`);
  let r: DeferredArray;
  const rowSums = (): DeferredArray => abs(a).sum({ axis: c0, keepdims: true });
  const colSums = (): DeferredArray => abs(a).sum({ axis: r0, keepdims: true });
  const both = { axis: [r0, c0], keepdims: true };
  // Empty matrices: the norms NumPy takes with initial 0 (or sums) are 0; the others fail in their reductions as NumPy's do.
  const empty = a.shape[r0] === 0 || a.shape[c0] === 0;
  if (empty && (ord === 1 || ord === Infinity || ord === 2)) {
    const z = zerosLike(multiply(a, a).sum(both));
    return keepdims ? z : shaping.reshape(z, a.shape.filter((_, x) => x !== r0 && x !== c0));
  }
  switch (ord) {
    case null: case 'fro': r = sqrt(multiply(a, a).sum(both)); break;
    case 1: r = colSums().max(both); break;
    case -1: r = colSums().min(both); break;
    case Infinity: r = rowSums().max(both); break;
    case -Infinity: r = rowSums().min(both); break;
    case 2: case -2: case 'nuc': {
      // From the singular values of the matrices moved to the last two axes.
      const rest = [...Array(nd).keys()].filter((x) => x !== r0 && x !== c0);
      const s = svdvals(shaping.transpose(a, [...rest, r0, c0]));
      const v = ord === 2 ? s.max({ axis: -1 }) : ord === -2 ? s.min({ axis: -1 }) : s.sum({ axis: -1 });
      const kept = a.shape.map((d, x) => (x === r0 || x === c0 ? 1 : d));
      r = shaping.reshape(v, kept);
      break;
    }
    default: throw new RangeError(`linalg.norm: invalid norm order ${String(ord)} for matrices (take 'fro', 'nuc', 1, -1, 2, -2, Infinity or -Infinity)`);
  }
  return keepdims ? r : shaping.reshape(r, a.shape.filter((_, x) => x !== r0 && x !== c0));
}

/**
 * NumPy's matrix_rank: the singular values above tol, tol by default
 * S.max() * max(M, N) * eps (float64's or float32's), per matrix.
 */
function matrixRank(a: Operand, options?: { readonly tol?: number }): DeferredArray {
  const o = checkOptionKeys<{ tol: number }>('linalg.matrixRank', options, ['tol']);
  const x = arrayOf(a, 'matrixRank');
  noteShapeRead();
  if (x.ndim < 2) return shaping.astype(UFUNCS.notEqual(x, 0).any(), 'int32');
  // An empty matrix has rank 0 (NumPy: the largest singular value with initial 0).
  if (x.shape[x.ndim - 2] === 0 || x.shape[x.ndim - 1] === 0) return shaping.astype(zerosLike(x.sum({ axis: [-2, -1] })), 'int32');
  const s = svdvals(x);
  const eps = s.dtype === 'float32' ? 2 ** -23 : 2 ** -52;
  const tol = o.tol ?? multiply(s.max({ axis: -1, keepdims: true }), Math.max(x.shape[x.ndim - 2]!, x.shape[x.ndim - 1]!) * eps);
  return shaping.astype(greater(s, tol), 'int32').sum({ axis: -1 }).astype('int32');
}

/** NumPy's pinv: the pseudo-inverse from the SVD, singular values at most rcond * the largest taken as zero. */
function pinv(a: Operand, options?: { readonly rcond?: number }): DeferredArray {
  const o = checkOptionKeys<{ rcond: number }>('linalg.pinv', options, ['rcond']);
  const x = arrayOf(a, 'pinv');
  const nd = x.ndim;
  const { batch, m, n } = matrices('pinv', nodeOf(x), false);
  // An empty matrix's pseudo-inverse is the empty matrix of the transposed shape.
  if (m === 0 || n === 0) return shaping.astype(zeros([...batch, n, m]), x.dtype === 'float32' ? 'float32' : 'float64');
  const [u, s, vh] = svd(x, { fullMatrices: false }) as [DeferredArray, DeferredArray, DeferredArray];
  const cutoff = multiply(o.rcond ?? 1e-15, s.max({ axis: -1, keepdims: true }));
  const inverse = where(greater(s, cutoff), reciprocal(s), 0);
  const t = (y: DeferredArray): DeferredArray => shaping.transpose(y, [...Array(nd - 2).keys(), nd - 1, nd - 2]);
  // pinv = vh^T diag(1/s) u^T
  return shaping.matmul(multiply(t(vh), shaping.expandDims(inverse, -2)), t(u));
}

/**
 * NumPy's lstsq: [x, residuals, rank, s] for the least-squares solution of
 * a x = b, from the SVD. The residuals' length depends on the rank, so it
 * reads a's and b's values when called.
 */
function lstsq(a: Operand, b: Operand, options?: { readonly rcond?: number | null }): [DeferredArray, DeferredArray, DeferredArray, DeferredArray] {
  const o = checkOptionKeys<{ rcond: number | null }>('linalg.lstsq', options, ['rcond']);
  const given = [arrayOf(a, 'lstsq'), arrayOf(b, 'lstsq')];
  // NumPy computes in the operands' common float type: float32 for two float32 arrays (here: in float64, rounded once).
  const single = given.every((g) => g.dtype === 'float32');
  const x = shaping.astype(given[0]!, 'float64');
  const y = shaping.astype(given[1]!, 'float64');
  if (x.ndim !== 2) throw new ShapeError(`linalg.lstsq: a must be 2-d; got ${x.ndim} dimensions`);
  const [m, n] = x.shape as [number, number];
  const vector = y.ndim === 1;
  if (y.ndim < 1 || y.ndim > 2 || y.shape[0] !== m) throw new ShapeError(`linalg.lstsq: b must be (${m},) or (${m}, k) for a of shape (${m}, ${n}); got (${y.shape.join(', ')})`);
  const rcond = o.rcond ?? Math.max(m, n) * 2 ** -52;
  const [u, s, vh] = svd(x, { fullMatrices: false }) as [DeferredArray, DeferredArray, DeferredArray];
  const cutoff = multiply(rcond, s.max());
  const keep = greater(s, cutoff);
  const inverse = where(keep, reciprocal(s), 0);
  const rhs = vector ? shaping.reshape(y, [m, 1]) : y;
  // x = vh^T diag(1/s) u^T b
  const sol = shaping.matmul(shaping.transpose(vh), multiply(shaping.expandDims(inverse, -1), shaping.matmul(shaping.transpose(u), rhs)));
  const rank = Number((denseNow('linalg.lstsq', nodeOf(shaping.astype(keep, 'int32').sum())).data as Int32Array)[0] ?? 0);
  const solution = vector ? shaping.reshape(sol, [n]) : sol;
  // NumPy: squared residual norms per column when a has full column rank and more rows than columns; else none.
  const residuals = rank === n && m > n
    ? (() => { const d = UFUNCS.subtract(shaping.matmul(x, sol), rhs); return multiply(d, d).sum({ axis: 0 }); })()
    : wrapNode(anyNode(new Float64Array(0), 'linalg.lstsq'));
  const out = (v: DeferredArray): DeferredArray => (single ? shaping.astype(v, 'float32') : v);
  return [out(solution), out(residuals), wrapNode(anyNode(Int32Array.of(rank), 'linalg.lstsq')).reshape([]), out(s)];
}

const linalg = { solve, inv, det, slogdet, cholesky, qr, eigh, eigvalsh, svd, svdvals, norm, matrixRank, pinv, lstsq } as const;

export { linalg };
export type { EighOptions, SvdOptions, NormOptions, NormOrder };
