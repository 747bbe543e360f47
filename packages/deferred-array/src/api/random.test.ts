// da.random: the reference's Philox against Random123's known answers and the
// NumPy-computed vectors (kernels-wasm/test/vectors/philox.json), the
// generator's streams, its distributions, and random arrays on the
// WebAssembly backend bit for bit the reference's however they are read:
// fused, viewed, broadcast, reduced over axes, stored, pinned, and on any
// number of threads. Then the Monte Carlo estimate of pi as one kernel.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { philox4x32 } from '../reference/philox.js';
import { decodeValue } from '../../test/numpy-values.js';

interface Stream { key: [number, number]; stream: [number, number]; words: number[][]; float64: string[]; float32: string[] }
const vectors = JSON.parse(readFileSync(new URL('../../../kernels-wasm/test/vectors/philox.json', import.meta.url), 'utf8')) as {
  kat: Array<{ counter: number[]; key: number[]; words: number[] }>;
  streams: Stream[];
};

const f64 = (hex: string): number => decodeValue(hex, 'float64');
const f32 = (hex: string): number => decodeValue(hex, 'float32');

const initial = da.configure();
afterAll(async () => {
  da.configure({ backend: initial.backend, threads: initial.threads });
  await da.shutdown();
});

function values(x: da.DeferredArray, backend: 'reference' | 'wasm'): number[] {
  da.configure({ backend });
  const nd = x.executeSync() as da.StdNdarray;
  const n = nd.shape.reduce((p, d) => p * d, 1);
  return Array.from({ length: n }, (_, i) => Number(nd.iget(i)));
}

/** Values on both backends, which must agree to the bit (sums: within their rounding, as the kernels add in another order). */
function both(x: da.DeferredArray, sums = false): number[] {
  const ref = values(x, 'reference');
  const got = values(x, 'wasm');
  if (!sums) expect(got).toEqual(ref);
  // float32 sums: the kernels carry them in float64, the reference in float32.
  const tol = x.dtype === 'float32' ? 1e-6 : 1e-13;
  if (sums) expect(got.map((v, i) => Math.abs(v - ref[i]!) <= tol * Math.max(1, Math.abs(ref[i]!)))).toEqual(ref.map(() => true));
  return ref;
}

describe('Philox 4x32-10', () => {
  test("Random123's known answers", () => {
    for (const k of vectors.kat) expect(philox4x32(k.counter, k.key)).toEqual(k.words);
  });

  test.each(vectors.streams.map((s) => [`${s.key.join(':')} stream ${s.stream.join(':')}`, s] as const))('the NumPy-computed words of key %s', (_, s) => {
    s.words.forEach((w, e) => expect(philox4x32([e, 0, ...s.stream], s.key)).toEqual(w));
  });
});

