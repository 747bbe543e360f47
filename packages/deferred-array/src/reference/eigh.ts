// The symmetric eigenproblem behind linalg.eigh: Householder reduction to
// tridiagonal form, then the implicit QL algorithm with Wilkinson's shift
// (EISPACK's tred2 and tql2, in the form of JAMA's EigenvalueDecomposition),
// O(n^3) where the cyclic Jacobi method it replaces took about ten sweeps of
// n^2 / 2 rotations. Backward stable, as LAPACK's syevd that NumPy calls:
// eigenvalues within O(eps ||A||), eigenvectors orthonormal to rounding.
//
// The driver here makes every O(n) and O(n^2) step; the O(n^3) loops go
// through an EighWork, plain JS over V here (plainEighWork) and kernels over
// V transposed in the wasm backend, which make the same operations in the
// same order, so the bits are the same. Their sums of products run in four
// partial sums (dot4), the order a kernel's lanes keep without waiting on
// each add; tql2's rotations are applied a sweep at a time, which changes no
// element's operations or their order.
import { LinAlgError } from '../ir/errors.js';
import { EPS, dot4, hypot, scaleOf } from './linalg-numerics.js';

/** QL iterations allowed for one eigenvalue before giving up (LAPACK's steqr allows 30). */
const MAX_ITERATIONS = 60;

/**
 * V (n x n, JAMA's name) with d and e (n each), and the loops of O(n^3) over
 * V. `get` and `set` read and write V[r][c].
 */
interface EighWork {
  readonly d: Float64Array;
  readonly e: Float64Array;
  get(r: number, c: number): number;
  set(r: number, c: number, v: number): void;
  /**
   * tred2's product with the remaining matrix, for j < i in order: f = d[j];
   * V[j][i] = f; e[k] += V[k][j] f for k = j+1 .. i-1; e[j] = (e[j] +
   * V[j][j] f) + dot4(V[k][j] d[k], k = j+1 .. i-1).
   */
  apply(i: number): void;
  /**
   * tred2's rank-2 update, for j < i in order: V[k][j] -= (d[j] e[k] + e[j]
   * d[k]) for k = j .. i-1; then d[j] = V[i-1][j] and V[i][j] = 0.
   */
  update(i: number): void;
  /**
   * tred2's accumulation of the transformations: d[k] = V[k][i+1] / h for
   * k <= i; then for j <= i in order, g = dot4(V[k][i+1] V[k][j], k = 0 ..
   * i), and V[k][j] -= g d[k] for k <= i.
   */
  accumulate(i: number, h: number): void;
  /**
   * One QL sweep's rotations of V's columns i and i+1, for i = m-1 down to
   * l, rotation i's cosine and sine at cs[2 (m-1-i)] and the next: for every
   * row, y = V[k][i+1]; V[k][i+1] = s V[k][i] + c y; V[k][i] = c V[k][i] - s y.
   */
  rotate(l: number, m: number, cs: Float64Array): void;
  /** Swaps V's columns i and k. */
  swap(i: number, k: number): void;
}

/** V as a row-major Float64Array, and the loops written plainly. */
function plainEighWork(v: Float64Array, n: number): EighWork & { readonly v: Float64Array } {
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  return {
    v, d, e,
    get: (r, c) => v[r * n + c]!,
    set: (r, c, x) => { v[r * n + c] = x; },
    apply(i) {
      for (let j = 0; j < i; j++) {
        const f = d[j]!;
        v[j * n + i] = f;
        const g = e[j]! + v[j * n + j]! * f;
        for (let k = j + 1; k < i; k++) e[k] = e[k]! + v[k * n + j]! * f;
        e[j] = g + dot4(j + 1, i, (k) => v[k * n + j]! * d[k]!);
      }
    },
    update(i) {
      for (let j = 0; j < i; j++) {
        const f = d[j]!;
        const g = e[j]!;
        for (let k = j; k <= i - 1; k++) v[k * n + j] = v[k * n + j]! - (f * e[k]! + g * d[k]!);
        d[j] = v[(i - 1) * n + j]!;
        v[i * n + j] = 0;
      }
    },
    accumulate(i, h) {
      for (let k = 0; k <= i; k++) d[k] = v[k * n + i + 1]! / h;
      for (let j = 0; j <= i; j++) {
        const g = dot4(0, i + 1, (k) => v[k * n + i + 1]! * v[k * n + j]!);
        for (let k = 0; k <= i; k++) v[k * n + j] = v[k * n + j]! - g * d[k]!;
      }
    },
    rotate(l, m, cs) {
      for (let i = m - 1; i >= l; i--) {
        const c = cs[2 * (m - 1 - i)]!;
        const s = cs[2 * (m - 1 - i) + 1]!;
        for (let k = 0; k < n; k++) {
          const y = v[k * n + i + 1]!;
          v[k * n + i + 1] = s * v[k * n + i]! + c * y;
          v[k * n + i] = c * v[k * n + i]! - s * y;
        }
      }
    },
    swap(i, k) {
      for (let j = 0; j < n; j++) {
        const t = v[j * n + i]!;
        v[j * n + i] = v[j * n + k]!;
        v[j * n + k] = t;
      }
    },
  };
}

