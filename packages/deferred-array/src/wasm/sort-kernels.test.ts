// sort and argsort by kernels-wasm's radix sort, and the medians and
// quantiles it selects by quickselect: random cases (shapes, axes, every
// dtype, views with negative and non-unit strides, broadcast and transposed
// operands, lines long enough for each digit width) give the reference
// evaluator's bits, with executeSync and on 1 and 2 workers; and sorted lines
// land in a strided out or a mutable array's block.
import fc from 'fast-check';
import * as da from '../index.js';
import { referenceResult } from '../../test/against-reference.js';
import { flatLength, throughView } from '../../test/views.js';
import type { View } from '../../test/views.js';

const initial = da.configure();
beforeAll(() => { da.configure({ backend: 'wasm' }); });
afterAll(() => { da.configure({ backend: initial.backend, threads: initial.threads, inlineThreshold: initial.inlineThreshold }); });

const DTYPES = ['float64', 'float32', 'int64', 'uint64', 'int32', 'uint32', 'int16', 'uint16', 'int8', 'uint8', 'bool'] as const;

interface Case {
  readonly shape: readonly number[];
  readonly dtype: (typeof DTYPES)[number];
  readonly view: View | 'broadcast';
  readonly axis: number | null;
  readonly op: 'sort' | 'argsort';
  readonly seed: number;
}

const arbitraryCase: fc.Arbitrary<Case> = fc.record({
  shape: fc.array(fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constantFrom(31, 32, 33, 70)), { minLength: 1, maxLength: 3 }),
  dtype: fc.constantFrom(...DTYPES),
  view: fc.constantFrom<Case['view']>('none', 'reversed', 'transposed', 'strided', 'broadcast'),
  axis: fc.option(fc.integer({ min: -3, max: 2 }), { nil: null }),
  op: fc.constantFrom<Case['op']>('sort', 'argsort'),
  seed: fc.nat(1000),
});

/** Values with repeats (and NaN, -0 and ±Inf among the floats; the extremes among the integers), in the case's view. */
function xOf(c: Case): da.DeferredArray {
  const size = c.shape.reduce((a, b) => a * b, 1);
  const n = c.view === 'broadcast' ? size / c.shape[0]! : flatLength(size, c.view);
  const i = da.arange(n).add(c.seed);
  let x: da.DeferredArray = i.mul(7919).mod(23).sub(11).mul(c.dtype.startsWith('float') ? 0.5 : 1);
  if (c.dtype === 'float64' || c.dtype === 'float32') {
    x = da.where(i.mod(7).equal(3), NaN, da.where(i.mod(5).equal(1), -0, da.where(i.mod(11).equal(2), -Infinity, da.where(i.mod(13).equal(4), Infinity, x))));
  } else if (c.dtype !== 'bool') {
    // The dtype's extremes: wrapped in from int32's.
    x = da.where(i.mod(9).equal(0), 2147483647, da.where(i.mod(9).equal(1), -2147483648, x)).astype('int32');
  }
  x = x.astype(c.dtype);
  if (c.view === 'broadcast') return da.broadcastTo(x.reshape(c.shape.slice(1)), [...c.shape]);
  return throughView(x, c.shape, c.view);
}

function sortOf(c: Case): da.DeferredArray {
  const x = xOf(c);
  const axis = c.axis === null ? null : Math.max(-x.shape.length, Math.min(c.axis, x.shape.length - 1));
  return c.op === 'sort' ? da.sort(x, { axis }) : da.argsort(x, { axis });
}

/** Elements as bits: -0 told from 0, each NaN payload from the others. */
function bits(nd: da.StdNdarray): string[] {
  const d = nd.data as ArrayLike<number | bigint> & { buffer: ArrayBuffer; byteOffset: number; BYTES_PER_ELEMENT: number; length: number };
  const Ctor = { 1: Uint8Array, 2: Uint16Array, 4: Uint32Array, 8: BigUint64Array }[d.BYTES_PER_ELEMENT]!;
  return Array.from(new Ctor(d.buffer, d.byteOffset, d.length) as ArrayLike<number | bigint>, String);
}

