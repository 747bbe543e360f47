// eye, identity, tri, tril, triu, diagonal, diag, meshgrid, indices, pad,
// tensordot, kron, cross, arrayEqual, correlate, convolve and x.set(indices, v)
// against NumPy (test/vectors/matrices.json, from scripts/numpy/gen_matrices.py),
// on both backends: shapes, dtypes and values; and bad input.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { keepBackend } from '../../test/keep-backend.js';

interface Arr { readonly shape: number[]; readonly values: number[] }
type Case<T> = T & Arr;
const V = JSON.parse(readFileSync(new URL('../../test/vectors/matrices.json', import.meta.url), 'utf8')) as {
  eye: Array<Case<{ n: number; m: number | null; k: number }>>;
  tri: Array<Case<{ n: number; m: number | null; k: number }>>;
  tril: Array<Case<{ k: number }>>;
  triu: Array<Case<{ k: number }>>;
  diagonal: Array<Case<{ offset: number; axis1: number; axis2: number }>>;
  diagOfVector: Array<Case<{ k: number }>>;
  diagOfMatrix: Array<Case<{ k: number }>>;
  meshgrid: Record<'xy' | 'ij', Arr[]>;
  indices: Arr;
  pad: Array<Case<{ width: da.PadWidth; mode: da.PadMode; constant?: number }>>;
  padOne: Array<Case<{ mode: da.PadMode }>>;
  tensordot: Array<Case<{ a: number[]; b: number[]; axes: da.TensordotAxes }>>;
  kron: Array<Case<{ a: Arr; b: Arr }>>;
  cross: Array<Case<{ a: Arr; b: Arr }>>;
  correlate: Array<{ n: number; m: number; mode: da.ConvolveMode; a: number[]; v: number[]; c: number[]; k: number[] }>;
  setIndices: Array<Case<{ dtype: da.DType; index: number[] | number[][]; value: number | number[] | number[][] }>>;
};

/** An array of NumPy's values, as float64. */
const of = (c: Arr): da.DeferredArray => da.array(c.values.length ? c.values : [], { dtype: 'float64' }).reshape(c.shape);

const a = da.arange(24).astype('float64').reshape([2, 3, 4]).mul(1.5).sub(7);
const m = da.arange(12).astype('float64').reshape([3, 4]).sub(5);
const got = (x: da.DeferredArray): Arr => {
  const r = x.executeSync() as da.StdNdarray;
  return { shape: [...r.shape], values: Array.from({ length: x.size }, (_, i) => Number(r.iget(i))) };
};
const want = (c: Arr): Arr => ({ shape: c.shape, values: c.values });

keepBackend();

describe.each(['reference', 'wasm'] as const)('against NumPy on the %s backend', (b) => {
  test('eye, identity and tri', () => {
    da.configure({ backend: b });
    for (const c of V.eye) expect([c, got(da.eye(c.n, c.m, { k: c.k }))]).toEqual([c, want(c)]);
    for (const c of V.tri) expect([c, got(da.tri(c.n, c.m, { k: c.k }))]).toEqual([c, want(c)]);
    expect(da.eye(2).dtype).toBe('float64');
    expect(da.eye(2, null, { dtype: 'int32' }).dtype).toBe('int32');
    expect(got(da.identity(3))).toEqual(got(da.eye(3)));
  });

  test('tril and triu over the last two axes', () => {
    da.configure({ backend: b });
    for (const c of V.tril) expect([c.k, got(da.tril(a, { k: c.k }))]).toEqual([c.k, want(c)]);
    for (const c of V.triu) expect([c.k, got(da.triu(a, { k: c.k }))]).toEqual([c.k, want(c)]);
    expect(da.tril(a.astype('int32')).dtype).toBe('int32');
  });

  test('diagonal of any two axes, and diag both ways', () => {
    da.configure({ backend: b });
    for (const c of V.diagonal) {
      expect([c.offset, c.axis1, c.axis2, got(da.diagonal(a, { offset: c.offset, axis1: c.axis1, axis2: c.axis2 }))]).toEqual([c.offset, c.axis1, c.axis2, want(c)]);
    }
    for (const c of V.diagOfVector) expect([c.k, got(da.diag(da.array([1, 2, 3]), { k: c.k }))]).toEqual([c.k, want(c)]);
    for (const c of V.diagOfMatrix) expect([c.k, got(da.diag(m, { k: c.k }))]).toEqual([c.k, want(c)]);
  });

  test('meshgrid in both indexings, and indices', () => {
    da.configure({ backend: b });
    const [x, y, z] = [da.array([1, 2, 3]), da.array([10, 20]), da.array([5, 6, 7, 8])];
    expect(da.meshgrid(x, y, z).map(got)).toEqual(V.meshgrid.xy.map(want));
    expect(da.meshgrid(x, y, z, { indexing: 'ij' }).map(got)).toEqual(V.meshgrid.ij.map(want));
    expect(got(da.indices([2, 3]))).toEqual(want(V.indices));
    expect(da.indices([2, 3]).dtype).toBe('int32');
  });
});