/**
 * tred2: V (holding the symmetric matrix) becomes the orthogonal Q of A = Q
 * T Q^T; d and e T's diagonal and subdiagonal (e[i] below d[i]). Without
 * `vectors`, Q is not formed: T's diagonal is read from V as the reduction
 * leaves it, where forming Q would have saved it first (the same values).
 */
function tridiagonalize(w: EighWork, n: number, vectors: boolean): void {
  const { d, e } = w;
  for (let j = 0; j < n; j++) d[j] = w.get(n - 1, j);
  for (let i = n - 1; i > 0; i--) {
    let scale = 0;
    let h = 0;
    for (let k = 0; k < i; k++) scale = scale + Math.abs(d[k]!);
    if (scale === 0) {
      e[i] = d[i - 1]!;
      for (let j = 0; j < i; j++) {
        d[j] = w.get(i - 1, j);
        w.set(i, j, 0);
        w.set(j, i, 0);
      }
    } else {
      for (let k = 0; k < i; k++) {
        d[k] = d[k]! / scale;
        h += d[k]! * d[k]!;
      }
      let f = d[i - 1]!;
      let g = Math.sqrt(h);
      if (f > 0) g = -g;
      e[i] = scale * g;
      h = h - f * g;
      d[i - 1] = f - g;
      for (let j = 0; j < i; j++) e[j] = 0;
      w.apply(i);
      f = 0;
      for (let j = 0; j < i; j++) {
        e[j] = e[j]! / h;
        f += e[j]! * d[j]!;
      }
      const hh = f / (h + h);
      for (let j = 0; j < i; j++) e[j] = e[j]! - hh * d[j]!;
      w.update(i);
    }
    d[i] = h;
  }
  if (!vectors) {
    for (let j = 0; j < n; j++) d[j] = w.get(j, j);
    e[0] = 0;
    return;
  }
  for (let i = 0; i < n - 1; i++) {
    w.set(n - 1, i, w.get(i, i));
    w.set(i, i, 1);
    const h = d[i + 1]!;
    if (h !== 0) w.accumulate(i, h);
    for (let k = 0; k <= i; k++) w.set(k, i + 1, 0);
  }
  for (let j = 0; j < n; j++) {
    d[j] = w.get(n - 1, j);
    w.set(n - 1, j, 0);
  }
  w.set(n - 1, n - 1, 1);
  e[0] = 0;
}

