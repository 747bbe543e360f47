// Householder reflections, one-sided Jacobi rotations and the tridiagonal
// eigensolver's loops against the loops written plainly in JS as the
// reference evaluator writes them (deferred-array's reference/decompositions.ts,
// svd.ts and eigh.ts): the same bits for random matrices, column ranges
// across the strip widths, reflectors forward and backward, zero taus, padded
// rows, Infs and NaNs.
import fc from 'fast-check';
import { hestenesRow, reflect } from './rotations.js';
import { qlRotations, tredAccumulate, tredApply, tredUpdate } from './tridiagonal.js';
import type { TridiagonalWork } from './tridiagonal.js';
import { choleskyColumn } from './cholesky.js';
import { testHeap } from '../lower/test-heap.js';

/** Bits, every NaN alike (a computed NaN's sign is the machine's). */
const bits = (a: Float64Array): string[] => Array.from(new BigUint64Array(a.buffer, a.byteOffset, a.length), (b, i) => (Number.isNaN(a[i]) ? 'NaN' : b.toString(16)));

/** The reference's reflection of columns [c0, c1) by reflector j (rows j..m). */
function plainReflect(r: Float64Array, n: number, m: number, c0: number, c1: number, v: Float64Array, tau: number, j: number): void {
  if (tau === 0) return;
  for (let c = c0; c < c1; c++) {
    let dot = 0;
    for (let i = j; i < m; i++) dot += v[i]! * r[i * n + c]!;
    dot *= tau;
    for (let i = j; i < m; i++) r[i * n + c] = r[i * n + c]! - dot * v[i]!;
  }
}

function rotateColumns(a: Float64Array, rows: number, cols: number, p: number, q: number, c: number, s: number): void {
  for (let k = 0; k < rows; k++) {
    const x = a[k * cols + p]!;
    const y = a[k * cols + q]!;
    a[k * cols + p] = c * x - s * y;
    a[k * cols + q] = s * x + c * y;
  }
}

/** The reference's one-sided Jacobi steps (p, q > p) on w (m x n), accumulated into v. */
function plainHestenesRow(w: Float64Array, v: Float64Array, m: number, n: number, p: number, eps: number): boolean {
  let rotated = false;
  for (let q = p + 1; q < n; q++) {
    // Four partial sums, element i into sum i mod 4, folded (s0 + s1) + (s2 + s3).
    const a = [0, 0, 0, 0];
    const b = [0, 0, 0, 0];
    const g = [0, 0, 0, 0];
    for (let i = 0; i < m; i++) {
      const x = w[i * n + p]!;
      const y = w[i * n + q]!;
      a[i & 3] = a[i & 3]! + x * x;
      b[i & 3] = b[i & 3]! + y * y;
      g[i & 3] = g[i & 3]! + x * y;
    }
    const fold = (s: number[]): number => (s[0]! + s[1]!) + (s[2]! + s[3]!);
    const [alpha, beta, gamma] = [fold(a), fold(b), fold(g)];
    if (gamma === 0 || Math.abs(gamma) <= eps * Math.sqrt(alpha) * Math.sqrt(beta)) continue;
    rotated = true;
    const zeta = (beta - alpha) / (2 * gamma);
    const t = Math.sign(zeta || 1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
    const c = 1 / Math.sqrt(1 + t * t);
    const sn = c * t;
    rotateColumns(w, m, n, p, q, c, sn);
    rotateColumns(v, n, n, p, q, c, sn);
  }
  return rotated;
}

function transpose(a: Float64Array, rows: number, cols: number): Float64Array {
  const t = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) t[j * rows + i] = a[i * cols + j]!;
  return t;
}

const element = fc.oneof(
  { weight: 20, arbitrary: fc.double({ min: -10, max: 10, noNaN: true }) },
  { weight: 4, arbitrary: fc.integer({ min: -2, max: 2 }) },
  { weight: 1, arbitrary: fc.constantFrom(Infinity, -Infinity, NaN, -0) },
);

