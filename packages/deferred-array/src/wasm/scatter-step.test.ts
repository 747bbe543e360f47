// addAt and bincount by kernels-wasm's scatter routine give the reference
// evaluator's bits: random updates (every dtype the routine adds in, rows of
// one and several elements, repeated and negative indices of narrow integer
// dtypes, values per element, per row or one for all, read through views),
// an index out of range failing before anything is written, and values that
// are the target itself read as they were.
import fc from 'fast-check';
import * as da from '../index.js';

const initial = da.configure();
beforeAll(() => { da.configure({ backend: 'wasm' }); });
afterAll(() => { da.configure({ backend: initial.backend, threads: initial.threads }); });

const DTYPES = ['float64', 'float32', 'int64', 'uint64', 'int32', 'uint32', 'int16', 'uint16', 'int8', 'uint8'] as const;
type DT = (typeof DTYPES)[number];

const show = (nd: da.StdNdarray): string[] => Array.from(nd.data as ArrayLike<number | bigint>, (v) => (Object.is(v, -0) ? '-0' : String(v)));

function onBoth(make: () => da.DeferredArray): [string[], string[]] {
  const got = show(make().executeSync() as da.StdNdarray);
  da.configure({ backend: 'reference' });
  try {
    return [got, show(make().executeSync() as da.StdNdarray)];
  } finally {
    da.configure({ backend: 'wasm' });
  }
}

interface Case { dtype: DT; rows: number; inner: number; indices: number[]; indexType: 'int32' | 'int16' | 'uint8'; values: 'full' | 'row' | 'one' | 'reversed'; seed: number }

const arbitraryCase: fc.Arbitrary<Case> = fc.record({
  dtype: fc.constantFrom(...DTYPES),
  rows: fc.integer({ min: 1, max: 6 }),
  inner: fc.constantFrom(1, 1, 3),
  indices: fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 40 }),
  indexType: fc.constantFrom('int32', 'int16', 'uint8'),
  values: fc.constantFrom('full', 'row', 'one', 'reversed'),
  seed: fc.nat(100),
});

function update(c: Case): da.DeferredArray {
  const unsigned = c.indexType === 'uint8';
  const idx = c.indices.map((i) => (unsigned ? i % c.rows : (i % (2 * c.rows)) - c.rows));
  const shape = c.inner === 1 ? [c.rows] : [c.rows, c.inner];
  const x = da.arange(c.rows * c.inner).mul(37).add(c.seed).mod(251).sub(120).astype(c.dtype).reshape(shape).add(0).astype(c.dtype);
  const m = idx.length;
  const per = c.inner === 1 ? [m] : [m, c.inner];
  const all = da.arange(Math.max(1, m) * c.inner).mul(53).mod(211).add(0.5).astype(c.dtype);
  const values = c.values === 'one' ? da.array([7.25]).astype(c.dtype)
    : c.values === 'row' ? all.get(`:${c.inner}`)
      : c.values === 'reversed' ? all.get(`:${m * c.inner}`).get('::-1').reshape(per)
        : all.get(`:${m * c.inner}`).reshape(per);
  da.addAt(x, da.array(idx, { dtype: 'int32' }).astype(c.indexType), values);
  return x;
}

