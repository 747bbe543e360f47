// concat and stack: values, dtype promotion, empty and 0-d operands, errors.
import * as da from '../index.js';
import { toList } from '../../test/to-list.js';

const a = () => da.array([[1, 2, 3], [4, 5, 6]]);
const b = () => da.array([[7, 8, 9]]);
const c = () => da.array([[10], [11]]);

describe('concat', () => {
  test('along axis 0 (the default), 1 and -1', () => {
    expect(toList(da.concat([a(), b()]))).toEqual([[1, 2, 3], [4, 5, 6], [7, 8, 9]]);
    expect(toList(da.concat([a(), b()], { axis: 0 }))).toEqual([[1, 2, 3], [4, 5, 6], [7, 8, 9]]);
    expect(toList(da.concat([a(), c()], { axis: 1 }))).toEqual([[1, 2, 3, 10], [4, 5, 6, 11]]);
    expect(toList(da.concat([c(), a(), c()], { axis: -1 }))).toEqual([[10, 1, 2, 3, 10], [11, 4, 5, 6, 11]]);
    expect(toList(da.concat([da.arange(2), da.arange(3)]))).toEqual([0, 1, 0, 1, 2]);
  });

  test('axis null flattens every operand first, 0-d ones included', () => {
    expect(toList(da.concat([a(), c()], { axis: null }))).toEqual([1, 2, 3, 4, 5, 6, 10, 11]);
    expect(toList(da.concat([da.array(1), da.array(2)], { axis: null }))).toEqual([1, 2]);
    expect(toList(da.concat([a().T], { axis: null }))).toEqual([1, 4, 2, 5, 3, 6]);
  });

  test('views, 3-d arrays and a middle axis', () => {
    const x = da.arange(12).reshape([2, 3, 2]);
    const y = da.arange(4).reshape([2, 1, 2]).mul(-1);
    expect(toList(da.concat([x, y], { axis: 1 }))).toEqual([
      [[0, 1], [2, 3], [4, 5], [0, -1]],
      [[6, 7], [8, 9], [10, 11], [-2, -3]],
    ]);
    expect(toList(da.concat([a().T, a().get(':, ::-1').T], { axis: 1 }))).toEqual([[1, 4, 3, 6], [2, 5, 2, 5], [3, 6, 1, 4]]);
  });

  test('empty operands add nothing', () => {
    expect(toList(da.concat([da.zeros([0, 3]), a()]))).toEqual([[1, 2, 3], [4, 5, 6]]);
    expect(toList(da.concat([a(), da.zeros([2, 0])], { axis: 1 }))).toEqual([[1, 2, 3], [4, 5, 6]]);
    expect(da.concat([da.zeros([0, 3]), da.zeros([0, 3])]).shape).toEqual([0, 3]);
    expect(da.concat([da.zeros([2, 0]), da.zeros([3, 0])]).shape).toEqual([5, 0]);
  });

  test('a single operand is returned as is', () => {
    expect(toList(da.concat([a()]))).toEqual([[1, 2, 3], [4, 5, 6]]);
  });

  test('promotes dtypes as NumPy does', () => {
    const i = da.array([1, 2], { dtype: 'int32' });
    const f = da.array([0.5], { dtype: 'float32' });
    const u = da.array([255], { dtype: 'uint8' });
    const t = da.array([true, false]);
    const r = da.concat([i, f]);
    expect(r.dtype).toBe('float64');
    expect(toList(r)).toEqual([1, 2, 0.5]);
    expect(da.concat([u, i]).dtype).toBe('int32');
    expect(toList(da.concat([u, i]))).toEqual([255, 1, 2]);
    expect(da.concat([t, u]).dtype).toBe('uint8');
    expect(toList(da.concat([t, u]))).toEqual([1, 0, 255]);
    expect(toList(da.concat([t, t]))).toEqual([true, false, true, false]);
    expect(da.concat([f, f]).dtype).toBe('float32');
    expect(da.concat([u, f]).dtype).toBe('float32');
  });

  test('accepts nested lists and typed arrays as operands', () => {
    expect(toList(da.concat([[1, 2], new Float64Array([3])]))).toEqual([1, 2, 3]);
  });

  test('mismatched shapes name the array index and both shapes', () => {
    expect(() => da.concat([a(), c()])).toThrow(da.ShapeError);
    expect(() => da.concat([a(), c()])).toThrow('concat: array 1 has shape (2, 1) but array 0 has (2, 3); all sizes must match except along axis 0');
    expect(() => da.concat([a(), a(), da.zeros([2, 2])], { axis: 0 })).toThrow(/array 2 has shape \(2, 2\)/);
    expect(() => da.concat([a(), da.arange(3)])).toThrow(/array 1 has shape \(3,\) but array 0 has \(2, 3\)/);
  });

  test('bad axes and arguments', () => {
    expect(() => da.concat([a(), a()], { axis: 2 })).toThrow(da.ShapeError);
    expect(() => da.concat([a(), a()], { axis: -3 })).toThrow(da.ShapeError);
    expect(() => da.concat([da.array(1), da.array(2)])).toThrow(da.ShapeError);
    expect(() => da.concat([])).toThrow(TypeError);
    expect(() => da.concat(a() as unknown as da.DeferredArray[])).toThrow(TypeError);
    expect(() => da.concat([a()], { axis: 0.5 })).toThrow(TypeError);
    expect(() => da.concat([a()], { axes: 0 } as unknown as { axis: number })).toThrow(TypeError);
  });
});

