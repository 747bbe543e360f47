// da.linalg against NumPy 2 (test/vectors/linalg.json, made by
// scripts/numpy/gen_linalg.py): within tolerances, since LAPACK's blocked
// algorithms round differently, and eigenvectors and singular vectors are
// compared up to sign (through what they reconstruct). solve's residual
// ||a x - b|| / (||a|| ||x||) stays below 1e-13 in float64. Both backends,
// 1 and 2 workers.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, test } from '@jest/globals';
import * as da from '../index.js';

interface Arr { readonly shape: readonly number[]; readonly dtype: string; readonly values?: ReadonlyArray<number | string>; readonly hash?: readonly number[] }
interface Case { readonly fn: string; readonly args: readonly Arr[]; readonly options: Readonly<Record<string, unknown>>; readonly out: readonly Arr[] }

const vectors = JSON.parse(readFileSync(new URL('../../test/vectors/linalg.json', import.meta.url), 'utf8')) as { readonly cases: readonly Case[] };

/** The generator's matrices made again: two exact 32-bit mixing steps per element (gen_linalg.py). */
function hashed(n: number, [seed, scale, offset]: readonly number[]): number[] {
  return Array.from({ length: n }, (_, i) => {
    let h = Math.imul(i + seed!, 2654435761) >>> 0;
    h = Math.imul((h ^ (h >>> 13)) >>> 0, 1274126177) >>> 0;
    return (h / 2 ** 32) * scale! + offset!;
  });
}

const size = (a: Arr): number => a.shape.reduce((p, d) => p * d, 1);
const valuesIn = (a: Arr): number[] => (a.hash ? hashed(size(a), a.hash) : a.values!.map((v) => (typeof v === 'string' ? { inf: Infinity, '-inf': -Infinity }[v] ?? NaN : v)));

function input(a: Arr): da.DeferredArray {
  const ctor = { float64: Float64Array, float32: Float32Array, int32: Int32Array }[a.dtype]!;
  return da.wrap(ctor.from(valuesIn(a))).reshape(a.shape);
}

function run(c: Case): da.DeferredArray[] {
  const [a, b] = c.args.map(input);
  const o = { ...c.options } as Record<string, unknown>;
  if (o['ord'] === 'inf') o['ord'] = Infinity;
  if (o['ord'] === '-inf') o['ord'] = -Infinity;
  const f = (da.linalg as unknown as Record<string, (...args: unknown[]) => da.DeferredArray | da.DeferredArray[]>)[c.fn]!;
  const r = b ? f(a, b, o) : f(a, o);
  return Array.isArray(r) ? r : [r];
}

/** The last two axes swapped. */
const matrixTranspose = (x: da.DeferredArray): da.DeferredArray => da.transpose(x, [...Array(x.ndim - 2).keys(), x.ndim - 1, x.ndim - 2]);

const numbers = (r: da.StdNdarray): number[] => Array.from({ length: r.shape.reduce((p: number, d: number) => p * d, 1) }, (_, i) => Number(r.iget(i)));

/** max |x - y| over max |y| (or 1 where y is all zeros). */
function relative(x: readonly number[], y: readonly number[]): number {
  let diff = 0;
  let scale = 0;
  for (let i = 0; i < y.length; i++) if (Number.isFinite(y[i])) scale = Math.max(scale, Math.abs(y[i]!));
  for (let i = 0; i < y.length; i++) {
    // Equal infinities and NaN in both places agree.
    if (x[i] === y[i] || (x[i] !== x[i] && y[i] !== y[i])) continue;
    diff = Math.max(diff, Math.abs(x[i]! - y[i]!));
  }
  return diff / (scale || 1);
}

/** Sign-free outputs: eigh's and svd's vectors are compared through what they reconstruct, the rest directly. */
const signFree = (c: Case, k: number): boolean => (c.fn === 'eigh' && k === 1) || (c.fn === 'svd' && c.out.length === 3 && k !== 1);

describe.each([
  ['wasm, 1 worker', { backend: 'wasm', threads: 1 }],
  ['wasm, 2 workers', { backend: 'wasm', threads: 2 }],
  ['reference', { backend: 'reference' }],
] as const)('da.linalg against NumPy (%s)', (_, config) => {
  const before = da.configure();
  afterAll(() => { da.configure({ backend: before.backend, threads: before.threads }); });

  test.each(vectors.cases.map((c, i) => [i, `${c.fn} ${c.args.map((a) => `${a.dtype}[${a.shape.join(',')}]`).join(' ')} ${JSON.stringify(c.options)}`, c] as const))(
    'case %i: %s', async (_i, _l, c) => {
      da.configure(config);
      const got = run(c);
      expect(got.length).toBe(c.out.length);
      const tol = c.args.some((a) => a.dtype === 'float32') ? 2e-5 : 1e-9;
      const values: number[][] = [];
      for (const [k, want] of c.out.entries()) {
        const y = got[k]!;
        expect([k, y.shape]).toEqual([k, want.shape]);
        // NumPy's rank is intp; ours int32.
        expect([k, y.dtype]).toEqual([k, want.dtype === 'int64' ? 'int32' : want.dtype]);
        values.push(numbers((await y.execute()) as da.StdNdarray));
        if (!signFree(c, k)) expect(relative(values[k]!, valuesIn(want))).toBeLessThan(tol);
      }
      if (c.fn === 'eigh') checkEigh(input(c.args[0]!), got, tol, c.options['UPLO'] === 'U');
      if (c.fn === 'svd' && c.out.length === 3) await checkSvd(input(c.args[0]!), got, tol);
      if (c.fn === 'solve' && c.args[0]!.dtype === 'float64') await checkResidual(input(c.args[0]!), input(c.args[1]!), got[0]!);
    },
  );
});

