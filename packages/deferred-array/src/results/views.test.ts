// Heap views: results read where the kernels wrote them, their lifetime
// (scopes, release, dispose, the collector as a safety net), and the rule
// that the package never reads a released view.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe as describeAll, expect, test } from '@jest/globals';
import { defaultHeap, heapIsShared } from 'kernels-wasm';
import * as da from '../index.js';

// Views alias a shared heap; without one (the 'unshared' jest project, a page without
// cross-origin isolation) results are copies, which unshared-heap.unshared.test.ts covers.
const describe = heapIsShared() ? describeAll : describeAll.skip;

type Nd = da.StdNdarray;
const isShared = (x: Nd): boolean => (x.data as Float64Array).buffer instanceof SharedArrayBuffer;
const values = (x: Nd): number[] => Array.from(x.data as Float64Array);
const ramp = (n: number): Float64Array => Float64Array.from({ length: n }, (_, i) => i * 0.5 - 3);
const chain = (x: da.DeferredArray): da.DeferredArray => x.mul(1.5).add(2).sqrt().sub(x).abs();

afterEach(() => {
  // Every test leaves no view behind.
  expect(da.heapStats().views).toBe(0);
});

describe('views alias the heap', () => {
  test('a view is the heap block the run wrote: a write through the heap shows in the view, and no copy is made', () => {
    const x = da.wrap(ramp(1000));
    da.scopeSync(() => {
      const v = chain(x).executeSync() as Nd;
      expect(isShared(v)).toBe(true);
      const data = v.data as Float64Array;
      const heap = new Float64Array(defaultHeap().memory.buffer, data.byteOffset, 1000);
      heap[7] = 12345.5;
      expect(v.get(7)).toBe(12345.5);
      expect(data.byteLength).toBe(8000);
    });
  });

  test('values equal the copying path bit for bit, for every dtype, 0-d and empty results, strided results and records', () => {
    const x = da.wrap(ramp(37));
    const graphs: Array<() => da.DeferredArray> = [
      () => chain(x),
      () => x.astype('float32').mul(3).sin(),
      () => x.mul(10).astype('int32').add(3),
      () => x.add(4).astype('uint8'),
      () => x.gt(0),
      () => x.sum(),
      () => x.get('5:5'),
      () => x.get('::-3').mul(2),
      () => x.get(':36').reshape([6, 6]).T,
      () => x.reshape([37, 1]).T.reshape([37]),
      () => x,
    ];
    for (const g of graphs) {
      const copy = g().executeSync() as Nd;
      da.scopeSync(() => {
        const view = g().executeSync() as Nd;
        expect(view.dtype).toBe(copy.dtype);
        expect(view.shape).toEqual(copy.shape);
        expect(Array.from(view.data as ArrayLike<number>)).toEqual(Array.from(copy.data as ArrayLike<number>));
      });
    }
    const t = x.mul(2).output('t');
    const copy = t.add(1).executeSync() as da.OutputRecord;
    da.scopeSync(() => {
      const view = t.add(1).executeSync() as da.OutputRecord;
      expect(values(view['t'] as Nd)).toEqual(values(copy['t'] as Nd));
      expect(values(view['result'] as Nd)).toEqual(values(copy['result'] as Nd));
      expect(isShared(view['t'] as Nd)).toBe(true);
    });
  });

  test('bool results are ordinary copies even inside a scope (a BooleanArray cannot view shared memory)', () => {
    da.scopeSync(() => {
      const b = da.wrap(ramp(5)).gt(-1.25).executeSync() as Nd;
      expect(b.dtype).toBe('bool');
      expect([0, 1, 2, 3, 4].map((i) => b.get(i))).toEqual([false, false, false, false, true]);
      expect(da.heapStats().views).toBe(0);
    });
  });

  test('the same array requested twice gets two views of its own', () => {
    const y = chain(da.wrap(ramp(10)));
    da.scopeSync(() => {
      const [a, b] = da.executeSync([y, y]) as Nd[];
      expect((a!.data as Float64Array).byteOffset).not.toBe((b!.data as Float64Array).byteOffset);
      expect(values(a!)).toEqual(values(b!));
      expect(da.heapStats().views).toBe(2);
    });
  });

  test('plain execute() keeps returning ordinary arrays the collector owns (the NEP contract)', async () => {
    const y = chain(da.wrap(ramp(100)));
    expect(isShared(y.executeSync() as Nd)).toBe(false);
    expect(isShared(await y.execute() as Nd)).toBe(false);
    expect(da.heapStats().views).toBe(0);
  });
});

