// The matrix decompositions behind da.linalg, on one row-major float64
// matrix at a time: LU with partial pivoting (solve, inv, det, slogdet),
// Cholesky and Householder QR; the symmetric eigenproblem is in eigh.ts, the
// SVD in svd.ts. LAPACK's blocked algorithms are what NumPy calls, so
// results agree to rounding, not to the bit.
import { LinAlgError as LinAlgFailure } from '../ir/errors.js';
import { dot4, hypot } from './linalg-numerics.js';

/** An LU factorisation in place: a holds L (unit diagonal, below) and U; piv the row swaps; sign their parity. */
interface Lu {
  readonly a: Float64Array;
  readonly piv: Int32Array;
  readonly sign: number;
  /** A zero pivot was met (the matrix is singular to working precision). */
  readonly singular: boolean;
}

function lu(matrix: Float64Array, n: number): Lu {
  const a = matrix.slice();
  const piv = new Int32Array(n);
  let sign = 1;
  let singular = false;
  for (let k = 0; k < n; k++) {
    let p = k;
    let best = Math.abs(a[k * n + k]!);
    for (let i = k + 1; i < n; i++) {
      const v = Math.abs(a[i * n + k]!);
      if (v > best) { best = v; p = i; }
    }
    piv[k] = p;
    if (p !== k) {
      sign = -sign;
      for (let j = 0; j < n; j++) {
        const t = a[k * n + j]!;
        a[k * n + j] = a[p * n + j]!;
        a[p * n + j] = t;
      }
    }
    const d = a[k * n + k]!;
    if (d === 0) { singular = true; continue; }
    for (let i = k + 1; i < n; i++) {
      const f = (a[i * n + k] = a[i * n + k]! / d);
      if (f === 0) continue;
      for (let j = k + 1; j < n; j++) a[i * n + j] = a[i * n + j]! - f * a[k * n + j]!;
    }
  }
  return { a, piv, sign, singular };
}

/** Solves A X = B for X (B n x k, row-major), from A's LU. */
function luSolve(f: Lu, n: number, b: Float64Array, k: number): Float64Array {
  const x = b.slice();
  for (let i = 0; i < n; i++) {
    const p = f.piv[i]!;
    if (p !== i) for (let j = 0; j < k; j++) { const t = x[i * k + j]!; x[i * k + j] = x[p * k + j]!; x[p * k + j] = t; }
  }
  for (let i = 0; i < n; i++) {
    for (let r = 0; r < i; r++) {
      const l = f.a[i * n + r]!;
      if (l !== 0) for (let j = 0; j < k; j++) x[i * k + j] = x[i * k + j]! - l * x[r * k + j]!;
    }
  }
  for (let i = n - 1; i >= 0; i--) {
    for (let r = i + 1; r < n; r++) {
      const u = f.a[i * n + r]!;
      if (u !== 0) for (let j = 0; j < k; j++) x[i * k + j] = x[i * k + j]! - u * x[r * k + j]!;
    }
    const d = f.a[i * n + i]!;
    for (let j = 0; j < k; j++) x[i * k + j] = x[i * k + j]! / d;
  }
  return x;
}

/** What solve and inv throw for a matrix with a zero pivot. */
function singularMatrix(fn: 'solve' | 'inv'): LinAlgFailure {
  return new LinAlgFailure(`linalg.${fn}: singular matrix (a zero pivot in its LU factorisation; NumPy raises LinAlgError too)`);
}

function solveMatrix(a: Float64Array, n: number, b: Float64Array, k: number): Float64Array {
  const f = lu(a, n);
  if (f.singular) throw singularMatrix('solve');
  return luSolve(f, n, b, k);
}

function invMatrix(a: Float64Array, n: number): Float64Array {
  const f = lu(a, n);
  if (f.singular) throw singularMatrix('inv');
  const eye = new Float64Array(n * n);
  for (let i = 0; i < n; i++) eye[i * n + i] = 1;
  return luSolve(f, n, eye, n);
}

/** [sign, log|det|] from the LU's diagonal, as NumPy's slogdet; det is their product. */
function slogdetMatrix(a: Float64Array, n: number): [number, number] {
  return slogdetOf(lu(a, n), n);
}

/** [sign, log|det|] from an LU's diagonal and its swaps' parity (the wasm backend's LU too). */
function slogdetOf(f: Pick<Lu, 'a' | 'sign'>, n: number): [number, number] {
  let sign = f.sign;
  let log = 0;
  for (let i = 0; i < n; i++) {
    const d = f.a[i * n + i]!;
    if (d === 0 || d !== d) return d === 0 ? [0, -Infinity] : [NaN, NaN];
    if (d < 0) sign = -sign;
    log += Math.log(Math.abs(d));
  }
  return [sign, log];
}

/** The determinant as NumPy's det makes it from slogdet: sign * exp(log|det|) (a singular matrix's is +0). */
function detMatrix(a: Float64Array, n: number): number {
  return detOf(slogdetMatrix(a, n));
}

const detOf = ([sign, log]: readonly [number, number]): number => sign * Math.exp(log);

/**
 * Factors in place the n x n row-major l, which holds A's lower triangle, into
 * L (below and on the diagonal; what lies above is left alone); false if A is
 * not positive definite: the plain choleskyLower, or the wasm backend's
 * kernels making its operations.
 */