/** a v = v diag(w), with a symmetric from the triangle read, and v orthonormal. */
function checkEigh(a: da.DeferredArray, [w, v]: da.DeferredArray[], tol: number, upper: boolean): void {
  const n = a.shape[a.ndim - 1]!;
  const tri = upper ? da.triu(a) : da.tril(a);
  const sym = tri.add(matrixTranspose(tri)).sub(da.multiply(tri, da.eye(n)));
  const av = numbers(da.matmul(sym, v!).executeSync() as da.StdNdarray);
  const vw = numbers(v!.mul(da.expandDims(w!, -2)).executeSync() as da.StdNdarray);
  expect(relative(av, vw)).toBeLessThan(tol * 10);
  const vtv = numbers(da.matmul(matrixTranspose(v!), v!).executeSync() as da.StdNdarray);
  const eye = numbers(da.broadcastTo(da.eye(n), [...a.shape.slice(0, -2), n, n]).executeSync() as da.StdNdarray);
  expect(relative(vtv, eye)).toBeLessThan(tol * 10);
}

/** u diag(s) vh = a, with u's and vh's columns and rows orthonormal. */
async function checkSvd(a: da.DeferredArray, [u, s, vh]: da.DeferredArray[], tol: number): Promise<void> {
  const k = s!.shape[s!.ndim - 1]!;
  const uk = u!.get(`..., :${k}`);
  const vk = vh!.get(`..., :${k}, :`);
  const back = numbers((await da.matmul(uk.mul(da.expandDims(s!, -2)), vk).execute()) as da.StdNdarray);
  expect(relative(back, numbers((await a.execute()) as da.StdNdarray))).toBeLessThan(tol * 10);
  for (const q of [u!, matrixTranspose(vh!)]) {
    const c = q.shape[q.ndim - 1]!;
    const qtq = numbers((await da.matmul(matrixTranspose(q), q).execute()) as da.StdNdarray);
    expect(relative(qtq, numbers(da.eye(c).executeSync() as da.StdNdarray))).toBeLessThan(tol * 10);
  }
}

/** ||a x - b|| / (||a|| ||x||) below 1e-13 (Frobenius norms, per stack as one). */
async function checkResidual(a: da.DeferredArray, b: da.DeferredArray, x: da.DeferredArray): Promise<void> {
  const ax = b.ndim === 1 ? da.matmul(a, x) : da.matmul(a, x);
  const r = Number(((await da.linalg.norm(ax.sub(b).reshape([-1])).execute()) as da.StdNdarray).get());
  const na = Number(((await da.linalg.norm(a.reshape([-1])).execute()) as da.StdNdarray).get());
  const nx = Number(((await da.linalg.norm(x.reshape([-1])).execute()) as da.StdNdarray).get());
  expect(r / (na * nx)).toBeLessThan(1e-13);
}