describe('scopes', () => {
  test('release every view at the end; what the outermost scope returns leaves as an ordinary copy', () => {
    const y = chain(da.wrap(ramp(500)));
    y.executeSync(); // a source is cached in the heap from its second read
    const want = values(y.executeSync() as Nd);
    const before = da.heapStats().bytesInUse;
    const got = da.scopeSync(() => {
      const a = y.executeSync() as Nd;
      y.executeSync();
      expect(da.heapStats().views).toBe(2);
      expect(isShared(a)).toBe(true);
      return a;
    });
    expect(isShared(got)).toBe(false);
    expect(values(got)).toEqual(want);
    expect(da.heapStats().views).toBe(0);
    expect(da.heapStats().bytesInUse).toBe(before);
  });

  test('nest: an inner scope hands what it returns to the outer one, views and records included, with no copy', () => {
    const y = chain(da.wrap(ramp(64)));
    const t = y.mul(2).output('t');
    da.scopeSync(() => {
      let inner: Nd | undefined;
      const handed = da.scopeSync(() => {
        inner = y.executeSync() as Nd;
        const rec = t.add(1).executeSync() as da.OutputRecord;
        y.executeSync(); // released with the inner scope
        return { inner, list: [rec['t']], n: 3 };
      });
      expect(handed.inner).toBe(inner);
      expect(isShared(handed.inner)).toBe(true);
      expect(isShared(handed.list[0] as Nd)).toBe(true);
      expect(handed.n).toBe(3);
      expect(da.heapStats().views).toBe(2);
      expect(values(handed.inner)).toEqual(values(y.executeSync({ view: false }) as Nd));
    });
  });

  test('async scopes follow their own code through awaits, even when two interleave', async () => {
    const y = chain(da.wrap(ramp(3000)));
    const want = values(y.executeSync() as Nd);
    let open!: () => void;
    const gate = new Promise<void>((r) => { open = r; });
    let made!: () => void;
    const madeView = new Promise<void>((r) => { made = r; });
    const a = da.scope(async () => {
      const r = await y.execute() as Nd;
      made();
      await gate;
      // Still live although scope b ended meanwhile.
      expect(isShared(r)).toBe(true);
      expect(values(r)).toEqual(want);
      return r.get(1);
    });
    try {
      const b = da.scope(async () => {
        const r = await y.execute() as Nd;
        return values(r);
      });
      expect(await b).toEqual(want);
      await madeView;
      expect(da.heapStats().views).toBe(1);
    } finally {
      open();
    }
    expect(await a).toBe(want[1]);
  });

  test('a result that arrives after its scope ended is an ordinary copy, never a dangling view', async () => {
    const y = chain(da.wrap(ramp(100)));
    let late: Promise<unknown> | undefined;
    await da.scope(async () => { late = y.execute(); });
    const r = await late as Nd;
    expect(isShared(r)).toBe(false);
    expect(values(r)).toEqual(values(y.executeSync() as Nd));
  });

  test('views are released when the scope throws, and the error passes through', () => {
    const y = chain(da.wrap(ramp(10)));
    expect(() => da.scopeSync(() => {
      y.executeSync();
      throw new RangeError('boom');
    })).toThrow('boom');
    expect(da.heapStats().views).toBe(0);
  });

  test('scopeSync refuses an async function; scope and scopeSync refuse a non-function', async () => {
    const y = chain(da.wrap(ramp(10)));
    expect(() => da.scopeSync(async () => y.execute())).toThrow(/returned a promise.*da\.scope/);
    expect(() => da.scopeSync(3 as never)).toThrow(TypeError);
    await expect(da.scope(null as never)).rejects.toThrow(TypeError);
  });

  test('options override the scope: { view: false } copies inside it, { view: true } makes a view outside it', async () => {
    const y = chain(da.wrap(ramp(10)));
    da.scopeSync(() => expect(isShared(y.executeSync({ view: false }) as Nd)).toBe(false));
    const v = await y.execute({ view: true }) as Nd;
    expect(isShared(v)).toBe(true);
    expect(da.heapStats().views).toBe(1);
    da.release(v);
  });

  test('compiled functions return views inside a scope too', async () => {
    const n = da.size('n');
    const f = da.compile((x) => chain(x), [da.placeholder([n])]);
    const x = ramp(40);
    const want = values(f.sync(x) as Nd);
    await da.scope(async () => {
      const v = await f(x) as Nd;
      expect(isShared(v)).toBe(true);
      expect(values(v)).toEqual(want);
    });
  });
});

