// matmul, dot and outer: NumPy's shape rules and values, checked against
// hand-written results and a brute-force reference written here.
import * as da from '../index.js';
import { toList } from '../../test/to-list.js';

/** Flat row-major values of a result. */
function flat(x: da.DeferredArray): number[] {
  const r = x.executeSync() as da.StdNdarray;
  expect(r.shape).toEqual(x.shape);
  return Array.from({ length: x.size }, (_, i) => Number(r.iget(i)));
}

const sizeOf = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);
const strides = (s: readonly number[]) => s.map((_, i) => sizeOf(s.slice(i + 1)));
const unravel = (i: number, s: readonly number[]) => s.map((d, k) => Math.floor(i / strides(s)[k]!) % d);
const ravel = (idx: readonly number[], s: readonly number[]) => idx.reduce((acc, v, k) => acc + v * strides(s)[k]!, 0);
/** Deterministic small integers, so float64 sums are exact in any order. */
const ints = (shape: number[], seed: number) => Array.from({ length: sizeOf(shape) }, (_, i) => ((i * 7 + seed * 3) % 11) - 5);

/** numpy.dot by its definition: dot(a, b)[i..., j...] = sum_k a[i..., k] * b[j_lead..., k, j_last]. */
function bruteDot(a: number[], as: number[], b: number[], bs: number[]): { shape: number[]; data: number[] } {
  const K = as[as.length - 1]!;
  const kAxis = bs.length === 1 ? 0 : bs.length - 2;
  const outA = as.slice(0, -1);
  const outB = bs.filter((_, i) => i !== kAxis);
  const shape = [...outA, ...outB];
  const data = Array.from({ length: sizeOf(shape) }, (_, o) => {
    const idx = unravel(o, shape);
    const ia = idx.slice(0, outA.length);
    const ib = idx.slice(outA.length);
    let s = 0;
    for (let k = 0; k < K; k++) {
      const bIdx = [...ib.slice(0, kAxis), k, ...ib.slice(kAxis)];
      s += a[ravel([...ia, k], as)]! * b[ravel(bIdx, bs)]!;
    }
    return s;
  });
  return { shape, data };
}

/** numpy.matmul for operands of at least 2 dimensions, batch axes broadcast. */
function bruteMatmul(a: number[], as: number[], b: number[], bs: number[]): { shape: number[]; data: number[] } {
  const P = as[as.length - 2]!;
  const K = as[as.length - 1]!;
  const Q = bs[bs.length - 1]!;
  const ba = as.slice(0, -2);
  const bb = bs.slice(0, -2);
  const nd = Math.max(ba.length, bb.length);
  const pad = (s: number[]) => [...Array<number>(nd - s.length).fill(1), ...s];
  const batch = pad(ba).map((d, i) => Math.max(d, pad(bb)[i]!));
  const shape = [...batch, P, Q];
  const data = Array.from({ length: sizeOf(shape) }, (_, o) => {
    const idx = unravel(o, shape);
    const bi = idx.slice(0, nd);
    const pick = (s: number[]) => bi.slice(nd - s.length).map((v, k) => (s[k] === 1 ? 0 : v));
    let s = 0;
    for (let k = 0; k < K; k++) {
      s += a[ravel([...pick(ba), idx[nd]!, k], as)]! * b[ravel([...pick(bb), k, idx[nd + 1]!], bs)]!;
    }
    return s;
  });
  return { shape, data };
}

const arr = (data: number[], shape: number[]) => da.array(data).reshape(shape);

