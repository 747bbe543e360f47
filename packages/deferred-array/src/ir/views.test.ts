// Views and shape ops (reshape, transpose, broadcastTo, squeeze, expandDims)
// checked value by value against hand-written NumPy results.
import * as da from '../index.js';
import { toList } from '../../test/to-list.js';

const a234 = () => da.arange(24).reshape([2, 3, 4]);

describe('reshape', () => {
  test('keeps row-major order, accepts a number and one -1', () => {
    expect(toList(da.arange(6).reshape([2, 3]))).toEqual([[0, 1, 2], [3, 4, 5]]);
    expect(toList(da.arange(6).reshape([3, -1]))).toEqual([[0, 1], [2, 3], [4, 5]]);
    expect(toList(da.arange(6).reshape([-1, 2, 1]))).toEqual([[[0], [1]], [[2], [3]], [[4], [5]]]);
    expect(toList(a234().reshape(-1))).toEqual(Array.from({ length: 24 }, (_, i) => i));
    expect(toList(da.arange(6).reshape([2, 3]).reshape(6))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(da.reshape(da.arange(6), [1, 6]).shape).toEqual([1, 6]);
  });

  test('reshapes 0-d and empty arrays', () => {
    expect(toList(da.array(7).reshape([1, 1]))).toEqual([[7]]);
    expect(toList(da.array([7]).reshape([]))).toBe(7);
    expect(da.zeros([0, 3]).reshape([3, -1]).shape).toEqual([3, 0]);
    expect(da.zeros([0, 3]).reshape(-1).shape).toEqual([0]);
    expect(toList(da.zeros([2, 0]).reshape([0, 5]))).toEqual([]);
  });

  test('reshape of a transposed view reads the view in its own row-major order', () => {
    expect(toList(da.arange(6).reshape([2, 3]).T.reshape(-1))).toEqual([0, 3, 1, 4, 2, 5]);
  });

  test('errors name the sizes and shapes involved', () => {
    const x = da.arange(12).reshape([3, 4]);
    expect(() => x.reshape([5, 2])).toThrow(da.ShapeError);
    expect(() => x.reshape([5, 2])).toThrow('cannot reshape an array of size 12 (shape (3, 4)) into shape (5, 2) of size 10');
    expect(() => x.reshape([5, -1])).toThrow(/size 12 .*\(5, -1\)/);
    expect(() => x.reshape([-1, -1])).toThrow(da.ShapeError);
    expect(() => da.zeros([0]).reshape([0, -1])).toThrow(da.ShapeError);
    expect(() => x.reshape([2.5, 2] as number[])).toThrow(TypeError);
    expect(() => x.reshape([-2, -6])).toThrow(TypeError);
    expect(() => x.reshape('12' as unknown as number)).toThrow(TypeError);
  });
});

describe('transpose and .T', () => {
  test('default reverses the axes', () => {
    const x = da.arange(6).reshape([2, 3]);
    expect(toList(x.T)).toEqual([[0, 3], [1, 4], [2, 5]]);
    expect(toList(x.transpose())).toEqual([[0, 3], [1, 4], [2, 5]]);
    expect(toList(da.transpose(x))).toEqual([[0, 3], [1, 4], [2, 5]]);
    const t = a234().T;
    expect(t.shape).toEqual([4, 3, 2]);
    expect(toList(t.get(1))).toEqual([[1, 13], [5, 17], [9, 21]]);
  });

  test('explicit and negative axes', () => {
    const x = a234();
    const y = x.transpose([1, 0, 2]);
    expect(y.shape).toEqual([3, 2, 4]);
    expect(toList(y.get(2))).toEqual([[8, 9, 10, 11], [20, 21, 22, 23]]);
    const z = x.transpose([-1, 0, -2]); // = (2, 0, 1)
    expect(z.shape).toEqual([4, 2, 3]);
    expect(toList(z.get(3))).toEqual([[3, 7, 11], [15, 19, 23]]);
    expect(toList(x.transpose([0, 1, 2]))).toEqual(toList(x));
  });

  test('1-d, 0-d and empty arrays', () => {
    expect(toList(da.arange(3).T)).toEqual([0, 1, 2]);
    expect(toList(da.array(5).T)).toBe(5);
    expect(da.zeros([0, 2]).T.shape).toEqual([2, 0]);
    expect(toList(da.zeros([0, 2]).T)).toEqual([[], []]);
  });

  test('bad axes', () => {
    const x = a234();
    expect(() => x.transpose([0, 1])).toThrow(da.ShapeError);
    expect(() => x.transpose([0, 1])).toThrow(/each of the 3 axes of shape \(2, 3, 4\)/);
    expect(() => x.transpose([0, 0, 1])).toThrow(/repeat/);
    expect(() => x.transpose([0, 2, -1])).toThrow(/repeat/);
    expect(toList(x.transpose([0, 1, -1]))).toEqual(toList(x));
    expect(() => x.transpose([0, 1, 3])).toThrow(da.ShapeError);
    expect(() => x.transpose([0, 1, 1.5])).toThrow(TypeError);
    expect(() => x.transpose(1 as unknown as number[])).toThrow(TypeError);
  });

  test('views of views', () => {
    const x = da.arange(6).reshape([2, 3]);
    expect(toList(x.T.get('::-1'))).toEqual([[2, 5], [1, 4], [0, 3]]);
    expect(toList(x.T.T)).toEqual([[0, 1, 2], [3, 4, 5]]);
    expect(toList(x.get(':, ::-1').T.get('1:'))).toEqual([[1, 4], [0, 3]]);
    expect(toList(a234().get('::-1, 1:, ::2').transpose([2, 0, 1]))).toEqual([
      [[16, 20], [4, 8]],
      [[18, 22], [6, 10]],
    ]);
    expect(toList(x.T.broadcastTo([2, 3, 2]).get('1, ::2'))).toEqual([[0, 3], [2, 5]]);
  });
});

describe('broadcastTo', () => {
  test('repeats along new and size-1 axes', () => {
    expect(toList(da.broadcastTo(da.arange(3), [2, 3]))).toEqual([[0, 1, 2], [0, 1, 2]]);
    expect(toList(da.arange(2).reshape([2, 1]).broadcastTo([2, 3]))).toEqual([[0, 0, 0], [1, 1, 1]]);
    expect(toList(da.array(4).broadcastTo([2, 2]))).toEqual([[4, 4], [4, 4]]);
    expect(toList(da.arange(3).broadcastTo([1, 2, 3]))).toEqual([[[0, 1, 2], [0, 1, 2]]]);
    expect(toList(da.arange(3).broadcastTo([3]))).toEqual([0, 1, 2]);
    expect(da.arange(3).broadcastTo([0, 3]).shape).toEqual([0, 3]);
    expect(toList(da.ones([1]).broadcastTo([0]))).toEqual([]);
  });

  test('refuses shapes it cannot reach', () => {
    expect(() => da.arange(3).broadcastTo([2])).toThrow(da.ShapeError);
    expect(() => da.arange(3).broadcastTo([3, 2])).toThrow(/\(3,\)/);
    expect(() => da.zeros([2, 3]).broadcastTo([3])).toThrow(da.ShapeError);
    expect(() => da.zeros([2, 1]).broadcastTo([2, 3]).broadcastTo([3, 3])).toThrow(da.ShapeError);
    expect(() => da.zeros([2, 3]).broadcastTo([2, 1])).toThrow('cannot broadcast an array of shape (2, 3) to shape (2, 1)');
    expect(() => da.zeros([2]).broadcastTo([-1, 2])).toThrow(RangeError);
  });
});

describe('squeeze', () => {
  test('drops every size-1 axis, or the chosen ones', () => {
    const x = da.arange(3).reshape([1, 3, 1]);
    expect(toList(x.squeeze())).toEqual([0, 1, 2]);
    expect(x.squeeze(0).shape).toEqual([3, 1]);
    expect(x.squeeze(-1).shape).toEqual([1, 3]);
    expect(x.squeeze([0, 2]).shape).toEqual([3]);
    expect(toList(da.squeeze(da.array([[5]])))).toBe(5);
    expect(toList(da.array(5).squeeze())).toBe(5);
    expect(da.zeros([1, 0]).squeeze().shape).toEqual([0]);
  });

  test('refuses an axis whose size is not 1', () => {
    const x = da.zeros([1, 3, 1]);
    expect(() => x.squeeze(1)).toThrow(da.ShapeError);
    expect(() => x.squeeze(1)).toThrow('squeeze: axis 1 of shape (1, 3, 1) has size 3, not 1');
    expect(() => x.squeeze([0, 1])).toThrow(da.ShapeError);
    expect(() => x.squeeze(3)).toThrow(da.ShapeError);
    expect(() => x.squeeze([0, 0])).toThrow(/repeats/);
  });
});

describe('expandDims', () => {
  test('inserts size-1 axes, negative axes counting in the result', () => {
    const x = da.arange(6).reshape([2, 3]);
    expect(x.expandDims(0).shape).toEqual([1, 2, 3]);
    expect(x.expandDims(1).shape).toEqual([2, 1, 3]);
    expect(x.expandDims(2).shape).toEqual([2, 3, 1]);
    expect(x.expandDims(-1).shape).toEqual([2, 3, 1]);
    expect(x.expandDims(-3).shape).toEqual([1, 2, 3]);
    expect(x.expandDims([0, -1]).shape).toEqual([1, 2, 3, 1]);
    expect(toList(x.expandDims(1))).toEqual([[[0, 1, 2]], [[3, 4, 5]]]);
    expect(toList(da.expandDims(da.array(2), 0))).toEqual([2]);
  });

  test('refuses out-of-range and repeated axes', () => {
    const x = da.zeros([2, 3]);
    expect(() => x.expandDims(3)).toThrow(da.ShapeError);
    expect(() => x.expandDims(-4)).toThrow(da.ShapeError);
    expect(() => x.expandDims([1, 1])).toThrow(da.ShapeError);
    expect(() => x.expandDims(0.5)).toThrow(TypeError);
  });
});

test('views keep the dtype', () => {
  const b = da.array([[true, false], [false, true]]);
  expect(toList(b.T.get('::-1'))).toEqual([[false, true], [true, false]]);
  const f = da.arange(4, { dtype: 'float32' }).reshape([2, 2]).T;
  expect(f.dtype).toBe('float32');
  expect(toList(f)).toEqual([[0, 2], [1, 3]]);
});