describe('da.random.defaultRng', () => {
  test('draws are the generator at (seed, stream, element): stream n is the n-th draw', () => {
    const s0 = vectors.streams.find((s) => s.key[0] === 42 && s.stream[0] === 0)!;
    const s1 = vectors.streams.find((s) => s.key[0] === 42 && s.stream[0] === 1)!;
    const rng = da.random.default_rng(42);
    expect(both(rng.random([s0.float64.length]))).toEqual(s0.float64.map(f64));
    expect(both(rng.random([s1.float32.length], { dtype: 'float32' }))).toEqual(s1.float32.map(f32));
    const big = vectors.streams.find((s) => s.key[0] === 0xffffffff && s.stream[0] === 0)!;
    expect(both(da.random.defaultRng(2n ** 64n - 1n).random([5, 4]))).toEqual(big.float64.slice(0, 20).map(f64));
  });

  test('a seed repeats its draws; the next draw differs', () => {
    const a = da.random.defaultRng(7);
    const b = da.random.defaultRng(7);
    const first = both(a.random([100]));
    expect(both(b.random([100]))).toEqual(first);
    expect(both(a.random([100]))).not.toEqual(first);
    expect(both(da.random.defaultRng(8).random([100]))).not.toEqual(first);
  });

  test('random arrays read every way a kernel reads arrays give the reference bits', () => {
    const rng = da.random.defaultRng(123);
    const r = rng.random([6, 7]);
    const f = rng.random([5, 9], { dtype: 'float32' });
    const col = rng.random([6, 1]);
    for (const x of [
      r, r.T, r.get('1:5, ::-2'), r.get('::2, 3'), r.reshape([42]), r.T.reshape([42]), r.mul(col), col.broadcastTo([6, 7]).add(r),
      r.max({ axis: 1, keepdims: true }), f.mul(2).astype('float64'), f.T.add(1), da.concat([r, r.get('0:1')]), rng.random([]),
      rng.random([0]), rng.random([3, 0, 2]).sum({ axis: 1 }), da.where(r.gt(0.5), r, col),
      // argmin and argmax are host steps: the draw must be stored for them.
      r.argmax(), r.argmin({ axis: 1 }), r.mul(2).argmax({ axis: 0 }),
    ]) both(x);
    for (const x of [r.sum({ axis: 0 }), r.sum(), f.sum({ axis: 0 }), r.matmul(r.T), r.T.mean({ axis: 1 })]) both(x, true);
  });

  test('lengths around the vector width, odd starts, and results stored from a kernel', () => {
    const rng = da.random.defaultRng(5);
    for (const n of [1, 2, 3, 4, 5, 7, 8, 9, 17, 33, 1000, 4099]) {
      const x = rng.random([n]);
      both(x);
      both(x.get('1:'));
      both(rng.random([n], { dtype: 'float32' }).get('3:'));
    }
  });

  test('marked outputs, pins and pinCse of random arrays', async () => {
    const rng = da.random.defaultRng(9);
    const u = rng.random([1000]);
    const v = rng.random([1000]).pin();
    const w = rng.random([1000]).pinCse();
    const y = u.output('u').add(v).mul(w).output('y');
    da.configure({ backend: 'reference' });
    const ref = (await y.execute()) as Record<string, da.StdNdarray>;
    da.configure({ backend: 'wasm' });
    const got = (await y.execute()) as Record<string, da.StdNdarray>;
    expect(Array.from(got['y']!.data as Float64Array)).toEqual(Array.from(ref['y']!.data as Float64Array));
    expect(Array.from(got['u']!.data as Float64Array)).toEqual(Array.from(ref['u']!.data as Float64Array));
  });

  test('the same values on 1, 2 and 4 threads', () => {
    const rng = da.random.defaultRng(11);
    const x = rng.random([300_001]);
    const y = x.mul(x).sum();
    da.configure({ threads: 1 });
    const one = [values(x, 'wasm'), values(y, 'wasm')];
    for (const threads of [2, 4]) {
      da.configure({ threads });
      expect([values(x, 'wasm'), values(y, 'wasm')]).toEqual(one);
    }
    da.configure({ threads: initial.threads });
    expect(one[0]).toEqual(values(x, 'reference'));
  });

  test('uniform, normal and integers: ranges, moments and counts', () => {
    const rng = da.random.defaultRng(2024);
    const n = 200_000;
    const u = both(rng.uniform(-2, 3, [n]));
    expect(u.every((x) => x >= -2 && x < 3)).toBe(true);
    const z = values(rng.normal(1, 2, [n]), 'wasm');
    const mean = z.reduce((a, b) => a + b, 0) / n;
    const sd = Math.sqrt(z.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
    // 6 standard errors: a failure is a bug, not bad luck.
    expect(Math.abs(mean - 1)).toBeLessThan(6 * 2 / Math.sqrt(n));
    expect(Math.abs(sd - 2)).toBeLessThan(6 * 2 / Math.sqrt(2 * n));
    const k = rng.integers(-3, 4, [n]);
    expect(k.dtype).toBe('int32');
    const counts = new Map<number, number>();
    for (const v of both(k)) counts.set(v, (counts.get(v) ?? 0) + 1);
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual([-3, -2, -1, 0, 1, 2, 3]);
    const chi2 = [...counts.values()].reduce((s, c) => s + (c - n / 7) ** 2 / (n / 7), 0);
    expect(chi2).toBeLessThan(40); // 6 degrees of freedom: p < 1e-6
    expect(both(rng.integers(5, undefined, [50], { dtype: 'uint8' })).every((v) => v >= 0 && v < 5)).toBe(true);
    expect(new Set(both(rng.integers(0, 1, [50], { endpoint: true })))).toEqual(new Set([0, 1]));
    const arrayParams = rng.uniform(da.array([0, 10]), 11, [3, 2]);
    expect(arrayParams.shape).toEqual([3, 2]);
    expect(both(arrayParams).every((v, i) => v >= (i % 2 === 0 ? 0 : 10) && v < 11)).toBe(true);
  });

  test('bad arguments say what was wrong', () => {
    expect(() => da.random.defaultRng(-1)).toThrow(/non-negative integer/);
    expect(() => da.random.defaultRng(1.5)).toThrow(/non-negative integer/);
    expect(() => da.random.defaultRng(2n ** 64n)).toThrow(/0\.\.2\^64-1/);
    const rng = da.random.defaultRng(1);
    expect(() => rng.random([2], { dtype: 'int32' } as never)).toThrow(/'float64' or 'float32'/);
    expect(() => rng.integers(3, 3)).toThrow(/low \(3\) must be below high \(3\)/);
    expect(() => rng.integers(0, 300, [2], { dtype: 'uint8' })).toThrow(/does not fit in uint8/);
    expect(() => rng.uniform(da.zeros([4]), 1, [3])).toThrow(/uniform's parameters and shape could not be broadcast/);
    expect(() => da.compile((x) => x.add(rng.random([2])), [da.placeholder([2], 'float64')])).toThrow(/cannot draw random numbers/);
  });
});

describe('the Monte Carlo estimate of pi', () => {
  test('10^8 points run as one kernel that reads and writes no array', () => {
    da.configure({ backend: 'wasm' });
    const rng = da.random.defaultRng(42);
    const n = 1e8;
    const u = rng.random([n]);
    const v = rng.random([n]);
    const pi = u.mul(u).add(v.mul(v)).lt(1).mean().mul(4);
    const plan = pi.explain();
    const kernels = plan.split('\n').filter((l) => /^ {2}kernel \d+ over/.test(l));
    expect(kernels.filter((l) => l.includes('(100000000,)'))).toEqual([
      expect.stringMatching(/over \(100000000,\): multiply, multiply, add, less, mean; reads %\d+, %\d+, %\d+; writes nothing;/) as unknown as string,
    ]);
    // Nothing the size of the points is held anywhere: every buffer is a scalar.
    expect(plan).toMatch(/buffers: 1 result\(s\) 8 B, \d+ temporary \d+ B/);
  });

  test('a smaller run estimates pi, the same on both backends', () => {
    const rng = da.random.defaultRng(42);
    const n = 200_000;
    const u = rng.random([n]);
    const v = rng.random([n]);
    const [pi] = both(u.mul(u).add(v.mul(v)).lt(1).mean().mul(4));
    expect(Math.abs(pi! - Math.PI)).toBeLessThan(6 * Math.sqrt((Math.PI * (4 - Math.PI)) / n));
  });
});
