// any, all, argmax, argmin, and the sum, mean and count of masks run in
// vector lanes (a bool array's in i8x16, its trues counted; a comparison's
// in its operand's lanes), as does a select between masks, and give the
// reference evaluator's bits: random shapes, axes, views with negative and
// non-unit strides, masks read as sources or computed, on the calling
// thread and on 1 and 2 workers.
import fc from 'fast-check';
import * as da from '../index.js';
import { referenceResult } from '../../test/against-reference.js';
import { flatLength, throughView } from '../../test/views.js';
import type { View } from '../../test/views.js';

const initial = da.configure();
beforeAll(() => { da.configure({ backend: 'wasm' }); });
afterAll(() => { da.configure({ backend: initial.backend, threads: initial.threads, inlineThreshold: initial.inlineThreshold }); });

type Reduction = 'any' | 'all' | 'sum' | 'mean' | 'countNonzero' | 'argmax' | 'argmin';

interface Case {
  readonly shape: readonly number[];
  /** The mask a bool array made first (a source), or a comparison of a float64 or int16 array computed in the kernel. */
  readonly mask: 'source' | 'float64' | 'int16';
  readonly view: View;
  readonly axis: number | null;
  readonly keepdims: boolean;
  readonly reduction: Reduction;
  /** Whether the mask is first a select between it and its negation, by a second mask of its kind (where(m2, m, !m)). */
  readonly selected: boolean;
  /** How many elements are set: none, a few, about half, all but a few, all. */
  readonly density: 0 | 0.02 | 0.5 | 0.98 | 1;
  readonly seed: number;
}

const arbitraryCase: fc.Arbitrary<Case> = fc.record({
  shape: fc.array(fc.constantFrom(1, 2, 3, 7, 15, 16, 17, 31, 33, 64, 65), { minLength: 1, maxLength: 3 }),
  mask: fc.constantFrom<Case['mask']>('source', 'float64', 'int16'),
  view: fc.constantFrom<View>('none', 'reversed', 'strided', 'transposed'),
  axis: fc.option(fc.integer({ min: -3, max: 2 }), { nil: null }),
  keepdims: fc.boolean(),
  reduction: fc.constantFrom<Reduction>('any', 'all', 'sum', 'mean', 'countNonzero', 'argmax', 'argmin'),
  selected: fc.boolean(),
  density: fc.constantFrom<Case['density']>(0, 0.02, 0.5, 0.98, 1),
  seed: fc.nat(1 << 20),
});

/** n values in [0, 1) from the seed (a linear congruential generator: the same on both backends). */
function uniform(n: number, seed: number): Float64Array {
  let s = seed + 1;
  return Float64Array.from({ length: n }, () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  });
}

/** The case's mask: set where a uniform value is below the density, as the view asks (from `seed`: the case's). */
function maskOf(c: Case, seed = c.seed): da.DeferredArray {
  const size = c.shape.reduce((a, b) => a * b, 1);
  const u = uniform(flatLength(size, c.view), seed);
  let m: da.DeferredArray;
  if (c.mask === 'source') m = da.wrap(da.less(da.wrap(u), c.density).executeSync() as da.StdNdarray);
  // NaN and -0 among the values: NaN < d is false, -0 < d as 0 is.
  else if (c.mask === 'float64') m = da.less(da.wrap(u.map((v, i) => (i % 11 === 5 ? NaN : v === 0 ? -0 : v))), c.density);
  else m = da.less(da.wrap(Int16Array.from(u, (v) => Math.floor(v * 1000) - 500)), Math.round(c.density * 1000) - 500);
  return throughView(m, c.shape, c.view);
}

function reduce(c: Case): da.DeferredArray {
  const first = maskOf(c);
  const m = c.selected ? da.where(maskOf(c, c.seed + 1), first, da.logicalNot(first)) : first;
  const axis = c.axis === null || m.shape.length === 0 ? undefined : ((c.axis % m.shape.length) + m.shape.length) % m.shape.length;
  if (c.reduction === 'countNonzero') return da.countNonzero(m, axis === undefined ? {} : { axis });
  if (c.reduction === 'argmax' || c.reduction === 'argmin') return da[c.reduction](m, axis === undefined ? {} : { axis });
  return da[c.reduction](m, { ...(axis === undefined ? {} : { axis }), keepdims: c.keepdims });
}

/** A 40 x 33 bool matrix, a source: its columns mostly clear, every seventh mostly set, a few each way. */
const columnMask = (): da.DeferredArray => {
  const u = uniform(40 * 33, 9);
  return da.wrap(da.wrap(u.map((v, i) => ((i % 33) % 7 === 0 ? 1 - v : v))).less(0.03).reshape([40, 33]).executeSync() as da.StdNdarray);
};

/** A 0-d result's one element. */
const value = (y: da.DeferredArray): unknown => (y.executeSync() as da.StdNdarray).get();

/** Each element as text, -0 kept (through iget: a bool result's data is stdlib's BooleanArray, which Array.from cannot read). */
const bits = (nd: da.StdNdarray): string[] => Array.from({ length: nd.length }, (_, i) => {
  const v = Number(nd.iget(i));
  return Object.is(v, -0) ? '-0' : String(v);
});