describe('reflect', () => {
  function check(values: Float64Array, m: number, n: number, c0: number, c1: number, taus: Float64Array, first: number, count: number, dir: 1 | -1, vs: Float64Array): void {
    const heap = testHeap();
    const a = heap.alloc(m * n * 8);
    const v = heap.alloc(vs.length * 8);
    const t = heap.alloc(taus.length * 8);
    heap.f64(a, m * n).set(values);
    heap.f64(v, vs.length).set(vs);
    heap.f64(t, taus.length).set(taus);
    const want = values.slice();
    for (let s = 0; s < count; s++) {
      const j = first + dir * s;
      plainReflect(want, n, m, c0, c1, vs.subarray(j * m, (j + 1) * m), taus[j]!, j);
    }
    reflect(heap.memory, a, n, m, c0, c1, { v, vstride: m * 8, taus: t, first, count, dir });
    expect(bits(heap.f64(a, m * n))).toEqual(bits(want));
  }

  it.each([[1, 1], [5, 3], [9, 17], [40, 11], [33, 40], [70, 35]])('random %i x %i matrices: every column range, reflectors forward and backward', (m, n) => {
    const k = Math.min(m, n);
    const values = Float64Array.from({ length: m * n }, () => Math.random() * 2 - 1);
    const vs = Float64Array.from({ length: k * m }, () => Math.random() * 2 - 1);
    const taus = Float64Array.from({ length: k }, (_, j) => (j % 5 === 3 ? 0 : 1 + Math.random()));
    for (const [c0, c1] of [[0, n], [1, n], [Math.floor(n / 2), n], [0, 1]] as const) {
      check(values, m, n, c0, c1, taus, 0, k, 1, vs);
      check(values, m, n, c0, c1, taus, k - 1, k, -1, vs);
    }
  });

  it('zeros, repeats, Infs and NaNs in the matrix and the vectors; a zero tau leaves Infs alone', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 21 }), fc.array(element, { minLength: 12 * 21 + 12 * 12 + 12, maxLength: 12 * 21 + 12 * 12 + 12 }), (m, n, e) => {
      const k = Math.min(m, n);
      const values = Float64Array.from(e.slice(0, m * n));
      const vs = Float64Array.from(e.slice(12 * 21, 12 * 21 + k * m));
      const taus = Float64Array.from(e.slice(12 * 21 + 144, 12 * 21 + 144 + k), (x) => (Math.abs(x) < 1 ? 0 : x));
      check(values, m, n, 0, n, taus, 0, k, 1, vs);
    }), { numRuns: 300 });
  });
});

