import fc from 'fast-check';
import * as da from '../index.js';

const asArray = (x: unknown): number[] => Array.from((x as da.StdNdarray).data as Float64Array);

/** Row-major values 0..n-1 of `shape`, as float64, each offset so operands differ. */
const iota = (shape: number[], offset: number) => {
  const n = shape.reduce((a, b) => a * b, 1);
  return da.reshape(da.wrap(Float64Array.from({ length: n }, (_, i) => i + offset)), shape);
};

/** Value of iota(shape, offset) at the broadcast index `idx` of the output. */
function readBroadcast(shape: number[], offset: number, idx: number[]): number {
  const lead = idx.length - shape.length;
  let flat = 0;
  shape.forEach((d, i) => {
    flat = flat * d + (d === 1 ? 0 : idx[lead + i]!);
  });
  return flat + offset;
}

function* indices(shape: number[]): Generator<number[]> {
  const n = shape.reduce((a, b) => a * b, 1);
  const idx = shape.map(() => 0);
  for (let k = 0; k < n; k++) {
    yield [...idx];
    for (let ax = shape.length - 1; ax >= 0; ax--) {
      if (++idx[ax]! < shape[ax]!) break;
      idx[ax] = 0;
    }
  }
}

/** Two shapes that broadcast: start from an output shape and knock axes out to 1 or drop leading ones. */
const broadcastPair = fc
  .array(fc.integer({ min: 0, max: 4 }), { minLength: 0, maxLength: 4 })
  .chain((out) => fc.tuple(
    fc.constant(out),
    fc.array(fc.boolean(), { minLength: out.length, maxLength: out.length }),
    fc.array(fc.boolean(), { minLength: out.length, maxLength: out.length }),
    fc.nat(out.length),
    fc.nat(out.length),
  ))
  .map(([out, ones1, ones2, drop1, drop2]) => {
    const a = out.map((d, i) => (ones1[i] ? 1 : d)).slice(drop1);
    const b = out.map((d, i) => (ones2[i] ? 1 : d)).slice(drop2);
    return { a, b };
  });

describe('broadcasting', () => {
  test('random broadcastable shapes: add matches an index-by-index computation', () => {
    fc.assert(fc.property(broadcastPair, ({ a, b }) => {
      const out = da.add(iota(a, 0), iota(b, 1000));
      const nd = out.ndim;
      const shape = out.shape;
      expect(nd).toBe(Math.max(a.length, b.length));
      const got = asArray(out.executeSync());
      const want = [...indices(shape)].map((idx) => readBroadcast(a, 0, idx) + readBroadcast(b, 1000, idx));
      expect(got).toEqual(want);
    }), { numRuns: 200 });
  });

  test('size-1 axes stretch, size-0 axes give empty results', () => {
    expect(da.add(da.zeros([3, 1]), da.zeros([1, 4])).shape).toEqual([3, 4]);
    expect(da.add(da.zeros([0, 1]), da.zeros([1, 4])).shape).toEqual([0, 4]);
    expect(da.add(da.zeros([1]), da.zeros([0])).shape).toEqual([0]);
    expect(asArray(da.add(da.zeros([2, 0]), 1).executeSync())).toEqual([]);
    expect(() => da.add(da.zeros([0]), da.zeros([2]))).toThrow(da.ShapeError);
  });

  test('0-d arrays broadcast against anything and stay 0-d alone', () => {
    const s = da.array(5);
    expect(s.shape).toEqual([]);
    expect(s.ndim).toBe(0);
    expect(s.size).toBe(1);
    expect(asArray(da.mul(s, da.array([1, 2])).executeSync())).toEqual([5, 10]);
    const r = da.add(s, s).executeSync() as da.StdNdarray;
    expect(r.shape).toEqual([]);
    expect(r.get()).toBe(10);
  });

  test('incompatible shapes raise ShapeError at definition, naming both shapes and the axis', () => {
    expect(() => da.add(da.zeros([2, 3]), da.zeros([4]))).toThrow(/shapes \(2, 3\) and \(4,\) differ at axis 1/);
    expect(() => da.where(da.zeros([2]), da.zeros([3]), 0)).toThrow(da.ShapeError);
    expect(() => da.clip(da.zeros([5]), da.zeros([2]), 1)).toThrow(/operands of clip/);
  });
});

describe('weak scalars (NEP 50) and promotion, end to end', () => {
  test('float32 array times 2.5 stays float32 and rounds like float32', () => {
    const x = da.array([0.1, 1 / 3], { dtype: 'float32' });
    const r = x.mul(2.5).executeSync() as da.StdNdarray;
    expect(r.dtype).toBe('float32');
    expect(Array.from(r.data as Float32Array)).toEqual([Math.fround(Math.fround(0.1) * 2.5), Math.fround(Math.fround(1 / 3) * 2.5)]);
  });

  test('a float32 compared with 0.1 compares against float32(0.1), as NumPy 2 does', () => {
    const r = da.equal(da.array([0.1], { dtype: 'float32' }), 0.1).executeSync() as da.StdNdarray;
    expect(r.get(0)).toBe(true);
  });

  test('int32 + 1.5 is float64; int32 / int32 is float64; uint8 + int32 is int32', () => {
    const i = da.array([1, 2], { dtype: 'int32' });
    expect(i.add(1.5).dtype).toBe('float64');
    expect(i.div(i).dtype).toBe('float64');
    expect(da.add(da.array([1], { dtype: 'uint8' }), i).dtype).toBe('int32');
    expect(da.add(da.array([true]), da.array([1], { dtype: 'uint8' })).dtype).toBe('uint8');
    expect(da.add(da.array([1], { dtype: 'float32' }), da.array([1])).dtype).toBe('float64');
  });

  test('uint8 arithmetic wraps; out-of-range weak ints are refused; comparisons with them work', () => {
    const u = da.array([250, 3], { dtype: 'uint8' });
    expect(Array.from((u.add(10).executeSync() as da.StdNdarray).data as Uint8Array)).toEqual([4, 13]);
    expect(() => u.add(256)).toThrow(RangeError);
    expect(() => u.mul(-1)).toThrow(/does not fit in uint8/);
    const lt = u.lt(300).executeSync() as da.StdNdarray;
    expect([lt.get(0), lt.get(1)]).toEqual([true, true]);
  });

  test('scalars on either side, booleans as weak bools', () => {
    const i = da.array([1, 2], { dtype: 'int32' });
    expect(da.subtract(10, i).dtype).toBe('int32');
    expect(Array.from((da.subtract(10, i).executeSync() as da.StdNdarray).data as Int32Array)).toEqual([9, 8]);
    expect(da.add(i, true).dtype).toBe('int32');
    expect(da.add(da.array([true]), 2).dtype).toBe('int32');
    expect(da.add(da.array([true]), 2.5).dtype).toBe('float64');
    expect(da.add(1, 2).dtype).toBe('float64');
  });

  test('where: the condition does not take part in promotion', () => {
    const c = da.array([true, false]);
    const f = da.array([1, 2], { dtype: 'float32' });
    const w = da.where(c, f, 0);
    expect(w.dtype).toBe('float32');
    expect(Array.from((w.executeSync() as da.StdNdarray).data as Float32Array)).toEqual([1, 0]);
    expect(da.where(da.array([0, 2]), 1, -1).dtype).toBe('float64');
  });
});
