// The integer dtypes on the WebAssembly backend: every IEEE-exact elementwise
// op NumPy defines for them (the transcendentals compute in floats, within
// their ulp bounds, as for float input), on every pair of their special values, bit for bit the
// reference evaluator (whose scalar functions are checked against NumPy in
// reference/numpy-elementwise.test.ts); a narrow type's chains wrap at every
// step; the vector loop widens and narrows them as the scalar loop does; and
// reductions compare uint32 unsigned, in row and column kernels.
import * as da from '../index.js';
import { BINARY_OPS, OPS, UNARY_OPS } from '../ir/op-table.js';
import type { DType } from '../ir/dtypes.js';
import { onEachBackend } from '../../test/against-reference.js';

const initial = da.configure();
beforeAll(() => { da.configure({ backend: 'wasm', errors: { divide: 'ignore', invalid: 'ignore' } }); });
afterAll(() => { da.configure({ backend: initial.backend, errors: initial.errors }); });

const SPECIAL: Partial<Record<DType, number[]>> = {
  int32: [0, 1, -1, 2, -7, 31, 32, 46341, 2147483647, -2147483648],
  uint32: [0, 1, 2, 7, 31, 32, 65536, 2147483647, 2147483648, 4294967295],
  int16: [0, 1, -1, 2, -7, 15, 16, 181, 32767, -32768],
  uint16: [0, 1, 2, 7, 15, 16, 255, 256, 32768, 65535],
  int8: [0, 1, -1, 2, -7, 7, 8, 11, 127, -128],
  uint8: [0, 1, 2, 7, 8, 15, 16, 128, 200, 255],
};
const INTS = Object.keys(SPECIAL) as DType[];

/** All pairs of special values, as two arrays of `dtype`. */
function pairs(dtype: DType): [number[], number[]] {
  const v = SPECIAL[dtype]!;
  return [v.flatMap((x) => v.map(() => x)), v.flatMap(() => v)];
}

const read = (y: da.DeferredArray): { dtype: string; values: number[] } => {
  const nd = y.executeSync() as da.StdNdarray;
  return { dtype: nd.dtype, values: Array.from({ length: nd.length }, (_, i) => Number(nd.iget(i))) };
};

/** `make`'s result on the wasm backend and on the reference, or the error each throws. */
function both(make: () => da.DeferredArray): [unknown, unknown] {
  return onEachBackend((): unknown => { try { return read(make()); } catch (e) { return (e as Error).name; } });
}

const fn = da as unknown as Record<string, (...xs: unknown[]) => da.DeferredArray>;
/** Whether the op is IEEE-exact and the type rules accept it for these operands (NumPy refuses bitwise ops on floats, and so on). */
const defined = (op: string, build: () => da.DeferredArray): boolean => {
  if (!OPS[op as keyof typeof OPS].exact) return false;
  try { build(); return true; } catch (e) { if (e instanceof da.DTypeError) return false; throw e; }
};