describe('stack', () => {
  const x = () => da.array([1, 2, 3]);
  const y = () => da.array([4, 5, 6]);

  test('along axis 0, 1 and -1', () => {
    expect(toList(da.stack([x(), y()]))).toEqual([[1, 2, 3], [4, 5, 6]]);
    expect(toList(da.stack([x(), y()], { axis: 0 }))).toEqual([[1, 2, 3], [4, 5, 6]]);
    expect(toList(da.stack([x(), y()], { axis: 1 }))).toEqual([[1, 4], [2, 5], [3, 6]]);
    expect(toList(da.stack([x(), y()], { axis: -1 }))).toEqual([[1, 4], [2, 5], [3, 6]]);
  });

  test('2-d operands along every axis', () => {
    const p = da.arange(4).reshape([2, 2]);
    const q = da.arange(4).reshape([2, 2]).add(10);
    expect(toList(da.stack([p, q]))).toEqual([[[0, 1], [2, 3]], [[10, 11], [12, 13]]]);
    expect(toList(da.stack([p, q], { axis: 1 }))).toEqual([[[0, 1], [10, 11]], [[2, 3], [12, 13]]]);
    expect(toList(da.stack([p, q], { axis: 2 }))).toEqual([[[0, 10], [1, 11]], [[2, 12], [3, 13]]]);
    expect(toList(da.stack([p, q], { axis: -2 }))).toEqual(toList(da.stack([p, q], { axis: 1 })));
  });

  test('0-d, empty and single operands', () => {
    expect(toList(da.stack([da.array(1), da.array(2), da.array(3)]))).toEqual([1, 2, 3]);
    expect(da.stack([da.zeros([0, 2]), da.zeros([0, 2])], { axis: 1 }).shape).toEqual([0, 2, 2]);
    expect(toList(da.stack([x()]))).toEqual([[1, 2, 3]]);
    const s = da.stack([da.array([1], { dtype: 'int32' }), da.array([2.5], { dtype: 'float32' })]);
    expect(s.dtype).toBe('float64');
    expect(toList(s)).toEqual([[1], [2.5]]);
  });

  test('mismatched shapes and bad axes', () => {
    expect(() => da.stack([x(), da.arange(4)])).toThrow(da.ShapeError);
    expect(() => da.stack([x(), da.arange(4)])).toThrow('stack: array 1 has shape (4,) but array 0 has (3,); all shapes must be equal');
    expect(() => da.stack([x(), x().reshape([1, 3])])).toThrow(da.ShapeError);
    expect(() => da.stack([x(), y()], { axis: 2 })).toThrow(da.ShapeError);
    expect(() => da.stack([x(), y()], { axis: -3 })).toThrow(da.ShapeError);
    expect(() => da.stack([x(), y()], { axis: null } as unknown as { axis: number })).toThrow(TypeError);
    expect(() => da.stack([])).toThrow(TypeError);
  });
});
