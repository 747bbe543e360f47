// execute() on the worker pool: the same results as executeSync() for any
// number of workers, worker faults as WorkerError with nothing committed, a
// pool that cannot start falls back with one warning, idle pools let Node exit.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, jest, test } from '@jest/globals';
import * as da from '../index.js';
import { setPoolSettings } from './pool.js';

jest.setTimeout(60000);

const fixture = (name: string): string => new URL(`../../test/fixtures/${name}`, import.meta.url).href;
const initial = da.configure();

beforeAll(() => { da.configure({ backend: 'wasm', inlineThreshold: 0 }); });
afterEach(async () => {
  setPoolSettings(undefined);
  await da.shutdown();
});
afterAll(() => { da.configure({ backend: initial.backend, threads: initial.threads, inlineThreshold: initial.inlineThreshold }); });

type Nd = da.StdNdarray;
/** The bytes of a result, as a hex string (one string compares fast; bit-exact, NaN payloads and -0 included). */
const bits = (x: unknown): string => {
  const d = (x as Nd).data as Float64Array | Float32Array | Int32Array;
  return Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('hex');
};

function random(n: number, seed: number): Float64Array {
  let s = seed;
  return Float64Array.from({ length: n }, () => (s = (s * 16807) % 2147483647) / 2147483647 - 0.5);
}

describe('da.stats().workerBlocks', () => {
  test('counts the blocks each worker ran since its pool started: none without a pool, all of a launch but the calling thread\'s with one', async () => {
    expect(da.stats().workerBlocks).toEqual([]);
    da.configure({ threads: 2 });
    const y = da.wrap(random(1 << 21, 9));
    await y.mul(3).sin().sum().execute();
    const blocks = da.stats().workerBlocks;
    expect(blocks).toHaveLength(2);
    // 2^21 elements in blocks of 2^14: 128, of which the calling thread may have joined some.
    const ran = blocks.reduce((s, b) => s + b, 0);
    expect(ran).toBeGreaterThan(0);
    expect(ran).toBeLessThanOrEqual(128);
    await da.shutdown();
    expect(da.stats().workerBlocks).toEqual([]);
  });
});

describe('execute() on the pool', () => {
  const x = da.wrap(random(300_001, 3));
  const m = da.wrap(random(600 * 500, 5)).reshape([600, 500]);
  const graphs: Record<string, () => da.DeferredArray[]> = {
    'sum, mean, max of a chain': () => [x.mul(3).sin().sum(), x.exp().mean(), x.square().max()],
    'prod near 1': () => [x.mul(1e-3).add(1).prod()],
    'float32 and int32 sums': () => [x.astype('float32').mul(7).sum(), x.mul(1000).astype('int32').sum()],
    'column and row reductions': () => [m.sum({ axis: 0 }), m.abs().max({ axis: 1 }), m.T.mean({ axis: 1 })],
    'an elementwise result with an output': () => { const y = x.mul(2).output('y'); return [y.add(1).cos()]; },
  };

  /** A request's results in order (the output record's y first). */
  const flat = (r: Nd[] | da.OutputRecord): Nd[] => (Array.isArray(r) ? r : [r['y'] as Nd, ...(r['result'] as Nd[])]);

  test.each(Object.keys(graphs))('%s: bit-identical to executeSync() with 1, 2, 4 and 16 workers', async (name) => {
    const want = (da.executeSync(graphs[name]!()) as Nd[] | da.OutputRecord);
    for (const threads of [1, 2, 4, 16]) {
      da.configure({ threads });
      const pooled = da.stats().pooled;
      const got = await da.execute(graphs[name]!()) as Nd[] | da.OutputRecord;
      expect(da.stats().pooled).toBeGreaterThan(pooled);
      expect(flat(got).map(bits)).toEqual(flat(want).map(bits));
    }
  });

  test('a short launch: the calling thread takes a worker\'s place, bit-identical with 2, 4 and 16 workers', async () => {
    // About 2.6 M and 2.9 M units: pooled from 0.26 M, and short enough to join (under 2 M a thread).
    const xs = da.wrap(random(150_001, 9));
    const joinedGraphs = [
      (): da.DeferredArray[] => [xs.mul(3).sin().sum()],
      (): da.DeferredArray[] => { const y = xs.mul(2).output('y'); return [y.add(1).cos()]; },
    ];
    da.configure({ inlineThreshold: 1 << 18 });
    try {
      for (const graph of joinedGraphs) {
        const want = da.executeSync(graph()) as Nd[] | da.OutputRecord;
        for (const threads of [2, 4, 16]) {
          da.configure({ threads });
          const { pooled, joined } = da.stats();
          const got = await da.execute(graph()) as Nd[] | da.OutputRecord;
          expect(da.stats().joined - joined).toBeGreaterThan(0);
          expect(da.stats().pooled - pooled).toBeGreaterThanOrEqual(da.stats().joined - joined);
          expect(flat(got).map(bits)).toEqual(flat(want).map(bits));
        }
      }
      // A launch of one block (500 columns) is left to a worker, and so is every launch on one worker.
      const { pooled, joined } = da.stats();
      await m.sum({ axis: 0 }).execute();
      da.configure({ threads: 1 });
      await da.execute(joinedGraphs[0]!());
      expect(da.stats().pooled - pooled).toBe(2);
      // With inlineThreshold 0 the calling thread runs no kernel of execute().
      da.configure({ inlineThreshold: 0, threads: 2 });
      await da.execute(joinedGraphs[0]!());
      expect(da.stats().joined).toBe(joined);
    } finally {
      da.configure({ inlineThreshold: 0 });
    }
  });

  test('executeSync() never uses the pool', () => {
    const pooled = da.stats().pooled;
    x.mul(2).sum().executeSync();
    expect(da.stats().pooled).toBe(pooled);
  });

  test('below inlineThreshold, execute() runs on the calling thread', async () => {
    da.configure({ inlineThreshold: 1e9 });
    try {
      const pooled = da.stats().pooled;
      await x.mul(2).sum().execute();
      expect(da.stats().pooled).toBe(pooled);
    } finally {
      da.configure({ inlineThreshold: 0 });
    }
  });

  test('shutdown() lets the kernels already running finish', async () => {
    da.configure({ threads: 2 });
    const pending = x.mul(2).sin().sum().execute();
    const down = da.shutdown();
    const [r] = await Promise.all([pending, down]);
    expect(bits(r)).toEqual(bits(x.mul(2).sin().sum().executeSync()));
  });
});

