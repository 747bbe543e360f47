// The tridiagonal QL eigensolver (reference/eigh.ts) through da.linalg.eigh
// on both backends: for random and structured symmetric matrices (repeated
// eigenvalues, rank one, Hilbert, graded, huge and subnormal entries) the
// residual ||A v - w v|| stays at rounding of ||A||, the eigenvectors are
// orthonormal to rounding, the eigenvalues ascend, and a diagonal matrix
// comes back exactly.
import * as da from '../index.js';

const initial = da.configure();
afterAll(() => { da.configure({ backend: initial.backend }); });

function symmetric(n: number, entry: (i: number, j: number) => number): Float64Array {
  const s = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) s[i * n + j] = s[j * n + i] = entry(i, j);
  return s;
}

/** Largest |A v_j - w_j v_j| over ||A||_max n, and largest |V^T V - I|. */
function errors(s: Float64Array, n: number): { residual: number; orthogonality: number; w: Float64Array; v: Float64Array } {
  const [w, v] = (da.executeSync(da.linalg.eigh(da.wrap(s).reshape([n, n]))) as da.StdNdarray[]).map((r) => r.data as Float64Array) as [Float64Array, Float64Array];
  let residual = 0;
  let orthogonality = 0;
  const norm = Math.max(...s.map(Math.abs)) || 1;
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      let av = 0;
      for (let k = 0; k < n; k++) av += s[i * n + k]! * v[k * n + j]!;
      residual = Math.max(residual, Math.abs(av - w[j]! * v[i * n + j]!) / (norm * n));
    }
    for (let b = 0; b < n; b++) {
      let dot = 0;
      for (let k = 0; k < n; k++) dot += v[k * n + j]! * v[k * n + b]!;
      orthogonality = Math.max(orthogonality, Math.abs(dot - (j === b ? 1 : 0)));
    }
  }
  return { residual, orthogonality, w, v };
}

const hash = (i: number, j: number): number => ((Math.imul(i * 131 + j, 2654435761) >>> 0) / 2 ** 31) - 1;

const cases: Array<[string, number, (i: number, j: number) => number]> = [
  ['random', 40, hash],
  ['random, past a strip of 128 columns', 150, hash],
  ['repeated eigenvalues (a diagonal of 0, 1, 2)', 24, (i, j) => (i === j ? i % 3 : 0)],
  ['rank one (all ones)', 30, () => 1],
  ['Hilbert', 25, (i, j) => 1 / (i + j + 1)],
  ['the tridiagonal Laplacian', 33, (i, j) => (i === j ? 2 : i - j === 1 ? -1 : 0)],
  ['graded diagonal', 20, (i, j) => (i === j ? 10 ** (i - 10) : 0)],
  ['huge entries', 6, () => 1e300],
  ['subnormal entries', 6, (i, j) => (i + j + 1) * 1e-310],
];

describe.each(['reference', 'wasm'] as const)('eigh on the %s backend', (backend) => {
  beforeAll(() => { da.configure({ backend }); });

  test.each(cases)('%s (order %i): residual and orthogonality at rounding, eigenvalues ascending', (_, n, entry) => {
    const s = symmetric(n, entry);
    const { residual, orthogonality, w } = errors(s, n);
    expect(residual).toBeLessThan(1e-14);
    expect(orthogonality).toBeLessThan(1e-13);
    for (let i = 1; i < n; i++) expect(w[i]!).toBeGreaterThanOrEqual(w[i - 1]!);
  });

  test('a diagonal matrix: its diagonal sorted, and the unit vectors', () => {
    const d = [3, -1, 0.5, -1, 7];
    const { w, v } = errors(symmetric(5, (i, j) => (i === j ? d[i]! : 0)), 5);
    expect(Array.from(w)).toEqual([-1, -1, 0.5, 3, 7]);
    for (const x of v) expect(Math.abs(x) === 0 || Math.abs(x) === 1).toBe(true);
  });
});
