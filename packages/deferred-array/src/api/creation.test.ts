// Creation: wrap, array, zeros/ones/full/empty, arange, linspace. Values are
// NumPy's (numpy 2.x), written out by hand.
import { createRequire } from 'node:module';
import * as da from '../index.js';
import { toList } from '../../test/to-list.js';

const require = createRequire(import.meta.url);
interface StdNdarrayModule {
  array(x: unknown, options?: Record<string, unknown>): da.StdNdarray;
  slice(x: da.StdNdarray, s: unknown): da.StdNdarray;
  scalar2ndarray(v: unknown, options?: Record<string, unknown>): da.StdNdarray;
  empty(shape: number[], options: { dtype: string }): da.StdNdarray;
}
const nd = require('@stdlib/ndarray') as StdNdarrayModule;
const { Slice, MultiSlice } = require('@stdlib/slice') as {
  Slice: new (...args: Array<number | null>) => unknown;
  MultiSlice: new (...args: unknown[]) => unknown;
};

describe('wrap', () => {
  test('typed arrays keep their dtype', () => {
    const cases: Array<[ArrayLike<number>, da.DType, number[]]> = [
      [new Float64Array([1.5, -2]), 'float64', [1.5, -2]],
      [new Float32Array([0.1, 2]), 'float32', [Math.fround(0.1), 2]],
      [new Int32Array([-7, 2 ** 31 - 1]), 'int32', [-7, 2 ** 31 - 1]],
      [new Uint8Array([0, 255]), 'uint8', [0, 255]],
    ];
    for (const [data, dtype, want] of cases) {
      const x = da.wrap(data as Float64Array);
      expect([x.dtype, x.shape]).toEqual([dtype, [2]]);
      expect(toList(x)).toEqual(want);
    }
    expect(da.wrap(new Float64Array(0)).shape).toEqual([0]);
  });

  test('a DeferredArray is returned as is; scalars become 0-d', () => {
    const x = da.arange(3);
    expect(da.wrap(x)).toBe(x);
    expect([da.wrap(2.5).shape, da.wrap(2.5).dtype]).toEqual([[], 'float64']);
    expect(toList(da.wrap(true))).toBe(true);
  });

  test('stdlib ndarrays: contiguous, sliced with a negative step, 0-d, bool', () => {
    const base = nd.array(new Float64Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]), { shape: [3, 4] });
    expect(toList(da.wrap(base))).toEqual([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]);
    const view = nd.slice(base, new MultiSlice(new Slice(null, null, 2), new Slice(null, null, -1)));
    expect(view.strides).toEqual([8, -1]);
    const w = da.wrap(view);
    expect([w.shape, w.dtype]).toEqual([[2, 4], 'float64']);
    expect(toList(w)).toEqual([[3, 2, 1, 0], [11, 10, 9, 8]]);
    expect(toList(da.wrap(view).T.get(0))).toEqual([3, 11]);
    const scalar = nd.scalar2ndarray(3.5, { dtype: 'float32' });
    expect([da.wrap(scalar).shape, da.wrap(scalar).dtype]).toEqual([[], 'float32']);
    expect(toList(da.wrap(scalar))).toBe(3.5);
    const bools = nd.empty([3], { dtype: 'bool' }) as da.StdNdarray & { set(i: number, v: boolean): void };
    bools.set(0, true);
    bools.set(1, false);
    bools.set(2, true);
    const b = da.wrap(bools);
    expect(b.dtype).toBe('bool');
    expect(toList(b)).toEqual([true, false, true]);
    const ints = nd.array(new Int32Array([1, -2, 3, -4]), { shape: [2, 2] });
    expect(toList(da.wrap(ints).sum({ axis: 0 }))).toEqual([4, -6]);
  });

  test('nested lists: float64 unless every element is a boolean', () => {
    expect(toList(da.wrap([[1, 2], [3, 4]]))).toEqual([[1, 2], [3, 4]]);
    expect(da.wrap([[1, 2], [3, 4]]).dtype).toBe('float64');
    expect(da.wrap([true, false]).dtype).toBe('bool');
    expect(da.wrap([true, 2]).dtype).toBe('float64');
    expect(toList(da.wrap([true, 2]))).toEqual([1, 2]);
    expect([da.wrap([]).shape, da.wrap([]).dtype]).toEqual([[0], 'float64']);
    expect([da.wrap([[]]).shape, da.wrap([[]]).dtype]).toEqual([[1, 0], 'float64']);
    expect(da.wrap([[[1], [2]], [[3], [4]]]).shape).toEqual([2, 2, 1]);
  });

  test('ragged lists are ShapeErrors naming the offending element', () => {
    expect(() => da.wrap([[1, 2], [3]])).toThrow(da.ShapeError);
    expect(() => da.wrap([[1, 2], [3]])).toThrow('array is ragged: array[1] has shape (1) but array[0] has (2)');
    expect(() => da.wrap([[1, 2], 3] as unknown as number[][])).toThrow(da.ShapeError);
    expect(() => da.wrap([1, [2]] as unknown as number[])).toThrow(da.ShapeError);
    expect(() => da.wrap([[[1, 2]], [[1, 2, 3]]])).toThrow(/array\[1\]/);
  });

  test('unsupported inputs are TypeErrors; unsupported ndarray dtypes DTypeErrors', () => {
    expect(() => da.wrap(new Uint8ClampedArray(2) as unknown as Int32Array)).toThrow(TypeError);
    expect(() => da.wrap(new Uint8ClampedArray(2) as unknown as Int32Array)).toThrow(/Uint8ClampedArray is not supported \(there is no float16.*Float64Array/);
    expect(da.wrap(new BigInt64Array([1n, 2n])).dtype).toBe('int64');
    expect(() => da.wrap(new Uint8ClampedArray(2) as unknown as Int32Array)).toThrow(/Uint8ClampedArray is not supported/);
    expect(() => da.wrap(new Float64Array(2).buffer as unknown as number[])).toThrow(TypeError);
    expect(() => da.wrap('abc' as unknown as number[])).toThrow(TypeError);
    expect(() => da.wrap(['a'] as unknown as number[])).toThrow(TypeError);
    expect(() => da.wrap(null as unknown as number[])).toThrow(TypeError);
    expect(() => da.wrap(nd.array(new Uint8ClampedArray([1])))).toThrow(da.DTypeError);
    expect(da.wrap(nd.array(new Int16Array([1]))).dtype).toBe('int16');
    expect(() => da.wrap(nd.array([1, 2], { dtype: 'generic' }))).toThrow(da.DTypeError);
  });
});