/**
 * x's integer part squared, as a float: integer power is a host call per element (the fault fixture fails it on
 * cue). The exponent is an array, since a constant one becomes multiplies.
 */
const hostPower = (x: da.DeferredArray): da.DeferredArray =>
  x.astype('int32').power(da.wrap(new Int32Array(x.shape[0]!).fill(2))).astype('float64');

describe.each([
  ['throws', 13, /injected failure in a host function/],
  ['exits', 17, /exit/i],
  ['traps', 19, /unreachable/],
] as const)('a worker that %s mid-kernel', (_, cue, cause) => {
  test('execute() rejects within a second with a WorkerError, commits nothing, and the next 100 executes succeed', async () => {
    setPoolSettings({ hostModule: fixture('fault-host.mjs') });
    da.configure({ threads: 2 });
    const n = 200_000;
    const good = Float64Array.from({ length: n }, (_, i) => (i % 7) + 0.5);
    const bad = Float64Array.from(good);
    bad[150_000] = cue;
    const graph = (data: Float64Array) => {
      const a = da.wrap(data);
      const r = hostPower(a).output('r');
      return r.add(1).sum();
    };
    const want = graph(good).executeSync() as da.OutputRecord;
    await graph(good).execute();
    const held = (): number => da.heapStats().bytesInUse - da.heapStats().cachedBytes;
    const before = held();

    const t0 = performance.now();
    const failing = graph(bad).execute();
    const other = graph(good).execute();
    const error = await failing.then(() => undefined, (e: unknown) => e);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(error).toBeInstanceOf(da.WorkerError);
    expect((error as da.DeferredArrayError).code).toBe('WORKER');
    expect((error as Error).message).toMatch(/kernel \d+ \(astype, power, astype, add -> sum\) over \[200000\]/);
    expect((error as Error).message).toMatch(cause);
    await Promise.allSettled([other]);
    // Atomic: the failed run's outputs were never handed out and its blocks are freed.
    expect(held()).toBe(before);
    expect(bad[150_000]).toBe(cue);

    for (let i = 0; i < 100; i++) {
      const r = await graph(good).execute() as da.OutputRecord;
      if (i === 99) {
        expect(bits(r['result'])).toEqual(bits(want['result']));
        expect(bits(r['r'])).toEqual(bits(want['r']));
      }
    }
  });
  test('an out, ordinary memory or a view, is left exactly as it was', async () => {
    setPoolSettings({ hostModule: fixture('fault-host.mjs') });
    da.configure({ threads: 2 });
    const n = 200_000;
    const bad = Float64Array.from({ length: n }, (_, i) => (i % 7) + 0.5);
    bad[150_000] = cue;
    const graph = hostPower(da.wrap(bad)).add(1);
    const plain = new Float64Array(n).fill(-7);
    await expect(graph.execute({ out: plain })).rejects.toThrow(da.WorkerError);
    expect(plain.every((v) => v === -7)).toBe(true);
    await da.scope(async () => {
      const v = await da.full([n], -7).execute() as Nd;
      await expect(graph.execute({ out: v })).rejects.toThrow(cause);
      expect((v.data as Float64Array).every((t) => t === -7)).toBe(true);
    });
    expect(da.heapStats().views).toBe(0);
  });
});

test('a pool that cannot start: one warning, then every kernel runs on the calling thread', async () => {
  setPoolSettings({ hostModule: new URL('../../../kernels-wasm/test/fixtures/broken-host.mjs', import.meta.url).href });
  const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => {});
  try {
    const x = da.wrap(random(100_000, 9));
    const want = x.sin().sum().executeSync();
    const pooled = da.stats().pooled;
    for (let i = 0; i < 3; i++) expect(bits(await x.sin().sum().execute())).toEqual(bits(want));
    expect(da.stats().pooled).toBe(pooled);
    const messages = warn.mock.calls.map((c) => String(c[0]));
    expect(messages.filter((m) => /worker pool could not start/.test(m))).toHaveLength(1);
    expect(messages[0]).toMatch(/fails to load \(injected\)/);
  } finally {
    warn.mockRestore();
  }
});

test('a launch waited on through a long synchronous stretch keeps the process up until it ends', () => {
  const r = spawnSync(process.execPath, [fileURLToPath(fixture('wait-through-sync-work.mjs'))], { timeout: 60000, encoding: 'utf8' });
  // Exit code 13: the process left with the launch pending (nothing held it open).
  expect({ status: r.status, signal: r.signal, stderr: r.stderr }).toEqual({ status: 0, signal: null, stderr: '' });
  expect(JSON.parse(r.stdout)).toEqual({ same: [true, true, true], pooled: 4 });
});

test('a Node process whose pool is idle exits on its own, without shutdown()', () => {
  const r = spawnSync(process.execPath, [fileURLToPath(fixture('idle-execute.mjs'))], { timeout: 20000, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.stdout).toMatch(/^sum -?\d.* pooled true/);
  expect(r.status).toBe(0);
});