describe('da.linalg: beyond the vectors', () => {
  test("a singular matrix or one not positive definite fails the run with LinAlgError; NaN gives NaN, as NumPy 2's", () => {
    const singular = da.array([[1, 2], [2, 4]]);
    expect(() => da.linalg.inv(singular).executeSync()).toThrow(da.LinAlgError);
    expect(() => da.linalg.solve(singular, da.array([1, 2])).executeSync()).toThrow(/singular matrix/);
    expect(() => da.linalg.cholesky(da.array([[1, 2], [2, 1]])).executeSync()).toThrow(/not positive definite/);
    expect(Array.from(da.linalg.eigvalsh(da.array([[1, NaN], [NaN, 1]])).executeSync().data as Float64Array)).toEqual([NaN, NaN]);
    expect(Array.from(da.linalg.svdvals(da.array([[1, Infinity], [0, 1]])).executeSync().data as Float64Array)).toEqual([NaN, NaN]);
    expect(Object.is(Number((da.linalg.det(singular).executeSync() as da.StdNdarray).get()), 0)).toBe(true);
  });

  test('empty matrices: the norms NumPy takes with initial 0, rank 0, and the pseudo-inverse of the transposed shape', () => {
    const num = (x: da.DeferredArray): number[] => Array.from((x.executeSync() as da.StdNdarray).data as ArrayLike<number>, Number);
    expect(num(da.linalg.norm(da.zeros([0]), { ord: Infinity }))).toEqual([0]);
    expect(num(da.linalg.norm(da.zeros([0, 3]), { ord: 2 }))).toEqual([0]);
    expect(num(da.linalg.norm(da.zeros([3, 0]), { ord: 1 }))).toEqual([0]);
    expect(num(da.linalg.matrixRank(da.zeros([2, 0, 3])))).toEqual([0, 0]);
    expect(da.linalg.pinv(da.zeros([0, 3])).shape).toEqual([3, 0]);
  });

  test("eigvalsh gives eigh's eigenvalues bit for bit, without the eigenvectors", () => {
    const bits = (x: da.DeferredArray): string[] => Array.from((x.executeSync() as da.StdNdarray).data as ArrayLike<number>, (v) => (Object.is(v, -0) ? '-0' : String(v)));
    // Symmetric, from 0 x 0 up past a strip of eight; an all-zero row (the reduction's zero-scale branch),
    // a zero matrix, one with repeated eigenvalues, one with NaN, a float32 stack.
    let seed = 7;
    const next = (): number => { seed = (seed * 16807) % 2147483647; return seed / 2147483647 - 0.5; };
    const symmetric = (n: number): da.DeferredArray => {
      const a = da.wrap(Float64Array.from({ length: n * n }, next)).reshape([n, n]);
      return a.add(a.T);
    };
    const zeroRow = da.array([[0, 0, 0, 0], [0, 2, 1, 0], [0, 1, 3, 1], [0, 0, 1, 4]]);
    const cases = [
      ...[0, 1, 2, 3, 8, 9, 17, 40].map(symmetric),
      zeroRow, da.zeros([5, 5]), da.eye(6).mul(3), da.array([[1, NaN], [NaN, 1]]),
      da.stack([symmetric(5), symmetric(5)]).astype('float32'),
    ];
    for (const a of cases) {
      for (const UPLO of ['L', 'U'] as const) {
        const values = da.linalg.eigvalsh(a, { UPLO });
        expect(values.shape).toEqual(a.shape.slice(0, -1));
        expect(values.dtype).toBe(a.dtype);
        expect(bits(values)).toEqual(bits(da.linalg.eigh(a, { UPLO })[0]));
      }
    }
    // Its own errors name it.
    expect(() => da.linalg.eigvalsh(da.array([[1, 2, 3], [4, 5, 6]]))).toThrow(/linalg\.eigvalsh: the last 2 dimensions of the array must be square/);
  });

  test('lstsq of float32 arrays gives float32, as NumPy', () => {
    const r = da.linalg.lstsq(da.wrap(Float32Array.of(1, 1, 1, 2, 1, 3)).reshape([3, 2]), da.wrap(Float32Array.of(1, 2, 2)));
    expect(r.map((x) => x.dtype)).toEqual(['float32', 'float32', 'int32', 'float32']);
  });

  test('shape and option errors say what was wrong', () => {
    const a = da.array([[1, 2, 3], [4, 5, 6]]);
    expect(() => da.linalg.inv(a)).toThrow(/must be square; got \(2, 3\)/);
    expect(() => da.linalg.det(da.array([1, 2]))).toThrow(/at least two-dimensional/);
    expect(() => da.linalg.solve(da.eye(3), da.array([1, 2]))).toThrow(/b has 2 rows where a is 3 x 3/);
    expect(() => da.linalg.qr(a, { mode: 'economic' as never })).toThrow(/mode must be 'reduced', 'complete' or 'r'/);
    expect(() => da.linalg.eigh(da.eye(2), { UPLO: 'X' as never })).toThrow(/UPLO must be 'L' or 'U'/);
    expect(() => da.linalg.norm(a, { ord: 3 })).toThrow(/invalid norm order 3 for matrices/);
    expect(() => da.linalg.norm(da.array([1, 2]), { ord: 'fro' })).toThrow(/'fro' is a matrix norm|'fro' needs a matrix/);
    expect(() => da.linalg.det(da.wrap(BigInt64Array.of(1n, 0n, 0n, 1n)).reshape([2, 2]))).toThrow(/int64 matrices are not supported/);
  });

  test('decompositions are deferred: the graph around them fuses, and a compiled function carries them to new sizes', async () => {
    const n = da.size('n');
    const f = da.compile((a: da.DeferredArray, b: da.DeferredArray) => da.linalg.solve(a.mul(2), b).add(1), [da.placeholder([n, n], 'float64'), da.placeholder([n], 'float64')]);
    const r2 = (await f(da.wrap(Float64Array.of(1, 0, 0, 1)).reshape([2, 2]), Float64Array.of(2, 4))) as da.StdNdarray;
    expect(Array.from(r2.data as Float64Array)).toEqual([2, 3]);
    const r3 = (await f(da.wrap(Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1)).reshape([3, 3]), Float64Array.of(2, 4, 6))) as da.StdNdarray;
    expect(Array.from(r3.data as Float64Array)).toEqual([2, 3, 4]);
  });
});
