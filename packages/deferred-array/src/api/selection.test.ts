// What the NumPy vectors cannot show about take, masks and the rearranging
// functions: when values are read, program order around in-place writes,
// compiled functions, errors at execute, and the plans they make.
import { describe, expect, test } from '@jest/globals';
import * as da from '../index.js';

const values = (y: da.DeferredArray | da.StdNdarray): number[] => {
  const nd = (y instanceof da.DeferredArray ? y.executeSync() : y) as da.StdNdarray;
  return Array.from({ length: nd.length }, (_, i) => Number(nd.iget(i)));
};
const i32 = (xs: number[]): da.DeferredArray => da.array(xs, { dtype: 'int32' });

describe('take with indices computed later', () => {
  test('a deferred index past the axis fails at execute with ExecutionError, and changes nothing', () => {
    const x = da.arange(5);
    const idx = i32([0, 4]).mul(2); // 8: only known when it runs
    const y = da.take(x, idx);
    expect(y.shape).toEqual([2]);
    expect(() => y.executeSync()).toThrow(da.ExecutionError);
    expect(() => y.executeSync()).toThrow(/index 8 is out of bounds for axis 0 with size 5/);
    // In place: the write fails at its force and stays pending (docs/trace.md: Atomic); x is untouched.
    const m = da.zeros([3]);
    m.set('0:2', da.take(x, idx));
    expect(() => m.executeSync()).toThrow(da.ExecutionError);
    expect(() => m.executeSync()).toThrow(da.ExecutionError);
    expect(values(x)).toEqual([0, 1, 2, 3, 4]);
    expect(values(da.take(x, i32([0, 4]).mul(2), { mode: 'wrap' }))).toEqual([0, 3]);
    expect(values(da.take(x, i32([-7, 9]).add(0), { mode: 'clip' }))).toEqual([0, 4]);
    expect(values(da.take(x, i32([-1, -5]).add(0)))).toEqual([4, 0]);
  });

  test('bad indices and options are refused when the array is defined', () => {
    const x = da.arange(6).reshape([2, 3]);
    expect(() => da.take(x, da.array([0.5]))).toThrow(da.DTypeError);
    expect(() => da.take(x, da.array([true], { dtype: 'bool' }))).toThrow(/use compress\(\) or x.get\(mask\)/);
    expect(() => da.take(x, i32([0]), { axis: 2 })).toThrow(da.ShapeError);
    expect(() => da.take(x, i32([0]), { mode: 'nearest' as 'clip' })).toThrow(/mode must be 'raise', 'wrap' or 'clip'/);
    expect(() => da.take(x, i32([0]), { axis: 0, bogus: 1 } as da.TakeOptions)).toThrow(/unknown option 'bogus'/);
    expect(() => x.get(da.array([true, false, true], { dtype: 'bool' }))).toThrow(/mask must have the shape of the array or of its leading axes/);
  });

  test('whole JS numbers are indices, as NumPy takes Python ints: one, a list, nested lists', () => {
    const x = da.arange(12).mul(1.5).reshape([3, 4]);
    expect(values(da.take(x, 5))).toEqual([7.5]);
    expect(da.take(x, 5).shape).toEqual([]);
    expect(values(da.take(x, [0, -1, 3], { axis: 1 }))).toEqual([0, 4.5, 4.5, 6, 10.5, 10.5, 12, 16.5, 16.5]);
    expect(da.take(x, [[2], [0]], { axis: 0 }).shape).toEqual([2, 1, 4]);
    expect(values(da.take(x, [[2], [0]], { axis: 0 }))).toEqual([12, 13.5, 15, 16.5, 0, 1.5, 3, 4.5]);
    expect(da.take(x, []).shape).toEqual([0]);
    expect(values(da.take(x, [13, -14], { mode: 'wrap' }))).toEqual([1.5, 15]);
    // Still checked when defined, as lists always were, and still refused where they are not whole numbers.
    expect(() => da.take(x, [0, 12])).toThrow('take: index 12 is out of bounds for axis 0 with size 12');
    expect(() => da.take(x, [0, 1.5])).toThrow(da.DTypeError);
    expect(() => da.take(x, 0.5)).toThrow(da.DTypeError);
    expect(() => da.take(x, [2 ** 31])).toThrow(da.DTypeError);
  });

  test('takes that differ only in mode are not merged as common subexpressions', () => {
    const x = da.arange(5);
    const k = i32([7, -8]).add(0);
    expect(values(da.stack([da.take(x, k, { mode: 'wrap' }), da.take(x, k, { mode: 'clip' })]))).toEqual([2, 2, 4, 0]);
  });

  test('a random draw read by take is stored once and gathered from (wasm and reference agree)', () => {
    const run = (backend: 'wasm' | 'reference'): number[] => {
      const before = da.configure().backend;
      da.configure({ backend });
      try {
        const u = da.random.defaultRng(7).random([100]);
        return values(da.take(u, i32([99, 0, 50])).mul(2));
      } finally {
        da.configure({ backend: before });
      }
    };
    expect(run('wasm')).toEqual(run('reference'));
  });
});

