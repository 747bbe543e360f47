// slidingWindowView against NumPy's sliding_window_view (values worked out
// with NumPy 2.4 and written here), on both backends; a read-only view that
// follows writes to the array it views.
import { afterAll, describe, expect, test } from '@jest/globals';
import * as da from '../index.js';

const values = (x: da.DeferredArray): number[] => Array.from((x.executeSync() as da.StdNdarray).data as ArrayLike<number>, Number);

describe.each(['wasm', 'reference'] as const)('slidingWindowView (%s)', (backend) => {
  const before = da.configure().backend;
  afterAll(() => { da.configure({ backend: before }); });

  test.each([
    ['1-d, window 3', [6], 3, undefined, [4, 3], '0,1,2,1,2,3,2,3,4,3,4,5'],
    ['every axis', [3, 4], [2, 2], undefined, [2, 3, 2, 2], '0,1,4,5,1,2,5,6,2,3,6,7,4,5,8,9,5,6,9,10,6,7,10,11'],
    ['one axis', [3, 4], 2, 1, [3, 3, 2], '0,1,1,2,2,3,4,5,5,6,6,7,8,9,9,10,10,11'],
    ['axes out of order', [3, 4], [2, 3], [1, 0], [1, 3, 2, 3], '0,4,8,1,5,9,1,5,9,2,6,10,2,6,10,3,7,11'],
    ['an axis twice', [3, 4], [2, 2], [1, 1], [3, 2, 2, 2], '0,1,1,2,1,2,2,3,4,5,5,6,5,6,6,7,8,9,9,10,9,10,10,11'],
    ['a window of the whole axis, and of 0', [4], [4], undefined, [1, 4], '0,1,2,3'],
  ] as const)('%s matches NumPy', (_, shape, window, axis, outShape, expected) => {
    da.configure({ backend });
    const x = da.arange(shape.reduce((p: number, d: number) => p * d, 1)).reshape(shape as unknown as number[]);
    const w = da.slidingWindowView(x, window as number | number[], axis === undefined ? undefined : { axis: axis as number | number[] });
    expect(w.shape).toEqual(outShape);
    expect(values(w).join(',')).toBe(expected);
  });

  test('a view: it follows writes to x, refuses writes of its own, and feeds fused work', () => {
    da.configure({ backend });
    const x = da.array([1, 2, 3, 4, 5]);
    const w = da.slidingWindowView(x, 2);
    x.set('0', 9);
    expect(values(w)).toEqual([9, 2, 2, 3, 3, 4, 4, 5]);
    expect(() => w.set('0, 0', 7)).toThrow(/sliding-window view, read-only/);
    // A moving sum of 3: one kernel over the windows.
    expect(values(da.slidingWindowView(da.arange(6), 3).sum({ axis: -1 }))).toEqual([3, 6, 9, 12]);
  });

  test('errors say what was wrong', () => {
    da.configure({ backend });
    const x = da.arange(6).reshape([2, 3]);
    expect(() => da.slidingWindowView(x, 4, { axis: 1 })).toThrow(/a window of 4 is longer than axis 1 \(3\)/);
    expect(() => da.slidingWindowView(x, 2)).toThrow(/with no axis, give a window length for each of the 2 axes; got 1/);
    expect(() => da.slidingWindowView(x, [2, 2], { axis: 0 })).toThrow(/one window length per axis/);
    expect(() => da.slidingWindowView(x, -1, { axis: 0 })).toThrow(/non-negative integers/);
    expect(() => da.slidingWindowView(x, 1, { axis: 2 })).toThrow(/axis 2 is out of bounds/);
  });

  test('a compiled function carries windows to new sizes', async () => {
    da.configure({ backend });
    const n = da.size('n');
    const f = da.compile((v: da.DeferredArray) => da.slidingWindowView(v, 2).sum({ axis: -1 }), [da.placeholder([n], 'float64')]);
    expect(Array.from(((await f(Float64Array.of(1, 2, 3))) as da.StdNdarray).data as Float64Array)).toEqual([3, 5]);
    expect(Array.from(((await f(Float64Array.of(1, 2, 3, 4))) as da.StdNdarray).data as Float64Array)).toEqual([3, 5, 7]);
  });
});
