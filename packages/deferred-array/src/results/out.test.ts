// execute({ out }): NumPy's out=, checked before anything runs, written only
// once the run has succeeded, and written directly by the kernel when out is
// heap memory and nothing can fail after it starts.
import { afterEach, describe, expect, test } from '@jest/globals';
import { createRequire } from 'node:module';
import * as da from '../index.js';
import { heapIsShared } from 'kernels-wasm';

type Nd = da.StdNdarray;
const ndarrayModule = createRequire(import.meta.url)('@stdlib/ndarray') as {
  ndarray: new (dtype: string, data: unknown, shape: number[], strides: number[], offset: number, order: string) => Nd;
  empty(shape: number[], o: { dtype: string }): Nd;
};
const nd = (dtype: string, data: unknown, shape: number[], strides: number[], offset = 0): Nd =>
  new ndarrayModule.ndarray(dtype, data, shape, strides, offset, 'row-major');
const ramp = (n: number): Float64Array => Float64Array.from({ length: n }, (_, i) => i * 0.25 - 2);
const values = (x: Nd): number[] => Array.from(x.data as Float64Array);
const chain = (x: da.DeferredArray): da.DeferredArray => x.mul(1.5).add(2).abs().sqrt().sub(x);

afterEach(() => {
  expect(da.heapStats().views).toBe(0);
  da.configure({ errors: { divide: 'warn', invalid: 'warn' } });
});

describe('forms', () => {
  const x = da.wrap(ramp(12));
  const y = chain(x);
  const want = values(y.executeSync() as Nd);

  test('a typed array comes back as an ndarray over it; an ndarray comes back itself', async () => {
    const out = new Float64Array(12);
    const r = y.executeSync({ out }) as Nd;
    expect(r.data).toBe(out);
    expect(Array.from(out)).toEqual(want);
    const o = ndarrayModule.empty([12], { dtype: 'float64' });
    expect(await y.execute({ out: o })).toBe(o);
    expect(values(o)).toEqual(want);
  });

  test('shaped results fill a typed array row-major; strided and reversed ndarrays are written through their strides', () => {
    const m = x.reshape([3, 4]).mul(2);
    const wantM = values(m.executeSync() as Nd);
    const flat = new Float64Array(12);
    m.executeSync({ out: flat });
    expect(Array.from(flat)).toEqual(wantM);
    // A column-major ndarray (the transpose of a row-major 4 x 3 buffer).
    const buf = new Float64Array(12);
    const colMajor = nd('float64', buf, [3, 4], [1, 3]);
    m.executeSync({ out: colMajor });
    for (let i = 0; i < 3; i++) for (let j = 0; j < 4; j++) expect(buf[i + 3 * j]).toBe(wantM[i * 4 + j]);
    // Every other element of a bigger buffer, walked backwards, from an offset.
    const big = new Float64Array(30).fill(-1);
    const rev = nd('float64', big, [12], [-2], 25);
    y.executeSync({ out: rev });
    want.forEach((v, i) => expect(big[25 - 2 * i]).toBe(v));
    expect(big[0]).toBe(-1);
  });

  test('lists for several arrays (null skips one), records for marked outputs (any of their keys)', () => {
    const a = x.mul(2);
    const b = x.add(1);
    const oa = new Float64Array(12);
    const [ra, rb] = da.executeSync([a, b], { out: [oa, null] }) as Nd[];
    expect(ra!.data).toBe(oa);
    expect(values(rb!)).toEqual(Array.from(ramp(12), (v) => v + 1));
    const t = x.mul(3).output('t');
    const ot = new Float64Array(12);
    const rec = t.sub(1).executeSync({ out: { t: ot } }) as da.OutputRecord;
    expect((rec['t'] as Nd).data).toBe(ot);
    expect(Array.from(ot)).toEqual(Array.from(ramp(12), (v) => v * 3));
    const or = new Float64Array(12);
    const both = da.executeSync([t.sub(1), t.add(1)], { out: { result: [or, null] } }) as da.OutputRecord;
    expect(((both['result'] as Nd[])[0]!).data).toBe(or);
    expect(Array.from(or)).toEqual(Array.from(ramp(12), (v) => v * 3 - 1));
  });

  test('bool results go into a Uint8Array or a bool ndarray; 0-d and empty results work', () => {
    const gt = x.gt(0);
    const bytes = new Uint8Array(12);
    gt.executeSync({ out: bytes });
    expect(Array.from(bytes)).toEqual(Array.from(ramp(12), (v) => (v > 0 ? 1 : 0)));
    const b = ndarrayModule.empty([12], { dtype: 'bool' });
    expect(gt.executeSync({ out: b })).toBe(b);
    expect(Array.from({ length: 12 }, (_, i) => b.get(i))).toEqual(Array.from(ramp(12), (v) => v > 0));
    const s = new Float64Array(1);
    x.sum().executeSync({ out: s });
    expect(s[0]).toBe((x.sum().executeSync() as Nd).get());
    const e = new Float64Array(0);
    expect((x.get('3:3').executeSync({ out: e }) as Nd).data).toBe(e);
  });
});

