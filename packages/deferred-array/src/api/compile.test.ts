// Compiled functions: traced once over placeholders with symbolic sizes,
// planned once, kernels compiled before the first call; each call binds arrays.
import { describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import type { Nested } from '../../test/to-list.js';

type Fn = (...xs: da.DeferredArray[]) => da.DeferredArray | da.DeferredArray[];
type Result = da.StdNdarray | da.StdNdarray[] | { [key: string]: da.StdNdarray | da.StdNdarray[] };

/** An ndarray as nested lists, read without planning anything (tests count plans). */
function ndList(r: da.StdNdarray): Nested {
  const at = (idx: number[]): Nested =>
    (idx.length === r.shape.length ? (r.get(...idx) as number | boolean) : Array.from({ length: r.shape[idx.length]! }, (_, i) => at([...idx, i])));
  return at([]);
}

/** A result (ndarray, list, or NEP record) as nested lists, record keys kept. */
function nested(r: Result): unknown {
  if (Array.isArray(r)) return r.map((x) => nested(x));
  if ('shape' in r && 'dtype' in r) return ndList(r as da.StdNdarray);
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, nested(v as Result)]));
}

/** fn run uncompiled on the same values: the oracle for the compiled call. */
function uncompiled(fn: Fn, args: ReadonlyArray<Float64Array | Nested>): unknown {
  const out = fn(...args.map((a) => (a instanceof Float64Array ? da.wrap(a) : da.array(a as number[]))));
  return nested(Array.isArray(out) ? (da.executeSync(out) as Result) : (out.executeSync() as Result));
}

const ramp = (n: number, scale = 1 / 7): Float64Array => Float64Array.from({ length: n }, (_, i) => Math.sin(i * scale) * 3);
const isWasm = (): boolean => da.stats().backend === 'wasm';