describe('matmul', () => {
  test('2-D by 2-D, as a method and a function', () => {
    const a = da.arange(6).reshape([2, 3]);
    const b = da.arange(12).reshape([3, 4]);
    expect(toList(a.matmul(b))).toEqual([[20, 23, 26, 29], [56, 68, 80, 92]]);
    expect(toList(da.matmul(a, b))).toEqual([[20, 23, 26, 29], [56, 68, 80, 92]]);
    expect(toList(da.matmul([[1, 2], [3, 4]], [[5], [6]]))).toEqual([[17], [39]]);
  });

  test('1-D operands are promoted and the added axis dropped', () => {
    const v = da.arange(3);
    const m = da.arange(12).reshape([3, 4]);
    expect(toList(v.matmul(m))).toEqual([20, 23, 26, 29]);
    expect(toList(da.arange(12).reshape([4, 3]).matmul(v))).toEqual([5, 14, 23, 32]);
    const s = v.matmul(v);
    expect(s.shape).toEqual([]);
    expect(toList(s)).toBe(5);
    // A 1-D operand against a stack of matrices.
    const stackB = da.arange(24).reshape([2, 3, 4]);
    expect(toList(v.matmul(stackB))).toEqual([[20, 23, 26, 29], [56, 59, 62, 65]]);
    expect(toList(stackB.T.matmul(v.get(':2')))).toEqual([[12, 16, 20], [13, 17, 21], [14, 18, 22], [15, 19, 23]]);
  });

  test('batched, broadcasting the batch axes, against brute force', () => {
    const cases: Array<[number[], number[]]> = [
      [[2, 3, 4], [2, 4, 5]],
      [[2, 1, 3, 4], [5, 4, 2]],
      [[3, 4], [2, 4, 2]],
      [[1, 2, 3], [4, 3, 2]],
      [[2, 1, 2, 3], [1, 3, 3, 1]],
    ];
    for (const [as, bs] of cases) {
      const a = ints(as, 1);
      const b = ints(bs, 2);
      const want = bruteMatmul(a, as, b, bs);
      const got = arr(a, as).matmul(arr(b, bs));
      expect([as, bs, got.shape]).toEqual([as, bs, want.shape]);
      expect(flat(got)).toEqual(want.data);
    }
  });

  test('transposed and sliced operands', () => {
    const a = da.arange(6).reshape([3, 2]).T; // [[0, 2, 4], [1, 3, 5]]
    const b = da.arange(12).reshape([4, 3]).get('::-1').T; // 3 x 4
    expect(toList(a.matmul(b))).toEqual([[64, 46, 28, 10], [94, 67, 40, 13]]);
  });

  test('empty inner and outer axes', () => {
    expect(toList(da.matmul(da.zeros([2, 0]), da.zeros([0, 3])))).toEqual([[0, 0, 0], [0, 0, 0]]);
    expect(da.matmul(da.zeros([0, 4]), da.zeros([4, 3])).shape).toEqual([0, 3]);
    expect(da.matmul(da.zeros([0, 2, 4]), da.zeros([4, 3])).shape).toEqual([0, 2, 3]);
  });

  test('dtypes: int32 wraps, uint8 wraps, bool is or-of-ands, float32 stays float32', () => {
    const i = (v: number[][]) => da.array(v, { dtype: 'int32' });
    expect(toList(i([[65536, 3]]).matmul(i([[65536], [2]])))).toEqual([[6]]);
    expect(toList(i([[2 ** 30, 2 ** 30]]).matmul(i([[2], [2]])))).toEqual([[0]]);
    expect(i([[1]]).matmul(i([[1]])).dtype).toBe('int32');
    const u = da.array([[200, 100]], { dtype: 'uint8' }).matmul(da.array([[2], [3]], { dtype: 'uint8' }));
    expect(u.dtype).toBe('uint8');
    expect(toList(u)).toEqual([[188]]);
    const A = da.array([[true, false], [false, true], [true, true]]);
    const B = da.array([[true, true, false], [false, false, false]]);
    const AB = A.matmul(B);
    expect(AB.dtype).toBe('bool');
    expect(toList(AB)).toEqual([[true, true, false], [false, false, false], [true, true, false]]);
    const f = da.array([[0.1, 0.2, 0.3]], { dtype: 'float32' }).matmul(da.array([[0.7], [0.11], [1.3]], { dtype: 'float32' }));
    expect(f.dtype).toBe('float32');
    const v = (toList(f) as number[][])[0]![0]!;
    expect(v).toBe(Math.fround(v));
    expect(v).toBeCloseTo(0.482, 6);
    expect(da.matmul(da.ones([2, 2], { dtype: 'int32' }), da.ones([2, 2], { dtype: 'float32' })).dtype).toBe('float64');
    expect(da.matmul(da.ones([2, 2], { dtype: 'uint8' }), da.ones([2, 2], { dtype: 'bool' })).dtype).toBe('uint8');
  });

  test('shape errors name both shapes', () => {
    expect(() => da.matmul(da.zeros([2, 3]), da.zeros([4, 5]))).toThrow(da.ShapeError);
    expect(() => da.matmul(da.zeros([2, 3]), da.zeros([4, 5]))).toThrow(/shapes \(2, 3\) and \(4, 5\) are not aligned.*\(3 != 4\)/);
    expect(() => da.matmul(da.zeros([3]), da.zeros([4]))).toThrow(/\(3,\) and \(4,\)/);
    expect(() => da.matmul(da.zeros([2, 3, 4]), da.zeros([5, 4, 2]))).toThrow(da.ShapeError);
    expect(() => da.matmul(da.zeros([2, 3, 4]), da.zeros([5, 4, 2]))).toThrow(/\(2, 3, 4\) and \(5, 4, 2\)/);
  });

  test('0-d operands are refused', () => {
    expect(() => da.matmul(da.array(2), da.zeros([2, 2]))).toThrow(da.ShapeError);
    expect(() => da.zeros([2]).matmul(3)).toThrow(/at least one dimension/);
  });
});

