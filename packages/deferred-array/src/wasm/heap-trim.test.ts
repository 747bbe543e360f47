// Giving the heap's memory back (execute/heap-trim.ts), on the WebAssembly
// backend with a shared heap: after an idle time and at
// shutdown(), a heap holding nothing but cached copies starts over on a
// small memory; the next run gives the same bits on 1 and 2 workers; views
// and mutable arrays keep the memory (and stay valid); a trim waits for the
// run in flight. Whether the old memory is really let go is checked in a
// process of its own, which can collect garbage when told.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { setPoolSettings } from '../wasm/pool.js';

const runtimes: da.Runtime[] = [];
afterAll(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.shutdown()));
  await da.shutdown();
  setPoolSettings(undefined);
});

function runtime(options: Parameters<typeof da.createRuntime>[0]): da.Runtime {
  const rt = da.createRuntime(options);
  runtimes.push(rt);
  return rt;
}

/** 2^20 float64 (8 MiB, twice the heap's first memory), varied enough to catch a stale read. */
const N = 1 << 20;
const x = Float64Array.from({ length: N }, (_, i) => Math.sin(i) * 1000);
const chain = (a: da.DeferredArray): da.DeferredArray => da.exp(a.mul(1e-3)).mul(a).add(3);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const INITIAL = 4 * 2 ** 20;

/** Bit for bit (jest's toEqual walks a long typed array slowly). */
function same(a: unknown, b: Float64Array): boolean {
  return a instanceof Float64Array && a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
}

async function bits(rt: da.Runtime, a: da.DeferredArray): Promise<Float64Array> {
  const [y] = await rt.execute([chain(a)]) as da.StdNdarray[];
  return y!.data as Float64Array;
}

/** Blocks the runtime's pool workers have run since the pool started: fewer after a run than before it means a new pool. */
const blocksRun = (rt: da.Runtime): number => rt.stats().workerBlocks.reduce((a, b) => a + b, 0);

describe.each([['piscina', 1], ['piscina', 2], ['comlink', 2]] as const)('%s pool, %i worker(s)', (kind, threads) => {
  beforeAll(() => setPoolSettings({ kind }));

  test('shutdown() gives the memory back; the next run gives the same bits', async () => {
    const rt = runtime({ threads, inlineThreshold: 0, trimAfterIdleMs: Infinity });
    const a = da.wrap(x);
    const first = await bits(rt, a);
    expect(rt.heapStats().heapBytes).toBeGreaterThan(INITIAL);
    expect(rt.heapStats().cachedBytes).toBe(N * 8);
    await rt.shutdown();
    expect(rt.heapStats()).toMatchObject({ heapBytes: INITIAL, bytesInUse: 0, cachedBytes: 0, shrinks: 1 });
    expect(same(await bits(rt, a), first)).toBe(true);
    const [sync] = rt.executeSync([chain(a)]) as da.StdNdarray[];
    expect(same(sync!.data, first)).toBe(true);
  });

  test('after the idle time the heap is trimmed on its own, and runs go on as before', async () => {
    const rt = runtime({ threads, inlineThreshold: 0, trimAfterIdleMs: 40 });
    const a = da.wrap(x);
    const first = await bits(rt, a);
    // Runs closer together than the idle time keep the memory.
    for (let i = 0; i < 3; i++) {
      await sleep(15);
      expect(same(await bits(rt, a), first)).toBe(true);
    }
    expect(rt.heapStats().shrinks).toBe(0);
    const blocks = blocksRun(rt);
    for (let i = 0; i < 150 && rt.heapStats().shrinks === 0; i++) await sleep(20);
    expect(rt.heapStats()).toMatchObject({ heapBytes: INITIAL, cachedBytes: 0, shrinks: 1 });
    expect(same(await bits(rt, a), first)).toBe(true);
    // The same workers ran it, on the new memory: the pool was not started again.
    expect(blocksRun(rt)).toBeGreaterThan(blocks);
    // Idle again: trimmed again.
    for (let i = 0; i < 150 && rt.heapStats().shrinks === 1; i++) await sleep(20);
    expect(rt.heapStats().shrinks).toBe(2);
  }, 30_000);
});