describe('release', () => {
  test('da.release, Symbol.dispose and `using` release now; releasing twice is harmless; ordinary arrays need none', () => {
    const y = chain(da.wrap(ramp(100)));
    y.executeSync();
    y.executeSync(); // a source is cached in the heap from its second read
    const before = da.heapStats().bytesInUse;
    const a = y.executeSync({ view: true }) as Nd & Disposable;
    const b = y.executeSync({ view: true }) as Nd & Disposable;
    const c = da.executeSync([y, y], { view: true }) as Nd[];
    expect(da.heapStats().views).toBe(4);
    da.release(a);
    da.release(a);
    b[Symbol.dispose]();
    da.release({ list: c, plain: y.executeSync() });
    {
      using d = y.executeSync({ view: true }) as Nd & Disposable;
      expect(da.heapStats().views).toBe(1);
      expect(d.get(0)).toBe(a.get(0));
    }
    expect(da.heapStats().views).toBe(0);
    expect(da.heapStats().bytesInUse).toBe(before);
    expect(() => da.release(42)).toThrow(/release: the argument must be a result of execute/);
    expect(() => da.release([undefined])).toThrow(/the argument\[0\]/);
  });

  test('the collector frees a view nobody released, as a safety net only', () => {
    // Needs --expose-gc, so it runs the built package in a child process.
    const entry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
    const script = `
      const da = await import(${JSON.stringify(entry)});
      const y = da.wrap(new Float64Array(1e5).fill(2)).mul(3);
      (() => { y.executeSync({ view: true }); })();
      const held = da.heapStats().views;
      for (let i = 0; i < 20 && da.heapStats().views > 0; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 20)); }
      console.log(JSON.stringify([held, da.heapStats().views]));`;
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual([1, 0]);
  });
});