describe('the tridiagonal eigensolver loops', () => {
  /** The loops as reference/eigh.ts's plainEighWork writes them, over V (row-major). */
  const plain = {
    apply(v: Float64Array, n: number, d: Float64Array, e: Float64Array, i: number): void {
      for (let j = 0; j < i; j++) {
        const f = d[j]!;
        v[j * n + i] = f;
        const g = e[j]! + v[j * n + j]! * f;
        for (let k = j + 1; k < i; k++) e[k] = e[k]! + v[k * n + j]! * f;
        e[j] = g + dot4(j + 1, i, (k) => v[k * n + j]! * d[k]!);
      }
    },
    update(v: Float64Array, n: number, d: Float64Array, e: Float64Array, i: number): void {
      for (let j = 0; j < i; j++) {
        const f = d[j]!;
        const g = e[j]!;
        for (let k = j; k <= i - 1; k++) v[k * n + j] = v[k * n + j]! - (f * e[k]! + g * d[k]!);
        d[j] = v[(i - 1) * n + j]!;
        v[i * n + j] = 0;
      }
    },
    accumulate(v: Float64Array, n: number, d: Float64Array, i: number, h: number): void {
      for (let k = 0; k <= i; k++) d[k] = v[k * n + i + 1]! / h;
      for (let j = 0; j <= i; j++) {
        const g = dot4(0, i + 1, (k) => v[k * n + i + 1]! * v[k * n + j]!);
        for (let k = 0; k <= i; k++) v[k * n + j] = v[k * n + j]! - g * d[k]!;
      }
    },
    rotate(v: Float64Array, n: number, l: number, m: number, cs: Float64Array): void {
      for (let i = m - 1; i >= l; i--) {
        const [c, s] = [cs[2 * (m - 1 - i)]!, cs[2 * (m - 1 - i) + 1]!];
        for (let k = 0; k < n; k++) {
          const y = v[k * n + i + 1]!;
          v[k * n + i + 1] = s * v[k * n + i]! + c * y;
          v[k * n + i] = c * v[k * n + i]! - s * y;
        }
      }
    },
  };

  /** Four partial sums, term k in sum (k - from) mod 4, folded (s0 + s1) + (s2 + s3). */
  function dot4(from: number, to: number, term: (k: number) => number): number {
    const s = [0, 0, 0, 0];
    for (let k = from; k < to; k++) s[(k - from) & 3] = s[(k - from) & 3]! + term(k);
    return (s[0]! + s[1]!) + (s[2]! + s[3]!);
  }

  function check(n: number, ld: number, values: Float64Array, step: (t: TridiagonalWork, v: Float64Array, d: Float64Array, e: Float64Array, cs: number) => void): void {
    const heap = testHeap();
    // Room for several sweeps' rotations (16n bytes each) and their table.
    const cs = heap.alloc(8 * 16 * n + 128);
    const t: TridiagonalWork = { memory: heap.memory, w: heap.alloc(n * ld * 8), ld, n, d: heap.alloc(n * 8), e: heap.alloc(n * 8) };
    const v = values.slice(0, n * n);
    const d = values.slice(n * n, n * n + n);
    const e = values.slice(n * n + n, n * n + 2 * n);
    const wt = transpose(v, n, n);
    for (let r = 0; r < n; r++) heap.f64(t.w + r * ld * 8, n).set(wt.subarray(r * n, (r + 1) * n));
    heap.f64(t.d, n).set(d);
    heap.f64(t.e, n).set(e);
    step(t, v, d, e, cs);
    const got = new Float64Array(n * n);
    for (let r = 0; r < n; r++) got.set(heap.f64(t.w + r * ld * 8, n), r * n);
    expect(bits(transpose(got, n, n))).toEqual(bits(v));
    expect(bits(heap.f64(t.d, n))).toEqual(bits(d));
    expect(bits(heap.f64(t.e, n))).toEqual(bits(e));
  }

  it('each loop at every row of random matrices of orders around the lane and chunk widths, rows packed and padded', () => {
    for (const n of [1, 2, 3, 4, 5, 6, 7, 9, 13, 17, 130, 131]) {
      for (const ld of [n, n + 3]) {
        const values = Float64Array.from({ length: n * n + 2 * n }, () => Math.random() * 2 - 1);
        const rows = n > 20 ? [0, 1, 2, 3, 4, 5, 63, n - 2, n - 1] : [...Array(n).keys()];
        for (const i of rows) {
          check(n, ld, values, (t, v, d, e) => { plain.apply(v, n, d, e, i); tredApply(t, i); });
          check(n, ld, values, (t, v, d, e) => { plain.update(v, n, d, e, i); tredUpdate(t, i); });
          if (i < n - 1) check(n, ld, values, (t, v, d) => { plain.accumulate(v, n, d, i, 0.75); tredAccumulate(t, i, 0.75); });
        }
        const ranges = [[0, n - 1], [Math.floor(n / 3), n - 1], [0, Math.min(1, n - 1)], [Math.floor(n / 2), Math.floor(n / 2)]] as const;
        for (const [l, m] of ranges) {
          const cs = Float64Array.from({ length: 2 * n }, () => Math.random() * 2 - 1);
          check(n, ld, values, (t, v, _d, _e, at) => {
            new Float64Array(t.memory.buffer, at, 2 * n).set(cs);
            plain.rotate(v, n, l, m, cs);
            qlRotations(t, [{ l, m, cs: at }], at + 16 * n);
          });
        }
        // Several sweeps at once, over different rows, each element meeting them in order.
        check(n, ld, values, (t, v, _d, _e, at) => {
          const sweeps = ranges.map(([l, m], k) => {
            const cs = Float64Array.from({ length: 2 * n }, () => Math.random() * 2 - 1);
            plain.rotate(v, n, l, m, cs);
            new Float64Array(t.memory.buffer, at + k * 16 * n, 2 * n).set(cs);
            return { l, m, cs: at + k * 16 * n };
          });
          qlRotations(t, sweeps, at + ranges.length * 16 * n);
        });
      }
    }
  });

  it('zeros, repeats, Infs and NaNs', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 9 }), fc.array(element, { minLength: 99, maxLength: 99 }), fc.nat(), (n, e, at) => {
      const values = Float64Array.from(e);
      const i = 1 + (at % (n - 1));
      check(n, n, values, (t, v, d, ee) => { plain.apply(v, n, d, ee, i); tredApply(t, i); });
      check(n, n, values, (t, v, d, ee) => { plain.update(v, n, d, ee, i); tredUpdate(t, i); });
      check(n, n, values, (t, v, d) => { plain.accumulate(v, n, d, i - 1, 3); tredAccumulate(t, i - 1, 3); });
      const cs = Float64Array.from(e.slice(0, 2 * n));
      check(n, n, values, (t, v, _d, _e, at) => {
        new Float64Array(t.memory.buffer, at, 2 * n).set(cs);
        plain.rotate(v, n, 0, n - 1, cs);
        qlRotations(t, [{ l: 0, m: n - 1, cs: at }], at + 16 * n);
      });
    }), { numRuns: 300 });
  });
});