describe('compile', () => {
  const n = da.size('n');
  const chain: Fn = (x) => x.mul(2).add(1).sin().mul(x).sub(0.5).abs().sqrt().add(x).mul(3).tanh();

  test('a 10-op chain equals the uncompiled graph bit for bit at every size, sync and async', async () => {
    const f = da.compile(chain, [da.placeholder([n], 'float64')]);
    for (const size of [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 1000, 20000]) {
      const x = ramp(size);
      expect(nested(f.sync(x))).toEqual(uncompiled(chain, [x]));
      expect(nested(await f(x))).toEqual(uncompiled(chain, [x]));
    }
  });

  test('plans once and compiles its kernels before the first call; calls at any size plan and compile nothing', async () => {
    const s0 = da.stats();
    const f = da.compile((x, y) => x.mul(y).add(x.sum()).sqrt(), [da.placeholder([n]), da.placeholder([n])]);
    const s1 = da.stats();
    expect(s1.plans - s0.plans).toBe(1);
    if (isWasm()) expect(s1.kernelsCompiled).toBeGreaterThan(s0.kernelsCompiled);
    for (let size = 0; size < 40; size++) {
      const x = ramp(size).map(Math.abs);
      f.sync(x, x);
      await f(x, x);
    }
    for (const size of [1000, 70000]) await f(ramp(size).map(Math.abs), ramp(size).map(Math.abs));
    const s2 = da.stats();
    expect(s2.plans).toBe(s1.plans);
    expect(s2.kernelsCompiled).toBe(s1.kernelsCompiled);
    expect(s2.runs - s1.runs).toBe(82);
  });

  test('calls in a loop hold no heap memory between them', async () => {
    const f = da.compile((x, y) => x.mul(2).add(y.sum()).output('a').sqrt(), [da.placeholder([n]), da.placeholder([n])]);
    const xs = ramp(5000).map(Math.abs);
    await f(xs, xs);
    await f(xs, xs); // constants are cached in the heap from their second read
    const before = da.heapStats();
    for (let i = 0; i < 200; i++) {
      const part = xs.subarray(0, 100 + (i % 50));
      f.sync(part, part);
      await f(xs, xs);
    }
    const after = da.heapStats();
    // Not equal: the collector may free cached copies of other tests' sources meanwhile.
    expect(after.liveAllocations).toBeLessThanOrEqual(before.liveAllocations);
    expect(after.bytesInUse).toBeLessThanOrEqual(before.bytesInUse);
  });

  test.each([
    ['run now, on the calling thread', undefined],
    ['run later, on the pool where there is one, from copies', 0],
  ])('an async call reads its typed arrays when called (%s), in heap blocks freed when it ends, failing or not', async (_, threshold) => {
    const was = da.configure().inlineThreshold;
    if (threshold !== undefined) da.configure({ inlineThreshold: threshold });
    try {
      await readsWhenCalled();
    } finally {
      da.configure({ inlineThreshold: was });
    }
  });

  async function readsWhenCalled(): Promise<void> {
    const f = da.compile((x, y) => x.mul(y).add(1), [da.placeholder([n]), da.placeholder([n])]);
    const ident = da.compile((x) => x, [da.placeholder([n])]);
    const a = ramp(1000);
    const b = ramp(1000, 1 / 3);
    const want = Array.from(a, (v, i) => v * b[i]! + 1);
    await f(a, b);
    const before = da.heapStats();
    // Changed before the run, which follows an await: the call keeps the values it was given.
    const pending = f(a, b);
    const same = ident(a);
    a.fill(7);
    b.fill(-1);
    expect(Array.from(((await pending) as da.StdNdarray).data as Float64Array)).toEqual(want);
    const kept = ((await same) as da.StdNdarray).data as Float64Array;
    expect(Array.from(kept)).toEqual(Array.from(ramp(1000)));
    // The identity's result is its own: blocks freed and written again leave it as it was.
    for (let i = 0; i < 5; i++) await f(ramp(1000, i), ramp(1000, i + 1));
    expect(Array.from(kept)).toEqual(Array.from(ramp(1000)));
    // A call that fails frees its copies too (a wrong dtype is found after the first is made).
    await expect(f(ramp(1000), new Float32Array(1000))).rejects.toThrow(/argument 1 is float32/);
    // So does one whose out is refused, which fails after both are made.
    await expect(f(ramp(1000), ramp(1000), { out: new Float64Array(3) })).rejects.toThrow(/out/);
    if (!isWasm()) return;
    const after = da.heapStats();
    expect(after.liveAllocations).toBeLessThanOrEqual(before.liveAllocations);
    expect(after.bytesInUse).toBeLessThanOrEqual(before.bytesInUse);
  }

  test('the usual call (typed arrays in, one result into a typed array or a fresh one) gives the general way\'s bits, counts, and holds nothing', async () => {
    const f = da.compile((x, y) => x.mul(1.5).add(y).sub(0.25).mul(x).abs().sqrt(), [da.placeholder([n]), da.placeholder([n])]);
    const total = da.compile((x, y) => x.mul(y).add(1).sum(), [da.placeholder([n]), da.placeholder([n])]);
    for (const size of [0, 1, 2, 3, 7, 8, 9, 16, 17, 1000, 70000]) {
      const a = ramp(size);
      const b = ramp(size, 1 / 3);
      const want = uncompiled((x, y) => x.mul(1.5).add(y).sub(0.25).mul(x).abs().sqrt(), [a, b]);
      const out = new Float64Array(size).fill(-9);
      const r = f.sync(a, b, { out }) as da.StdNdarray;
      expect(r.data).toBe(out);
      expect(nested(r)).toEqual(want);
      // An ndarray out takes the general way: the same bits.
      const nd = da.zeros([size]).executeSync();
      expect(nested(f.sync(a, b, { out: nd }) as da.StdNdarray)).toEqual(want);
      expect(nested(f.sync(a, b) as da.StdNdarray)).toEqual(want);
      expect(nested(await f(a, b, { out: new Float64Array(size) }) as da.StdNdarray)).toEqual(want);
      expect(nested(total.sync(a, b) as da.StdNdarray)).toEqual(uncompiled((x, y) => x.mul(y).add(1).sum(), [a, b]));
    }
    const a = ramp(1000);
    f.sync(a, a, { out: new Float64Array(1000) });
    const before = da.stats();
    const heap = da.heapStats();
    const out = new Float64Array(1000);
    for (let i = 0; i < 50; i++) {
      f.sync(a, a, { out });
      f.sync(a, a);
    }
    const after = da.stats();
    expect(after.runs - before.runs).toBe(100);
    // f.sync runs on the calling thread whatever its work: the short way, one block, at any size.
    if (isWasm()) {
      const big = ramp(200_000);
      const bigOut = new Float64Array(200_000);
      f.sync(big, big, { out: bigOut });
      const allocations = da.heapStats().allocations;
      f.sync(big, big, { out: bigOut });
      expect(da.heapStats().allocations - allocations).toBe(1);
    }
    // One block a call, its launch block, copies and result carved from it; an async call as small runs now, without
    // copies (where execute() would run it on the calling thread: not in the project that sends every kernel to the pool).
    if (isWasm() && da.configure().inlineThreshold > 0) {
      // On the heap, or on the calling thread's private heap where the heap is shared (these arguments are copied in).
      const allocations = (): number => da.heapStats().allocations + (da.heapStats().privateHeap?.allocations ?? 0);
      const before = allocations();
      f.sync(a, a, { out });
      await f(a, a);
      expect(allocations() - before).toBe(2);
    }
    expect(after.plans).toBe(before.plans);
    if (isWasm()) expect(after.bytesMoved).toBeGreaterThan(before.bytesMoved);
    expect(da.heapStats().liveAllocations).toBeLessThanOrEqual(heap.liveAllocations);
    expect(da.heapStats().bytesInUse).toBeLessThanOrEqual(heap.bytesInUse);
  });

  test('a call whose run fails the error policy leaves its out as it was, and holds nothing', () => {
    const f = da.compile((x, y) => x.floorDivide(y).add(1), [da.placeholder([n], 'int32'), da.placeholder([n], 'int32')]);
    const x = Int32Array.from({ length: 100 }, (_, i) => i);
    const y = Int32Array.from({ length: 100 }, (_, i) => (i === 57 ? 0 : 3));
    const out = new Int32Array(100).fill(-5);
    f.sync(x, Int32Array.from({ length: 100 }, () => 3), { out: new Int32Array(100) });
    const heap = da.heapStats();
    try {
      da.configure({ errors: { divide: 'raise' } });
      expect(() => f.sync(x, y, { out })).toThrow(da.ExecutionError);
      expect(() => f.sync(x, y)).toThrow(da.ExecutionError);
      expect(Array.from(out)).toEqual(Array(100).fill(-5));
      da.configure({ errors: { divide: 'ignore' } });
      f.sync(x, y, { out });
      expect(out[56]).toBe(Math.floor(56 / 3) + 1);
      expect(out[57]).toBe(1);
    } finally {
      da.configure({ errors: { divide: 'warn' } });
    }
    expect(da.heapStats().liveAllocations).toBeLessThanOrEqual(heap.liveAllocations);
    expect(da.heapStats().bytesInUse).toBeLessThanOrEqual(heap.bytesInUse);
  });

  test('binding checks shapes against the symbols and dtypes against the placeholders', () => {
    const k = da.size('k');
    const f = da.compile((a, b) => a.matmul(b), [da.placeholder([n, k]), da.placeholder([k, 3])]);
    expect(() => f.sync(da.zeros([2, 4]), da.zeros([5, 3]))).toThrow(da.ShapeError);
    expect(() => f.sync(da.zeros([2, 4]), da.zeros([5, 3]))).toThrow(/size 'k' is 4 in argument 0 .* but 5 in argument 1/);
    expect(() => f.sync(da.zeros([2, 4]), da.zeros([4, 2]))).toThrow(/fixes 3/);
    expect(() => f.sync(da.zeros([2]), da.zeros([2, 3]))).toThrow(/1 axes but its placeholder \(n, k\) has 2/);
    expect(() => f.sync(da.zeros([2, 4]))).toThrow(TypeError);
    expect(() => f.sync(da.zeros([2, 4], { dtype: 'int32' }), da.zeros([4, 3]))).toThrow(da.DTypeError);
    expect(() => f.sync(new Float32Array(4) as unknown as da.DeferredArray, da.zeros([4, 3]))).toThrow(/float32 but its placeholder/);
    expect(() => f.sync('x' as unknown as da.DeferredArray, da.zeros([4, 3]))).toThrow(TypeError);
    expect(nested(f.sync(da.ones([2, 4]), da.ones([4, 3])))).toEqual([[4, 4, 4], [4, 4, 4]]);
  });

  test('outputs and marks give the record execute() gives', async () => {
    const fn: Fn = (x, y) => {
      const t = x.add(y).output('t');
      const u = t.mul(2).output();
      return u.sub(x).sum({ axis: 0 });
    };
    const f = da.compile(fn, [da.placeholder([n, 2]), da.placeholder([1, 2])]);
    for (const rows of [1, 3, 6]) {
      const x = Array.from({ length: rows }, (_, i) => [i, -i / 2]);
      const y = [[0.5, 2]];
      const r = f.sync(x, y) as Record<string, da.StdNdarray>;
      expect(Object.keys(r)).toEqual(['t', 'output_0', 'result']);
      expect(nested(r)).toEqual(uncompiled(fn, [x, y]));
      expect(nested(await f(x, y))).toEqual(uncompiled(fn, [x, y]));
    }
  });

  test('execute()\'s options may follow the arguments: out for one result, a list and a record, views in a scope', async () => {
    const f = da.compile(chain, [da.placeholder([n], 'float64')]);
    const x = ramp(40);
    const want = uncompiled(chain, [x]);
    const out = new Float64Array(40);
    const r = f.sync(x, { out }) as da.StdNdarray;
    expect(r.data).toBe(out);
    expect(nested(r)).toEqual(want);
    const out2 = new Float64Array(40);
    expect(((await f(x, { out: out2 })) as da.StdNdarray).data).toBe(out2);
    expect(nested(f.sync(x, { out: out2 }) as da.StdNdarray)).toEqual(want);
    // A call at another size after calls at one: its shapes checked again, its out too.
    expect(() => f.sync(ramp(7), { out })).toThrow(/holds 40 elements but the result float64\(7,\)/);
    expect(nested(f.sync(ramp(7)) as da.StdNdarray)).toEqual(uncompiled(chain, [ramp(7)]));

    const many: Fn = (a) => [a.add(1), a.max()];
    const g = da.compile(many, [da.placeholder([n])]);
    const outs = [new Float64Array(9), null];
    const rs = g.sync(ramp(9), { out: outs }) as da.StdNdarray[];
    expect(rs[0]!.data).toBe(outs[0]);
    expect(nested(rs)).toEqual(uncompiled(many, [ramp(9)]));

    const marked: Fn = (a) => a.add(1).output('t').mul(2);
    const h = da.compile(marked, [da.placeholder([n])]);
    const t = new Float64Array(5);
    const rec = h.sync(ramp(5), { out: { t } }) as Record<string, da.StdNdarray>;
    expect(rec.t!.data).toBe(t);
    expect(nested(rec)).toEqual(uncompiled(marked, [ramp(5)]));

    if (isWasm()) {
      const viewed = da.scopeSync(() => {
        const v = f.sync(x, { view: true }) as da.StdNdarray;
        return [...(v.data as Float64Array)];
      });
      expect(viewed).toEqual((want as number[]));
    }
    expect(() => f.sync(x, { outt: out } as unknown as da.DeferredArray)).toThrow(/unknown option 'outt'/);
    expect(() => f.sync(x, { out: new Float32Array(40) })).toThrow(/pass a Float64Array/);
    expect(() => f.sync(x, {}, {})).toThrow(/takes 1 argument\(s\) .*then optionally execute\(\)'s options/);
  });

  test('a function of several results returns a list', () => {
    const fn: Fn = (x) => [x.add(1), x.max()];
    const f = da.compile(fn, [da.placeholder([n])]);
    expect(nested(f.sync(ramp(9)))).toEqual(uncompiled(fn, [ramp(9)]));
  });

  test('slices, transposes, broadcasting, reductions, reshapes, joins and products follow the sizes', async () => {
    const m = da.size('m');
    const cases: Array<[Fn, da.Placeholder[], number[][][]]> = [
      [(x) => x.get('1:-1').sub(x.get(':-2')).mul(x.get('2:')), [da.placeholder([n])], [[[5]], [[40]], [[3]]]],
      [(x) => x.get('::-2').add(x.get('::2').sum()), [da.placeholder([n])], [[[1]], [[9]], [[10]]]],
      [(a, b) => a.add(b).T.mul(2), [da.placeholder([n, 1]), da.placeholder([1, m])], [[[3, 1], [1, 4]], [[1, 1], [1, 7]], [[9, 1], [1, 2]]]],
      [(a) => a.sum({ axis: 1, keepdims: true }).div(a.max({ axis: 0 })), [da.placeholder([n, m])], [[[2, 3]], [[5, 17]], [[1, 1]]]],
      [(a) => a.reshape([-1]).mul(3).reshape([-1, 2]), [da.placeholder([n, 2])], [[[4, 2]], [[1, 2]], [[9, 2]]]],
      [(a, b) => da.concat([a, b.mul(2)], { axis: 0 }).add(1), [da.placeholder([n]), da.placeholder([m])], [[[3], [4]], [[1], [9]]]],
      [(a, b) => da.stack([a, b], { axis: 1 }).expandDims(0).squeeze(0), [da.placeholder([n]), da.placeholder([n])], [[[3], [3]], [[8], [8]]]],
      [(a, b) => a.matmul(b).add(1).sqrt(), [da.placeholder([n, 3]), da.placeholder([3, m])], [[[2, 3], [3, 5]], [[17, 3], [3, 1]], [[1, 3], [3, 9]]]],
      [(a) => a.argmax({ axis: 1 }), [da.placeholder([n, m])], [[[3, 4]], [[6, 2]]]],
      [(a) => a.argmin().add(a.astype('float32').argmax({ axis: 0 })), [da.placeholder([n, m])], [[[3, 4]], [[6, 2]], [[1, 5]]]],
      [(a, b) => a.astype('int8').matmul(b.astype('int8')).add(1), [da.placeholder([n, 3]), da.placeholder([3, m])], [[[2, 3], [3, 5]], [[7, 3], [3, 1]]]],
      [(a, b) => da.where(a.gt(0), a, b).exp().pin().add(1).mul(a.pinCse()), [da.placeholder([n]), da.placeholder([n])], [[[5], [5]], [[33], [33]]]],
    ];
    for (const [fn, ps, calls] of cases) {
      const f = da.compile(fn, ps);
      const argsOf = (shapes: number[][]) => shapes.map((shape, k) => {
        const size = shape.reduce((a, b) => a * b, 1);
        const flat = Array.from(ramp(size, 0.37 + k));
        return shape.length === 1 ? flat : Array.from({ length: shape[0]! }, (_, i) => flat.slice(i * shape[1]!, (i + 1) * shape[1]!));
      }) as number[][];
      // The oracle plans each time it runs; the compiled calls must not.
      const expected = calls.map((shapes) => uncompiled(fn, argsOf(shapes)));
      const plans = da.stats().plans;
      for (const [i, shapes] of calls.entries()) {
        expect(nested(f.sync(...argsOf(shapes)))).toEqual(expected[i]);
        expect(nested(await f(...argsOf(shapes)))).toEqual(expected[i]);
      }
      expect(da.stats().plans).toBe(plans);
    }
  });

  test('a function that reads sizes while traced is traced and planned once per size, and stays right', async () => {
    const fn: Fn = (x) => x.sub(x.sum().div(x.size)).mul(da.arange(x.shape[0]!));
    const f = da.compile(fn, [da.placeholder([n])]);
    expect(f.explain()).toMatch(/once per set of sizes/);
    const expected = [3, 8].map((size) => uncompiled(fn, [ramp(size)]));
    const plans = da.stats().plans;
    for (const size of [3, 8, 3, 8]) expect(nested(await f(ramp(size)))).toEqual(expected[size === 3 ? 0 : 1]);
    expect(da.stats().plans - plans).toBe(2);
  });

  test('arguments: sources, expressions, arrays written in place, ndarrays, nested lists, typed arrays', async () => {
    const f = da.compile((x) => x.mul(10), [da.placeholder([n])]);
    const a = da.array([1, 2, 3]);
    const b = da.array([1, 2]);
    b.iadd(5);
    const nd = (await da.array([7, 8]).execute()) as da.StdNdarray;
    expect(nested(f.sync(a))).toEqual([10, 20, 30]);
    expect(nested(await f(a.add(1)))).toEqual([20, 30, 40]);
    expect(nested(f.sync(a.add(1).output('marked')))).toEqual([20, 30, 40]);
    expect(nested(await f(b))).toEqual([60, 70]);
    expect(da.trace().pending).toBe(0);
    expect(nested(f.sync(nd))).toEqual([70, 80]);
    expect(nested(f.sync([1.5]))).toEqual([15]);
    const t = new Float64Array([1, 2]);
    const pending = f(t);
    t[0] = 100; // an asynchronous call has read its arguments when it returns
    expect(nested(await pending)).toEqual([10, 20]);
    const flags = da.compile((x) => x.logicalNot(), [da.placeholder([n], 'bool')]);
    expect(nested(flags.sync([true, false]))).toEqual([false, true]);
  });

  test('what a compiled function cannot hold is refused when it is compiled, saying what to do', () => {
    const p = [da.placeholder([n])];
    expect(() => da.compile((x) => x.iadd(1), p)).toThrow(da.NotSupportedError);
    expect(() => da.compile((x) => x.iadd(1), p)).toThrow(/in-place operations inside a compiled function/);
    const w = da.zeros([3]);
    w.iadd(1);
    expect(() => da.compile((x) => x.add(w.sum()), p)).toThrow(/pass it as an argument/);
    expect(() => da.compile((x) => da.cond(true, x, x), p)).toThrow(da.NotSupportedError);
    expect(() => da.compile((() => 3) as unknown as Fn, p)).toThrow(/must return a DeferredArray/);
    expect(() => da.compile((async (x: da.DeferredArray) => x) as unknown as Fn, p)).toThrow(/promise/);
    expect(() => da.compile(3 as unknown as Fn, p)).toThrow(TypeError);
    expect(() => da.compile((x) => x, [[3] as unknown as da.Placeholder])).toThrow(/not a da.placeholder/);
    expect(() => da.placeholder([n, -1])).toThrow(TypeError);
    expect(() => da.placeholder([n], 'complex128')).toThrow(da.DTypeError);
    expect(() => da.size('')).toThrow(TypeError);
    expect(String(da.placeholder([n, 3], 'float32'))).toBe('placeholder(n, 3) float32');
  });

  test('closed-over arrays are captured as traced; a fixed-shape function needs no symbols', () => {
    const c = da.array([1, 2, 3]);
    const f = da.compile((x) => x.add(c), [da.placeholder([3], 'float64')]);
    expect(nested(f.sync([1, 1, 1]))).toEqual([2, 3, 4]);
    expect(() => f.sync([1, 1])).toThrow(da.ShapeError);
    expect(f.explain()).toMatch(/one plan for every call/);
  });
});
