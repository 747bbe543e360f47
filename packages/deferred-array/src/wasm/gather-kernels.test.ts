// take as a gather kernel: random takes (shapes, axes, modes, index and value
// dtypes, views of x and of the indices with negative and non-unit strides)
// give the reference evaluator's bits on the calling thread and on 1 and 2
// workers, and an index 'raise' cannot place fails the run as the reference's.
import fc from 'fast-check';
import * as da from '../index.js';
import { flatLength, throughView } from '../../test/views.js';
import { elementsOf } from '../../test/against-reference.js';
import type { View } from '../../test/views.js';

const initial = da.configure();
beforeAll(() => { da.configure({ backend: 'wasm' }); });
afterAll(() => { da.configure({ backend: initial.backend, threads: initial.threads, inlineThreshold: initial.inlineThreshold }); });

type Mode = 'raise' | 'wrap' | 'clip';
type ValueType = 'float64' | 'float32' | 'int32' | 'int16' | 'uint8' | 'bool';
type IndexType = 'int64' | 'uint64' | 'uint32' | 'int32' | 'int16' | 'int8' | 'uint8' | 'uint16';

interface Case {
  readonly shape: readonly number[];
  readonly dtype: ValueType;
  /** x read reversed along axis 0, or transposed, instead of as made. */
  readonly view: View;
  readonly axis: number | null;
  readonly mode: Mode;
  readonly indexType: IndexType;
  readonly indexShape: readonly number[];
  readonly seed: number;
  /** Indices read through a reversed view. */
  readonly reversedIndices: boolean;
}

const arbitraryCase: fc.Arbitrary<Case> = fc.record({
  shape: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 3 }),
  dtype: fc.constantFrom<ValueType>('float64', 'float32', 'int32', 'int16', 'uint8', 'bool'),
  view: fc.constantFrom<Case['view']>('none', 'reversed', 'transposed', 'strided'),
  axis: fc.option(fc.nat(2), { nil: null }),
  mode: fc.constantFrom<Mode>('raise', 'wrap', 'clip'),
  indexType: fc.constantFrom<IndexType>('int64', 'uint64', 'uint32', 'int32', 'int16', 'int8', 'uint8', 'uint16'),
  indexShape: fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 2 }),
  seed: fc.nat(1000),
  reversedIndices: fc.boolean(),
});

/** x of the case: values that differ everywhere (and NaN, -0 and Inf among the floats), as the view asks. */
function xOf(c: Case): da.DeferredArray {
  const size = c.shape.reduce((a, b) => a * b, 1);
  const n = flatLength(size, c.view);
  let x = da.arange(n).mul(1.25).sub(3).astype(c.dtype);
  if (c.dtype === 'float64' || c.dtype === 'float32') {
    x = da.where(da.arange(n).mod(7).equal(3), NaN, da.where(da.arange(n).mod(5).equal(1), -0, x));
    x = da.where(da.arange(n).equal(2), -Infinity, x).astype(c.dtype);
  }
  return throughView(x, c.shape, c.view);
}

/** The taken axis's length for the case (after its view). */
function axisLength(c: Case, x: da.DeferredArray): number {
  if (c.axis === null) return x.shape.reduce((a, b) => a * b, 1);
  return x.shape[Math.min(c.axis, x.shape.length - 1)]!;
}

/** Indices the mode places (for 'raise'), else anywhere in [-3n, 3n] (non-negative for unsigned types), computed so nothing is known at build time. */
function indicesOf(c: Case, n: number): da.DeferredArray {
  const count = c.indexShape.reduce((a, b) => a * b, 1);
  const unsigned = c.indexType.startsWith('uint');
  const span = c.mode === 'raise' ? (unsigned ? n : 2 * n) : 6 * n + 1;
  const lo = c.mode === 'raise' ? (unsigned ? 0 : -n) : unsigned ? 0 : -3 * n;
  const values = Array.from({ length: count }, (_, i) => lo + ((i * 7919 + c.seed * 104729) % span));
  const fits = values.map((v) => (c.indexType === 'int8' ? Math.max(-128, Math.min(127, v)) : v));
  let idx = da.wrap(Int32Array.from(fits)).add(0).astype(c.indexType).reshape([...c.indexShape]);
  if (c.reversedIndices && c.indexShape.length > 0) idx = idx.get('::-1');
  return idx;
}

function takeOf(c: Case): da.DeferredArray {
  const x = xOf(c);
  const axis = c.axis === null ? null : Math.min(c.axis, x.shape.length - 1);
  return da.take(x, indicesOf(c, axisLength(c, x)), { axis, mode: c.mode }).mul(1);
}

const bits = (nd: da.StdNdarray): unknown[] => elementsOf(nd).map((v) => (Object.is(v, -0) ? '-0' : v));

