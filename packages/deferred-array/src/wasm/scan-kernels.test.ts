// cumsum and cumprod as kernels: fused with the elementwise chain they scan,
// whole lines per block where a line fits in one (so each is accumulated from
// its first element, NumPy's order and rounding, bit for bit the reference),
// and longer lines cut into pieces that a first launch totals, each piece then
// starting from the running value before it: the same bits on any number of
// workers.
import * as da from '../index.js';

const initial = da.configure();
beforeAll(() => { da.configure({ backend: 'wasm' }); });
afterAll(() => { da.configure({ backend: initial.backend, threads: initial.threads, inlineThreshold: initial.inlineThreshold }); });

const values = (y: da.DeferredArray | da.StdNdarray): number[] => {
  const nd = (y instanceof da.DeferredArray ? y.executeSync() : y) as da.StdNdarray;
  return Array.from(nd.data as ArrayLike<number>);
};

function onReference(make: () => da.DeferredArray): number[] {
  da.configure({ backend: 'reference' });
  try {
    return values(make());
  } finally {
    da.configure({ backend: 'wasm' });
  }
}

/**
 * A float64 array whose running sums round at nearly every step, made of
 * IEEE-exact ops (and mod, which both backends compute with the same
 * function), so both backends scan the same bits.
 */
const wobbly = (n: number, seed = 1): da.DeferredArray => da.arange(n).mul(0.37 + seed).mod(7.3).sub(3.1).mul(1e3);

/** The first index where two runs differ in their bits, or -1 (a full diff of 10^5 numbers would take minutes). */
const firstDifference = (a: readonly number[], b: readonly number[]): number =>
  (a.length !== b.length ? Math.min(a.length, b.length) : a.findIndex((v, i) => !Object.is(v, b[i])));

