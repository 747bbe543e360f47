// argmin and argmax as kernels (one pass keeping each value's position; for
// 64-bit integers the extreme, then the first position that holds it,
// positions from an iota no memory holds) against the reference
// evaluator's own loop: random shapes, axes (none, negative, keepdims), views,
// dtypes, ties, NaN, infinities and signed zeros, on 1 and 2 workers.
import { afterAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import * as da from '../index.js';

type Layout = 'plain' | 'transposed' | 'reversed' | 'strided';
const DTYPES: da.DType[] = ['float64', 'float32', 'int32', 'uint8', 'int16', 'bool', 'uint32'];
/** Few distinct values, so ties are common; NaN, infinities and both zeros among the floats. */
const FLOATS = [0, -0, 1, -1, 2, NaN, Infinity, -Infinity, 2, 1];

function operand(shape: readonly number[], dtype: da.DType, layout: Layout, seed: number, nans: boolean): da.DeferredArray {
  const count = (s: readonly number[]): number => s.reduce((a, b) => a * b, 1);
  const value = (i: number): number | boolean => {
    const k = (i * 7 + seed) % FLOATS.length;
    if (dtype === 'bool') return k % 3 === 0;
    if (dtype.startsWith('float')) {
      const v = FLOATS[k]!;
      return Number.isNaN(v) && !nans ? 3 : v;
    }
    const w = (i * 13 + seed * 5) % 9;
    return dtype.startsWith('u') ? w : w - 4;
  };
  const make = (s: readonly number[]): da.DeferredArray => da.array(Array.from({ length: count(s) }, (_, i) => value(i)) as number[], { dtype }).reshape([...s]);
  if (shape.length === 0 || count(shape) === 0) return make(shape);
  switch (layout) {
    case 'plain': return make(shape);
    case 'transposed': return make([...shape].reverse()).transpose();
    case 'reversed': return make(shape).get(shape.map(() => '::-1').join(','));
    case 'strided': return make(shape.map((d) => d * 2)).get(shape.map(() => '::2').join(','));
  }
}

const program = fc.record({
  shape: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 0, maxLength: 3 }),
  dtype: fc.constantFrom(...DTYPES),
  layout: fc.constantFrom<Layout>('plain', 'plain', 'transposed', 'reversed', 'strided'),
  axis: fc.option(fc.integer({ min: -3, max: 2 }), { nil: undefined }),
  keepdims: fc.boolean(),
  op: fc.constantFrom('argmax', 'argmin') as fc.Arbitrary<'argmax' | 'argmin'>,
  nans: fc.boolean(),
  then: fc.constantFrom('none', 'add'),
  seed: fc.nat(50),
});

afterAll(async () => {
  await da.shutdown();
});

describe.each([1, 2])('argmin and argmax on %i worker(s)', (threads) => {
  test('the reference evaluator\'s indices, for any shape, axis, view, dtype and special value', async () => {
    const before = da.configure();
    da.configure({ threads, inlineThreshold: 0 });
    try {
      await fc.assert(fc.asyncProperty(program, async (p) => {
        const x = operand(p.shape, p.dtype, p.layout, p.seed, p.nans);
        const axis = p.axis === undefined || p.shape.length === 0 ? undefined : ((p.axis % p.shape.length) + p.shape.length) % p.shape.length;
        let y = x[p.op](axis === undefined ? { keepdims: p.keepdims } : { axis, keepdims: p.keepdims });
        if (p.then === 'add') y = y.add(1);
        da.configure({ backend: 'reference' });
        const want = y.executeSync() as da.StdNdarray;
        da.configure({ backend: 'wasm' });
        const sync = y.executeSync() as da.StdNdarray;
        const pooled = (await y.execute()) as da.StdNdarray;
        const list = (r: da.StdNdarray): number[] => Array.from(r.data as Int32Array);
        expect([y.dtype, [...sync.shape]]).toEqual([y.dtype, [...want.shape]]);
        expect(list(sync)).toEqual(list(want));
        expect(list(pooled)).toEqual(list(want));
      }), { numRuns: 200, seed: 20261126 });
    } finally {
      da.configure({ backend: before.backend, threads: before.threads, inlineThreshold: before.inlineThreshold });
    }
  }, 120_000);
});

describe.each([1, 2])('long runs, cut into pieces by blocks, on %i worker(s)', (threads) => {
  test('the first extreme, the first NaN, ties across pieces: the reference evaluator\'s indices', async () => {
    const before = da.configure();
    da.configure({ threads, inlineThreshold: 0 });
    try {
      const n = 3 * 50_001;
      for (const dtype of ['float64', 'float32', 'int32', 'uint8', 'bool'] as const) {
        // Few distinct values, so the extreme recurs in many pieces; a NaN late in one row.
        const data = Array.from({ length: n }, (_, i) => (i * 7919) % 13);
        if (dtype.startsWith('float')) data[2 * 50_001 + 40_000] = NaN;
        const x = da.array(data, { dtype });
        for (const make of [() => x.argmax(), () => x.reshape([3, 50_001]).argmax({ axis: 1 }), () => x.reshape([3, 50_001]).argmin({ axis: 1 }),
          () => x.get('::-1').reshape([3, 50_001]).argmax({ axis: -1, keepdims: true }),
          () => x.reshape([3, 50_001]).argmax({ axis: 0 }), () => x.reshape([50_001, 3]).argmin({ axis: 0 })]) {
          const y = make();
          da.configure({ backend: 'reference' });
          const want = Array.from((y.executeSync() as da.StdNdarray).data as Int32Array);
          da.configure({ backend: 'wasm' });
          expect(Array.from((y.executeSync() as da.StdNdarray).data as Int32Array)).toEqual(want);
          expect(Array.from(((await y.execute()) as da.StdNdarray).data as Int32Array)).toEqual(want);
        }
      }
    } finally {
      da.configure({ backend: before.backend, threads: before.threads, inlineThreshold: before.inlineThreshold });
    }
  }, 60_000);
});