describe('reductions of masks', () => {
  test('random masks, shapes, axes and views: the reference evaluator\'s bits, on the calling thread and on 1 and 2 workers', async () => {
    await fc.assert(fc.asyncProperty(arbitraryCase, async (c) => {
      const want = referenceResult(() => reduce(c));
      const got = reduce(c).executeSync() as da.StdNdarray;
      expect([got.dtype, got.shape]).toEqual([want.dtype, want.shape]);
      expect(bits(got)).toEqual(bits(want));
      for (const threads of [1, 2]) {
        da.configure({ threads, inlineThreshold: 0 });
        try {
          expect(bits(await reduce(c).execute() as da.StdNdarray)).toEqual(bits(want));
        } finally {
          da.configure({ threads: initial.threads, inlineThreshold: initial.inlineThreshold });
        }
      }
    }), { numRuns: 60, seed: 20261129 });
  }, 120_000);

  test.each([
    ['any of a bool array', () => da.any(da.wrap(da.less(da.wrap(uniform(1000, 1)), 0.5).executeSync() as da.StdNdarray)), 'i8x16'],
    ['all of a bool array', () => da.all(da.wrap(da.less(da.wrap(uniform(1000, 1)), 0.5).executeSync() as da.StdNdarray)), 'i8x16'],
    ['the sum of a bool array', () => da.sum(da.wrap(da.less(da.wrap(uniform(1000, 1)), 0.5).executeSync() as da.StdNdarray)), 'i8x16'],
    ['any of a float64 comparison', () => da.any(da.less(da.wrap(uniform(1000, 2)), 0)), 'f64x2'],
    ['all of an int32 comparison', () => da.all(da.greater(da.wrap(Int32Array.from({ length: 1000 }, (_, i) => i)), -1)), 'i32x4'],
    ['argmax of a float64 comparison', () => da.argmax(da.greater(da.wrap(uniform(1000, 4)), 0.9)), 'f64x2'],
    ['argmin of a float32 comparison', () => da.argmin(da.greater(da.wrap(Float32Array.from(uniform(1000, 5))), 0.1)), 'f32x4'],
    ['argmax of an int32 comparison', () => da.argmax(da.greater(da.wrap(Int32Array.from({ length: 1000 }, (_, i) => i)), 700)), 'i32x4'],
    ['a select between float64 comparisons, counted', () => da.countNonzero(da.where(da.less(da.wrap(uniform(1000, 6)), 0.5),
      da.less(da.wrap(uniform(1000, 7)), 0.2), da.greater(da.wrap(uniform(1000, 8)), 0.7))), 'f64x2'],
    ['any over axis 0 of a bool matrix (a column kernel)', () => da.any(columnMask(), { axis: 0 }), 'i32x4'],
    ['all over axis 0 of a float64 comparison (a column kernel)', () => da.all(da.less(da.wrap(uniform(40 * 33, 3)).reshape([40, 33]), 0.9), { axis: 0 }), 'f64x2'],
  ] as const)('%s runs in vector lanes (%s)', (_, make, lanes) => {
    expect(make().explain({ kernels: true })).toContain(`vectorised as ${lanes}`);
  });

  test('any and all over each axis of a bool matrix: the reference evaluator\'s answers, on the calling thread and 2 workers', async () => {
    for (const fn of ['any', 'all'] as const) {
      for (const axis of [0, 1]) {
        const want = bits(referenceResult(() => da[fn](columnMask(), { axis })));
        expect(bits(da[fn](columnMask(), { axis }).executeSync() as da.StdNdarray)).toEqual(want);
        da.configure({ threads: 2, inlineThreshold: 0 });
        try {
          expect(bits(await da[fn](columnMask(), { axis }).execute() as da.StdNdarray)).toEqual(want);
        } finally {
          da.configure({ threads: initial.threads, inlineThreshold: initial.inlineThreshold });
        }
      }
    }
  });

  test('exact answers over lengths around the lanes: one true (any) or one false (all) at each place, and every count', () => {
    for (const n of [1, 15, 16, 17, 63, 64, 65, 257]) {
      for (const at of new Set([0, Math.min(1, n - 1), n >> 1, n - 1])) {
        const lone = new Float64Array(n);
        lone[at] = 1;
        const m = da.wrap(da.greater(da.wrap(lone), 0).executeSync() as da.StdNdarray);
        expect([n, at, value(da.any(m)), value(da.all(da.logicalNot(m))), value(da.sum(m))])
          .toEqual([n, at, true, false, 1]);
        expect(value(da.all(da.wrap(da.less(da.wrap(lone), 1).executeSync() as da.StdNdarray)))).toBe(false);
        expect(value(da.countNonzero(da.wrap(da.less(da.wrap(lone), 1).executeSync() as da.StdNdarray)))).toBe(n - 1);
        // The first set (argmax) or clear (argmin) place, of a bool array and of a float64 comparison in its lanes.
        expect([value(da.argmax(m)), value(da.argmin(da.logicalNot(m))), value(da.argmax(da.greater(da.wrap(lone), 0))),
          value(da.argmin(da.less(da.wrap(lone), 1))), value(da.argmax(da.greater(da.wrap(lone), 2)))]).toEqual([at, at, at, at, 0]);
      }
    }
  });
});
