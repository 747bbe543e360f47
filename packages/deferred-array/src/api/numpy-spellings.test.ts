// NumPy spellings a ported program writes: None (newaxis) in index strings,
// the one-argument where, an array of repeats; and what errors say of an
// array given where a number belongs.
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
    expect(() => da.tile(da.array([1, 2]), da.array([2]) as never)).toThrow(/got DeferredArray of int32|got DeferredArray of float64, shape \(1\)/);
  });
});