describe('a released view is never read by the package', () => {
  const y = chain(da.wrap(ramp(50)));
  const released = (): Nd => {
    const v = y.executeSync({ view: true }) as Nd;
    da.release(v);
    return v;
  };

  test('wrap, array, operands, out and compiled-function arguments raise DisposedError', async () => {
    const v = released();
    const data = v.data as Float64Array;
    const mine = new Float64Array(data.buffer, data.byteOffset + 8, 10);
    const n = da.size('n');
    const f = da.compile((x) => x.add(1), [da.placeholder([n])]);
    for (const use of [
      () => da.wrap(v), () => da.wrap(data), () => da.wrap(mine), () => da.array(v), () => da.add(v, 1),
      () => da.wrap(ramp(50)).mul(data), () => y.executeSync({ out: v }), () => y.executeSync({ out: data }),
      () => f.sync(v), () => f.sync(data),
    ]) {
      expect(use).toThrow(da.DisposedError);
    }
    await expect(y.execute({ out: v })).rejects.toThrow(da.DisposedError);
    await expect(f(data)).rejects.toThrow(da.DisposedError);
  });

  test('a graph reading a view fails at execute() once the view is released, and never reads the freed memory', async () => {
    const v = y.executeSync({ view: true }) as Nd;
    const z = da.wrap(v).mul(2);
    const w = da.wrap(v).mul(2);
    expect(values(z.executeSync() as Nd)).toEqual(values(v).map((t) => t * 2));
    da.release(v);
    expect(() => z.executeSync()).toThrow(da.DisposedError);
    await expect(w.execute()).rejects.toThrow(/view result that was released/);
    expect(() => da.wrap(v)).toThrow(/released/);
  });

  test('a release while a run reads the view waits for the run before freeing its block', async () => {
    const big = chain(da.wrap(ramp(300_000)));
    const v = big.executeSync({ view: true }) as Nd;
    const want = values(v).map((t) => t + 1);
    const pending = da.wrap(v).add(1).execute();
    da.release(v);
    const got = values(await pending as Nd);
    expect(got).toEqual(want);
  });

  test('an in-place write reads a view at the call, as NumPy assignment does: releasing it later fails nothing', async () => {
    const x = da.zeros([50]);
    const c = chain(da.wrap(ramp(50))).mul(2);
    c.iadd(1);
    da.scopeSync(() => {
      const v = y.executeSync() as Nd;
      x.assign(da.wrap(v).mul(2));
      c.iadd(da.wrap(v));
      (v.data as Float64Array)[0] = -1;
    });
    // The scope released v before anything ran; the writes read it when they were made.
    await da.flush();
    const want = values(y.executeSync() as Nd);
    expect(values(x.executeSync() as Nd)).toEqual(want.map((t) => t * 2));
    expect(values(c.executeSync() as Nd)).toEqual(values(chain(da.wrap(ramp(50))).mul(2).add(1).add(y).executeSync() as Nd));
    expect(da.trace().pending).toBe(0);
  });

  test('reading a view made from wrap(view) in place sees the view as it is at execute(), as NumPy views do', () => {
    da.scopeSync(() => {
      const v = y.executeSync() as Nd;
      const z = da.wrap(v).add(1);
      (v.data as Float64Array)[0] = 100;
      expect((z.executeSync() as Nd).get(0)).toBe(101);
      // An in-place write to it copies it into memory of its own; the view is not written.
      const m = da.wrap(v);
      m.iadd(1);
      expect((m.executeSync({ view: false }) as Nd).get(0)).toBe(101);
      expect(v.get(0)).toBe(100);
    });
  });
});

describe('memory', () => {
  test('a HeapError says how many unreleased views hold how much of the heap, and what to do', () => {
    if (da.stats().backend !== 'wasm') return;
    const v = chain(da.wrap(ramp(1000))).executeSync({ view: true }) as Nd;
    // 4 GiB and more: refused at allocation, before any memory is touched.
    const huge = da.broadcastTo(da.zeros([1]), [2 ** 29 + 8]).add(1);
    try {
      expect(() => huge.executeSync()).toThrow(/1 view result\(s\) not yet released hold 8,000 bytes.*da\.release\(r\).*da\.scope/);
    } finally {
      da.release(v);
    }
    let message = '';
    try {
      huge.executeSync();
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/cannot allocate/);
    expect(message).not.toMatch(/view result/);
  });

  test('a view fed back with wrap() is read in place: nothing is copied into the heap', () => {
    const y = chain(da.wrap(ramp(200_000)));
    da.scopeSync(() => {
      const v = y.executeSync() as Nd;
      const z = da.wrap(v).mul(2).sum();
      z.executeSync();
      const before = da.heapStats();
      const r = z.executeSync() as Nd;
      const after = da.heapStats();
      expect(after.allocatedBytes - before.allocatedBytes).toBeLessThan(64 * 1024);
      expect(after.cachedBytes).toBe(before.cachedBytes);
      expect(r.get()).toBe((da.array(v).mul(2).sum().executeSync() as Nd).get());
    });
  });

  test('dispose() frees a wrapped array\'s heap copy now: 10^4 wrap/execute/dispose cycles of 8 KB arrays hold nothing', () => {
    const start = da.heapStats().cachedBytes;
    for (let i = 0; i < 10_000; i++) {
      const x = da.wrap(new Float64Array(1024).fill(i));
      x.mul(2).sum().executeSync();
      x.dispose();
    }
    expect(da.heapStats().cachedBytes - start).toBeLessThan(64 * 1024);
    // An array computed from a disposed one still runs: its source is copied in again.
    const x = da.wrap(ramp(16));
    const z = x.mul(2);
    z.executeSync();
    x.dispose();
    expect(values(z.executeSync() as Nd)).toEqual(Array.from(ramp(16), (t) => t * 2));
  });
});