describe('scans as kernels', () => {
  test('a scan is one kernel with the chain it reads: no host step, no temporary', () => {
    const x = wobbly(1000);
    const y = da.cumsum(x.mul(2).add(1));
    const text = y.explain();
    expect(text).toMatch(/1 fused kernel/);
    expect(text).toMatch(/cumsum/);
    expect(text).toMatch(/buffers: 1 result\(s\) 7\.8 KiB, \d+ temporary \d+ B/); // the scalars' 8 bytes each, no array
    expect(values(y)).toEqual(onReference(() => da.cumsum(wobbly(1000).mul(2).add(1))));
  });

  test.each([
    ['lines along the last axis', [300, 1000], 1],
    ['lines along the first axis', [1000, 300], 0],
    ['lines of one block exactly', [3, 16384], 1],
    ['one line per element', [5000, 1], 1],
  ] as const)('%s that fit in a block are bit for bit NumPy\'s sequential order (the reference)', (_, shape, axis) => {
    const make = (): da.DeferredArray => da.cumsum(wobbly(shape[0] * shape[1]).reshape([...shape]), { axis });
    expect(firstDifference(values(make()), onReference(make))).toBe(-1);
    const prod = (): da.DeferredArray => da.cumprod(da.arange(shape[0] * shape[1]).mod(5).mul(0.25).add(0.6).reshape([...shape]), { axis });
    expect(firstDifference(values(prod()), onReference(prod))).toBe(-1);
  });

  test('float32 scans accumulate in float32, as NumPy\'s', () => {
    const make = (): da.DeferredArray => da.cumsum(wobbly(40000).astype('float32').reshape([20, 2000]), { axis: 1 });
    const got = make().executeSync() as da.StdNdarray;
    expect(got.dtype).toBe('float32');
    expect(firstDifference(values(got), onReference(make))).toBe(-1);
  });

  test('lines longer than a block are exact for integers and within rounding for floats', () => {
    const n = 100003;
    const ints = (): da.DeferredArray => da.cumsum(da.arange(n).mul(7).mod(13).sub(6).astype('int16'));
    const got = ints().executeSync() as da.StdNdarray;
    expect(got.dtype).toBe('float64');
    expect(firstDifference(values(got), onReference(ints))).toBe(-1);
    expect(ints().explain()).toMatch(/cumsum/);
    const floats = values(da.cumsum(wobbly(n)));
    const want = onReference(() => da.cumsum(wobbly(n)));
    const scale = want.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    floats.forEach((v, i) => expect(Math.abs(v - want[i]!)).toBeLessThanOrEqual(1e-12 * scale));
    // A product of ones and twos past 2^64, then past float64's range: exact, then Infinity, as the reference.
    const prod = (): da.DeferredArray => da.cumprod(da.arange(40000).mod(2).add(1).reshape([2, 20000]), { axis: 1 });
    expect(firstDifference(values(prod()), onReference(prod))).toBe(-1);
  });

  test.each([1, 3])('long lines give the same bits on the calling thread and on %i workers', async (threads) => {
    da.configure({ threads, inlineThreshold: 0 });
    try {
      // Lines of whole blocks (4 x 16384) are chained four blocks at a time; so is one long line.
      for (const [shape, axis] of [[[200003], 0], [[3, 70001], 1], [[50001, 2], 0], [[2, 65536], 1], [[3000, 700], 0]] as const) {
        const y = (): da.DeferredArray => da.cumsum(wobbly(shape.reduce((a: number, b: number) => a * b, 1)).reshape([...shape]), { axis });
        const sync = values(y());
        const pooled = values((await y().execute()) as da.StdNdarray);
        expect(firstDifference(pooled, sync)).toBe(-1);
      }
    } finally {
      da.configure({ threads: initial.threads, inlineThreshold: initial.inlineThreshold });
    }
    // Five lines of up to 200,003 elements, each built twice and compared: 3-4 s on an idle 2-core machine, more under CI's load.
  }, 60_000);

  test.each([
    ['float64 over axis 0', [37, 19], 0, 'float64', /vectorised as f64x2/],
    ['float32 over axis 0', [40, 13], 0, 'float32', /vectorised as f32x4/],
    ['int32 read, float64 accumulated', [33, 6], 0, 'int32', /vectorised as f64x2/],
    ['the first axis of three', [7, 5, 9], 0, 'float64', /vectorised as f64x2/],
    // Read a lane per column, but written across the row-major result with a stride: the scalar loop.
    ['a transposed matrix along its axis 1', [12, 30], 1, 'float64', /2-d iteration space, scalar loop/],
  ] as const)('a scan along an axis outer in memory runs across columns, bit for bit the reference: %s', (_, shape, axis, dtype, lanes) => {
    const size = shape.reduce((a: number, b: number) => a * b, 1);
    // Values made once, so that the scan is the plan's one kernel.
    const data = dtype === 'int32' ? Int32Array.from({ length: size }, (_, i) => ((i * 37) % 101) - 50)
      : (dtype === 'float32' ? Float32Array : Float64Array).from(values(wobbly(size)));
    const source = (): da.DeferredArray => {
      const x = da.wrap(data);
      // The transposed case reads a row-major [30, 12] as [12, 30]: axis 1 is then outer in memory.
      return shape.length === 2 && axis === 1 ? x.reshape([shape[1], shape[0]]).transpose() : x.reshape([...shape]);
    };
    const make = (): da.DeferredArray => da.cumsum(source(), { axis });
    expect(make().explain({ kernels: true })).toMatch(lanes);
    expect(firstDifference(values(make()), onReference(make))).toBe(-1);
    const prod = (): da.DeferredArray => da.cumprod(source().astype('float64').mul(0.01).add(1), { axis });
    expect(firstDifference(values(prod()), onReference(prod))).toBe(-1);
  });

  test('special values run down the columns: NaN, infinities, -0', () => {
    const specials = [NaN, Infinity, -Infinity, -0, 0, 1e308, -1e308, 5e-324, 1, 2.5];
    const make = (): da.DeferredArray => da.cumsum(da.array(Array.from({ length: 60 }, (_, i) => specials[(i * 7) % specials.length]!)).reshape([6, 10]), { axis: 0 });
    expect(firstDifference(values(make()), onReference(make))).toBe(-1);
    const prod = (): da.DeferredArray => da.cumprod(da.array(Array.from({ length: 60 }, (_, i) => specials[(i * 3) % specials.length]!)).reshape([12, 5]), { axis: 0 });
    expect(firstDifference(values(prod()), onReference(prod))).toBe(-1);
  });

  test.each([1000, 70000, 131072])('a scan counts each element\'s condition once (%i elements, calling thread and pool)', async (n) => {
    // The look-back computes the chain twice (totals, then the scan); only the scan counts.
    const a = da.wrap(Int32Array.from({ length: n }, (_, i) => i));
    const b = da.wrap(Int32Array.from({ length: n }, (_, i) => (i % 1000 === 0 ? 0 : 3)));
    const zeros = Math.ceil(n / 1000);
    const x = da.wrap(Float64Array.from({ length: n }, (_, i) => (i % 997 === 0 ? NaN : i / 3)));
    da.configure({ errors: { divide: 'raise', invalid: 'raise' }, inlineThreshold: 0 });
    try {
      for (const run of [(y: da.DeferredArray) => y.executeSync(), (y: da.DeferredArray) => y.execute()]) {
        await expect((async () => run(da.cumsum(da.floorDivide(a, b))))()).rejects.toThrow(`(${zeros} element(s)`);
        await expect((async () => run(da.cumsum(x.astype('int32'))))()).rejects.toThrow(`astype(int32): ${Math.ceil(n / 997)} NaN`);
      }
    } finally {
      da.configure({ errors: { divide: initial.errors.divide, invalid: initial.errors.invalid }, inlineThreshold: initial.inlineThreshold });
    }
  });

  test('integer products have no -0, and nancumsum fuses its where()', () => {
    expect(values(da.cumprod(da.array([0, -5, 3], { dtype: 'int32' })))).toEqual([0, 0, 0]);
    expect(Object.is(values(da.cumprod(da.array([0, -5, 3], { dtype: 'int32' })))[1], -0)).toBe(false);
    const x = da.array([1, NaN, 2, NaN, 3]);
    expect(values(da.nancumsum(x))).toEqual([1, 1, 3, 3, 6]);
    expect(da.nancumsum(x).explain()).toMatch(/1 fused kernel/);
  });

  test('a scan of a chain that reads a pin()ned value takes the chain\'s stored value (a scan kernel has no per-block temporaries)', () => {
    const make = (): da.DeferredArray => {
      const t = wobbly(20000).mul(2).reshape([4, 5000]).pin();
      return da.cumsum(t.add(t), { axis: 1 });
    };
    expect(firstDifference(values(make()), onReference(make))).toBe(-1);
    expect(make().explain()).toMatch(/kernel \d+ over \(4, 5000\): cumsum; reads %\d+;/);
  });

  test('empty arrays and empty lines', () => {
    expect(values(da.cumsum(da.zeros([0])))).toEqual([]);
    expect((da.cumsum(da.zeros([3, 0]), { axis: 0 }).executeSync() as da.StdNdarray).shape).toEqual([3, 0]);
    expect(values(da.cumsum(da.ones([0, 4]), { axis: 1 }))).toEqual([]);
  });
});
