// LU and the solve from it against the algorithm written plainly in JS (the
// reference evaluator's, deferred-array's reference/decompositions.ts): the
// same bits for random matrices of every size around the lane width, with
// repeated and zero entries, Infs and NaNs, and singular ones.
import fc from 'fast-check';
import { LU_SCRATCH, luFactor, luSolve } from './lu.js';
import { testHeap } from '../lower/test-heap.js';

function plainLu(matrix: Float64Array, n: number): { a: Float64Array; piv: Int32Array; sign: number; singular: boolean } {
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
      for (let j = 0; j < n; j++) { const t = a[k * n + j]!; a[k * n + j] = a[p * n + j]!; a[p * n + j] = t; }
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

function plainSolve(lu: Float64Array, piv: Int32Array, n: number, b: Float64Array, k: number): Float64Array {
  const x = b.slice();
  for (let i = 0; i < n; i++) {
    const p = piv[i]!;
    if (p !== i) for (let j = 0; j < k; j++) { const t = x[i * k + j]!; x[i * k + j] = x[p * k + j]!; x[p * k + j] = t; }
  }
  for (let i = 0; i < n; i++) {
    for (let r = 0; r < i; r++) {
      const l = lu[i * n + r]!;
      if (l !== 0) for (let j = 0; j < k; j++) x[i * k + j] = x[i * k + j]! - l * x[r * k + j]!;
    }
  }
  for (let i = n - 1; i >= 0; i--) {
    for (let r = i + 1; r < n; r++) {
      const u = lu[i * n + r]!;
      if (u !== 0) for (let j = 0; j < k; j++) x[i * k + j] = x[i * k + j]! - u * x[r * k + j]!;
    }
    const d = lu[i * n + i]!;
    for (let j = 0; j < k; j++) x[i * k + j] = x[i * k + j]! / d;
  }
  return x;
}

/** Bits, but every NaN alike: IEEE leaves a computed NaN's sign and payload to the machine, and V8's scalar and vector code differ there. */
const bits = (a: Float64Array): string[] => Array.from(new BigUint64Array(a.buffer, a.byteOffset, a.length), (b, i) => (Number.isNaN(a[i]) ? 'NaN' : b.toString(16)));

function check(values: Float64Array, n: number, rhs: Float64Array, k: number): void {
  const heap = testHeap();
  const a = heap.alloc(n * n * 8);
  const piv = heap.alloc(n * 4);
  const x = heap.alloc(n * k * 8);
  heap.f64(a, n * n).set(values);
  heap.f64(x, n * k).set(rhs);
  const want = plainLu(values, n);
  const got = luFactor(heap.memory, a, n, piv, heap.alloc(LU_SCRATCH));
  expect(got).toEqual({ singular: want.singular, sign: want.sign });
  expect(bits(heap.f64(a, n * n))).toEqual(bits(want.a));
  expect(Array.from(new Int32Array(heap.memory.buffer, piv, n))).toEqual(Array.from(want.piv));
  luSolve(heap.memory, a, n, piv, x, k);
  expect(bits(heap.f64(x, n * k))).toEqual(bits(plainSolve(want.a, want.piv, n, rhs, k)));
}

describe('luFactor and luSolve', () => {
  it.each([0, 1, 2, 3, 4, 5, 8, 16, 17, 31, 32, 33, 40, 64, 65, 97])('random matrices of order %i (panels of 32), 1 to 3 right-hand sides', (n) => {
    for (const k of [1, 2, 3]) {
      const a = Float64Array.from({ length: n * n }, () => Math.random() * 2 - 1);
      check(a, n, Float64Array.from({ length: n * k }, () => Math.random() * 10 - 5), k);
    }
  });

  it.each([4, 7, 37, 70])('order %i with 4 to 9 right-hand sides (as inv solves): rows of four taken together in the forward substitution', (n) => {
    for (const k of [4, 5, 9]) {
      const a = Float64Array.from({ length: n * n }, (_, i) => (i % 11 === 4 ? 0 : Math.random() * 2 - 1));
      check(a, n, Float64Array.from({ length: n * k }, (_, i) => (i % 5 === 0 ? -0 : Math.random() * 10 - 5)), k);
    }
  });

  it.each([260, 291])('order %i: past a block of 256 trailing columns, rows of four taken together and the rest one by one, with zero multipliers', (n) => {
    const a = Float64Array.from({ length: n * n }, (_, i) => (i % 7 === 3 ? 0 : (i % 13 === 5 ? -0 : Math.random() * 2 - 1)));
    check(a, n, Float64Array.from({ length: n * 2 }, () => Math.random()), 2);
  });

  it.each([5, 40, 70])('a singular matrix of order %i: the zero pivots marked, the rest still factored as the plain code does', (n) => {
    const a = Float64Array.from({ length: n * n }, (_, i) => (i % n === 2 || i % n === 35 ? 0 : ((i * 37) % 11) - 5));
    check(a, n, Float64Array.from({ length: n }, (_, i) => i), 1);
  });

  it('matrices across panels with zeros, repeats, Infs and NaNs', () => {
    const element = fc.oneof({ weight: 20, arbitrary: fc.integer({ min: -3, max: 3 }) }, { weight: 1, arbitrary: fc.constantFrom(Infinity, -Infinity, NaN, -0) });
    fc.assert(fc.property(fc.integer({ min: 30, max: 70 }), fc.array(element, { minLength: 70 * 70 + 70, maxLength: 70 * 70 + 70 }), (n, v) => {
      check(Float64Array.from(v.slice(0, n * n)), n, Float64Array.from(v.slice(70 * 70, 70 * 70 + n)), 1);
    }), { numRuns: 40 });
  });

  it('random matrices with zeros, repeats, Infs and NaNs', () => {
    const element = fc.oneof(fc.constantFrom(0, -0, 1, -1, Infinity, -Infinity, NaN), fc.integer({ min: -4, max: 4 }).map((i) => i / 2), fc.double({ min: -1e6, max: 1e6, noNaN: true }));
    fc.assert(fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 4 }), fc.array(element, { minLength: 81 + 36, maxLength: 81 + 36 }), (n, k, v) => {
      check(Float64Array.from(v.slice(0, n * n)), n, Float64Array.from(v.slice(81, 81 + n * k)), k);
    }), { numRuns: 300 });
  });
});