/** tql2: d becomes the eigenvalues, ascending, and V's columns their eigenvectors (with `vectors`; V is left alone without). */
function diagonalize(w: EighWork, n: number, vectors: boolean): void {
  const { d, e } = w;
  // A sweep's rotations, recorded as it goes and applied to V after it.
  const cs = new Float64Array(2 * n);
  for (let i = 1; i < n; i++) e[i - 1] = e[i]!;
  e[n - 1] = 0;
  let f = 0;
  let tst1 = 0;
  for (let l = 0; l < n; l++) {
    // The first negligible subdiagonal element from l on (e[n-1] is 0).
    tst1 = Math.max(tst1, Math.abs(d[l]!) + Math.abs(e[l]!));
    let m = l;
    while (m < n - 1 && !(Math.abs(e[m]!) <= EPS * tst1)) m++;
    if (m > l) {
      let iterations = 0;
      do {
        if (++iterations > MAX_ITERATIONS) {
          throw new LinAlgError(`linalg.eigh: the eigenvalues did not converge (${MAX_ITERATIONS} QL iterations for eigenvalue ${l}; NumPy raises LinAlgError too)`);
        }
        // The implicit shift.
        let g = d[l]!;
        let p = (d[l + 1]! - g) / (2 * e[l]!);
        let r = hypot(p, 1);
        if (p < 0) r = -r;
        d[l] = e[l]! / (p + r);
        d[l + 1] = e[l]! * (p + r);
        const dl1 = d[l + 1]!;
        let h = g - d[l]!;
        for (let i = l + 2; i < n; i++) d[i] = d[i]! - h;
        f = f + h;
        // The implicit QL transformation.
        p = d[m]!;
        let c = 1;
        let c2 = c;
        let c3 = c;
        const el1 = e[l + 1]!;
        let s = 0;
        let s2 = 0;
        for (let i = m - 1; i >= l; i--) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * e[i]!;
          h = c * p;
          r = hypot(p, e[i]!);
          e[i + 1] = s * r;
          s = e[i]! / r;
          c = p / r;
          p = c * d[i]! - s * g;
          d[i + 1] = h + s * (c * g + s * d[i]!);
          cs[2 * (m - 1 - i)] = c;
          cs[2 * (m - 1 - i) + 1] = s;
        }
        if (vectors) w.rotate(l, m, cs);
        p = -s * s2 * c3 * el1 * e[l]! / dl1;
        e[l] = s * p;
        d[l] = c * p;
      } while (Math.abs(e[l]!) > EPS * tst1);
    }
    d[l] = d[l]! + f;
    e[l] = 0;
  }
  // Ascending, by selection (the first of equal values stays first).
  for (let i = 0; i < n - 1; i++) {
    let k = i;
    let p = d[i]!;
    for (let j = i + 1; j < n; j++) {
      if (d[j]! < p) {
        k = j;
        p = d[j]!;
      }
    }
    if (k !== i) {
      d[k] = d[i]!;
      d[i] = p;
      if (vectors) w.swap(i, k);
    }
  }
}

/**
 * The eigenvalues (ascending, in w.d) of the symmetric matrix w holds in V,
 * and with `vectors` its eigenvectors (V's columns). The eigenvalues' bits
 * are the same either way: no operation on d or e reads what V's
 * accumulation and rotations write.
 */
function symmetricEigen(w: EighWork, n: number, vectors = true): void {
  if (n === 0) return;
  tridiagonalize(w, n, vectors);
  diagonalize(w, n, vectors);
}

/**
 * The eigenvalues (ascending) and, with `vectors`, the eigenvectors (the
 * columns of v, n x n row-major; empty without) of the symmetric n x n
 * matrix s (both triangles filled): the plain symmetricEigen, or the wasm
 * backend's kernels making its operations.
 */
type EighSolver = (s: Float64Array, n: number, vectors: boolean) => { readonly d: Float64Array; readonly v: Float64Array };

function plainEigh(s: Float64Array, n: number, vectors: boolean): { d: Float64Array; v: Float64Array } {
  const w = plainEighWork(s, n);
  symmetricEigen(w, n, vectors);
  return { d: w.d, v: vectors ? w.v : new Float64Array(0) };
}

/**
 * The symmetric eigenproblem from one triangle of a (lower, or upper with
 * `upper`): eigenvalues ascending, eigenvectors as the columns of v (n x n;
 * empty without `vectors`). The matrix is first divided by the power of two
 * nearest below its largest element (exact), and the eigenvalues multiplied
 * back.
 */
function eighMatrix(a: Float64Array, n: number, upper: boolean, vectors: boolean, solve: EighSolver = plainEigh): { w: Float64Array; v: Float64Array } {
  const k = scaleOf(a);
  if (k !== k) return { w: new Float64Array(n).fill(NaN), v: new Float64Array(vectors ? n * n : 0).fill(NaN) };
  const s = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      const e = (upper ? a[j * n + i]! : a[i * n + j]!) / k;
      s[i * n + j] = e;
      s[j * n + i] = e;
    }
  }
  const { d, v } = solve(s, n, vectors);
  return { w: Float64Array.from(d, (x) => x * k), v };
}

export { symmetricEigen, plainEighWork, eighMatrix };
export type { EighWork, EighSolver };