describe('dot', () => {
  test('1-D by 1-D is a 0-d inner product', () => {
    const d = da.dot(da.array([1, 2, 3]), da.array([4, 5, 6]));
    expect(d.shape).toEqual([]);
    expect(toList(d)).toBe(32);
    expect(toList(da.array([1, 2, 3]).dot([4, 5, 6]))).toBe(32);
  });

  test('2-D by 2-D is the matrix product', () => {
    expect(toList(da.dot([[1, 2], [3, 4]], [[5, 6], [7, 8]]))).toEqual([[19, 22], [43, 50]]);
  });

  test('N-D by 1-D contracts the last axis', () => {
    const a = da.arange(24).reshape([2, 3, 4]);
    expect(toList(a.dot([1, 0, 0, -1]))).toEqual([[-3, -3, -3], [-3, -3, -3]]);
    expect(toList(da.dot([1, 1], da.arange(6).reshape([2, 3])))).toEqual([3, 5, 7]);
  });

  test('N-D by M-D against brute force', () => {
    const cases: Array<[number[], number[]]> = [
      [[3], [3]],
      [[2, 3], [3]],
      [[3], [3, 2]],
      [[2, 3], [3, 4]],
      [[2, 3, 4], [4, 2]],
      [[2, 3, 4], [5, 4, 2]],
      [[4], [2, 4, 3]],
      [[2, 2, 3], [2, 2, 3, 2]],
      [[0, 3], [3, 2]],
      [[2, 0], [0, 3]],
    ];
    for (const [as, bs] of cases) {
      const a = ints(as, 3);
      const b = ints(bs, 4);
      const want = bruteDot(a, as, b, bs);
      const got = arr(a, as).dot(arr(b, bs));
      expect([as, bs, got.shape]).toEqual([as, bs, want.shape]);
      expect(flat(got)).toEqual(want.data);
    }
  });

  test('views as operands', () => {
    const a = da.arange(6).reshape([2, 3]);
    expect(toList(a.T.dot(a))).toEqual([[9, 12, 15], [12, 17, 22], [15, 22, 29]]);
    expect(toList(a.get(':, ::-1').dot(a.T))).toEqual([[1, 10], [10, 46]]);
  });

  test('a 0-d operand multiplies', () => {
    expect(toList(da.dot(da.array(2), da.array([1, 2, 3])))).toEqual([2, 4, 6]);
    expect(toList(da.dot(da.arange(4).reshape([2, 2]), da.array(3)))).toEqual([[0, 3], [6, 9]]);
    expect(toList(da.dot(da.array(2), da.array(5)))).toBe(10);
    expect(da.dot(da.array(2, { dtype: 'int32' }), da.array([1], { dtype: 'int32' })).dtype).toBe('int32');
  });

  test('dtypes follow promotion; int32 wraps', () => {
    const i = da.array([65536, 1], { dtype: 'int32' });
    expect(toList(i.dot(i))).toBe(1);
    expect(da.dot(da.ones([2], { dtype: 'float32' }), da.ones([2], { dtype: 'float32' })).dtype).toBe('float32');
    expect(da.dot(da.ones([2], { dtype: 'int32' }), da.ones([2], { dtype: 'float32' })).dtype).toBe('float64');
    expect(toList(da.dot([true, false], [true, true]))).toBe(true);
  });

  test('shape errors name both shapes and the axes', () => {
    expect(() => da.dot(da.zeros([2, 3]), da.zeros([2, 3]))).toThrow(da.ShapeError);
    expect(() => da.dot(da.zeros([2, 3]), da.zeros([2, 3]))).toThrow(/\(2, 3\) and \(2, 3\) are not aligned: axis 1 of the first must match axis 0 of the second \(3 != 2\)/);
    expect(() => da.dot(da.zeros([3]), da.zeros([4]))).toThrow(da.ShapeError);
    expect(() => da.dot(da.zeros([2, 3, 4]), da.zeros([5, 3, 2]))).toThrow(/axis 2 of the first must match axis 1 of the second/);
  });
});

describe('outer', () => {
  test('flattens both inputs', () => {
    expect(toList(da.outer([[1, 2], [3, 4]], [1, 10, 100]))).toEqual([[1, 10, 100], [2, 20, 200], [3, 30, 300], [4, 40, 400]]);
    expect(toList(da.array([1, 2]).outer(da.arange(4).reshape([2, 2]).T))).toEqual([[0, 2, 1, 3], [0, 4, 2, 6]]);
    expect(toList(da.outer(da.array(3), da.array(4)))).toEqual([[12]]);
    expect(da.outer(da.zeros([0]), da.zeros([3])).shape).toEqual([0, 3]);
  });

  test('dtypes: promotion, int32 wraparound, bool and', () => {
    const o = da.outer(da.array([65536], { dtype: 'int32' }), da.array([65536, 2], { dtype: 'int32' }));
    expect(o.dtype).toBe('int32');
    expect(toList(o)).toEqual([[0, 131072]]);
    expect(toList(da.outer([true, false], [true, true]))).toEqual([[true, true], [false, false]]);
    expect(da.outer(da.ones([1], { dtype: 'float32' }), da.ones([1], { dtype: 'uint8' })).dtype).toBe('float32');
  });
});
