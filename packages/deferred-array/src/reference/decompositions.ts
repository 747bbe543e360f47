// The matrix decompositions behind da.linalg, on one row-major float64
// matrix at a time: LU with partial pivoting (solve, inv, det, slogdet),
// Cholesky, Householder QR, the symmetric eigenproblem by tridiagonal
// reduction and QL (eigh.ts) and the SVD by one-sided (Hestenes) Jacobi,
// chosen for its accuracy (small relative errors in every singular value)
// over speed. LAPACK's blocked algorithms are what NumPy calls, so results
// agree to rounding, not to the bit.
import { LinAlgError as LinAlgFailure } from '../ir/errors.js';
import { dot4, plainEighWork, symmetricEigen } from './eigh.js';

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
    // LAPACK's dlarfg: nothing below the diagonal leaves the column as it is (no reflection, no sign change).
    let below = 0;
    for (let i = j + 1; i < m; i++) below = Math.hypot(below, r[i * n + j]!);
    const alpha = r[j * n + j]!;
    const norm = Math.hypot(alpha, below);
    const v = new Float64Array(m);
    if (below === 0) {
      vs.push(v);
      taus.push(0);
      continue;
    }
    const beta = alpha >= 0 ? -norm : norm;
    const tau = (beta - alpha) / beta;
    const scale = 1 / (alpha - beta);
    v[j] = 1;
    for (let i = j + 1; i < m; i++) v[i] = r[i * n + j]! * scale;
    // R = (I - tau v v^T) R, columns j onward.
    for (let c = j; c < n; c++) {
      let dot = 0;
      for (let i = j; i < m; i++) dot += v[i]! * r[i * n + c]!;
      dot *= tau;
      for (let i = j; i < m; i++) r[i * n + c] = r[i * n + c]! - dot * v[i]!;
    }
    for (let i = j + 1; i < m; i++) r[i * n + j] = 0;
    r[j * n + j] = beta;
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

const EPS = 2 ** -52;

/**
 * The power of two nearest below a's largest |element| (1 for a zero
 * matrix), by which the Jacobi methods divide a first so that no sum of
 * squares overflows or underflows (exact: a power of two); NaN when a holds
 * NaN or an infinity, whose results are NaN (as LAPACK's come out).
 */
function scaleOf(a: Float64Array): number {
  let top = 0;
  for (let i = 0; i < a.length; i++) {
    const v = Math.abs(a[i]!);
    if (!(v < Infinity)) return NaN;
    if (v > top) top = v;
  }
  return top === 0 ? 1 : 2 ** Math.floor(Math.log2(top));
}

/** Columns p and q of a (rows x cols, row-major) turned by the rotation [c s; -s c]: p' = c p - s q, q' = s p + c q. */
function rotateColumns(a: Float64Array, rows: number, cols: number, p: number, q: number, c: number, s: number): void {
  for (let k = 0; k < rows; k++) {
    const x = a[k * cols + p]!;
    const y = a[k * cols + q]!;
    a[k * cols + p] = c * x - s * y;
    a[k * cols + q] = s * x + c * y;
  }
}

/**
 * The eigenvalues (ascending) and eigenvectors (the columns of v, n x n
 * row-major) of the symmetric n x n matrix s (both triangles filled): the
 * plain symmetricEigen, or the wasm backend's kernels making its operations.
 */
type EighSolver = (s: Float64Array, n: number) => { readonly d: Float64Array; readonly v: Float64Array };

function plainEigh(s: Float64Array, n: number): { d: Float64Array; v: Float64Array } {
  const w = plainEighWork(s, n);
  symmetricEigen(w, n);
  return { d: w.d, v: w.v };
}

/**
 * The symmetric eigenproblem from one triangle of a (lower, or upper with
 * `upper`): eigenvalues ascending, eigenvectors as the columns of v (n x n).
 * The matrix is first divided by the power of two nearest below its largest
 * element (exact), and the eigenvalues multiplied back.
 */