describe('array with a dtype', () => {
  test('nested lists convert as NumPy converts Python numbers', () => {
    const i = da.array([1.9, -1.9, 0], { dtype: 'int32' });
    expect(i.dtype).toBe('int32');
    expect(toList(i)).toEqual([1, -1, 0]);
    expect(toList(da.array([[0, 2], [NaN, -0.5]], { dtype: 'bool' }))).toEqual([[false, true], [true, true]]);
    expect(toList(da.array([true, false], { dtype: 'float32' }))).toEqual([1, 0]);
    expect(toList(da.array([0.1], { dtype: 'float32' }))).toEqual([Math.fround(0.1)]);
    expect(toList(da.array([255, 0], { dtype: 'uint8' }))).toEqual([255, 0]);
    expect(toList(da.array(2.7, { dtype: 'int32' }))).toBe(2);
    expect(toList(da.array(3, { dtype: 'bool' }))).toBe(true);
  });

  test('numbers that do not fit an integer dtype are RangeErrors (NumPy 2 raises too)', () => {
    expect(() => da.array([300], { dtype: 'uint8' })).toThrow(RangeError);
    expect(() => da.array([1, -1], { dtype: 'uint8' })).toThrow(/element 1 .* is -1, which does not fit in uint8/);
    expect(() => da.array([2 ** 31], { dtype: 'int32' })).toThrow(RangeError);
    expect(() => da.array([NaN], { dtype: 'int32' })).toThrow(RangeError);
    expect(() => da.array(Infinity, { dtype: 'int32' })).toThrow(RangeError);
    expect(toList(da.array([255.9, -0.9], { dtype: 'uint8' }))).toEqual([255, 0]);
  });

  test('typed arrays and ndarrays convert as astype() does', () => {
    const f = new Float64Array([1.9, -1.9, NaN, 1e10, 300]);
    expect(toList(da.array(f, { dtype: 'int32' }))).toEqual(toList(da.wrap(f).astype('int32')));
    expect(toList(da.array(new Float64Array([1.9, -2.5]), { dtype: 'int32' }))).toEqual([1, -2]);
    expect(toList(da.array(new Int32Array([256, -1, 7]), { dtype: 'uint8' }))).toEqual([0, 255, 7]);
    expect(toList(da.array(new Uint8Array([0, 3]), { dtype: 'bool' }))).toEqual([false, true]);
    expect(toList(da.array(new Float32Array([0.5]), { dtype: 'float64' }))).toEqual([0.5]);
    const b = da.array(nd.array(new Float64Array([0, 2, 3])), { dtype: 'bool' });
    expect(b.dtype).toBe('bool');
    expect(toList(b)).toEqual([false, true, true]);
  });

  test('bad options', () => {
    expect(() => da.array([1], { dtype: 'float16' } as unknown as da.DTypeOption)).toThrow(da.DTypeError);
    expect(() => da.array([1], { type: 'int32' } as unknown as da.DTypeOption)).toThrow(TypeError);
    expect(() => da.array([1], 'int32' as unknown as da.DTypeOption)).toThrow(TypeError);
  });
});

