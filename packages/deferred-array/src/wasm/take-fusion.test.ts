// A take in a fused group: the elementwise work and reductions around it run
// in the take's kernel (one pass, its result never stored), with each array
// read one way (a value gathered is never also read in order), and an index
// 'raise' cannot place fails the run as the reference's does, with every out
// untouched. Random graphs around a take give the reference evaluator's bits
// on the calling thread and on 1 and 2 workers.
import fc from 'fast-check';
import * as da from '../index.js';
import { elementsOf, referenceResult } from '../../test/against-reference.js';

const initial = da.configure();
beforeAll(() => { da.configure({ backend: 'wasm' }); });
afterAll(() => { da.configure({ backend: initial.backend, threads: initial.threads, inlineThreshold: initial.inlineThreshold }); });

type Around = 'chain' | 'difference' | 'plusX' | 'plusIndices' | 'max' | 'sum' | 'compare' | 'where';

interface Case {
  readonly shape: readonly number[];
  readonly dtype: 'float64' | 'float32' | 'int32';
  /** x as made, computed by a kernel of its own, or read through a reversed or transposed view. */
  readonly x: 'source' | 'computed' | 'reversed' | 'transposed';
  readonly last: boolean;
  readonly mode: 'raise' | 'wrap' | 'clip';
  /** Indices wrapped (read from memory), computed by a kernel before, or (not for 'raise') computed in the take's kernel. */
  readonly indices: 'wrapped' | 'before' | 'inside';
  readonly count: number;
  readonly around: Around;
  readonly seed: number;
}

const arbitraryCase: fc.Arbitrary<Case> = fc.record({
  shape: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 2 }),
  dtype: fc.constantFrom<Case['dtype']>('float64', 'float32', 'int32'),
  x: fc.constantFrom<Case['x']>('source', 'computed', 'reversed', 'transposed'),
  last: fc.boolean(),
  mode: fc.constantFrom<Case['mode']>('raise', 'wrap', 'clip'),
  indices: fc.constantFrom<Case['indices']>('wrapped', 'before', 'inside'),
  count: fc.integer({ min: 1, max: 40 }),
  around: fc.constantFrom<Around>('chain', 'difference', 'plusX', 'plusIndices', 'max', 'sum', 'compare', 'where'),
  seed: fc.nat(1000),
});

function xOf(c: Case): da.DeferredArray {
  const size = c.shape.reduce((a, b) => a * b, 1);
  let x = da.wrap(Float64Array.from({ length: size }, (_, i) => (i % 7 === 3 && c.dtype !== 'int32' ? NaN : (i * 37 + c.seed) % 23 - 11.5)));
  x = x.astype(c.dtype).reshape([...c.shape]);
  if (c.x === 'computed') x = x.mul(2);
  if (c.x === 'reversed') x = x.get('::-1');
  if (c.x === 'transposed') x = x.transpose();
  return x;
}

/** Indices of the case over an axis of n: inside [-n, n) for 'raise', else anywhere in [-3n, 3n]. */
function indicesOf(c: Case, n: number, salt: number): da.DeferredArray {
  const span = c.mode === 'raise' ? 2 * n : 6 * n + 1;
  const lo = c.mode === 'raise' ? -n : -3 * n;
  const values = Int32Array.from({ length: c.count }, (_, i) => lo + ((i * 7919 + (c.seed + salt) * 104729) % span));
  if (c.indices === 'wrapped') return da.wrap(values);
  if (c.indices === 'before') return da.wrap(values).add(0);
  // Computed in the take's kernel: a shift that the mode resolves.
  return da.wrap(values).add(1);
}