describe.each(INTS)('%s', (dtype) => {
  const [av, bv] = pairs(dtype);
  // Signed types raise at execute for a negative exponent, as NumPy does: power keeps the pairs it accepts.
  const keep = av.map((_, i) => bv[i]! >= 0);
  const a = da.array(av, { dtype });
  const b = da.array(bv, { dtype });
  const ap = da.array(av.filter((_, i) => keep[i]), { dtype });
  const bp = da.array(bv.filter((_, i) => keep[i]), { dtype });

  test.each(UNARY_OPS.filter((op) => defined(op, () => fn[op]!(a))))('unary %s: the reference bit for bit', (op) => {
    for (const x of [a, a.get('::-1')]) {
      const [got, want] = both(() => fn[op]!(x));
      expect(got).toEqual(want);
    }
  });

  test.each(BINARY_OPS.filter((op) => defined(op, () => fn[op]!(a, b))))('binary %s: the reference bit for bit', (op) => {
    const [x, y] = op === 'power' ? [ap, bp] : [a, b];
    for (const [p, q] of [[x, y], [x.get('::-1'), y.get('::-1')]] as const) {
      const [got, want] = both(() => fn[op]!(p, q));
      expect(got).toEqual(want);
    }
  });

  test('a fused chain wraps at every step, as one that stored each result would', () => {
    const chain = (x: da.DeferredArray): da.DeferredArray => x.mul(x).add(x).floorDivide(3).negative().bitwiseXor(x);
    const [got, want] = both(() => chain(a));
    expect(got).toEqual(want);
    expect(chain(a).explain()).toMatch(/1 fused kernel/);
  });

  test('widened to float64, float32 and int32 and narrowed back in the vector loop', () => {
    for (const [make, lanes] of [
      [() => a.astype('float64').mul(0.5), 'f64x2'],
      [() => a.astype('float32').add(da.ones([a.size], { dtype: 'float32' })), 'f32x4'],
      [() => da.add(a.astype('int32'), da.ones([a.size], { dtype: 'int32' })).astype(dtype), 'i32x4'],
    ] as const) {
      if (dtype === 'uint32' && lanes === 'i32x4') continue; // uint32 + int32 is float64
      expect(make().explain({ kernels: true })).toMatch(new RegExp(`vectorised as ${lanes}`));
      const [got, want] = both(make);
      expect(got).toEqual(want);
    }
  });

  test('reductions over rows and columns compare in the type (uint32 unsigned)', () => {
    const m = a.reshape([10, 10]);
    // Extremes over columns in vector lanes too, each column a lane.
    for (const fn of ['min', 'max'] as const) expect(m[fn]({ axis: 0 }).explain({ kernels: true })).toMatch(/vectorised as i32x4/);
    for (const op of ['min', 'max', 'sum', 'prod', 'argmin', 'argmax']) {
      for (const axis of [undefined, 0, 1]) {
        const [got, want] = both(() => (m as unknown as Record<string, (o?: object) => da.DeferredArray>)[op]!(axis === undefined ? undefined : { axis }));
        expect(got).toEqual(want);
      }
    }
  });
});

describe('values at the edges of each type', () => {
  test('uint32 past 2^31 stays unsigned through compare, divide, shift, min and conversion', () => {
    const u = da.array([4294967295, 2147483648, 3], { dtype: 'uint32' });
    expect(read(da.greater(u, 3)).values).toEqual([1, 1, 0]);
    expect(read(da.floorDivide(u, 2)).values).toEqual([2147483647, 1073741824, 1]);
    expect(read(da.rightShift(u, 31)).values).toEqual([1, 1, 0]);
    expect(read(da.minimum(u, 5)).values).toEqual([5, 5, 3]);
    expect(read(u.astype('float64')).values).toEqual([4294967295, 2147483648, 3]);
    expect(read(u.max()).values).toEqual([4294967295]);
    expect(read(da.negative(u)).values).toEqual([1, 2147483648, 4294967293]);
  });

  test('float to a narrow integer saturates and raises the invalid flag', () => {
    da.configure({ errors: { invalid: 'raise' } });
    try {
      expect(() => da.array([1e6]).astype('int16').executeSync()).toThrow(/invalid/);
    } finally {
      da.configure({ errors: { invalid: 'ignore' } });
    }
    expect(read(da.array([1e6, -1e6, NaN, -1.5, 70000]).astype('uint16')).values).toEqual([65535, 0, 0, 0, 65535]);
    expect(read(da.array([1e10, -1]).astype('uint32')).values).toEqual([4294967295, 0]);
  });

  test('indices of every integer dtype select, through get and take', () => {
    const x = da.arange(10, 16);
    for (const dtype of INTS) {
      const i = da.array([5, 0, 2], { dtype });
      expect(read(x.get(i)).values).toEqual([15, 10, 12]);
      expect(read(da.take(x, i)).values).toEqual([15, 10, 12]);
    }
  });

  test('typed arrays in and out keep their dtype', () => {
    for (const [data, dtype] of [
      [Int8Array.of(-128, 127), 'int8'], [Int16Array.of(-32768, 1), 'int16'],
      [Uint16Array.of(65535, 0), 'uint16'], [Uint32Array.of(4294967295, 0), 'uint32'],
    ] as const) {
      const x = da.array(data);
      expect(x.dtype).toBe(dtype);
      const nd = x.add(0).executeSync() as da.StdNdarray;
      expect(nd.dtype).toBe(dtype);
      expect(nd.data).toBeInstanceOf(data.constructor);
      expect(Array.from(nd.data as ArrayLike<number>)).toEqual(Array.from(data));
    }
  });
});