describe('zeros, ones, full, empty', () => {
  test('shape as a number or a list, default float64', () => {
    expect(toList(da.zeros(3))).toEqual([0, 0, 0]);
    expect(toList(da.ones([2, 2]))).toEqual([[1, 1], [1, 1]]);
    expect(toList(da.full([2], 7.5))).toEqual([7.5, 7.5]);
    expect(toList(da.empty([1, 2]))).toEqual([[0, 0]]);
    for (const x of [da.zeros(3), da.ones(3), da.full(3, 1), da.empty(3)]) expect(x.dtype).toBe('float64');
    expect(toList(da.zeros([]))).toBe(0);
    expect(toList(da.full([], 4))).toBe(4);
    expect(da.ones([2, 0, 3]).shape).toEqual([2, 0, 3]);
    expect(toList(da.ones(0))).toEqual([]);
  });

  test('dtype option', () => {
    expect(da.zeros(2, { dtype: 'int32' }).dtype).toBe('int32');
    expect(toList(da.ones(2, { dtype: 'bool' }))).toEqual([true, true]);
    expect(toList(da.ones(2, { dtype: 'uint8' }))).toEqual([1, 1]);
    expect(toList(da.full(2, 2.7, { dtype: 'int32' }))).toEqual([2, 2]);
    expect(toList(da.full(2, 0.1, { dtype: 'float32' }))).toEqual([Math.fround(0.1), Math.fround(0.1)]);
    expect(da.full(2, true).dtype).toBe('bool');
    expect(toList(da.full(2, true, { dtype: 'int32' }))).toEqual([1, 1]);
    expect(toList(da.empty(1, { dtype: 'float32' }))).toEqual([0]);
  });

  test('invalid shapes, values and options', () => {
    for (const f of [da.zeros, da.ones, da.empty]) {
      expect(() => f(-1)).toThrow(RangeError);
      expect(() => f([2, 1.5])).toThrow(RangeError);
      expect(() => f('3' as unknown as number)).toThrow(TypeError);
      expect(() => f(3, { order: 'C' } as unknown as da.DTypeOption)).toThrow(TypeError);
      expect(() => f(3, { dtype: 'complex' } as unknown as da.DTypeOption)).toThrow(da.DTypeError);
    }
    expect(() => da.zeros(-1)).toThrow(/^zeros: shape/);
    expect(() => da.ones([3, -2])).toThrow(/^ones: shape/);
    expect(() => da.zeros([2 ** 20, 2 ** 20])).toThrow(/4 GiB/);
    expect(() => da.full(-1, 0)).toThrow(RangeError);
    expect(() => da.full(2, '1' as unknown as number)).toThrow(TypeError);
    expect(() => da.full(2, 300, { dtype: 'uint8' })).toThrow(RangeError);
    expect(() => da.full(2, NaN, { dtype: 'int32' })).toThrow(RangeError);
    expect(() => da.full(2, 1, { unknown: true } as unknown as da.DTypeOption)).toThrow(/unknown option 'unknown'/);
  });
});