type CholeskyFactor = (l: Float64Array, n: number) => boolean;

/**
 * Column by column: d = a[j][j] - dot4(l[j][k]^2, k < j), then l[i][j] =
 * (a[i][j] - dot4(l[i][k] l[j][k], k < j)) / sqrt(d), each sum in four
 * partial sums (dot4). A NaN goes through, as LAPACK's potrf lets it: only a
 * pivot known to be <= 0 fails.
 */
function choleskyLower(l: Float64Array, n: number): boolean {
  for (let j = 0; j < n; j++) {
    const d = l[j * n + j]! - dot4(0, j, (k) => l[j * n + k]! * l[j * n + k]!);
    if (d <= 0) return false;
    const s = Math.sqrt(d);
    l[j * n + j] = s;
    for (let i = j + 1; i < n; i++) l[i * n + j] = (l[i * n + j]! - dot4(0, j, (k) => l[i * n + k]! * l[j * n + k]!)) / s;
  }
  return true;
}

/** The lower (or, transposed, upper) Cholesky factor from a's lower triangle (upper: its upper one); fails if a is not positive definite. */
function choleskyMatrix(a: Float64Array, n: number, upper: boolean, factor: CholeskyFactor = choleskyLower): Float64Array {
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) l[i * n + j] = upper ? a[j * n + i]! : a[i * n + j]!;
  if (!factor(l, n)) throw new LinAlgFailure('linalg.cholesky: the matrix is not positive definite (NumPy raises LinAlgError too)');
  if (!upper) return l;
  const u = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) u[j * n + i] = l[i * n + j]!;
  return u;
}

/**
 * LAPACK's dlarfg on column j of the m-row matrix r (rows ld elements apart):
 * the reflector sending the column from row j down to -sign(r[j][j]) |x| e1.
 * Writes its vector into v (v[j] = 1 and v[i] for i > j, indexed by row),
 * leaves the column as the reflection makes it (beta on the diagonal, zeros
 * below) and returns tau; nothing below the diagonal is no reflection: the
 * column and v are left as they are, and tau is 0.
 */
function householderColumn(r: Float64Array, ld: number, m: number, j: number, v: Float64Array): number {
  let below = 0;
  for (let i = j + 1; i < m; i++) below = hypot(below, r[i * ld + j]!);
  if (below === 0) return 0;
  const alpha = r[j * ld + j]!;
  const norm = hypot(alpha, below);
  const beta = alpha >= 0 ? -norm : norm;
  const scale = 1 / (alpha - beta);
  v[j] = 1;
  for (let i = j + 1; i < m; i++) {
    v[i] = r[i * ld + j]! * scale;
    r[i * ld + j] = 0;
  }
  r[j * ld + j] = beta;
  return (beta - alpha) / beta;
}

/**
 * Householder QR of an m x n matrix, as LAPACK's geqrf/orgqr form it (each
 * reflector sends its column to -sign(x0) |x| e1): Q m x q, R q x n, with
 * q = min(m, n) (reduced) or m (complete). Without `wantQ`, Q is left out
 * (empty).
 */
function qrMatrix(a: Float64Array, m: number, n: number, complete: boolean, wantQ = true): { q: Float64Array; r: Float64Array; cols: number } {
  const r = a.slice();
  const k = Math.min(m, n);
  const vs: Float64Array[] = [];
  const taus: number[] = [];
  for (let j = 0; j < k; j++) {
    const v = new Float64Array(m);
    const tau = householderColumn(r, n, m, j, v);
    // R = (I - tau v v^T) R, the columns right of j (householderColumn left column j as the reflection makes it).
    for (let c = j + 1; tau !== 0 && c < n; c++) {
      let dot = 0;
      for (let i = j; i < m; i++) dot += v[i]! * r[i * n + c]!;
      dot *= tau;
      for (let i = j; i < m; i++) r[i * n + c] = r[i * n + c]! - dot * v[i]!;
    }
    vs.push(v);
    taus.push(tau);
  }
  const cols = complete ? m : k;
  const rows = complete ? m : k;
  if (!wantQ) return { q: new Float64Array(0), r: r.subarray(0, rows * n), cols };
  // Q = H_1 ... H_k applied to the first `cols` columns of the identity, from the last reflector back.
  const q = new Float64Array(m * cols);
  for (let i = 0; i < Math.min(m, cols); i++) q[i * cols + i] = 1;
  for (let j = k - 1; j >= 0; j--) {
    const v = vs[j]!;
    const tau = taus[j]!;
    if (tau === 0) continue;
    for (let c = 0; c < cols; c++) {
      let dot = 0;
      for (let i = j; i < m; i++) dot += v[i]! * q[i * cols + c]!;
      dot *= tau;
      for (let i = j; i < m; i++) q[i * cols + c] = q[i * cols + c]! - dot * v[i]!;
    }
  }
  return { q, r: r.subarray(0, rows * n), cols };
}

export { solveMatrix, invMatrix, detMatrix, slogdetMatrix, choleskyMatrix, qrMatrix, householderColumn, singularMatrix, slogdetOf, detOf };
export type { CholeskyFactor };