function onReference(c: Case): da.StdNdarray {
  da.configure({ backend: 'reference' });
  try {
    return takeOf(c).executeSync() as da.StdNdarray;
  } finally {
    da.configure({ backend: 'wasm' });
  }
}

describe('take as a gather kernel', () => {
  test('runs as a kernel, not a host step: in a fused group (int32 rows in i32x4 lanes), or (int64 x) a gather kernel of its own', () => {
    const idx = da.wrap(Int32Array.from([3, 0, -1])).add(0);
    const y = da.take(da.arange(20).reshape([5, 4]), idx, { axis: 0 });
    expect(Array.from(y.executeSync().data as Int32Array)).toEqual([12, 13, 14, 15, 0, 1, 2, 3, 16, 17, 18, 19]);
    expect(y.explain({ kernels: true })).toMatch(/kernel 0 over \(3, 4\): take; .*\n[^]*kernel 0: 2-d iteration space, vectorised as i32x4/);
    const wide = da.take(da.wrap(BigInt64Array.from([5n, 6n, 7n])), da.wrap(Int32Array.from([2, 0])));
    expect(Array.from(wide.executeSync().data as BigInt64Array)).toEqual([7n, 5n]);
    expect(wide.explain({ kernels: true })).toMatch(/take along axis 0 into \(2\): gather kernel, scalar loop/);
  });

  test('random takes give the reference\'s bits, executeSync and on 1 and 2 workers', async () => {
    await fc.assert(fc.asyncProperty(arbitraryCase, async (c) => {
      const want = bits(onReference(c));
      expect(bits(takeOf(c).executeSync() as da.StdNdarray)).toEqual(want);
      for (const threads of [1, 2]) {
        da.configure({ threads, inlineThreshold: 0 });
        try {
          expect(bits(await takeOf(c).execute() as da.StdNdarray)).toEqual(want);
        } finally {
          da.configure({ threads: initial.threads, inlineThreshold: initial.inlineThreshold });
        }
      }
    }), { numRuns: 40 });
  }, 120000);

  test('a long take runs its blocks on the pool, the same bits as the reference', async () => {
    const n = 1 << 17;
    const idx = (): da.DeferredArray => da.arange(n).mul(7919).mod(n).astype('int32');
    const make = (): da.DeferredArray => da.take(da.arange(n).mul(0.5), idx());
    da.configure({ threads: 2, inlineThreshold: 0 });
    try {
      const pooled = da.stats().pooled;
      const got = await make().execute() as da.StdNdarray;
      expect(da.stats().pooled).toBeGreaterThan(pooled);
      da.configure({ backend: 'reference' });
      const want = make().executeSync() as da.StdNdarray;
      da.configure({ backend: 'wasm' });
      expect(Array.from(got.data as Float64Array)).toEqual(Array.from(want.data as Float64Array));
    } finally {
      da.configure({ backend: 'wasm', threads: initial.threads, inlineThreshold: initial.inlineThreshold });
    }
  });

  test.each([1, 2])('an index raise cannot place fails the run as the reference does, on %i worker(s), and leaves out untouched', async (threads) => {
    const idx = (): da.DeferredArray => da.wrap(Int32Array.from([1, 2, 5, -7, 0])).add(0);
    const x = da.arange(15).reshape([5, 3]);
    const out = new Int32Array(15);
    expect(() => da.take(x, idx(), { axis: 1 }).executeSync()).toThrow('take: index 5 is out of bounds for axis 1 with size 3');
    da.configure({ threads, inlineThreshold: 0 });
    try {
      await expect(da.take(x, idx(), { axis: 1 }).execute()).rejects.toThrow('take: index 5 is out of bounds for axis 1 with size 3');
      await expect(da.take(x, idx(), { axis: 1 }).get(':, :3').execute({ out })).rejects.toThrow(/index 5 is out of bounds/);
      expect(Array.from(out)).toEqual(new Array(15).fill(0));
    } finally {
      da.configure({ threads: initial.threads, inlineThreshold: initial.inlineThreshold });
    }
    // Nothing was kept from the failed runs: the next take is right.
    expect(Array.from(da.take(x, da.wrap(Int32Array.from([2, 0])).add(0), { axis: 1 }).executeSync().data as Int32Array))
      .toEqual([2, 0, 5, 3, 8, 6, 11, 9, 14, 12]);
  });

  test('constant indices are checked when the take is built up to 65,536 of them, and as it runs past that', () => {
    const x = da.arange(10);
    const few = Int32Array.from({ length: 100 }, (_, i) => i % 10);
    few[50] = 12;
    expect(() => da.take(x, da.wrap(few))).toThrow(da.ShapeError);
    const many = Int32Array.from({ length: 70000 }, (_, i) => i % 10);
    many[60000] = -11;
    const y = da.take(x, da.wrap(many));
    expect(() => y.executeSync()).toThrow(da.ExecutionError);
    expect(() => y.executeSync()).toThrow('take: index -11 is out of bounds for axis 0 with size 10');
  });

  test.each([1, 2])('int64 indices (NumPy\'s default) are gathered as they are, past 2^32 and 2^53, on %i worker(s)', async (threads) => {
    const x = da.arange(10).mul(1.5);
    const big = [3n, -1n, 9n, -10n, 2n ** 40n + 3n, -(2n ** 62n) - 7n, 9007199254740993n, -(2n ** 63n), 2n ** 63n - 1n];
    const idx = (): da.DeferredArray => da.wrap(BigInt64Array.from(big)).add(0n);
    const exact = (mode: 'wrap' | 'clip'): number[] => big.map((b) => 1.5 * Number(mode === 'wrap' ? ((b % 10n) + 10n) % 10n : b < 0n ? 0n : b >= 10n ? 9n : b));
    expect(da.take(x, idx(), { mode: 'wrap' }).explain({ kernels: true })).toMatch(/gather kernel/);
    for (const mode of ['wrap', 'clip'] as const) {
      da.configure({ backend: 'reference' });
      expect(Array.from(da.take(x, idx(), { mode }).executeSync().data as Float64Array)).toEqual(exact(mode));
      da.configure({ backend: 'wasm' });
    }
    da.configure({ threads, inlineThreshold: 0 });
    try {
      for (const mode of ['wrap', 'clip'] as const) {
        expect(Array.from((await da.take(x, idx(), { mode }).mul(1).execute() as da.StdNdarray).data as Float64Array)).toEqual(exact(mode));
      }
      await expect(da.take(x, idx()).execute()).rejects.toThrow('take: index 1099511627779 is out of bounds for axis 0 with size 10');
    } finally {
      da.configure({ threads: initial.threads, inlineThreshold: initial.inlineThreshold });
    }
  });

  test.each([1, 2])('uint64 indices are gathered as they are, past 2^63 too (never read as negative), on %i worker(s)', async (threads) => {
    const x = da.arange(10).mul(1.5);
    const big = [3n, 9n, 2n ** 40n + 3n, 9007199254740993n, 2n ** 63n, 2n ** 63n + 7n, 2n ** 64n - 1n];
    const idx = (): da.DeferredArray => da.wrap(BigUint64Array.from(big)).add(0n);
    const exact = (mode: 'wrap' | 'clip'): number[] => big.map((b) => 1.5 * Number(mode === 'wrap' ? b % 10n : b >= 10n ? 9n : b));
    expect(da.take(x, idx(), { mode: 'wrap' }).explain({ kernels: true })).toMatch(/gather kernel/);
    da.configure({ threads, inlineThreshold: 0 });
    try {
      for (const mode of ['wrap', 'clip'] as const) {
        const want = exact(mode);
        expect(Array.from(da.take(x, idx(), { mode }).executeSync().data as Float64Array)).toEqual(want);
        expect(Array.from((await da.take(x, idx(), { mode }).mul(1).execute() as da.StdNdarray).data as Float64Array)).toEqual(want);
        da.configure({ backend: 'reference' });
        expect(Array.from(da.take(x, idx(), { mode }).executeSync().data as Float64Array)).toEqual(want);
        da.configure({ backend: 'wasm' });
      }
      await expect(da.take(x, idx()).execute()).rejects.toThrow('take: index 1099511627779 is out of bounds for axis 0 with size 10');
      const last = (): da.DeferredArray => da.take(x, da.wrap(BigUint64Array.from([1n, 2n ** 64n - 1n])).add(0n));
      expect(() => last().executeSync()).toThrow(/index 18446744073709552000 is out of bounds/);
    } finally {
      da.configure({ backend: 'wasm', threads: initial.threads, inlineThreshold: initial.inlineThreshold });
    }
  });

  test('uint32 indices past 2^31 (a gather kernel, resolved in i64) and empty results (through the reference) take NumPy\'s answer', () => {
    const x = da.arange(5);
    const big = da.wrap(Uint32Array.from([4294967295, 1])).add(0);
    expect(da.take(x, big, { mode: 'wrap' }).explain({ kernels: true })).toMatch(/gather kernel/);
    expect(Array.from(da.take(x, big, { mode: 'wrap' }).executeSync().data as Int32Array)).toEqual([4294967295 % 5, 1]);
    expect(Array.from(da.take(x, big, { mode: 'clip' }).executeSync().data as Int32Array)).toEqual([4, 1]);
    expect(() => da.take(x, big).executeSync()).toThrow(/index 4294967295 is out of bounds/);
    const empty = da.zeros([0, 3]);
    expect(() => da.take(empty, da.wrap(Int32Array.from([7])).add(0), { axis: 1 }).executeSync()).toThrow(/index 7 is out of bounds for axis 1 with size 3/);
  });
});