test('a view held across a trim keeps the memory and its values; released, the memory goes', async () => {
  const rt = runtime({ threads: 2, trimAfterIdleMs: Infinity });
  const a = da.wrap(x);
  const view = await rt.execute([chain(a)], { view: true }) as (da.StdNdarray & Disposable)[];
  const copy = Float64Array.from(view[0]!.data as Float64Array);
  await rt.shutdown();
  const held = rt.heapStats();
  expect(held.shrinks).toBe(0);
  expect(held.views).toBe(1);
  expect(held.heapBytes).toBeGreaterThan(INITIAL);
  // The cached copy stays too: dropping it would not let the memory go.
  expect(held.cachedBytes).toBe(N * 8);
  expect(same(view[0]!.data, copy)).toBe(true);
  // Read by a later run in place, the view still gives its values.
  const [twice] = await rt.execute([da.wrap(view[0]!.data as Float64Array).mul(2)]) as da.StdNdarray[];
  expect(same(twice!.data, copy.map((v) => v * 2))).toBe(true);
  view[0]![Symbol.dispose]();
  await rt.shutdown();
  expect(rt.heapStats()).toMatchObject({ views: 0, heapBytes: INITIAL, shrinks: 1 });
});

test('a view released after the idle time, with no run since, still lets the memory go', async () => {
  const rt = runtime({ threads: 2, trimAfterIdleMs: 40 });
  const view = await rt.execute([chain(da.wrap(x))], { view: true }) as (da.StdNdarray & Disposable)[];
  await sleep(200);
  expect(rt.heapStats()).toMatchObject({ views: 1, shrinks: 0 });
  view[0]![Symbol.dispose]();
  for (let i = 0; i < 150 && rt.heapStats().shrinks === 0; i++) await sleep(20);
  expect(rt.heapStats()).toMatchObject({ views: 0, heapBytes: INITIAL, shrinks: 1 });
});

test('trims close together: each gives the memory back, and runs between them keep their bits', async () => {
  const rt = runtime({ threads: 2, inlineThreshold: 0, trimAfterIdleMs: 0 });
  const a = da.wrap(x);
  const first = await bits(rt, a);
  for (let i = 0; i < 4; i++) {
    const before = rt.heapStats().shrinks;
    for (let k = 0; k < 400 && rt.heapStats().shrinks === before; k++) await sleep(5);
    expect(rt.heapStats().shrinks).toBe(before + 1);
    // A synchronous run grows the heap again at once; the next trim may come before the workers answered the last.
    const [sync] = rt.executeSync([chain(a)]) as da.StdNdarray[];
    expect(same(sync!.data, first)).toBe(true);
    expect(same(await bits(rt, a), first)).toBe(true);
  }
}, 30_000);

test('a trim asked for while a run is in flight waits for it', async () => {
  const rt = runtime({ threads: 2, inlineThreshold: 0, trimAfterIdleMs: Infinity });
  const a = da.wrap(x);
  const expected = await bits(rt, a);
  const running = bits(rt, a);
  const down = rt.shutdown();
  expect(same(await running, expected)).toBe(true);
  await down;
  expect(rt.heapStats()).toMatchObject({ heapBytes: INITIAL, shrinks: 1 });
});

test('a mutable array in the process heap keeps it, and says so', async () => {
  da.configure({ trimAfterIdleMs: Infinity });
  const m = da.wrap(Float64Array.from(x));
  m.iadd(1);
  await da.flush();
  await da.shutdown();
  const s = da.heapStats();
  expect(s.shrinks).toBe(0);
  expect(s.otherBytes).toBeGreaterThanOrEqual(N * 8);
  expect(same((await m.execute()).data, x.map((v) => v + 1))).toBe(true);
});

test('configure checks trimAfterIdleMs', () => {
  expect(() => da.createRuntime({ trimAfterIdleMs: -1 })).toThrow(/trimAfterIdleMs must be a number of milliseconds/);
  expect(() => da.createRuntime({ trimAfterIdleMs: NaN })).toThrow(RangeError);
  expect(() => da.createRuntime({ trimAfterIdleMs: '5' as unknown as number })).toThrow(RangeError);
  expect(da.createRuntime({ trimAfterIdleMs: 0 }).config.trimAfterIdleMs).toBe(0);
});

test('after a trim the old memory is collected: nothing holds it (its own process)', () => {
  const script = fileURLToPath(new URL('../../test/fixtures/heap-trim-release.mjs', import.meta.url));
  const attempt = () => spawnSync(process.execPath, ['--expose-gc', '--no-warnings', script], { timeout: 60000, encoding: 'utf8' });
  let r = attempt();
  // Killed from outside (the machine short of memory, or a timeout on busy cores) says nothing of the package: once more.
  // A crash (SIGSEGV, SIGABRT) is not retried.
  if (r.signal === 'SIGKILL' || r.signal === 'SIGTERM') r = attempt();
  // How it ended, so that a failure says (exit code 13 is a top-level await left pending with nothing to wake it).
  expect({ status: r.status, signal: r.signal, stderr: r.stderr }).toEqual({ status: 0, signal: null, stderr: '' });
  expect(JSON.parse(r.stdout)).toEqual({
    idle: { shrinks: 1, collected: true, released: true, same: true },
    shutdown: { shrinks: 2, collected: true, released: true, same: true },
  });
});