/** NumPy's small(shape, mod): (arange % mod) - mod // 2, exact in any summation order. */
const small = (shape: number[], mod: number): da.DeferredArray =>
  da.arange(shape.reduce((p, d) => p * d, 1)).astype('float64').mod(mod).sub(Math.floor(mod / 2)).reshape(shape);

describe.each(['reference', 'wasm'] as const)('pad and tensordot against NumPy on the %s backend', (b) => {
  test('pad in every mode, pads longer than the axis included', () => {
    da.configure({ backend: b });
    const p2 = da.arange(6).astype('float64').reshape([2, 3]).mul(2).sub(3);
    for (const c of V.pad) {
      const options = { mode: c.mode, ...(c.constant === undefined ? {} : { constantValues: c.constant }) };
      expect([c.mode, c.width, got(da.pad(p2, c.width, options))]).toEqual([c.mode, c.width, want(c)]);
    }
    for (const c of V.padOne) expect([c.mode, got(da.pad(da.array([5]), 3, { mode: c.mode }))]).toEqual([c.mode, want(c)]);
    expect(da.pad(p2.astype('int32'), 1).dtype).toBe('int32');
  });

  test('tensordot over a number of axes and over pairs of axes', () => {
    da.configure({ backend: b });
    for (const c of V.tensordot) expect([c.axes, got(da.tensordot(small(c.a, 7), small(c.b, 5), c.axes))]).toEqual([c.axes, want(c)]);
  });
});

describe.each(['reference', 'wasm'] as const)('kron, cross and arrayEqual against NumPy on the %s backend', (b) => {
  test('kron of arrays of equal and of unequal ranks, bit for bit', () => {
    da.configure({ backend: b });
    for (const c of V.kron) expect([c.a.shape, c.b.shape, got(da.kron(of(c.a), of(c.b)))]).toEqual([c.a.shape, c.b.shape, want(c)]);
  });

  test('cross of 3-vectors and of 2-vectors, bit for bit', () => {
    da.configure({ backend: b });
    for (const c of V.cross) expect([c.a.shape, got(da.cross(of(c.a), of(c.b)))]).toEqual([c.a.shape, want(c)]);
  });

  test('arrayEqual: shapes, values and NaN', () => {
    da.configure({ backend: b });
    const eq = (p: da.DeferredArray, q: da.DeferredArray, equalNan?: boolean): boolean =>
      Boolean((da.arrayEqual(p, q, equalNan === undefined ? undefined : { equalNan }).executeSync() as da.StdNdarray).get());
    const [x, n] = [da.array([1, 2]), da.array([NaN, 1])];
    expect([eq(x, da.array([1, 2])), eq(x, da.array([1, 3])), eq(x, da.array([[1, 2]])), eq(n, n), eq(n, n, true), eq(x, da.array([1, 2], { dtype: 'int32' }))])
      .toEqual([true, false, false, false, true, true]);
  });
});