describe('boolean masks read their values when the selection is defined', () => {
  test('in program order: a mask built before an in-place write sees the values before it', () => {
    const x = da.zeros([4]);
    const before = x.gt(0);
    x.set('1:3', 7);
    const after = x.gt(0);
    expect(x.get(before).shape).toEqual([0]);
    expect(x.get(after).shape).toEqual([2]);
    expect(values(x.get(after))).toEqual([7, 7]);
  });

  test('x.get(mask) gathers x when it runs: a later write to x is not seen, an earlier one is', () => {
    const x = da.arange(4);
    const sel = x.get(da.array([true, false, true, true], { dtype: 'bool' }));
    x.set('0', 100);
    expect(values(sel)).toEqual([0, 2, 3]);
  });

  test('x.set(mask, scalar) reads no values: it is a where(), run with the rest', () => {
    const x = da.arange(6);
    const mask = x.mod(2).eq(0);
    const steps = da.stats().steps;
    x.set(mask, -1);
    expect(da.stats().steps).toBe(steps);
    expect(values(x)).toEqual([-1, 1, -1, 3, -1, 5]);
  });

  test('x.set(mask, array) over leading axes spreads rows in order; a broadcast row fills each', () => {
    const x = da.zeros([3, 2]);
    x.set(da.array([true, false, true], { dtype: 'bool' }), da.array([[1, 2], [3, 4]]));
    expect(values(x)).toEqual([1, 2, 0, 0, 3, 4]);
    x.set(da.array([false, true, false], { dtype: 'bool' }), da.array([9, 8]));
    expect(values(x)).toEqual([1, 2, 9, 8, 3, 4]);
    expect(() => x.set(da.array([true, true, false], { dtype: 'bool' }), da.array([1, 2, 3]))).toThrow(da.ShapeError);
    // Integer indices write rows along the first axis (tested against NumPy in matrices.test.ts).
    x.set(i32([0, 1]), 1);
    expect(values(x)).toEqual([1, 1, 1, 1, 3, 4]);
  });

  test('inside a compiled function, a mask selection is refused; take and where work', async () => {
    expect(() => da.compile((x) => x.get(x.gt(0)), [da.placeholder([da.size('n')], 'float64')])).toThrow(da.NotSupportedError);
    const takes = da.compile((x, i) => da.take(x, i).mul(2), [da.placeholder([da.size('n')], 'float64'), da.placeholder([2], 'int32')]);
    expect(values(await takes(da.array([1, 2, 3]), i32([2, 0])) as da.StdNdarray)).toEqual([6, 2]);
    expect(values(await takes(da.array([1, 2, 3, 4, 5]), i32([4, 1])) as da.StdNdarray)).toEqual([10, 4]);
  });

  test('nonzero and compress of a computed mask', () => {
    const x = da.arange(12).reshape([3, 4]);
    const [r, c] = da.nonzero(x.mod(5).eq(0)) as [da.DeferredArray, da.DeferredArray];
    expect([values(r), values(c)]).toEqual([[0, 1, 2], [0, 1, 2]]);
    expect(r.dtype).toBe('int32');
    expect(values(x.compress(da.array([false, true, false, true], { dtype: 'bool' }), { axis: 1 }))).toEqual([1, 3, 5, 7, 9, 11]);
    expect(() => da.nonzero(da.array(1))).toThrow(da.ShapeError);
  });
});