describe('addAt and bincount by the scatter routine', () => {
  test("random updates give the reference's bits", () => {
    fc.assert(fc.property(arbitraryCase, (c) => {
      const [got, want] = onBoth(() => update(c));
      expect(got).toEqual(want);
    }), { numRuns: 150 });
  });

  test('bincount, with and without weights and minlength, of every integer dtype', () => {
    for (const dtype of ['int32', 'int64', 'uint8', 'int16', 'uint32', 'bool'] as const) {
      const x = da.arange(300).mul(7919).mod(dtype === 'bool' ? 2 : 97).astype(dtype);
      for (const options of [{}, { minlength: 150 }, { weights: da.arange(300).mul(0.1) }]) {
        const [got, want] = onBoth(() => da.bincount(x, options));
        expect(got).toEqual(want);
      }
    }
    expect(show(da.bincount(da.array([], { dtype: 'int32' }), { minlength: 3 }).executeSync() as da.StdNdarray)).toEqual(['0', '0', '0']);
    // Many more values than bins: integer counts spread over copies of the bins, then added.
    for (const dtype of ['int32', 'uint8', 'int16'] as const) {
      const many = da.arange(5003).mul(7919).mod(53).astype(dtype);
      const [got, want] = onBoth(() => da.bincount(many));
      expect(got).toEqual(want);
    }
  });

  test('many indices into few rows: a count launch, here and shared out over 2 workers, with the reference\'s bits', async () => {
    const m = (1 << 17) + 3;
    const idx = da.arange(m).mul(7919).mod(97).astype('int32');
    const cases: Array<() => da.DeferredArray> = [
      () => da.bincount(idx),
      () => da.bincount(idx.astype('uint8'), { minlength: 200 }),
      () => { const x = da.arange(97).astype('int16'); da.addAt(x, idx.sub(48), da.arange(m).mod(7).astype('int16')); return x; },
      () => { const x = da.zeros([97], { dtype: 'int64' }); da.addAt(x, idx, 3); return x; },
    ];
    const initialThreads = da.configure().threads;
    da.configure({ threads: 2, inlineThreshold: 0 });
    try {
      for (const make of cases) {
        const [got, want] = onBoth(make);
        expect(got).toEqual(want);
        const before = da.stats().pooled;
        expect(show(await make().execute() as da.StdNdarray)).toEqual(want);
        expect(da.stats().pooled).toBeGreaterThan(before);
      }
      // The first bad index named, the wrapped array untouched, here and on the pool.
      const data = Int32Array.from([1, 2, 3, 4]);
      const z = da.wrap(data);
      da.addAt(z, da.arange(m).mod(4).astype('int32').add(da.arange(m).equal(100000).astype('int32').mul(9)).add(da.arange(m).equal(120000).astype('int32').mul(-20)), 1);
      expect(() => z.executeSync()).toThrow(/addAt: index 9 is out of bounds for axis 0 with size 4/);
      await expect(z.execute()).rejects.toThrow(/addAt: index 9 is out of bounds for axis 0 with size 4/);
      expect(Array.from(data)).toEqual([1, 2, 3, 4]);
    } finally {
      da.configure({ threads: initialThreads, inlineThreshold: initial.inlineThreshold });
    }
  }, 30_000); // 2^17 indices through the reference evaluator too: seconds on a loaded 2-core machine

  test('an index out of range fails before anything is written; values that are the target are read as they were', () => {
    const x = da.array([1, 2, 3, 4], { dtype: 'int32' });
    da.addAt(x, da.array([0, 9, 1], { dtype: 'int32' }).add(0), 100);
    expect(() => x.executeSync()).toThrow(/addAt: index 9 is out of bounds for axis 0 with size 4/);
    // Many indices into few rows (counted into copies first): the first bad index named, the wrapped array untouched.
    for (const data of [Int32Array.from([1, 2, 3, 4]), Int8Array.from([1, 2, 3, 4]), BigInt64Array.from([1n, 2n, 3n, 4n])]) {
      const z = da.wrap(data);
      da.addAt(z, da.arange(200).mod(4).astype('int32').add(da.arange(200).eq(150).astype('int32').mul(-9)).add(da.arange(200).eq(170).astype('int32').mul(50)), 1);
      expect(() => z.executeSync()).toThrow(/addAt: index -7 is out of bounds for axis 0 with size 4/);
      expect(Array.from(data as ArrayLike<number | bigint>, String)).toEqual(['1', '2', '3', '4']);
    }
    const y = da.array([1, 2, 3, 4], { dtype: 'float64' });
    da.addAt(y, da.array([1, 1, 2, 3], { dtype: 'int32' }), y);
    expect(show(y.executeSync() as da.StdNdarray)).toEqual(['1', '5', '6', '8']);
  });
});
