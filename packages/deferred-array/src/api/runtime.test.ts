// Runtimes of their own: each holds its pool, caches, settings and counters,
// so two with different thread counts run side by side in one process, give
// the same bits, count only their own work and shut down apart.
import { afterEach, expect, jest, test } from '@jest/globals';
import * as da from '../index.js';

jest.setTimeout(60000);

const bits = (x: unknown): string => {
  const d = (x as da.StdNdarray).data as Float64Array;
  return Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('hex');
};

/** A graph with transcendentals and a reduction, over enough elements for several blocks. */
function graph(): da.DeferredArray[] {
  const n = 1 << 18;
  const data = new Float64Array(n).map((_, i) => Math.sin(i * 0.37) * 100);
  const x = da.array(data);
  const y = da.exp(da.sin(x)).mul(x).sub(da.cos(x));
  return [y, y.sum()];
}

/** Whether execute() has a worker pool here: the WebAssembly backend over a shared heap. */
const pooled = (rt: da.Runtime): boolean => rt.stats().backend === 'wasm' && process.env['DEFERRED_ARRAY_SHARED_MEMORY'] !== '0';

const made: da.Runtime[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((rt) => rt.shutdown()));
});

const runtime = (options: da.ConfigureOptions): da.Runtime => {
  const rt = da.createRuntime(options);
  made.push(rt);
  return rt;
};

test('two runtimes with 1 and 2 threads run one graph concurrently: the same bits, each with its own counters', async () => {
  const before = da.stats();
  const one = runtime({ threads: 1, inlineThreshold: 0 });
  const two = new da.Runtime({ threads: 2, inlineThreshold: 0 });
  made.push(two);
  expect(one.config.threads).toBe(1);
  expect(two.config.threads).toBe(2);
  const roots = graph();
  const [a, b] = await Promise.all([one.execute(roots), two.execute(roots)]) as [da.StdNdarray[], da.StdNdarray[]];
  expect(a.map(bits)).toEqual(b.map(bits));
  expect(a.map(bits)).toEqual((da.executeSync(roots) as da.StdNdarray[]).map(bits));
  for (const rt of [one, two]) {
    expect(rt.stats().runs).toBe(1);
    expect(rt.stats().plans).toBe(1);
  }
  expect(one.stats().bytesMoved).toBe(two.stats().bytesMoved);
  expect(one.stats().bytesMoved).toBeGreaterThan(0);
  // The default runtime ran the one executeSync and nothing of the others'.
  expect(da.stats().runs - before.runs).toBe(1);
  if (pooled(one)) {
    expect(one.stats().workerBlocks).toHaveLength(1);
    expect(two.stats().workerBlocks).toHaveLength(2);
    expect(one.stats().pooled).toBeGreaterThan(0);
    expect(one.stats().kernelsCompiled).toBeGreaterThan(0);
    expect(two.stats().kernelsCompiled).toBe(one.stats().kernelsCompiled);
  }
});

test('a runtime shuts down on its own: the other keeps its pool and runs on', async () => {
  const one = runtime({ threads: 1, inlineThreshold: 0 });
  const two = runtime({ threads: 2, inlineThreshold: 0 });
  const roots = graph();
  await Promise.all([one.execute(roots), two.execute(roots)]);
  await one.shutdown();
  expect(one.stats().workerBlocks).toEqual([]);
  if (pooled(two)) expect(two.stats().workerBlocks).toHaveLength(2);
  const again = await two.execute(roots) as da.StdNdarray[];
  expect(again.map(bits)).toEqual((await one.execute(roots) as da.StdNdarray[]).map(bits));
  expect(two.stats().runs).toBe(2);
});

test('configuring a runtime changes neither the default runtime nor another', () => {
  const initial = da.configure();
  const rt = runtime({ threads: 3 });
  rt.configure({ errors: { divide: 'raise' } });
  expect(rt.config.errors.divide).toBe('raise');
  expect(da.configure()).toEqual(initial);
  expect(runtime({}).config.errors.divide).toBe(initial.errors.divide);
  expect(() => da.createRuntime({ threads: 0 })).toThrow(/option threads/);
  const x = da.array(new Int32Array([1, 2])).floorDivide(0);
  expect(() => rt.executeSync([x])).toThrow(da.ExecutionError);
});
