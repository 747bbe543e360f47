// None (newaxis) in an index, the one-argument where, repeat with an array of
// counts, slidingWindowView, unravelIndex and ravelMultiIndex in both orders
// and every mode, identity, and NumPy's trace as diagonal(x).sum(-1), against
// NumPy (test/vectors/spellings.json, from scripts/numpy/gen_spellings.py),
// on both backends: shapes, dtypes and values, and NumPy's refusals refused.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { keepBackend } from '../../test/keep-backend.js';

/** NumPy's array: NaN is written as null. */
interface Arr { readonly shape: number[]; readonly values: Array<number | null> }
type Case<T> = T & Partial<Arr> & { readonly error?: string };
const V = JSON.parse(readFileSync(new URL('../../test/vectors/spellings.json', import.meta.url), 'utf8')) as {
  noneIndex: Array<Case<{ index: string }>>;
  noneIndexZeroD: Array<Case<{ index: string }>>;
  whereOne: Array<{ condition: Arr; dtype: 'bool' | 'float64'; coordinates: Arr[] }>;
  repeat: Array<Case<{ x: Arr; repeats: number[]; axis: number | null }>>;
  slidingWindowView: Array<Case<{ window: number | number[]; axis: number | number[] | null }>>;
  unravelIndex: Array<{ indices: Arr; dims: number[]; order: da.FlatOrder; coordinates?: Arr[]; error?: string }>;
  ravelMultiIndex: Array<Case<{ multiIndex: Arr[]; dims: number[]; mode: da.RavelMode | da.RavelMode[]; order: da.FlatOrder }>>;
  identity: Array<Case<{ n: number }>>;
  trace: Array<Case<{ offset: number; axis1: number; axis2: number }>>;
};

const numbers = (c: Arr): number[] => c.values.map((v) => (v === null ? NaN : v));
const floats = (c: Arr): da.DeferredArray => da.array(numbers(c), { dtype: 'float64' }).reshape(c.shape);
const ints = (c: Arr): da.DeferredArray => da.array(numbers(c), { dtype: 'int32' }).reshape(c.shape);
/** Shape and values, NaN as null so that toEqual compares it with NumPy's; -0 and +0 are told apart. */
const got = (x: da.DeferredArray): Arr => {
  const r = x.executeSync() as da.StdNdarray;
  return { shape: [...r.shape], values: Array.from({ length: x.size }, (_, i) => { const v = Number(r.iget(i)); return Number.isNaN(v) ? null : v; }) };
};
const want = (c: Partial<Arr>): Arr => ({ shape: c.shape!, values: c.values! });

const x = da.arange(24).astype('float64').reshape([2, 3, 4]);
const s = da.arange(40).astype('float64').reshape([2, 5, 4]).mul(1.5).sub(10);
/** small([3, 4, 5], 7) of the script: integers, so any order of summing them is exact. */
const small = da.arange(60).astype('float64').reshape([3, 4, 5]).mod(7).sub(3);

keepBackend();

describe.each(['reference', 'wasm'] as const)('NumPy spellings against NumPy on the %s backend', (b) => {
  test('None and newaxis in index strings, with ints, steps, negative steps and an ellipsis; on a 0-d array too', () => {
    da.configure({ backend: b });
    expect(V.noneIndex.length).toBeGreaterThanOrEqual(15);
    for (const c of V.noneIndex) expect([c.index, got(x.get(c.index))]).toEqual([c.index, want(c)]);
    const zero = da.array(2.5);
    for (const c of V.noneIndexZeroD) expect([c.index, got(zero.get(c.index))]).toEqual([c.index, want(c)]);
  });

  test('where(condition) alone: the coordinates of the true elements, NaN and subnormals true, -0 false, empty axes', () => {
    da.configure({ backend: b });
    for (const c of V.whereOne) {
      const cond = c.dtype === 'bool' ? floats(c.condition).astype('bool') : floats(c.condition);
      const coords = da.where(cond);
      expect(coords.map((k) => k.dtype)).toEqual(coords.map(() => 'int32'));
      expect([c.condition, coords.map(got)]).toEqual([c.condition, c.coordinates]);
    }
  });

  test('repeat with an array of counts along an axis and flattened; counts NumPy refuses', () => {
    da.configure({ backend: b });
    for (const c of V.repeat) {
      const call = (): da.DeferredArray => da.repeat(floats(c.x), da.array(c.repeats, { dtype: 'int32' }), { axis: c.axis });
      if (c.error) expect(call).toThrow();
      else expect([c.repeats, c.axis, got(call())]).toEqual([c.repeats, c.axis, want(c)]);
    }
  });

  test('slidingWindowView over every axis, some axes, an axis twice, whole-axis and empty windows', () => {
    da.configure({ backend: b });
    for (const c of V.slidingWindowView) {
      const call = (): da.DeferredArray => da.slidingWindowView(s, c.window, { axis: c.axis });
      if (c.error) expect(call).toThrow(da.ShapeError);
      else expect([c.window, c.axis, got(call())]).toEqual([c.window, c.axis, want(c)]);
    }
  });

  test('unravelIndex and ravelMultiIndex in C and F order, every mode, 0-d and empty indices, out of range refused', () => {
    da.configure({ backend: b });
    for (const c of V.unravelIndex) {
      const call = (): Arr[] => da.unravelIndex(ints(c.indices), c.dims, { order: c.order }).map(got);
      if (c.error) expect(call).toThrow(RangeError);
      else expect([c.indices, c.dims, c.order, call()]).toEqual([c.indices, c.dims, c.order, c.coordinates]);
    }
    for (const c of V.ravelMultiIndex) {
      const call = (): Arr => got(da.ravelMultiIndex(c.multiIndex.map(ints), c.dims, { mode: c.mode, order: c.order }));
      if (c.error) expect(call).toThrow(RangeError);
      else expect([c.multiIndex, c.mode, c.order, call()]).toEqual([c.multiIndex, c.mode, c.order, want(c)]);
    }
  });

  test('identity, and trace as diagonal(x).sum(-1) over any two axes and offsets past the matrix', () => {
    da.configure({ backend: b });
    for (const c of V.identity) expect([c.n, got(da.identity(c.n))]).toEqual([c.n, want(c)]);
    for (const c of V.trace) {
      const t = da.diagonal(small, { offset: c.offset, axis1: c.axis1, axis2: c.axis2 }).sum({ axis: -1 });
      expect([c.offset, c.axis1, c.axis2, got(t)]).toEqual([c.offset, c.axis1, c.axis2, want(c)]);
    }
  });
});

describe('order is checked', () => {
  test('an order other than C or F says which it takes', () => {
    expect(() => da.unravelIndex(da.array([1], { dtype: 'int32' }), [2, 2], { order: 'K' as never })).toThrow(/unravelIndex: option order must be 'C' .* or 'F'/);
    expect(() => da.ravelMultiIndex([da.array([1], { dtype: 'int32' })], [2], { order: 'A' as never })).toThrow(/ravelMultiIndex: option order must be 'C'/);
  });
});
