// The SVD behind linalg.svd (and svdvals, matrixRank, pinv, lstsq, norm of
// order 2): one-sided (Hestenes) Jacobi on one row-major float64 matrix at a
// time, chosen for its accuracy (small relative errors in every singular
// value) over speed. The sweeps go through SvdSweeps: plain JS here, the
// wasm backend's kernels making the same operations there.
import { EPS, hypot, scaleOf } from './linalg-numerics.js';

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
    for (let i = 0; i < m; i++) s = hypot(s, w[i * n + j]!);
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
      for (let i = 0; i < m; i++) norm = hypot(norm, c[i]!);
      if (norm > 1e-8) {
        for (let i = 0; i < m; i++) q[i * cols + j] = c[i]! / norm;
        have[j] = true;
      }
    }
  }
}

export { svdMatrix };
export type { SvdSweeps };
