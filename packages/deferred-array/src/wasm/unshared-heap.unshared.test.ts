// Without shared memory (a browser page without cross-origin isolation; here the 'unshared'
// jest project, DEFERRED_ARRAY_SHARED_MEMORY=0): the WebAssembly backend on an ordinary
// memory, every kernel on the calling thread, one warning saying why and what to do, results
// as copies, and the same values as the reference evaluator.
import { afterAll, describe, expect, jest, test } from '@jest/globals';
import { defaultHeap, heapIsShared, inDefaultHeap, isSharedBuffer } from 'kernels-wasm';
import * as da from '../index.js';

type Nd = { data: ArrayLike<number> };

afterAll(() => { da.configure({ backend: 'wasm' }); });

describe('without shared memory', () => {
  test('the heap is an ordinary memory and the backend is still WebAssembly', () => {
    expect(heapIsShared()).toBe(false);
    expect(da.configure().backend).toBe('wasm');
    expect(isSharedBuffer(defaultHeap().memory.buffer)).toBe(false);
  });

  test('kernels run on the calling thread, with one warning that says why and what to do', async () => {
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      da.configure({ threads: 2, inlineThreshold: 0 });
      const before = da.stats().pooled;
      const x = da.wrap(new Float64Array(1 << 17).map((_, i) => i));
      await da.sum(x.mul(2).add(1)).execute();
      await da.sum(x.mul(3)).execute();
      da.sum(x.sub(1)).executeSync();
      expect(da.stats().pooled).toBe(before);
      const messages = warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('no shared memory'));
      expect(messages).toHaveLength(1);
      expect(messages[0]).toContain('calling thread');
      expect(messages[0]).toContain('Cross-Origin-Opener-Policy: same-origin');
    } finally {
      warn.mockRestore();
    }
  });

  test('the idle trim gives an ordinary memory back too, and the next runs give the same values', async () => {
    const rt = da.createRuntime({ trimAfterIdleMs: 30 });
    try {
      const x = da.wrap(Float64Array.from({ length: 1 << 20 }, (_, i) => Math.sin(i)));
      const f = (): da.DeferredArray => x.mul(2).add(1);
      const [first] = await rt.execute([f()]) as Nd[];
      expect(rt.heapStats().heapBytes).toBeGreaterThan(4 * 2 ** 20);
      for (let i = 0; i < 100 && rt.heapStats().shrinks === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(rt.heapStats()).toMatchObject({ shrinks: 1, heapBytes: 4 * 2 ** 20 });
      const [again] = await rt.execute([f()]) as Nd[];
      const [sync] = rt.executeSync([f()]) as Nd[];
      expect(Array.from(again!.data).every((v, i) => v === first!.data[i])).toBe(true);
      expect(Array.from(sync!.data).every((v, i) => v === first!.data[i])).toBe(true);
    } finally {
      await rt.shutdown();
    }
  });

  test('results asked for as views are copies: growing the memory would detach a view', () => {
    const x = da.wrap(new Float64Array([1, 2, 3]));
    const r = x.add(1).executeSync({ view: true }) as unknown as Nd & { data: Float64Array };
    expect(Array.from(r.data)).toEqual([2, 3, 4]);
    expect(inDefaultHeap(r.data.buffer)).toBe(false);
    const scoped = da.scopeSync(() => x.mul(2).executeSync()) as unknown as { data: Float64Array };
    expect(inDefaultHeap(scoped.data.buffer)).toBe(false);
  });

  test('values equal the reference evaluator: bit for bit where IEEE arithmetic is exact, a sum to its rounding', () => {
    const run = (): number[][] => {
      const a = da.wrap(new Float64Array(4099).map((_, i) => Math.sin(i) * 1e3));
      const b = da.wrap(new Int32Array(4099).map((_, i) => (i * 7919) % 1013 - 500));
      const m = da.zeros([4099]);
      m.set(':', a.mul(b.astype('float64')).div(2));
      const out = [m, da.sum(a.sub(b)), da.max(a.mul(a)), da.where(a.gt(0), a, b.astype('float64'))].map((y) => y.executeSync() as unknown as Nd);
      return out.map((o) => Array.from(o.data));
    };
    da.configure({ backend: 'wasm' });
    const wasm = run();
    da.configure({ backend: 'reference' });
    const reference = run();
    da.configure({ backend: 'wasm' });
    // A sum's order differs between the backends (blocked pairs against a running total).
    const [sumW] = wasm.splice(1, 1);
    const [sumR] = reference.splice(1, 1);
    expect(wasm).toEqual(reference);
    expect(sumW![0]).toBeCloseTo(sumR![0]!, 6);
  });
});