describe('arange', () => {
  test('integer arguments give int32', () => {
    const x = da.arange(5);
    expect(x.dtype).toBe('int32');
    expect(toList(x)).toEqual([0, 1, 2, 3, 4]);
    expect(toList(da.arange(2, 5))).toEqual([2, 3, 4]);
    expect(toList(da.arange(0, 10, 3))).toEqual([0, 3, 6, 9]);
    expect(toList(da.arange(5, 0, -1))).toEqual([5, 4, 3, 2, 1]);
    expect(toList(da.arange(2, -3, -2))).toEqual([2, 0, -2]);
    expect(da.arange(2 ** 31 - 2, 2 ** 31).dtype).toBe('int32');
  });

  test('integer ranges beyond int32 give float64 rather than wrap', () => {
    const x = da.arange(2 ** 31 - 1, 2 ** 31 + 1);
    expect(x.dtype).toBe('float64');
    expect(toList(x)).toEqual([2 ** 31 - 1, 2 ** 31]);
  });

  test('float arguments give float64 with NumPy values bit for bit', () => {
    expect(da.arange(0, 1, 0.25).dtype).toBe('float64');
    expect(toList(da.arange(0, 1, 0.25))).toEqual([0, 0.25, 0.5, 0.75]);
    expect(toList(da.arange(2.5))).toEqual([0, 1, 2]);
    expect(toList(da.arange(1, 2, 0.3))).toEqual([1, 1.3, 1.6, 1.9000000000000001]);
    // NumPy fills first + i * ((start + step) - start), not start + i * step.
    const x = toList(da.arange(-4.369, 1.7560000000000002, 0.245)) as number[];
    expect(x.length).toBe(25);
    expect(x.slice(0, 4)).toEqual([-4.369, -4.124, -3.8789999999999996, -3.6339999999999995]);
    expect(x.slice(-3)).toEqual([1.0210000000000026, 1.2660000000000027, 1.5110000000000028]);
  });

  test('the dtype option, computed in that dtype as NumPy does', () => {
    const f = da.arange(0.1, 2, 0.3, { dtype: 'float32' });
    expect(f.dtype).toBe('float32');
    expect(toList(f)).toEqual([
      0.10000000149011612, 0.4000000059604645, 0.7000000476837158, 1, 1.3000000715255737, 1.600000023841858, 1.9000000953674316,
    ]);
    expect(toList(da.arange(5, { dtype: 'float64' }))).toEqual([0, 1, 2, 3, 4]);
    expect(toList(da.arange(5, 0, -1, { dtype: 'uint8' }))).toEqual([5, 4, 3, 2, 1]);
    // NumPy's quirk: the step is taken after casting the first two values.
    expect(toList(da.arange(0, 2.5, 0.5, { dtype: 'int32' }))).toEqual([0, 0, 0, 0, 0]);
    // Later values wrap, as in NumPy; a start that does not fit is refused, as NumPy refuses it.
    expect(toList(da.arange(250, 260, { dtype: 'uint8' }))).toEqual([250, 251, 252, 253, 254, 255, 0, 1, 2, 3]);
    expect(() => da.arange(300, 302, { dtype: 'uint8' })).toThrow(RangeError);
  });

  test('empty ranges', () => {
    expect(toList(da.arange(0))).toEqual([]);
    expect(toList(da.arange(5, 1))).toEqual([]);
    expect(toList(da.arange(1, 5, -1))).toEqual([]);
    expect(da.arange(-3).shape).toEqual([0]);
  });

  test('bad arguments', () => {
    expect(() => da.arange(0, 5, 0)).toThrow(RangeError);
    expect(() => da.arange(0, 5, 0)).toThrow(/step must not be zero/);
    expect(() => da.arange(NaN)).toThrow(/arange: stop must be a finite number/);
    expect(() => da.arange(0, Infinity)).toThrow(TypeError);
    expect(() => da.arange('3' as unknown as number)).toThrow(TypeError);
    expect(() => da.arange(0, 5, 1, { dtype: 'float16' } as unknown as da.DTypeOption)).toThrow(da.DTypeError);
    expect(() => da.arange(0, 5, { step: 1 } as unknown as da.DTypeOption)).toThrow(TypeError);
  });
});

describe('linspace', () => {
  test("NumPy's values", () => {
    expect(toList(da.linspace(0, 1, 5))).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(toList(da.linspace(5, -5, 6))).toEqual([5, 3, 1, -1, -3, -5]);
    expect(toList(da.linspace(1, 1, 3))).toEqual([1, 1, 1]);
    expect(toList(da.linspace(0.3, 10.7, 13))).toEqual([
      0.3, 1.1666666666666665, 2.033333333333333, 2.8999999999999995, 3.766666666666666, 4.633333333333333,
      5.499999999999999, 6.366666666666666, 7.2333333333333325, 8.1, 8.966666666666667, 9.833333333333334, 10.7,
    ]);
    expect(da.linspace(0, 1, 5).dtype).toBe('float64');
    expect(da.linspace(0, 1).shape).toEqual([50]);
  });

  test('endpoint false', () => {
    expect(toList(da.linspace(0, 1, 5, { endpoint: false }))).toEqual([0, 0.2, 0.4, 0.6000000000000001, 0.8]);
    expect(toList(da.linspace(2, 3, 1, { endpoint: false }))).toEqual([2]);
  });

  test('num 0 and 1', () => {
    expect(toList(da.linspace(0, 1, 0))).toEqual([]);
    expect(toList(da.linspace(2, 3, 1))).toEqual([2]);
  });

  test('dtype option: floats round once, integers floor as in NumPy 2', () => {
    expect(toList(da.linspace(0, 1, 3, { dtype: 'float32' }))).toEqual([0, 0.5, 1]);
    const i = da.linspace(-1, 1, 4, { dtype: 'int32' });
    expect(i.dtype).toBe('int32');
    expect(toList(i)).toEqual([-1, -1, 0, 1]);
  });

  test('bad arguments', () => {
    expect(() => da.linspace(0, 1, -1)).toThrow(RangeError);
    expect(() => da.linspace(0, 1, 2.5)).toThrow(RangeError);
    expect(() => da.linspace(NaN, 1, 3)).toThrow(TypeError);
    expect(() => da.linspace(0, 1, 3, { endpoint: 1 } as unknown as { endpoint: boolean })).toThrow(TypeError);
    expect(() => da.linspace(0, 1, 3, { retstep: true } as unknown as { endpoint: boolean })).toThrow(/unknown option 'retstep'/);
  });
});