test('NumPy\'s answers: the first of equal extremes, the first NaN, -0 and +0 equal', () => {
  const f = (v: number[], op: 'argmax' | 'argmin'): number => Number((da.array(v)[op]().executeSync() as da.StdNdarray).iget(0));
  expect(f([1, 3, 3, 2], 'argmax')).toBe(1);
  expect(f([1, NaN, 5, NaN], 'argmax')).toBe(1);
  expect(f([1, NaN, 5, NaN], 'argmin')).toBe(1);
  expect(f([0, -0, 0], 'argmax')).toBe(0);
  expect(f([-0, 0], 'argmin')).toBe(0);
  expect(f([-Infinity, Infinity, Infinity], 'argmax')).toBe(1);
  const m = da.array([[1, 9, 9], [7, 2, NaN]]);
  expect(Array.from((m.argmax({ axis: 1 }).executeSync() as da.StdNdarray).data as Int32Array)).toEqual([1, 2]);
  expect(Array.from((m.argmin({ axis: 0 }).executeSync() as da.StdNdarray).data as Int32Array)).toEqual([0, 1, 1]);
});

test('not left to the reference: one kernel, or for int64 the extreme and the search', () => {
  const x = da.wrap(Float64Array.from({ length: 1000 }, (_, i) => Math.sin(i))).reshape([20, 50]);
  const kernels = (y: da.DeferredArray): string => /\((\d+) fused kernel/.exec(y.explain())?.[1] ?? 'none';
  expect(kernels(x.argmax())).toBe('1');
  expect(kernels(x.argmin({ axis: 1 }))).toBe('1');
  expect(kernels(x.argmin({ axis: 0 }))).toBe('1');
  expect(x.argmax({ axis: 1 }).explain()).toMatch(/kernel 0 over \(20, 50\): argmax; reads %\d+; writes nothing; reduces to %\d+/);
  // Along axis 0 a column kernel, each column a lane.
  expect(x.argmax({ axis: 0 }).explain({ kernels: true })).toMatch(/kernel 0: 2-d iteration space, vectorised as f64x2/);
  expect(kernels(x.greater(0.5).argmax({ axis: 1 }))).toBe('1');
  // int64: the extreme, the search and the cast, each a kernel.
  expect(Number(kernels(x.astype('int64').argmax({ axis: 0 })))).toBeGreaterThanOrEqual(2);
});

test('a compiled float32 argmax carried past 2^24 positions is planned again there, with exact positions', () => {
  const n = da.size('n');
  const f = da.compile((x) => x.argmax(), [da.placeholder([n], 'float32')]);
  const first = (r: unknown): number => Number((r as da.StdNdarray).iget(0));
  expect(first(f.sync(Float32Array.from([1, 5, 2])))).toBe(1);
  const big = new Float32Array(2 ** 24 + 3);
  big[2 ** 24 + 1] = 7;
  expect(first(f.sync(big))).toBe(2 ** 24 + 1);
}, 60_000);

test('the maximum and its position over one axis share one pass, or one maximum; a position asked for twice is found once', () => {
  const x = da.wrap(Float64Array.from({ length: 60 }, (_, i) => Math.cos(i))).reshape([6, 10]);
  const count = (text: string, what: RegExp): number => text.match(what)?.length ?? 0;
  const expected = (rows: number, cols: number, at: (r: number, j: number) => number): number[] => Array.from({ length: rows }, (_, r) => {
    const row = Array.from({ length: cols }, (_, j) => Math.cos(at(r, j)));
    const m = Math.max(...row);
    return m + row.indexOf(m);
  });
  // Along the last axis: one kernel reduces both.
  const both = x.max({ axis: 1 }).add(x.argmax({ axis: 1 }));
  expect(count(both.explain(), /: max, argmax; reads %\d+; writes nothing/g)).toBe(1);
  expect(Array.from((both.executeSync() as da.StdNdarray).data as Float64Array)).toEqual(expected(6, 10, (r, j) => r * 10 + j));
  // Along axis 0 too, in a column kernel.
  const columns = x.max({ axis: 0 }).add(x.argmax({ axis: 0 }));
  expect(count(columns.explain(), /: max, argmax; reads %\d+; writes nothing/g)).toBe(1);
  expect(Array.from((columns.executeSync() as da.StdNdarray).data as Float64Array)).toEqual(expected(10, 6, (c, r) => r * 10 + c));
  // int64's two passes: the maximum asked for is theirs, and a position asked for twice is found once.
  const w = x.mul(1000).astype('int64');
  const int64 = w.max({ axis: 0 }).add(w.argmax({ axis: 0 }));
  expect(count(int64.explain(), /= max\(/g)).toBe(1);
  const twice = w.argmin({ axis: 0 }).add(w.argmin({ axis: 0 }));
  expect(count(twice.explain(), /= iota/g)).toBe(1);
  const flat = x.argmin().add(x.argmin());
  expect(Number((flat.executeSync() as da.StdNdarray).iget(0))).toBe(2 * 22);
});