describe.each(['reference', 'wasm'] as const)('correlate and convolve against NumPy on the %s backend', (b) => {
  test('every mode, v shorter, as long as and longer than a (values whose sums are exact)', () => {
    da.configure({ backend: b });
    for (const c of V.correlate) {
      const [a, v] = [da.array(c.a), da.array(c.v)];
      const values = (x: da.DeferredArray): number[] => got(x).values;
      expect([c.n, c.m, c.mode, values(da.correlate(a, v, { mode: c.mode })), values(da.convolve(a, v, { mode: c.mode }))]).toEqual([c.n, c.m, c.mode, c.c, c.k]);
    }
  });
});

describe.each(['reference', 'wasm'] as const)('x.set(indices, v) with integer indices against NumPy on the %s backend', (b) => {
  test('rows along the first axis, negative indices, an index array of two axes, and the last write winning', () => {
    da.configure({ backend: b });
    for (const c of V.setIndices) {
      const x = da.arange(15).reshape([5, 3]).sub(4).astype(c.dtype);
      const index = da.array(c.index.length ? c.index : [], { dtype: 'int32' });
      const value = typeof c.value === 'number' ? c.value : da.array(c.value);
      x.set(index, value);
      expect([c.index, c.value, got(x)]).toEqual([c.index, c.value, want(c)]);
    }
  });
});

describe.each(['reference', 'wasm'] as const)('edge cases NumPy answers (expected values from NumPy 2.4) on the %s backend', (b) => {
  const values = (x: da.DeferredArray): unknown[] => {
    const r = x.executeSync() as da.StdNdarray;
    return Array.from({ length: x.size }, (_, i) => r.iget(i));
  };

  test('correlate and convolve sum only the overlap: an infinite or NaN tap reaches no position past a', () => {
    da.configure({ backend: b });
    expect(values(da.convolve(da.array([1, 2, 3]), da.array([Infinity, 1]), { mode: 'full' }))).toEqual([Infinity, Infinity, Infinity, 3]);
    expect(values(da.correlate(da.array([1, 2, 3]), da.array([1, NaN]), { mode: 'full' }))).toEqual([NaN, NaN, NaN, 3]);
    expect(values(da.correlate(da.array([Infinity, 1]), da.array([1, 2, 3]), { mode: 'same' }))).toEqual([Infinity, Infinity, 1]);
    expect(values(da.convolve(da.array([1, 2, 3]), da.array([Infinity, 1]), { mode: 'valid' }))).toEqual([Infinity, Infinity]);
  });

  test('bool arrays stay bool through tril, triu, diag and correlate', () => {
    da.configure({ backend: b });
    const m = da.array([[true, false], [true, true]]);
    expect([da.tril(m).dtype, values(da.tril(m)), values(da.triu(m, { k: 1 }))]).toEqual(['bool', [true, false, true, true], [false, false, false, false]]);
    expect([da.diag(da.array([true, false])).dtype, values(da.diag(da.array([true, false])))]).toEqual(['bool', [true, false, false, false]]);
    const c = da.correlate(da.array([true, false, true]), da.array([true, true]), { mode: 'full' });
    expect([c.dtype, values(c)]).toEqual(['bool', [true, true, true, true]]);
  });

  test('offsets far past the matrix, None as a slice bound, a pad width of one number in a list', () => {
    da.configure({ backend: b });
    expect(values(da.tri(2, 2, { k: 2 ** 31 - 1 }))).toEqual([1, 1, 1, 1]);
    expect(values(da.triu(da.ones([2, 2]), { k: 2 ** 31 }))).toEqual([0, 0, 0, 0]);
    expect(values(da.eye(2, null, { k: -(2 ** 40) }))).toEqual([0, 0, 0, 0]);
    const x = da.arange(6);
    expect([values(x.get('1:None')), values(x.get('None:2')), values(x.get('::None')), x.get('None, 1:None').shape]).toEqual([[1, 2, 3, 4, 5], [0, 1], [0, 1, 2, 3, 4, 5], [1, 5]]);
    expect(values(da.pad(da.array([1, 2, 3]), [2] as never))).toEqual([0, 0, 1, 2, 3, 0, 0]);
  });
});