function graphOf(c: Case): da.DeferredArray {
  const x = xOf(c);
  const axis = c.last ? x.shape.length - 1 : 0;
  const n = x.shape[axis]!;
  const mode = c.mode === 'raise' && c.indices === 'inside' ? 'wrap' : c.mode;
  const t = da.take(x, indicesOf(c, n, 0), { axis, mode });
  switch (c.around) {
    case 'chain': return t.mul(3).add(1);
    case 'difference': return t.sub(da.take(x, indicesOf(c, n, 1), { axis, mode }));
    // x read in order beside its take, where they broadcast: never one array for both.
    case 'plusX': return t.shape.length === x.shape.length && t.shape.every((d, k) => d === x.shape[k] || x.shape[k] === 1) ? t.add(x) : t.add(2);
    // The indices read in order beside a take that walks them another way (a take along axis 0 of a matrix).
    case 'plusIndices': return t.shape[t.shape.length - 1] === c.count ? t.add(indicesOf(c, n, 0)) : t.mul(2);
    case 'max': return da.max(t.mul(2));
    case 'sum': return da.sum(t.astype('int32'));
    case 'compare': return t.greater(0);
    case 'where': return da.where(t.less(1), t, t.mul(-1));
  }
}

const bits = (nd: da.StdNdarray): unknown[] => elementsOf(nd).map((v) => (Object.is(v, -0) ? '-0' : v));

async function onWorkers<T>(threads: number, f: () => Promise<T>): Promise<T> {
  da.configure({ threads, inlineThreshold: 0 });
  try {
    return await f();
  } finally {
    da.configure({ threads: initial.threads, inlineThreshold: initial.inlineThreshold });
  }
}

