// get(): NumPy basic indexing with strings, integers, null and stdlib Slice /
// MultiSlice objects, checked against hand-written NumPy results.
import { createRequire } from 'node:module';
import * as da from '../index.js';
import { toList } from '../../test/to-list.js';

interface SliceCtor { new (...args: Array<number | null>): unknown }
interface MultiSliceCtor { new (...args: unknown[]): unknown }
const { Slice, MultiSlice } = createRequire(import.meta.url)('@stdlib/slice') as { Slice: SliceCtor; MultiSlice: MultiSliceCtor };

// The stdlib objects are typed loosely above; get() takes them as IndexArg. Like
// Python's slice(), Slice(2) is Slice(null, 2), so arguments pass through as given.
const S = (...args: Array<number | null>) => new Slice(...args) as da.IndexArg;
const MS = (...args: unknown[]) => new MultiSlice(...args) as da.IndexArg;

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const a34 = () => da.arange(12).reshape([3, 4]);
const a234 = () => da.arange(24).reshape([2, 3, 4]);

describe('index strings', () => {
  test('ranges with steps, negative bounds and negative steps', () => {
    const x = a34();
    expect(toList(x.get('1:-1, ::2'))).toEqual([[4, 6]]);
    expect(toList(x.get('::-1'))).toEqual([[8, 9, 10, 11], [4, 5, 6, 7], [0, 1, 2, 3]]);
    expect(toList(x.get(':, ::-1'))).toEqual([[3, 2, 1, 0], [7, 6, 5, 4], [11, 10, 9, 8]]);
    expect(toList(x.get('::-2, 1::2'))).toEqual([[9, 11], [1, 3]]);
    expect(toList(x.get('-2:, -3:-1'))).toEqual([[5, 6], [9, 10]]);
    expect(toList(x.get(':, 3:0:-1'))).toEqual([[3, 2, 1], [7, 6, 5], [11, 10, 9]]);
    expect(toList(x.get(':, 10:0:-3'))).toEqual([[3], [7], [11]]);
    expect(toList(x.get(':, -1:-5:-1'))).toEqual([[3, 2, 1, 0], [7, 6, 5, 4], [11, 10, 9, 8]]);
  });

  test('out-of-range slice bounds clip, and may leave an empty axis', () => {
    const x = da.arange(4);
    expect(toList(x.get('-10:10'))).toEqual([0, 1, 2, 3]);
    expect(toList(x.get('5:10'))).toEqual([]);
    expect(toList(x.get('3:1'))).toEqual([]);
    expect(toList(x.get('-10:10:-1'))).toEqual([]);
    expect(a34().get('2:2').shape).toEqual([0, 4]);
  });

  test('integers drop their axis; negative integers count from the end', () => {
    const x = a234();
    expect(toList(x.get('1'))).toEqual([[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]);
    expect(toList(x.get('-1, 0'))).toEqual([12, 13, 14, 15]);
    expect(toList(x.get('0, -1, -1'))).toBe(11);
    expect(toList(x.get(':, 1, ::3'))).toEqual([[4, 7], [16, 19]]);
    expect(x.get('1, 2, 3').shape).toEqual([]);
  });

  test('the ellipsis, an empty string and fewer indices than axes', () => {
    const x = a234();
    expect(toList(x.get('..., 1'))).toEqual([[1, 5, 9], [13, 17, 21]]);
    expect(toList(x.get('1, ..., ::-3'))).toEqual([[15, 12], [19, 16], [23, 20]]);
    expect(toList(x.get('...'))).toEqual(toList(x));
    expect(toList(x.get(''))).toEqual(toList(x));
    expect(toList(x.get('1:'))).toEqual([[[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]]);
    expect(toList(x.get('0, 1:3'))).toEqual([[4, 5, 6, 7], [8, 9, 10, 11]]);
    expect(toList(da.array(3).get('...'))).toBe(3);
  });

  test('an out-of-bounds integer is a RangeError naming the axis and size', () => {
    const x = a234();
    expect(() => x.get('2')).toThrow(RangeError);
    expect(() => x.get('2')).toThrow('index 2 is out of bounds for axis 0 with size 2 (shape (2, 3, 4))');
    expect(() => x.get('0, -4')).toThrow(/index -4 is out of bounds for axis 1 with size 3/);
    expect(() => da.zeros([0]).get('0')).toThrow(RangeError);
  });

  test('too many indices is a ShapeError', () => {
    expect(() => a234().get('0, 0, 0, 0')).toThrow(da.ShapeError);
    expect(() => a234().get('0, 0, 0, 0')).toThrow(/more indices than the array has axes/);
    expect(() => da.array(1).get('0')).toThrow(da.ShapeError);
    expect(() => da.arange(3).get(':, :')).toThrow(da.ShapeError);
  });

  test('a zero step or text that is not an index is a TypeError', () => {
    expect(() => a34().get('::0')).toThrow(TypeError);
    expect(() => a34().get('::0')).toThrow(/step cannot be zero/);
    expect(() => a34().get('1.5')).toThrow(TypeError);
    expect(() => a34().get('a:b')).toThrow(TypeError);
    expect(() => a34().get('..., ...')).toThrow(TypeError);
  });
});

describe('index strings resolved once per shape', () => {
  test('a string used again resolves the same, at each shape its own way; a bad one throws every time', () => {
    // The same strings over the same shapes, three times: the later ones come from the cache.
    for (let round = 0; round < 3; round++) {
      expect(toList(a34().get('1:, ::-2'))).toEqual([[7, 5], [11, 9]]);
      expect(toList(da.arange(5).get('1:'))).toEqual([1, 2, 3, 4]);
      expect(toList(da.arange(3).get('1:'))).toEqual([1, 2]);
      expect(toList(a234().get('1:'))).toEqual([[[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]]);
      expect(() => a34().get('5')).toThrow(RangeError);
      expect(() => a34().get('::0')).toThrow(TypeError);
    }
    // Nodes from one resolution share it, and print the same.
    const [p, q] = [a34().get('1:, ::-2'), a34().get('1:, ::-2')];
    expect(p.explain().split('\n').find((l) => l.includes('slice'))).toBe(q.explain().split('\n').find((l) => l.includes('slice')));
  });
});

describe('integer, null and Slice arguments', () => {
  test('integers and null', () => {
    const x = a234();
    expect(toList(x.get(1, 2))).toEqual([20, 21, 22, 23]);
    expect(toList(x.get(-1, -1, -1))).toBe(23);
    expect(toList(x.get(null, 0))).toEqual([[0, 1, 2, 3], [12, 13, 14, 15]]);
    expect(toList(da.get(x, 0, null, 3))).toEqual([3, 7, 11]);
    expect(x.get().shape).toEqual([2, 3, 4]);
  });

  test('Slice objects, alone and with integers', () => {
    const x = a34();
    expect(toList(x.get(S(null, null, -1)))).toEqual(toList(x.get('::-1')));
    expect(toList(x.get(S(1, -1), S(null, null, 2)))).toEqual([[4, 6]]);
    expect(toList(x.get(0, S(null, null, -1)))).toEqual([3, 2, 1, 0]);
    expect(toList(x.get(S(3, -5, -1), 1))).toEqual([9, 5, 1]);
    expect(toList(x.get(S(5, 10)))).toEqual([]);
    expect(toList(x.get(S(-10, 10), S(2)))).toEqual([[0, 1], [4, 5], [8, 9]]);
  });

  test('MultiSlice objects', () => {
    const x = a234();
    expect(toList(x.get(MS(1, null, S(0, 4, 2))))).toEqual([[12, 14], [16, 18], [20, 22]]);
    expect(toList(x.get(MS(S(null, null, -1), 2)))).toEqual([[20, 21, 22, 23], [8, 9, 10, 11]]);
    expect(() => x.get(MS(7, null, null))).toThrow(RangeError);
    expect(() => x.get(MS(0, 0, 0, 0))).toThrow(da.ShapeError);
  });

  test('errors', () => {
    const x = a34();
    expect(() => x.get(3)).toThrow(RangeError);
    expect(() => x.get(0, -5)).toThrow(RangeError);
    expect(() => x.get(0, 0, 0)).toThrow(da.ShapeError);
    expect(() => x.get(0, 0, 0)).toThrow(/too many indices for an array of shape \(3, 4\): 3 given/);
    expect(() => x.get(1.5)).toThrow(TypeError);
    expect(() => x.get(0, ':' as da.IndexArg)).toThrow(TypeError);
    expect(() => x.get(true as unknown as da.IndexArg)).toThrow(TypeError);
    // stdlib itself refuses a zero step when the Slice is made.
    expect(() => S(0, 3, 0)).toThrow();
  });
});

describe('views of views and special shapes', () => {
  test('slices compose with transposes and other slices', () => {
    const x = a34();
    expect(toList(x.T.get('::-1'))).toEqual([[3, 7, 11], [2, 6, 10], [1, 5, 9], [0, 4, 8]]);
    expect(toList(x.get('::-1').get(':, ::-1'))).toEqual([[11, 10, 9, 8], [7, 6, 5, 4], [3, 2, 1, 0]]);
    expect(toList(x.get('1:').get('1:').get(0))).toEqual([8, 9, 10, 11]);
    expect(toList(x.get('::2, 1:').T.get('::-2'))).toEqual([[3, 11], [1, 9]]);
    expect(toList(da.arange(10).get('1:-1').get('::-3').get('1:'))).toEqual([5, 2]);
  });

  test('slicing a broadcast view and a reshaped view', () => {
    const b = da.arange(3).broadcastTo([4, 3]);
    expect(toList(b.get('1:3, ::-1'))).toEqual([[2, 1, 0], [2, 1, 0]]);
    expect(toList(da.arange(24).get('::2').reshape([3, 4]).get(':, 1'))).toEqual([2, 10, 18]);
  });

  test('empty arrays slice to empty results', () => {
    const e = da.zeros([0, 3]);
    expect(e.get(':, 1').shape).toEqual([0]);
    expect(toList(e.get('::-1, ::2'))).toEqual([]);
    expect(da.zeros([2, 0]).get('1').shape).toEqual([0]);
    expect(toList(da.zeros([2, 0]).get(':, ::-1'))).toEqual([[], []]);
  });

  test('1-D and long arrays', () => {
    expect(toList(da.arange(100).get('::-7'))).toEqual(range(15).map((i) => 99 - 7 * i));
    expect(toList(da.arange(10).get('-3'))).toBe(7);
  });

  test('a bool array keeps its dtype', () => {
    const b = da.array([true, false, false]).get('::-1');
    expect(b.dtype).toBe('bool');
    expect(toList(b)).toEqual([false, false, true]);
  });
});
