// NumPy spellings a ported program writes: None (newaxis) in index strings,
// the one-argument where, an array of repeats, unravel_index and
// ravel_multi_index (expected values from NumPy 2.4); and what errors say of
// an array given where a number belongs.
import { afterAll, describe, expect, test } from '@jest/globals';
import * as da from '../index.js';

afterAll(async () => {
  await da.shutdown();
});

const x = da.arange(24).reshape([2, 3, 4]);
const values = (a: da.DeferredArray): number[] => Array.from((a.executeSync() as da.StdNdarray).data as unknown as ArrayLike<number>);

describe('None in an index string adds an axis of length 1, as NumPy\'s newaxis', () => {
  // Shapes as NumPy gives them for an array of shape (2, 3, 4).
  test.each([
    ['None', [1, 2, 3, 4]],
    [':, None', [2, 1, 3, 4]],
    [':, :, :, None', [2, 3, 4, 1]],
    ['..., None', [2, 3, 4, 1]],
    ['None, ..., None', [1, 2, 3, 4, 1]],
    ['1, None, ::2', [1, 2, 4]],
    ['None, 0, None, 1:3, -1', [1, 1, 2]],
    ['np.newaxis, :, newaxis', [1, 2, 1, 3, 4]],
    [':, None, None, 2', [2, 1, 1, 4]],
  ])('x.get(%j) has shape %j and the values of the same index without None', (index, shape) => {
    const y = x.get(index);
    expect(y.shape).toEqual(shape);
    const without = index.split(',').filter((p) => !/None|newaxis/.test(p)).join(',');
    expect(values(y)).toEqual(values(x.get(without)));
  });

  test('a write through an index with None says what to do; too many indices are still a ShapeError', () => {
    const m = da.zeros([2, 3]);
    expect(() => m.set(':, None', 1)).toThrow(/None \(NumPy's newaxis\) adds an axis, which get\(\) takes and a write cannot/);
    expect(() => x.get('0, 0, 0, 0, None')).toThrow(da.ShapeError);
  });
});

describe('where(condition) alone is NumPy\'s one-argument where: the coordinates of its true elements', () => {
  test('as nonzero gives them', () => {
    const c = da.array([[0, 3, 0], [5, 0, 6]]).gt(0);
    const [rows, cols] = da.where(c);
    expect([values(rows!), values(cols!)]).toEqual([[0, 1, 1], [1, 0, 2]]);
    expect(da.where(c).map(values)).toEqual(da.nonzero(c).map(values));
  });

  test('a condition and x without y says what where takes', () => {
    expect(() => (da.where as (...a: unknown[]) => unknown)(da.array([true]), 1)).toThrow(/give the condition alone .* or with both x and y/);
  });
});

describe('repeat with an array of counts, as NumPy takes one', () => {
  test('the counts are read now; the result is that of the same counts as numbers', () => {
    const a = da.array([1, 2, 3]);
    const counts = da.array([2, 0, 3], { dtype: 'int32' });
    expect(values(da.repeat(a, counts))).toEqual([1, 1, 3, 3, 3]);
    expect(values(a.repeat(counts))).toEqual(values(da.repeat(a, [2, 0, 3])));
  });

  test('counts that are not integers, and an array where a number belongs, are named by dtype and shape', () => {
    expect(() => da.repeat(da.array([1, 2]), da.array([1.5, 2]))).toThrow(/an array of repeats must hold integers in at most one axis; got float64 of shape \(2\)/);
    expect(() => da.tile(da.array([1, 2]), da.array([2]) as never)).toThrow(/got DeferredArray of float64, shape \(1,\)/);
  });
});

describe('unravelIndex and ravelMultiIndex, NumPy\'s answers', () => {
  const i32 = (v: number[] | number[][]): da.DeferredArray => da.array(v, { dtype: 'int32' });
  /** A 2-d array's rows. */
  const nested = (a: da.DeferredArray): number[][] => Array.from({ length: a.shape[0]! }, (_, r) => values(a.get(`${r}`)));

  test('unravelIndex of a flat list and of a 2-d array of positions', () => {
    expect(da.unravelIndex(i32([0, 5, 23, 13]), [2, 3, 4]).map(values)).toEqual([[0, 0, 1, 1], [0, 1, 2, 0], [0, 1, 3, 1]]);
    const [r, c] = da.unravelIndex(i32([[1, 7], [3, 0]]), [2, 4]);
    expect([r!.shape, nested(r!), nested(c!)]).toEqual([[2, 2], [[0, 1], [0, 0]], [[1, 3], [3, 0]]]);
    expect(() => da.unravelIndex(i32([8]), [2, 4])).toThrow(/unravelIndex: index 8 is out of bounds for an array of size 8/);
  });

  test('ravelMultiIndex in each mode, per axis, and over broadcast index arrays', () => {
    expect(values(da.ravelMultiIndex([i32([0, 1, 1]), i32([2, 0, 3])], [2, 4]))).toEqual([2, 4, 7]);
    expect(values(da.ravelMultiIndex([i32([0, 5, -1]), i32([2, 9, 3])], [2, 4], { mode: 'wrap' }))).toEqual([2, 5, 7]);
    expect(values(da.ravelMultiIndex([i32([0, 5, -1]), i32([2, 9, 3])], [2, 4], { mode: ['clip', 'wrap'] }))).toEqual([2, 5, 3]);
    const b = da.ravelMultiIndex([i32([[0], [1]]), i32([2, 0, 3])], [2, 4]);
    expect([b.shape, nested(b)]).toEqual([[2, 3], [[2, 0, 3], [6, 4, 7]]]);
    expect(() => da.ravelMultiIndex([i32([0, 2]), i32([0, 0])], [2, 4])).toThrow(/index 2 is out of bounds for axis 0 with size 2/);
    expect(() => da.ravelMultiIndex([i32([0])], [2, 4])).toThrow(/give one index array per axis of the shape \(2\); got 1/);
    expect(() => da.ravelMultiIndex([da.array([0.5]), i32([0])], [2, 4])).toThrow(/indices must be integers; got float64/);
  });
});
