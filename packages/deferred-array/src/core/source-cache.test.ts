// The heap as a cache of sources: a small source's first read copies it for
// that run alone, so arrays wrapped afresh per call hold nothing once their
// run ends, even in a loop that never lets the collector's finalizers run;
// from its second read its copy is kept for later runs. A large source's copy
// is kept from its first read, but copies read once are held to a budget of
// their own; one read again is kept under the cache's whole budget.
import { afterAll, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { KEEP_FROM_FIRST_READ, ONCE_READ_BUDGET } from './source-cache.js';
import { heapIsShared } from 'kernels-wasm';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const made: da.Runtime[] = [];
afterAll(async () => {
  await Promise.all(made.splice(0).map((rt) => rt.shutdown()));
});

/** A runtime over a heap of its own, so other tests' cached copies cannot move its figures. */
const runtime = (options: da.ConfigureOptions = {}): da.Runtime => {
  const rt = da.createRuntime(options);
  made.push(rt);
  return rt;
};

const ramp = (n: number, k = 1): Float64Array => Float64Array.from({ length: n }, (_, i) => Math.sin(i * 0.37 * k) * 10);

const wasm = (rt: da.Runtime): boolean => rt.stats().backend === 'wasm' && heapIsShared();

test('a small source read once holds no heap memory after its run; from its second read its copy is kept', () => {
  const rt = runtime();
  const n = KEEP_FROM_FIRST_READ / 8 - 1;
  const x = da.wrap(ramp(n));
  const y = x.mul(2).add(1).sum();
  const want = ramp(n).reduce((s, v) => s + (v * 2 + 1), 0);
  expect((rt.executeSync([y]) as da.StdNdarray[])[0]!.get()).toBeCloseTo(want, 8);
  if (!wasm(rt)) return;
  expect(rt.heapStats().cachedBytes).toBe(0);
  expect(rt.heapStats().bytesInUse).toBe(0);
  const first = (rt.executeSync([y]) as da.StdNdarray[])[0]!.get();
  expect(rt.heapStats().cachedBytes).toBe(n * 8);
  const kept = rt.heapStats();
  // The third read finds the copy: no new block for it.
  expect((rt.executeSync([x.mul(2).add(1).sum()]) as da.StdNdarray[])[0]!.get()).toBe(first);
  expect(rt.heapStats().bytesInUse).toBe(kept.bytesInUse);
  expect(rt.heapStats().allocatedBytes - kept.allocatedBytes).toBeLessThan(n * 8);
  x.dispose();
  expect(rt.heapStats().bytesInUse).toBe(0);
});

test('a loop over arrays wrapped afresh, never yielding to the event loop, keeps the heap flat', () => {
  const rt = runtime();
  const n = 1000;
  const a = ramp(n);
  const b = ramp(n, 2);
  const out = new Float64Array(n);
  const want = a.map((v, i) => Math.sqrt(Math.abs(v * 1.5 + b[i]!)) + 1);
  const call = (): void => {
    rt.executeSync([da.wrap(a).mul(1.5).add(da.wrap(b)).abs().sqrt().add(1)], { out: [out] });
  };
  call();
  const base = rt.heapStats();
  for (let i = 0; i < 2000; i++) call();
  expect(Array.from(out)).toEqual(Array.from(want));
  const end = rt.heapStats();
  // Before, each call left two 8 KB copies for the collector's finalizers, which this loop never lets run.
  expect(end.bytesInUse).toBe(base.bytesInUse);
  expect(end.heapBytes).toBe(base.heapBytes);
  expect(end.cachedBytes).toBe(0);
});

test('overlapping runs share a source\'s first copy; it is freed when the last ends, a dispose in between included', async () => {
  const rt = runtime({ threads: 2, inlineThreshold: 0 });
  const n = KEEP_FROM_FIRST_READ / 16;
  const data = ramp(n);
  const x = da.wrap(data);
  const want = Array.from(data, (v) => Math.exp(Math.sin(v)) * v);
  const runs = [0, 1, 2].map(() => rt.execute([da.exp(da.sin(x)).mul(x)]));
  x.dispose();
  const results = (await Promise.all(runs)) as da.StdNdarray[][];
  const reference = Array.from(da.exp(da.sin(da.wrap(data))).mul(da.wrap(data)).executeSync({ view: false }).data as Float64Array);
  for (const [r] of results) expect(Array.from(r!.data as Float64Array)).toEqual(reference);
  expect(reference.map((v, i) => Math.abs(v - want[i]!) <= 1e-12 * Math.max(1, Math.abs(want[i]!))).every(Boolean)).toBe(true);
  if (!wasm(rt)) return;
  const s = rt.heapStats();
  expect(s.cachedBytes).toBe(0);
  expect(s.bytesInUse).toBe(0);
});

test('a large source is kept from its first read', () => {
  const rt = runtime();
  const n = KEEP_FROM_FIRST_READ / 8;
  const x = da.wrap(ramp(n));
  rt.executeSync([x.mul(2).sum()]);
  if (!wasm(rt)) return;
  expect(rt.heapStats().cachedBytes).toBe(n * 8);
  const kept = rt.heapStats();
  rt.executeSync([x.add(1).sum()]);
  expect(rt.heapStats().bytesInUse).toBe(kept.bytesInUse);
  expect(rt.heapStats().allocatedBytes - kept.allocatedBytes).toBeLessThan(n * 8);
});

test('large arrays wrapped afresh per call hold at most the budget of copies read once; a copy read twice stays', () => {
  const rt = runtime();
  const n = (1024 * 1024) / 8;
  const kept = da.wrap(ramp(n, 3));
  rt.executeSync([kept.sum()]);
  const want = (rt.executeSync([kept.sum()]) as da.StdNdarray[])[0]!.get();
  const data = ramp(n);
  const calls = (2 * ONCE_READ_BUDGET) / (n * 8);
  for (let i = 0; i < calls; i++) rt.executeSync([da.wrap(data).add(da.wrap(data)).sum()]);
  if (!wasm(rt)) return;
  // Each call's two copies were kept (the collector has not run their finalizers): without the budget, 2x it.
  expect(rt.heapStats().cachedBytes).toBeLessThanOrEqual(ONCE_READ_BUDGET + 2 * n * 8 + n * 8);
  const before = rt.heapStats();
  expect((rt.executeSync([kept.sum()]) as da.StdNdarray[])[0]!.get()).toBe(want);
  // The copy read twice was not evicted: read again, it is not copied in again.
  expect(rt.heapStats().allocatedBytes - before.allocatedBytes).toBeLessThan(n * 8);
});

// A process of its own, which can collect garbage when told. A copy read once had a finalizer
// record, which a loop that never yields keeps with its entry until the loop ends: the JS heap
// grew about 260 bytes a call, and every full collection with it.
test('a loop over large arrays wrapped afresh, never yielding, keeps the JS heap flat; a copy read once beyond the budget goes with its array', () => {
  const script = fileURLToPath(new URL('../../test/fixtures/once-read-records.mjs', import.meta.url));
  const r = spawnSync(process.execPath, ['--expose-gc', '--no-warnings', script], { timeout: 60000, encoding: 'utf8' });
  expect({ status: r.status, signal: r.signal, stderr: r.stderr }).toEqual({ status: 0, signal: null, stderr: '' });
  const got = JSON.parse(r.stdout) as { bytesPerCall: number; cachedBytes: number; hugeCached: number; hugeAfter: number };
  expect(got.bytesPerCall).toBeLessThan(40);
  if (!heapIsShared()) return;
  expect(got.cachedBytes).toBeLessThanOrEqual(ONCE_READ_BUDGET);
  // A copy read once beyond the budget has its finalizer: collected with its array.
  expect(got.hugeCached).toBe(8 << 21);
  expect(got.hugeAfter).toBe(0);
}, 60_000);
