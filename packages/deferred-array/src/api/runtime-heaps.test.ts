// Each runtime runs in a heap of its own; arrays belong to none. What lies in
// another heap is copied in (a view result of another runtime) or read and
// written through copies (a mutable array, which lives in the process heap),
// with the results every runtime gives alone. Runs on every backend.
import { afterEach, expect, jest, test } from '@jest/globals';
import { heapIsShared, inDefaultHeap } from 'kernels-wasm';
import * as da from '../index.js';
import { toList as list } from '../../test/to-list.js';

jest.setTimeout(60000);

const made: da.Runtime[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((rt) => rt.shutdown()));
  await da.flush();
});

const runtime = (options: da.ConfigureOptions = {}): da.Runtime => {
  const rt = da.createRuntime(options);
  made.push(rt);
  return rt;
};

const bits = (x: da.StdNdarray): string => {
  const d = x.data as Float64Array;
  return Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('hex');
};

/** The first result of an execute() without marked outputs. */
const first = (r: da.StdNdarray[] | da.OutputRecord): da.StdNdarray => (r as da.StdNdarray[])[0]!;

const ramp = (n: number): da.DeferredArray => da.array(new Float64Array(n).map((_, i) => Math.sin(i * 0.37) * 10));

/** Whether results may be views (the WebAssembly backend over a shared heap; elsewhere they are copies). */
const views = (rt: da.Runtime): boolean => rt.stats().backend === 'wasm' && heapIsShared();

test('a runtime runs in a heap of its own: the process heap sees none of its work, and the bits are the same', async () => {
  const rt = runtime({ threads: 2, inlineThreshold: 0 });
  const x = ramp(1 << 17);
  const y = da.exp(da.sin(x)).mul(x);
  const before = da.heapStats();
  const [r, s] = (await rt.execute([y, y.sum()])) as da.StdNdarray[];
  expect(da.heapStats().allocatedBytes).toBe(before.allocatedBytes);
  if (rt.stats().backend === 'wasm') {
    // The source's copy and the run's blocks were the runtime's.
    expect(rt.heapStats().allocatedBytes).toBeGreaterThanOrEqual(2 * 8 * (1 << 17));
    expect(rt.heapStats().cachedBytes).toBe(8 * (1 << 17));
  }
  const [a, b] = da.executeSync([y, y.sum()]) as da.StdNdarray[];
  expect([bits(r!), bits(s!)]).toEqual([bits(a!), bits(b!)]);
});

test("one runtime's view results are read, and written as outs, by another, through copies", async () => {
  const rt = runtime();
  const x = ramp(1000);
  const [v] = (await rt.execute([da.cos(x)], { view: true })) as da.StdNdarray[];
  const cos = list(da.wrap(first(da.executeSync([da.cos(x)])))) as number[];
  if (views(rt)) {
    expect(rt.heapStats().views).toBe(1);
    expect(da.heapStats().views).toBe(0);
    expect(inDefaultHeap((v!.data as Float64Array).buffer)).toBe(false);
  }
  // Read by the default runtime, which copies it into the process heap.
  const [w] = (await da.execute([da.wrap(v!).add(1)])) as da.StdNdarray[];
  expect(list(da.wrap(w!))).toEqual(cos.map((c) => c + 1));
  // Written as an out by the default runtime, and a process-heap view written by the runtime.
  da.executeSync([da.sin(x)], { out: [v] });
  expect(list(da.wrap(v!))).toEqual(list(da.wrap(first(da.executeSync([da.sin(x)])))));
  const [p] = (await da.execute([da.exp(x.mul(0.01))], { view: true })) as da.StdNdarray[];
  await rt.execute([da.tan(x.mul(0.01))], { out: [p] });
  expect(list(da.wrap(p!))).toEqual(list(da.wrap(first(da.executeSync([da.tan(x.mul(0.01))])))));
  // Each heap's views are counted by its runtime, and released there.
  if (views(rt)) expect([rt.heapStats().views, da.heapStats().views]).toEqual([1, 1]);
  da.release(v!);
  da.release(p!);
  expect([rt.heapStats().views, da.heapStats().views]).toEqual([0, 0]);
});

/** A few steps of in-place work, slice assignments among them, as NumPy would run them; `run` executes. */
async function inPlace(run: (xs: da.DeferredArray[]) => Promise<da.StdNdarray[]>): Promise<unknown[]> {
  const x = da.arange(12, { dtype: 'float64' }).reshape([3, 4]);
  x.set('::2, ::-3', da.array([100, 200]));
  x.iadd(1);
  const before = x.mul(2);
  x.get(1).imul(3);
  const [r, s, b] = await run([x, x.sum(), before]);
  x.get('0, 1:3').assign(x.get('2, 1:3').neg());
  const [again] = await run([x]);
  return [r, s, b, again].map((a) => list(da.wrap(a!)));
}

test('mutable arrays live in the process heap: another runtime forces their writes through copies, with the same results', async () => {
  const rt = runtime();
  const want = await inPlace(async (xs) => (await da.execute(xs)) as da.StdNdarray[]);
  const before = da.heapStats().allocatedBytes;
  const got = await inPlace(async (xs) => (await rt.execute(xs)) as da.StdNdarray[]);
  expect(got).toEqual(want);
  expect(await inPlace((xs) => Promise.resolve(rt.executeSync(xs) as da.StdNdarray[]))).toEqual(want);
  // The arrays' blocks were made in the process heap, as da.arange's would be under any runtime.
  if (rt.stats().backend === 'wasm') expect(da.heapStats().allocatedBytes).toBeGreaterThan(before);
});

test('a time loop alternating runtimes step by step gives the bits of one runtime alone', async () => {
  const rt = runtime({ threads: 2 });
  const step = (u: da.DeferredArray): void => {
    u.get('1:-1').assign(u.get('1:-1').add(u.get(':-2').add(u.get('2:')).sub(u.get('1:-1').mul(2)).mul(0.2)));
  };
  const loop = async (pick: (i: number) => { execute: (xs: da.DeferredArray[]) => Promise<unknown> }): Promise<string> => {
    const u = ramp(4096);
    for (let i = 0; i < 12; i++) {
      step(u);
      if (i % 3 === 2) await pick(i).execute([u.sum()]);
    }
    const [r] = (await pick(0).execute([u])) as da.StdNdarray[];
    return bits(r!);
  };
  const alone = await loop(() => da);
  expect(await loop((i) => (i % 2 ? rt : da))).toBe(alone);
  expect(await loop(() => rt)).toBe(alone);
});