describe('the rearranging functions', () => {
  test('flip is a live view, as NumPy\'s is; roll, diff, tile and repeat are new arrays', () => {
    const x = da.arange(4);
    const f = da.flip(x);
    const r = da.roll(x, 1);
    const d = da.diff(x);
    x.set('0', 10);
    expect(values(f)).toEqual([3, 2, 1, 10]);
    expect(values(r)).toEqual([3, 0, 1, 2]);
    expect(values(d)).toEqual([1, 1, 1]);
  });

  test('diff is one kernel reading x through two shifted views (each further order another); tile is a broadcast view made contiguous', () => {
    const x = da.wrap(Float64Array.from({ length: 1000 }, (_, i) => i * i));
    const before = da.configure().backend;
    da.configure({ backend: 'wasm' });
    try {
      expect(da.diff(x).explain()).toContain('1 step(s) computing (1 fused kernel(s))');
      expect(da.diff(x, { n: 3 }).explain()).toContain('3 fused kernel(s)');
      expect(values(da.diff(x, { n: 3 })).every((v) => v === 0)).toBe(true);
      expect(da.tile(x.get('0:3'), [2, 2]).explain()).toMatch(/broadcastTo\(%2\) \{\(2, 1, 2, 3\)\}/);
      expect(values(da.tile(x.get('0:3'), [2, 2]))).toEqual([0, 1, 4, 0, 1, 4, 0, 1, 4, 0, 1, 4]);
    } finally {
      da.configure({ backend: before });
    }
  });

  test('argument errors say what was wrong', () => {
    const x = da.arange(6).reshape([2, 3]);
    expect(() => da.diff(x, { n: -1 })).toThrow(/option n must be a non-negative integer/);
    expect(() => da.diff(da.array(2))).toThrow(/at least one axis/);
    expect(() => da.roll(x, [1, 2])).toThrow(/without an axis, shift must be one integer/);
    expect(() => da.roll(x, [1, 2, 3], { axis: [0, 1] })).toThrow(da.ShapeError);
    expect(() => da.tile(x, -1)).toThrow(/reps must be a non-negative integer/);
    expect(() => da.repeat(x, [1, 2], { axis: 1 })).toThrow(/2 counts for an axis of length 3/);
    expect(() => da.flip(x, { axis: 2 })).toThrow(da.ShapeError);
    expect(() => da.diff(da.array([1, 2], { dtype: 'uint8' }), { prepend: 300 })).toThrow(RangeError);
  });
});

describe('scans', () => {
  test('cumsum, cumprod and nancumsum as functions and methods, along an axis or flat', () => {
    const x = da.array([[1, 2, 3], [4, 5, 6]]);
    expect(values(x.cumsum())).toEqual([1, 3, 6, 10, 15, 21]);
    expect(values(x.cumsum({ axis: 0 }))).toEqual([1, 2, 3, 5, 7, 9]);
    expect(values(da.cumprod(x, { axis: -1 }))).toEqual([1, 2, 6, 4, 20, 120]);
    expect(values(da.nancumsum(da.array([1, NaN, 2])))).toEqual([1, 1, 3]);
    expect(da.cumsum(da.array([1, 2], { dtype: 'int32' })).dtype).toBe('float64');
    expect(da.cumsum(da.array([1, 2], { dtype: 'float32' })).dtype).toBe('float32');
    expect(() => x.cumsum({ axis: 2 })).toThrow(da.ShapeError);
    expect(() => x.cumsum({ keepdims: true } as da.ScanOptions)).toThrow(/unknown option 'keepdims'/);
  });

  test('a scan inside a compiled function is carried to new sizes', async () => {
    const f = da.compile((x) => x.mul(2).cumsum({ axis: 0 }).add(1), [da.placeholder([da.size('n'), 2], 'float64')]);
    expect(values(await f(da.array([[1, 2], [3, 4]])) as da.StdNdarray)).toEqual([3, 5, 9, 13]);
    expect(values(await f(da.array([[1, 1], [1, 1], [1, 1]])) as da.StdNdarray)).toEqual([3, 3, 5, 5, 7, 7]);
  });
});