describe('hestenesRow', () => {
  function check(values: Float64Array, m: number, n: number, sweeps: number): void {
    const heap = testHeap();
    const wt = heap.alloc(m * n * 8);
    const vt = heap.alloc(n * n * 8);
    const w = values.slice();
    const v = new Float64Array(n * n);
    for (let i = 0; i < n; i++) v[i * n + i] = 1;
    heap.f64(wt, m * n).set(transpose(w, m, n));
    heap.f64(vt, n * n).set(v);
    const eps = 2 ** -52;
    for (let sweep = 0; sweep < sweeps; sweep++) {
      for (let p = 0; p < n - 1; p++) {
        expect(hestenesRow(heap.memory, wt, vt, m, n, p, eps)).toBe(plainHestenesRow(w, v, m, n, p, eps));
      }
    }
    expect(bits(transpose(heap.f64(wt, m * n), n, m))).toEqual(bits(w));
    expect(bits(transpose(heap.f64(vt, n * n), n, n))).toEqual(bits(v));
  }

  it.each([[1, 1], [2, 2], [5, 3], [9, 9], [17, 4], [40, 33]])('random %i x %i matrices, three sweeps', (m, n) => {
    check(Float64Array.from({ length: m * n }, () => Math.random() * 2 - 1), m, n, 3);
  });

  it('with no V (vt 0): W turned as it is with one', () => {
    const [m, n] = [23, 9];
    const values = Float64Array.from({ length: m * n }, () => Math.random() * 2 - 1);
    const heap = testHeap();
    const wt = heap.alloc(m * n * 8);
    heap.f64(wt, m * n).set(transpose(values, m, n));
    const w = values.slice();
    const v = new Float64Array(n * n);
    for (let sweep = 0; sweep < 3; sweep++) {
      for (let p = 0; p < n - 1; p++) expect(hestenesRow(heap.memory, wt, 0, m, n, p, 2 ** -52)).toBe(plainHestenesRow(w, v, m, n, p, 2 ** -52));
    }
    expect(bits(transpose(heap.f64(wt, m * n), n, m))).toEqual(bits(w));
  });

  it('matrices with zeros, repeated and tiny entries, orthogonal columns', () => {
    const entry = fc.oneof(fc.constantFrom(0, -0, 1, -1, 0.5, 1e-300), fc.double({ min: -1, max: 1, noNaN: true }));
    fc.assert(fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 }), fc.array(entry, { minLength: 81, maxLength: 81 }), (m, n, e) => {
      check(Float64Array.from(e.slice(0, m * n)), Math.max(m, n), Math.min(m, n), 2);
    }), { numRuns: 200 });
  });
});

describe('choleskyColumn', () => {
  /** The reference's choleskyLower (reference/decompositions.ts), four partial sums to a sum. */
  function plainCholesky(l: Float64Array, n: number): boolean {
    const dot4 = (to: number, term: (k: number) => number): number => {
      const s = [0, 0, 0, 0];
      for (let k = 0; k < to; k++) s[k & 3] = s[k & 3]! + term(k);
      return (s[0]! + s[1]!) + (s[2]! + s[3]!);
    };
    for (let j = 0; j < n; j++) {
      const d = l[j * n + j]! - dot4(j, (k) => l[j * n + k]! * l[j * n + k]!);
      if (d <= 0) return false;
      const s = Math.sqrt(d);
      l[j * n + j] = s;
      for (let i = j + 1; i < n; i++) l[i * n + j] = (l[i * n + j]! - dot4(j, (k) => l[i * n + k]! * l[j * n + k]!)) / s;
    }
    return true;
  }

  function check(values: Float64Array, n: number, ld: number): void {
    const heap = testHeap();
    const l = heap.alloc(n * ld * 8);
    const want = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) want[i * n + j] = values[i * n + j]!;
    for (let i = 0; i < n; i++) heap.f64(l + i * ld * 8, n).set(want.subarray(i * n, (i + 1) * n));
    const ok = plainCholesky(want, n);
    let got = true;
    for (let j = 0; j < n && got; j++) got = choleskyColumn(heap.memory, l, ld, n, j);
    expect(got).toBe(ok);
    if (!ok) return;
    const out = new Float64Array(n * n);
    for (let i = 0; i < n; i++) out.set(heap.f64(l + i * ld * 8, n), i * n);
    expect(bits(out)).toEqual(bits(want));
  }

  it.each([1, 2, 3, 4, 5, 7, 9, 16, 33, 70])('positive definite matrices of order %i, rows packed and padded', (n) => {
    const a = Float64Array.from({ length: n * n }, () => Math.random() * 2 - 1);
    const spd = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      let s = i === j ? n : 0;
      for (let k = 0; k < n; k++) s += a[i * n + k]! * a[j * n + k]!;
      spd[i * n + j] = s;
    }
    check(spd, n, n);
    check(spd, n, n + 5);
  });

  it('matrices that are not positive definite, and NaNs, fail or go on as the plain loops do', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 9 }), fc.array(element, { minLength: 81, maxLength: 81 }), (n, e) => {
      check(Float64Array.from(e.slice(0, n * n), (x, i) => (i % (n + 1) === 0 ? Math.abs(x) + 20 : x)), n, n);
    }), { numRuns: 300 });
  });
});