describe('bad input says what was wrong', () => {
  test('integer-index assignment, and positions in a shape with an empty axis', () => {
    expect(() => da.ravelMultiIndex([da.array([1], { dtype: 'int32' })], [0], { mode: 'wrap' })).toThrow(/the shape \(0,\) has an axis of length 0/);
    const x = da.zeros([4, 2]);
    expect(() => x.set(da.array([1, 4], { dtype: 'int32' }), 1)).toThrow(/set: index 4 is out of bounds for axis 0 with size 4/);
    expect(() => x.set(da.array([1.5]), 1)).toThrow(/an array index must be a bool mask or integer indices; got float64/);
    expect(() => da.array(3).set(da.array([0], { dtype: 'int32' }), 1)).toThrow(/a 0-d array cannot be indexed by an array/);
  });

  test('kron, cross, arrayEqual, correlate', () => {
    expect(() => da.correlate(da.zeros([2, 2]), da.zeros([2]))).toThrow(/correlate: a and v must be 1-d/);
    expect(() => da.convolve(da.zeros([0]), da.zeros([2]))).toThrow(/must not be empty/);
    expect(() => da.correlate(da.zeros([3]), da.zeros([2]), { mode: 'circular' as never })).toThrow(/mode must be 'valid', 'same' or 'full'/);
    expect(() => da.cross(da.zeros([3]), da.zeros([2]))).toThrow(/cross: the last axes must both have length 2 or both 3/);
    expect(() => da.arrayEqual(da.zeros([1]), da.zeros([1]), { equalNan: 1 as never })).toThrow(/equalNan must be a boolean/);
  });

  test('pad and tensordot', () => {
    const x = da.zeros([2, 3]);
    expect(() => da.pad(x, -1)).toThrow(/pad: pad width must be a non-negative integer; got number -1/);
    expect(() => da.pad(x, [[1, 1], [1, 1], [1, 1]])).toThrow(/3 pairs of pad widths for an array of 2 axes/);
    expect(() => da.pad(x, 1, { mode: 'mean' as never })).toThrow(/option mode must be one of 'constant', 'edge'/);
    expect(() => da.pad(x, 1, { mode: 'edge', constantValues: 1 })).toThrow(/constantValues is a number, for mode 'constant'/);
    expect(() => da.pad(da.zeros([0, 2]), 1, { mode: 'wrap' })).toThrow(/the empty axis 0 cannot be padded in mode 'wrap'/);
    expect(() => da.tensordot(x, da.zeros([4, 2]), 1)).toThrow(/axis 1 of a \(length 3\) is paired with axis 0 of b \(length 4\)/);
    expect(() => da.tensordot(x, x, 3)).toThrow(/axes = 3 must be a whole number of axes both arrays have/);
    expect(() => da.tensordot(x, x, [[0], [0, 1]])).toThrow(/1 axes of a are paired with 2 of b/);
  });

  test('sizes, offsets, axes, ranks and options', () => {
    expect(() => da.eye(-1)).toThrow(/eye: n must be a non-negative integer; got number -1/);
    expect(() => da.eye(2, null, { k: 0.5 })).toThrow(/eye: option k must be an integer/);
    expect(() => da.eye(2, null, { kk: 1 } as never)).toThrow(/unknown option 'kk'/);
    expect(() => da.tril(da.array([1, 2]))).toThrow(da.ShapeError);
    expect(() => da.diagonal(a, { axis1: 1, axis2: -2 })).toThrow(/axis1 and axis2 must differ; both are 1/);
    expect(() => da.diag(a)).toThrow(/diag: the array must have one axis .* or two/);
    expect(() => da.meshgrid(da.array([1]), { indexing: 'yx' as never })).toThrow(/indexing must be 'xy' or 'ij'/);
    expect(() => da.indices([2, -1])).toThrow(/indices: dims\[1\] must be a non-negative integer/);
  });
});
