// A compiled call over ordinary arrays copies them in and its result out;
// where the heap is shared it takes its blocks on the calling thread's
// private heap (wasm/heap.ts privateHeap), whose copies are plain memory
// copies. The same calls over wrapped arrays run on the process heap: both
// give the same bits, the same errors, and leave outs and heaps alike.
import { describe, expect, test } from '@jest/globals';
import { heapIsShared } from 'kernels-wasm';
import * as da from '../index.js';
import { elementsOf } from '../../test/against-reference.js';

/** Whether calls over ordinary arrays take the private heap here: the WebAssembly backend over a shared heap. */
const privately = (): boolean => da.stats().backend === 'wasm' && heapIsShared();

/** What a result holds, exactly (-0 kept, NaN as NaN). */
const bits = (r: unknown): string[] => elementsOf(r as da.StdNdarray).map((v) => (Object.is(v, -0) ? '-0' : String(v)));

interface Counts { readonly process: number; readonly private: number; readonly privateLive: number }
const counts = (): Counts => {
  const h = da.heapStats();
  return { process: h.allocations, private: h.privateHeap?.allocations ?? 0, privateLive: h.privateHeap?.liveAllocations ?? 0 };
};

const ramp = (n: number, scale: number, ctor: { from(a: ArrayLike<number>): Float64Array | Int16Array | Int32Array } = Float64Array) =>
  ctor.from(Array.from({ length: n }, (_, i) => (i % 13 === 5 ? (ctor === Float64Array ? [NaN, -0, Infinity][i % 3]! : -7) : ((i * 37) % 101) * scale - 20)));

describe('the private heap', () => {
  const n = 40_000; // over two blocks: a result into an out goes there through a scratch block
  const cases: Array<{ name: string; f: da.CompiledFunction; args: () => Array<Float64Array | Int16Array | Int32Array> }> = [
    {
      name: 'a 10-op chain',
      f: da.compile((x, y) => x.mul(1.5).add(y).sub(0.25).mul(x).add(2).mul(0.5).sub(y).abs().sqrt().add(1), [da.placeholder([n]), da.placeholder([n])]),
      args: () => [ramp(n, 0.5), ramp(n, -0.25)],
    },
    { name: 'x - mean(x), two kernels', f: da.compile((x) => x.sub(da.mean(x)), [da.placeholder([n])]), args: () => [ramp(n, 0.3)] },
    { name: 'two windows of one argument', f: da.compile((x) => x.get('1:').sub(x.get(':-1')), [da.placeholder([n])]), args: () => [ramp(n, 0.7)] },
    {
      name: 'int16 arithmetic, wrapping',
      f: da.compile((x, y) => x.mul(y).add(300), [da.placeholder([n], 'int16'), da.placeholder([n], 'int16')]),
      args: () => [ramp(n, 97, Int16Array), ramp(n, 61, Int16Array)],
    },
    { name: 'a sum', f: da.compile((x, y) => x.mul(y).sum(), [da.placeholder([1000]), da.placeholder([1000])]), args: () => [ramp(1000, 0.1), ramp(1000, 3)] },
    { name: 'a take', f: da.compile((t, i) => da.take(t, i, { mode: 'wrap' }).mul(2), [da.placeholder([50]), da.placeholder([n], 'int32')]), args: () => [ramp(50, 1), ramp(n, 7, Int32Array)] },
  ];

  test.each(cases)('$name: the bits of the same call over wrapped arrays, one block a call there, the process heap untouched', ({ f, args }) => {
    const a = args();
    const want = bits(f.sync(...a.map((v) => da.wrap(v.slice()))));
    f.sync(...a);
    for (const into of ['fresh', 'out'] as const) {
      const before = counts();
      const out = into === 'out' ? new (a[0]!.constructor as Float64ArrayConstructor)(want.length) : undefined;
      const got = into === 'out' ? f.sync(...a, { out: out! }) : f.sync(...a);
      expect(bits(got)).toEqual(want);
      if (out) expect((got as da.StdNdarray).data).toBe(out);
      const after = counts();
      if (privately()) {
        expect(after.private - before.private).toBe(1);
        expect(after.process - before.process).toBe(0);
      }
      expect(after.privateLive).toBe(0);
    }
  });

  test('a call over a wrapped array, or larger than its share, takes the process heap', () => {
    const f = da.compile((x, y) => x.mul(y).add(1), [da.placeholder([da.size('n')]), da.placeholder([da.size('n')])]);
    const small = [ramp(1000, 1), ramp(1000, 2)] as const;
    f.sync(...small);
    const big = [ramp(200_000, 1), ramp(200_000, 2)] as const; // 4.8 MB of blocks
    const calls: Array<[() => unknown, readonly [Float64Array | Int16Array | Int32Array, Float64Array | Int16Array | Int32Array]]> = [
      [() => f.sync(da.wrap(small[0]), small[1]), small], [() => f.sync(...big), big]];
    for (const [call, [x, y]] of calls) {
      call();
      const before = counts();
      const r = call() as da.StdNdarray;
      for (const i of [0, 5, 7, x.length - 1]) expect((r.data as Float64Array)[i]).toBe(x[i]! * y[i]! + 1);
      expect(counts().private).toBe(before.private);
      if (da.stats().backend === 'wasm') expect(counts().process - before.process).toBe(1);
    }
  });

  test('an idle runtime lets the private heap go, and the next call makes another', async () => {
    const f = da.compile((x) => x.mul(3), [da.placeholder([1000])]);
    const x = ramp(1000, 1);
    const { trimAfterIdleMs } = da.configure();
    da.configure({ trimAfterIdleMs: 40 });
    try {
      f.sync(x);
      if (!privately()) return;
      expect(da.heapStats().privateHeap).toBeDefined();
      for (let i = 0; i < 150 && da.heapStats().privateHeap !== undefined; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(da.heapStats().privateHeap).toBeUndefined();
      expect(((f.sync(x) as da.StdNdarray).data as Float64Array)[3]).toBe(x[3]! * 3);
      expect(da.heapStats().privateHeap?.allocations).toBe(1);
    } finally {
      da.configure({ trimAfterIdleMs });
    }
  });

  test('a call the error policy fails there leaves its out as it was and the private heap empty; a take that raises names its index', () => {
    const f = da.compile((x, y) => x.floorDivide(y).add(1), [da.placeholder([n], 'int32'), da.placeholder([n], 'int32')]);
    const x = Int32Array.from({ length: n }, (_, i) => i);
    const y = Int32Array.from({ length: n }, (_, i) => (i === n - 2 ? 0 : 3));
    const out = new Int32Array(n).fill(-5);
    try {
      da.configure({ errors: { divide: 'raise' } });
      expect(() => f.sync(x, y, { out })).toThrow(da.ExecutionError);
    } finally {
      da.configure({ errors: { divide: 'warn' } });
    }
    expect(out.every((v) => v === -5)).toBe(true);
    expect(counts().privateLive).toBe(0);
    const g = da.compile((t, i) => da.take(t, i).mul(2), [da.placeholder([12]), da.placeholder([n], 'int32')]);
    const bad = new Int32Array(n).fill(1);
    bad[n - 3] = 20;
    const message = 'take: index 20 is out of bounds for axis 0 with size 12';
    expect(() => g.sync(new Float64Array(12), bad, { out: new Float64Array(n) })).toThrow(message);
    expect(() => g.sync(da.wrap(new Float64Array(12)), da.wrap(bad))).toThrow(message);
    expect(counts().privateLive).toBe(0);
  });
});