describe('checked before anything runs', () => {
  const x = da.wrap(ramp(6));
  const y = x.mul(2);

  test('dtype and shape: TypeError and ShapeError naming both; no kernel runs', () => {
    const before = da.stats().runs;
    expect(() => y.executeSync({ out: new Float32Array(6) })).toThrow(/out is a Float32Array but the result is float64\(6,\); pass a Float64Array/);
    expect(() => y.executeSync({ out: new Float64Array(5) })).toThrow(da.ShapeError);
    expect(() => y.reshape([2, 3]).executeSync({ out: nd('float64', new Float64Array(6), [3, 2], [2, 1]) })).toThrow(/shape \(3, 2\) but the result is float64\(2, 3\)/);
    expect(() => y.executeSync({ out: nd('float32', new Float32Array(6), [6], [1]) })).toThrow(/float32 ndarray but the result is float64/);
    expect(() => x.gt(0).executeSync({ out: new Int32Array(6) })).toThrow(/pass a Uint8Array/);
    expect(da.stats().runs).toBe(before);
  });

  test('forms: one array for one result, a list for several, a record for marked outputs; unknown keys and overlaps', async () => {
    expect(() => y.executeSync({ out: [new Float64Array(6)] })).toThrow(/returns one ndarray, so out must be one typed array or ndarray/);
    expect(() => da.executeSync([y, y], { out: [new Float64Array(6)] })).toThrow(/list of 2 arrays/);
    const t = x.add(1).output('t');
    expect(() => t.mul(2).executeSync({ out: new Float64Array(6) })).toThrow(/marked with output\(\).*'t', 'result'/);
    expect(() => t.mul(2).executeSync({ out: { u: new Float64Array(6) } })).toThrow(/key 'u'/);
    const shared = new Float64Array(8);
    expect(() => da.executeSync([y, x.add(3)], { out: [shared.subarray(0, 6), shared.subarray(2, 8)] })).toThrow(/out\[0\] and out\[1\] share memory/);
    expect(() => y.executeSync({ out: da.zeros([6]) as never })).toThrow(/use its assign\(\)/);
    expect(() => y.executeSync({ out: [1, 2, 3, 4, 5, 6] as never })).toThrow(TypeError);
    expect(() => y.executeSync({ out: ndarrayModule.empty([6], { dtype: 'generic' }) })).toThrow(TypeError);
    expect(() => y.executeSync({ outt: 1 } as never)).toThrow(/unknown option 'outt'/);
    expect(() => y.executeSync({ view: 1 } as never)).toThrow(/option view must be a boolean/);
    expect(() => y.executeSync(null as never)).toThrow(/options must be an object/);
    await expect(y.execute({ out: new Float64Array(2) })).rejects.toThrow(da.ShapeError);
  });

  test('a read-only ndarray is refused', () => {
    const ro = new ndarrayModule.ndarray('float64', new Float64Array(6), [6], [1], 0, 'row-major');
    Object.defineProperty(ro, 'flags', { value: { READONLY: true } });
    expect(() => y.executeSync({ out: ro })).toThrow(/read-only/);
  });
});