function eighMatrix(a: Float64Array, n: number, upper: boolean, solve: EighSolver = plainEigh): { w: Float64Array; v: Float64Array } {
  const k = scaleOf(a);
  if (k !== k) return { w: new Float64Array(n).fill(NaN), v: new Float64Array(n * n).fill(NaN) };
  const s = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      const e = (upper ? a[j * n + i]! : a[i * n + j]!) / k;
      s[i * n + j] = e;
      s[j * n + i] = e;
    }
  }
  const { d, v } = solve(s, n);
  return { w: Float64Array.from(d, (x) => x * k), v: Float64Array.from(v) };
}

/**
 * Orthogonalises the columns of w (m x n, m >= n) in place, accumulating the
 * rotations into v (n x n) unless it is undefined (only the singular values
 * asked for): one-sided Jacobi sweeps, or the wasm backend's kernels making
 * the same operations.
 */
type SvdSweeps = (w: Float64Array, v: Float64Array | undefined, m: number, n: number) => void;

/** One-sided (Hestenes) Jacobi sweeps over column pairs (p, q), until a sweep turns none (at most 100). */
function hestenesSweeps(w: Float64Array, v: Float64Array | undefined, m: number, n: number): void {
  for (let sweep = 0; sweep < 100; sweep++) {
    let rotated = false;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        // Each sum in four partial sums, element i into sum i mod 4, then (s0 + s1) + (s2 + s3): the
        // order the wasm kernel's lanes keep, where one running sum would wait on each add.
        let a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0, g0 = 0, g1 = 0, g2 = 0, g3 = 0;
        let i = 0;
        for (; i + 4 <= m; i += 4) {
          const x0 = w[i * n + p]!, x1 = w[(i + 1) * n + p]!, x2 = w[(i + 2) * n + p]!, x3 = w[(i + 3) * n + p]!;
          const y0 = w[i * n + q]!, y1 = w[(i + 1) * n + q]!, y2 = w[(i + 2) * n + q]!, y3 = w[(i + 3) * n + q]!;
          a0 += x0 * x0; a1 += x1 * x1; a2 += x2 * x2; a3 += x3 * x3;
          b0 += y0 * y0; b1 += y1 * y1; b2 += y2 * y2; b3 += y3 * y3;
          g0 += x0 * y0; g1 += x1 * y1; g2 += x2 * y2; g3 += x3 * y3;
        }
        if (i < m) { const x = w[i * n + p]!; const y = w[i * n + q]!; a0 += x * x; b0 += y * y; g0 += x * y; }
        if (i + 1 < m) { const x = w[(i + 1) * n + p]!; const y = w[(i + 1) * n + q]!; a1 += x * x; b1 += y * y; g1 += x * y; }
        if (i + 2 < m) { const x = w[(i + 2) * n + p]!; const y = w[(i + 2) * n + q]!; a2 += x * x; b2 += y * y; g2 += x * y; }
        const alpha = (a0 + a1) + (a2 + a3);
        const beta = (b0 + b1) + (b2 + b3);
        const gamma = (g0 + g1) + (g2 + g3);
        if (gamma === 0 || Math.abs(gamma) <= EPS * Math.sqrt(alpha) * Math.sqrt(beta)) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = Math.sign(zeta || 1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const c = 1 / Math.sqrt(1 + t * t);
        const sn = c * t;
        rotateColumns(w, m, n, p, q, c, sn);
        if (v) rotateColumns(v, n, n, p, q, c, sn);
      }
    }
    if (!rotated) break;
  }
}

/**
 * The SVD of an m x n matrix by one-sided Jacobi: a = u diag(s) vh, s
 * descending; u m x p and vh p x n with p = min(m, n), or m and n with `full`
 * (u's and vh's extra rows completed to orthonormal bases). Without
 * `vectors`, u and vh are left out (empty) and V is not accumulated: the
 * singular values come out the same.
 */
function svdMatrix(a: Float64Array, m: number, n: number, full: boolean, sweeps: SvdSweeps = hestenesSweeps, vectors = true): { u: Float64Array; s: Float64Array; vh: Float64Array } {
  const k = scaleOf(a);
  const p = Math.min(m, n);
  const [ur, vr] = full ? [m, n] : [p, p];
  if (k !== k) return { u: new Float64Array(m * ur).fill(NaN), s: new Float64Array(p).fill(NaN), vh: new Float64Array(vr * n).fill(NaN) };
  const d = svdScaled(k === 1 ? a : a.map((x) => x / k), m, n, full, sweeps, vectors);
  for (let i = 0; i < d.s.length; i++) d.s[i] = d.s[i]! * k;
  return d;
}