describe('sort and argsort by the radix sort', () => {
  test("random sorts give the reference's bits, executeSync and on 1 and 2 workers", async () => {
    await fc.assert(fc.asyncProperty(arbitraryCase, async (c) => {
      const want = referenceResult(() => sortOf(c));
      const got = sortOf(c).executeSync() as da.StdNdarray;
      expect(got.shape).toEqual(want.shape);
      expect(bits(got)).toEqual(bits(want));
      for (const threads of [1, 2]) {
        da.configure({ threads, inlineThreshold: 0 });
        try {
          expect(bits(await sortOf(c).execute() as da.StdNdarray)).toEqual(bits(want));
        } finally {
          da.configure({ threads: initial.threads, inlineThreshold: initial.inlineThreshold });
        }
      }
    }), { numRuns: 60 });
  }, 240000);

  test("many lines as a launch of the sorting kernel, shared out over 2 workers: the reference's bits, sorted and selected", async () => {
    const cases: Case[] = [
      { shape: [300, 200], dtype: 'float64', view: 'none', axis: 1, op: 'sort', seed: 1 },
      { shape: [300, 200], dtype: 'float32', view: 'transposed', axis: 0, op: 'argsort', seed: 2 },
      { shape: [40, 30, 50], dtype: 'int16', view: 'reversed', axis: 1, op: 'sort', seed: 3 },
      { shape: [1200, 40], dtype: 'uint8', view: 'strided', axis: -1, op: 'argsort', seed: 4 },
      { shape: [64, 1024], dtype: 'int64', view: 'none', axis: 1, op: 'argsort', seed: 5 },
      { shape: [3, 20000], dtype: 'float64', view: 'none', axis: 1, op: 'sort', seed: 6 },
    ];
    da.configure({ threads: 2, inlineThreshold: 0 });
    try {
      for (const c of cases) {
        const want = bits(referenceResult(() => sortOf(c)));
        expect(bits(sortOf(c).executeSync() as da.StdNdarray)).toEqual(want);
        expect(bits(await sortOf(c).execute() as da.StdNdarray)).toEqual(want);
      }
      // A source sorted along its last axis: the sort's launch is the run's only one, and goes to the pool
      // (inlineThreshold 0: its 60,000 elements are under the default).
      const x = da.wrap((xOf(cases[0]!).executeSync() as da.StdNdarray).data as Float64Array).reshape([300, 200]);
      const before = da.stats().pooled;
      expect(bits(await da.sort(x).execute() as da.StdNdarray)).toEqual(bits(referenceResult(() => da.sort(x))));
      expect(da.stats().pooled).toBe(before + 1);
      // Selections too: the median of each row (its launch the run's only one), quantiles down the columns.
      const y = da.wrap((xOf({ ...cases[0]!, seed: 9 }).executeSync() as da.StdNdarray).data as Float64Array).reshape([300, 200]);
      const pooledBy = async (z: da.DeferredArray): Promise<number> => {
        const from = da.stats().pooled;
        expect(bits(await da.median(z, { axis: 1 }).execute() as da.StdNdarray)).toEqual(bits(referenceResult(() => da.median(z, { axis: 1 }))));
        return da.stats().pooled - from;
      };
      // One launch more than the median of one row, whose selection is a step on the calling thread.
      expect(await pooledBy(y)).toBe(await pooledBy(y.get('0:1')) + 1);
      const q = (): da.DeferredArray => da.quantile(y, [0.1, 0.5, 0.5, 0.97], { axis: 0, method: 'nearest' });
      expect(bits(await q().execute() as da.StdNdarray)).toEqual(bits(referenceResult(q)));
      expect(bits(q().executeSync() as da.StdNdarray)).toEqual(bits(referenceResult(q)));
    } finally {
      da.configure({ threads: initial.threads, inlineThreshold: initial.inlineThreshold });
    }
  }, 120000);

  test("one long line sorted a pass a launch, each shared out over 2 workers by blocks of the line: the reference's bits", async () => {
    const n = (1 << 19) + 3;
    const cases: Case[] = [
      { shape: [n], dtype: 'float64', view: 'none', axis: 0, op: 'sort', seed: 1 },
      { shape: [n], dtype: 'float32', view: 'reversed', axis: 0, op: 'argsort', seed: 2 },
      { shape: [n], dtype: 'int16', view: 'strided', axis: 0, op: 'sort', seed: 3 },
      { shape: [1, n], dtype: 'uint64', view: 'none', axis: 1, op: 'argsort', seed: 4 },
    ];
    // The default threshold, whatever this process set: the line's launches go to the pool.
    da.configure({ threads: 2, inlineThreshold: 1 << 19 });
    try {
      for (const c of cases) {
        const want = bits(referenceResult(() => sortOf(c)));
        expect(bits(sortOf(c).executeSync() as da.StdNdarray)).toEqual(want);
        const from = da.stats().pooled;
        expect(bits(await sortOf(c).execute() as da.StdNdarray)).toEqual(want);
        // A launch for the keys, one a pass that moves them, one for the result: more than the one launch of many lines.
        expect(da.stats().pooled - from).toBeGreaterThanOrEqual(3);
      }
      // Every digit of the keys varies: a launch for the keys, a scatter a pass (six), a count before each after
      // the first, one for the values; each on the pool.
      const u = new Float64Array(n).map((_, i) => Math.sin(i * 12.9898) * 43758.5453 - i);
      const before = da.stats().pooled;
      const got = await da.sort(da.wrap(u)).execute() as da.StdNdarray;
      expect(da.stats().pooled - before).toBe(13);
      expect(bits(got)).toEqual(bits(da.wrap(Float64Array.from(u).sort()).executeSync() as da.StdNdarray));
      // Fewer lines than threads: each line in turn a launch a pass, shared out by blocks of the line.
      da.configure({ threads: 4 });
      const rows: Case = { shape: [3, (1 << 19) + 5], dtype: 'float64', view: 'none', axis: 1, op: 'argsort', seed: 7 };
      const fromRows = da.stats().pooled;
      expect(bits(await sortOf(rows).execute() as da.StdNdarray)).toEqual(bits(sortOf(rows).executeSync() as da.StdNdarray));
      expect(da.stats().pooled - fromRows).toBeGreaterThanOrEqual(9);
      da.configure({ threads: 2 });
      // Below the inline threshold the line sorts on the calling thread, in one step.
      da.configure({ inlineThreshold: 1 << 21 });
      const here = da.stats().pooled;
      expect(bits(await da.sort(da.wrap(u)).execute() as da.StdNdarray)).toEqual(bits(got));
      expect(da.stats().pooled).toBe(here);
    } finally {
      da.configure({ threads: initial.threads, inlineThreshold: initial.inlineThreshold });
    }
  }, 120000);

  test("medians and quantiles, their elements selected rather than sorted, give the reference's bits", async () => {
    const methods = ['linear', 'lower', 'higher', 'nearest', 'midpoint', 'hazen'] as const;
    await fc.assert(fc.asyncProperty(arbitraryCase, fc.constantFrom(...methods), async (c0, method) => {
      // NumPy refuses to blend booleans: their quantiles are taken as uint8.
      const c = { ...c0, dtype: c0.dtype === 'bool' ? 'uint8' as const : c0.dtype };
      const make = (): da.DeferredArray => {
        const x = xOf(c);
        const axis = c.axis === null ? null : Math.max(-x.shape.length, Math.min(c.axis, x.shape.length - 1));
        return c.op === 'sort' ? da.median(x, { axis }) : da.quantile(x, [0, 0.3, 0.5, 1], { axis, method });
      };
      const want = referenceResult(make);
      expect(bits(make().executeSync() as da.StdNdarray)).toEqual(bits(want));
      da.configure({ threads: 2, inlineThreshold: 0 });
      try {
        expect(bits(await make().execute() as da.StdNdarray)).toEqual(bits(want));
      } finally {
        da.configure({ threads: initial.threads, inlineThreshold: initial.inlineThreshold });
      }
    }), { numRuns: 60 });
  }, 240000);

  test.each([
    ['float64', 1 << 14], ['float32', (1 << 14) + 1], ['int64', 20000], ['uint16', 40000], ['int8', 17000],
  ] as const)('long lines (11-bit digits): %s, %i elements, sorted and argsorted as the reference does', (dtype, n) => {
    const c: Case = { shape: [n], dtype, view: 'none', axis: -1, op: 'sort', seed: 5 };
    for (const op of ['sort', 'argsort'] as const) {
      const k = { ...c, op };
      expect(bits(sortOf(k).executeSync() as da.StdNdarray)).toEqual(bits(referenceResult(() => sortOf(k))));
    }
  });

  test("sorted lines written through the trace into a mutable array's strided window", () => {
    const x = da.wrap(Float64Array.of(3, -0, 1, NaN, 0, 2, 5, 4)).reshape([2, 4]);
    const y = da.zeros([2, 4], { dtype: 'float64' });
    y.set(':, ::-1', da.sort(x, { axis: 1 }));
    expect(Array.from((y.executeSync() as da.StdNdarray).data as Float64Array, (v) => (Object.is(v, -0) ? '-0' : String(v))))
      .toEqual(['NaN', '3', '1', '-0', '5', '4', '2', '0']);
    const m = da.array([[4, 3, 9], [1, 8, 2]], { dtype: 'int32' });
    const cells = da.zeros([2, 3], { dtype: 'int32' });
    cells.set('::-1, :', da.argsort(m, { axis: 0 }));
    expect(Array.from(cells.executeSync().data as Int32Array)).toEqual([0, 1, 0, 1, 0, 1]);
  });
});
