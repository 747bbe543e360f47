// A long loop of scoped executes holds no heap memory from one iteration to
// the next: each view is released when its scope ends, and the next run
// reuses its block.
import { expect, jest, test } from '@jest/globals';
import * as da from 'deferred-array';

jest.setTimeout(240_000);

const ramp = (n: number): Float64Array => Float64Array.from({ length: n }, (_, i) => Math.sin(i) * 100);

test('10^4 synchronous scoped executes of a 10^6-element chain keep heapStats().bytesInUse flat', () => {
  const n = 1_000_000;
  const a = da.wrap(ramp(n));
  const b = da.wrap(ramp(n).reverse());
  const y = a.mul(1.5).add(b).sub(0.25).mul(a).add(2).mul(0.5).sub(b).abs().sqrt().add(1);
  const want = (y.executeSync() as da.StdNdarray).data as Float64Array;
  da.scopeSync(() => y.executeSync());
  const base = da.heapStats();
  let peakInside = 0;
  for (let i = 0; i < 10_000; i++) {
    const k = (i * 7919) % n;
    const got = da.scopeSync(() => {
      const r = y.executeSync() as da.StdNdarray;
      peakInside = Math.max(peakInside, da.heapStats().bytesInUse);
      return r.get(k) as number;
    });
    if (got !== want[k]) throw new Error(`iteration ${i}: element ${k} is ${got}, not ${want[k]}`);
    if (i % 1000 === 0) expect(da.heapStats().bytesInUse).toBe(base.bytesInUse);
  }
  const end = da.heapStats();
  expect(end.bytesInUse).toBe(base.bytesInUse);
  expect(end.views).toBe(0);
  // One result block at a time, and the heap never grew for it.
  expect(peakInside - base.bytesInUse).toBeLessThanOrEqual(n * 8 + 64 * 1024);
  expect(end.heapBytes).toBe(base.heapBytes);
  // Free the sources' heap copies now: left to the collector, they would be
  // released in the middle of the next test and move its baseline.
  for (const arr of [y, b, a]) arr.dispose();
});

test('10^3 asynchronous scoped executes keep it flat too, on the pool', async () => {
  const x = da.wrap(ramp(300_000));
  const y = x.mul(3).sin().add(x);
  await da.scope(async () => y.execute());
  const base = da.heapStats().bytesInUse;
  for (let i = 0; i < 1000; i++) {
    await da.scope(async () => (await y.execute() as da.StdNdarray).get(i));
  }
  expect(da.heapStats().bytesInUse).toBe(base);
  expect(da.heapStats().views).toBe(0);
  await da.shutdown();
});