/** svdMatrix on a matrix whose largest |element| is near 1. */
function svdScaled(a: Float64Array, m: number, n: number, full: boolean, sweeps: SvdSweeps, vectors: boolean): { u: Float64Array; s: Float64Array; vh: Float64Array } {
  if (m < n) {
    // a^T = v s u^T: decompose the transpose and swap.
    const t = new Float64Array(n * m);
    for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) t[j * m + i] = a[i * n + j]!;
    const d = svdScaled(t, n, m, full, sweeps, vectors);
    if (!vectors) return d;
    const ur = full ? m : Math.min(m, n);
    const vr = full ? n : Math.min(m, n);
    // u = (d.vh)^T (m x ur), vh = (d.u)^T (vr x n)
    const u = new Float64Array(m * ur);
    for (let i = 0; i < m; i++) for (let j = 0; j < ur; j++) u[i * ur + j] = d.vh[j * m + i]!;
    const vh = new Float64Array(vr * n);
    for (let i = 0; i < vr; i++) for (let j = 0; j < n; j++) vh[i * n + j] = d.u[j * vr + i]!;
    return { u, s: d.s, vh };
  }
  // m >= n: orthogonalise the columns of w = a (m x n), accumulating v (n x n) where the vectors are asked for.
  const w = a.slice();
  const v = vectors ? new Float64Array(n * n) : undefined;
  for (let i = 0; v && i < n; i++) v[i * n + i] = 1;
  sweeps(w, v, m, n);
  const norms = Array.from({ length: n }, (_, j) => {
    let s = 0;
    for (let i = 0; i < m; i++) s = Math.hypot(s, w[i * n + j]!);
    return s;
  });
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => norms[y]! - norms[x]!);
  const s = Float64Array.from(order, (j) => norms[j]!);
  if (!v) return { u: new Float64Array(0), s, vh: new Float64Array(0) };
  const ucols = full ? m : n;
  const u = new Float64Array(m * ucols);
  // A singular value at rounding level (at most eps * largest * m) is zero for U: its column is completed instead of divided out.
  const tiny = EPS * (s[0] ?? 0) * m;
  const kept = order.map((from) => norms[from]! > tiny);
  order.forEach((from, to) => {
    const sv = norms[from]!;
    if (kept[to]) for (let i = 0; i < m; i++) u[i * ucols + to] = w[i * n + from]! / sv;
  });
  completeColumns(u, m, ucols, kept);
  const vh = new Float64Array(n * n);
  order.forEach((from, to) => { for (let k = 0; k < n; k++) vh[to * n + k] = v[k * n + from]!; });
  return { u, s, vh };
}

/**
 * Fills the columns of q (m x cols) that `known` does not mark (zero singular
 * values, and those past them) with unit vectors orthogonal to the others:
 * Gram-Schmidt, twice, over the coordinate vectors.
 */
function completeColumns(q: Float64Array, m: number, cols: number, known: readonly boolean[]): void {
  const have = Array.from({ length: cols }, (_, j) => known[j] ?? false);
  let e = 0;
  for (let j = 0; j < cols; j++) {
    if (have[j]) continue;
    for (; e < m && !have[j]; e++) {
      const c = new Float64Array(m);
      c[e] = 1;
      for (let pass = 0; pass < 2; pass++) {
        for (let k = 0; k < cols; k++) {
          if (!have[k]) continue;
          let dot = 0;
          for (let i = 0; i < m; i++) dot += q[i * cols + k]! * c[i]!;
          for (let i = 0; i < m; i++) c[i] = c[i]! - dot * q[i * cols + k]!;
        }
      }
      let norm = 0;
      for (let i = 0; i < m; i++) norm = Math.hypot(norm, c[i]!);
      if (norm > 1e-8) {
        for (let i = 0; i < m; i++) q[i * cols + j] = c[i]! / norm;
        have[j] = true;
      }
    }
  }
}

export { solveMatrix, invMatrix, detMatrix, slogdetMatrix, choleskyMatrix, qrMatrix, eighMatrix, svdMatrix, singularMatrix, slogdetOf, detOf };
export type { EighSolver, SvdSweeps, CholeskyFactor };