describe('a take fused with the work around it', () => {
  test('random graphs around a take give the reference\'s bits, executeSync and on 1 and 2 workers', async () => {
    await fc.assert(fc.asyncProperty(arbitraryCase, async (c) => {
      const want = bits(referenceResult(() => graphOf(c)));
      expect(bits(graphOf(c).executeSync() as da.StdNdarray)).toEqual(want);
      for (const threads of [1, 2]) expect(bits(await onWorkers(threads, () => graphOf(c).execute()) as da.StdNdarray)).toEqual(want);
    }), { numRuns: 60 });
  }, 120000);

  test('the chain after a take, its reduction and a second take of the same x are one kernel; the take is never stored', () => {
    const x = da.wrap(Float64Array.from({ length: 10 }, (_, i) => i * 1.5));
    const [i, j] = [da.wrap(Int32Array.from([3, 1, -2, 9])), da.wrap(Int32Array.from([0, 0, 4, 2]))];
    const y = da.take(x, i).sub(da.take(x, j)).mul(2);
    expect(y.explain()).toMatch(/1 fused kernel\(s\)[^]*kernel 0 over \(4,\): take, take, subtract, multiply; reads %0, %1, %2, %3; writes %7 /);
    expect(Array.from(y.executeSync().data as Float64Array)).toEqual([9, 3, 12, 21]);
    const s = da.sum(da.take(x, i).square());
    expect(s.explain()).toMatch(/kernel 0 over \(4,\): take, square, sum; reads %0, %1; writes nothing; reduces to/);
    expect((s.executeSync() as da.StdNdarray).get()).toBe(4.5 ** 2 + 1.5 ** 2 + 12 ** 2 + 13.5 ** 2);
  });

  test('the take\'s kernel keeps vector lanes; a take that would lose them (floats at narrower or computed indices, bools) is a gather kernel of its own', () => {
    const x = da.wrap(Float64Array.from({ length: 64 }, (_, i) => i / 8));
    const i32 = da.wrap(Int32Array.from({ length: 40 }, (_, k) => (k * 7) % 64));
    const lanes = (y: da.DeferredArray): string[] => [...y.explain({ kernels: true }).matchAll(/kernel \d+: .*?(vectorised as \w+|scalar loop)/g)].map((m) => m[1]!);
    expect(lanes(da.sin(da.take(x, i32)).mul(2))).toEqual(['vectorised as f64x2']);
    expect(lanes(da.sin(da.take(da.wrap(Float32Array.from({ length: 64 }, (_, k) => k / 8)), i32)))).toEqual(['vectorised as f32x4']);
    // Integers at indices computed in the kernel, of a narrower type.
    const ints = da.wrap(Int32Array.from({ length: 64 }, (_, k) => k * 3 - 100));
    expect(lanes(da.take(ints, da.wrap(Int16Array.from([5, -3, 70, 9, 1])).add(1), { mode: 'wrap' }).mul(3))).toEqual(['vectorised as i32x4']);
    const narrow = da.sin(da.take(x, i32.astype('int16')));
    expect(narrow.explain({ kernels: true })).toMatch(/gather kernel, scalar loop[^]*kernel \d+: 1-d iteration space, vectorised as f64x2/);
    const computed = da.sin(da.take(x, i32.add(1), { mode: 'wrap' }));
    expect(lanes(computed)).toEqual(['vectorised as i32x4', 'vectorised as f64x2']);
    for (const y of [narrow, computed]) {
      const got = Array.from(y.executeSync().data as Float64Array);
      expect(got).toEqual(Array.from(referenceResult(() => y).data as Float64Array));
    }
  });

  test('a value gathered is not also read in order in one kernel: x + take(x, i) is two kernels', () => {
    const x = da.wrap(Float64Array.from([1, 2, 3, 4]));
    const y = x.add(da.take(x, da.wrap(Int32Array.from([3, 2, 1, 0]))));
    expect(y.explain()).toMatch(/2 fused kernel\(s\)/);
    expect(Array.from(y.executeSync().data as Float64Array)).toEqual([5, 5, 5, 5]);
    // Nor gathered from what the kernel computes: take(x * 2, i) reads x * 2 from memory.
    const z = da.take(x.mul(2), da.wrap(Int32Array.from([0, 3]))).add(1);
    expect(z.explain()).toMatch(/2 fused kernel\(s\)/);
    expect(Array.from(z.executeSync().data as Float64Array)).toEqual([3, 9]);
  });

  test.each([1, 2])('an index raise cannot place in a fused take fails the run, naming the first such take\'s index, on %i worker(s); out untouched', async (threads) => {
    const x = da.arange(12).astype('float64');
    const good = (): da.DeferredArray => da.wrap(Int32Array.from([1, 2, 5, 0])).add(0);
    const bad = (): da.DeferredArray => da.wrap(Int32Array.from([1, 20, -13, 0])).add(0);
    const make = (): da.DeferredArray => da.take(x, good()).mul(2).add(da.take(x, bad()));
    const message = 'take: index 20 is out of bounds for axis 0 with size 12';
    expect(() => make().executeSync()).toThrow(message);
    const out = new Float64Array(4).fill(7);
    await onWorkers(threads, async () => {
      await expect(make().execute()).rejects.toThrow(da.ExecutionError);
      await expect(make().execute({ out })).rejects.toThrow(message);
    });
    expect(Array.from(out)).toEqual([7, 7, 7, 7]);
    await da.scope(async () => {
      const heap = await da.zeros([4]).execute();
      await expect(make().execute({ out: heap })).rejects.toThrow(message);
    });
    // Nothing was kept from the failed runs.
    expect(Array.from(da.take(x, good()).mul(2).add(da.take(x, good())).executeSync().data as Float64Array)).toEqual([3, 6, 15, 0]);
  });

  test('a long fused take runs its blocks on the pool with the reference\'s bits', async () => {
    const n = 1 << 17;
    const make = (): da.DeferredArray => da.take(da.arange(n).mul(0.5), da.arange(n).mul(7919).mod(n).astype('int32')).mul(3).add(1);
    const want = bits(referenceResult(make));
    const pooled = da.stats().pooled;
    expect(bits(await onWorkers(2, () => make().execute()) as da.StdNdarray)).toEqual(want);
    expect(da.stats().pooled).toBeGreaterThan(pooled);
  });
});