describe('atomic: a failed execute() leaves every out as it was', () => {
  const ints = da.array([6, 5, 0, 3], { dtype: 'int32' });
  const failing = ints.floorDivide(ints.sub(3)).add(1);

  test.each(['plain', 'view'] as const)('under a raising error policy, into a %s out', (kind) => {
    da.configure({ errors: { divide: 'raise' } });
    da.scopeSync(() => {
      const out = kind === 'plain' ? new Int32Array(4).fill(77) : (da.full([4], 77, { dtype: 'int32' }).executeSync() as Nd).data as Int32Array;
      expect(() => failing.executeSync({ out })).toThrow(da.ExecutionError);
      expect(Array.from(out)).toEqual([77, 77, 77, 77]);
    });
  });

  test('an integer to a negative power, into a view out, sync and async', async () => {
    const bad = ints.power(ints.sub(5)).mul(2);
    await da.scope(async () => {
      const v = (await da.full([4], 9, { dtype: 'int32' }).execute()) as Nd;
      expect(() => bad.executeSync({ out: v })).toThrow(/negative integer powers/);
      await expect(bad.execute({ out: v })).rejects.toThrow(da.ExecutionError);
      expect(Array.from(v.data as Int32Array)).toEqual([9, 9, 9, 9]);
    });
  });
});

// A heap out is a view (shared heap only; without one, views are copies).
(heapIsShared() ? describe : describe.skip)('heap outs', () => {
  test('written directly by the kernel: a loop reusing a view as out allocates no array memory', async () => {
    const x = da.wrap(ramp(100_000));
    const y = chain(x);
    const want = values(y.executeSync() as Nd);
    await da.scope(async () => {
      const v = (await y.execute()) as Nd;
      (v.data as Float64Array).fill(0);
      await y.execute({ out: v });
      y.executeSync({ out: v });
      const before = da.heapStats();
      for (let i = 0; i < 50; i++) {
        if (i % 2) y.executeSync({ out: v });
        else await y.execute({ out: v });
      }
      const grown = da.heapStats().allocatedBytes - before.allocatedBytes;
      // Launch blocks and scalar cells only: far less than one 800 KB result.
      expect(grown / 50).toBeLessThan(4096);
      expect(values(v)).toEqual(want);
      // Nothing kept: at most what it was (the collector may free an earlier test's source copies meanwhile).
      expect(da.heapStats().bytesInUse).toBeLessThanOrEqual(before.bytesInUse);
    });
  });

  test('a strided ndarray over a view (every other element, backwards) is written in place through its strides', () => {
    const x = da.wrap(ramp(500));
    const y = chain(x);
    y.executeSync(); // a source is cached in the heap from its second read
    const want = values(y.executeSync() as Nd);
    da.scopeSync(() => {
      const v = da.full([1001], -1).executeSync() as Nd;
      const rev = nd('float64', v.data, [500], [-2], 999);
      const before = da.heapStats().allocatedBytes;
      expect(y.executeSync({ out: rev })).toBe(rev);
      expect(da.heapStats().allocatedBytes - before).toBeLessThan(500 * 8);
      const got = values(v);
      want.forEach((t, i) => expect(got[999 - 2 * i]).toBe(t));
      expect(got.filter((t) => t === -1).length).toBe(501);
    });
  });

  test('an out the graph also reads is written as if the inputs were copied first (NumPy 1.13+)', () => {
    da.scopeSync(() => {
      const v = da.wrap(ramp(1000)).mul(1).executeSync() as Nd;
      const before = values(v);
      const xv = da.wrap(v);
      xv.get('::-1').add(xv).mul(0.5).executeSync({ out: v });
      expect(values(v)).toEqual(before.map((t, i) => (before[999 - i]! + t) * 0.5));
      xv.mul(2).executeSync({ out: v });
      expect(values(v)).toEqual(before.map((t, i) => (before[999 - i]! + t) * 0.5 * 2));
    });
  });

  test('a kernel calling host functions, or a plan ending in a reduction, still fills a heap out', () => {
    const x = da.wrap(ramp(5000));
    da.scopeSync(() => {
      const v = x.mul(1).executeSync() as Nd;
      x.mod(0.7).add(1).executeSync({ out: v });
      expect(values(v)).toEqual(values(x.mod(0.7).add(1).executeSync({ view: false }) as Nd));
      const s = x.sum().executeSync() as Nd;
      const t = x.mul(2).output('t');
      t.sum().executeSync({ out: { t: v, result: s } });
      expect(values(v)).toEqual(Array.from(ramp(5000), (q) => q * 2));
      expect(s.get()).toBe((x.mul(2).sum().executeSync({ view: false }) as Nd).get());
    });
  });
});
