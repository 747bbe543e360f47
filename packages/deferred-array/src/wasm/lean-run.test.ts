// The lean run (lean-run.ts) against the general one: the same plans, run
// both ways, give the same bits; its constants ride in the launch block; a
// run that fails midway, and one whose results leave as views, hold nothing
// afterwards.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import * as da from '../index.js';
import { nodeOf } from '../api/deferred-array.js';
import { Linker } from '../execute/linker.js';
import type { Outcome } from '../execute/linker.js';
import { WasmBackend } from './backend.js';
import { ownHeap } from './heap.js';
import { elementsOf } from '../../test/against-reference.js';

const linkers: Linker[] = [];
const { threads: DEFAULT_THREADS, inlineThreshold: DEFAULT_INLINE } = da.configure();
afterAll(async () => {
  await Promise.all(linkers.splice(0).map((l) => l.shutdown()));
});

/** A runtime's engine over a heap of its own, taking the lean run or not. */
function linker(lean: boolean): Linker {
  const heap = ownHeap();
  const l = new Linker(heap);
  l.register(new WasmBackend(heap, { lean }));
  l.configure({ errors: { divide: 'ignore', invalid: 'ignore' } });
  linkers.push(l);
  return l;
}

/** Every value of every result exactly, as text (-0 kept); a NaN's sign and payload, which WebAssembly leaves open, not. */
function outcome(run: () => Outcome | undefined): string[] {
  let r: Outcome | undefined;
  try {
    r = run();
  } catch (e) {
    return [`${(e as Error).name}: ${(e as Error).message}`];
  }
  return (r as da.StdNdarray[]).map((x) => `${x.dtype}[${x.shape.join(',')}] ` +
    elementsOf(x).map((v) => (Object.is(v, -0) ? '-0' : String(v))).join(' '));
}

const UNARY = ['negative', 'abs', 'sqrt', 'square', 'floor', 'sin', 'exp', 'logicalNot'] as const;
const BINARY = ['add', 'subtract', 'multiply', 'divide', 'maximum', 'minimum', 'floorDivide', 'mod', 'power', 'greater'] as const;
const REDUCE = ['sum', 'prod', 'mean', 'min', 'max', 'any', 'all'] as const;
const DTYPES = ['float64', 'float32', 'int32', 'int16', 'uint8', 'bool'] as const;
const CONSTANTS = [0, -0, 1, -1, 2, 0.5, 3, -7, 0.3, 1e300, NaN, Infinity, -Infinity, 255, 65537];

const program = fc.record({
  shape: fc.constantFrom([0], [1], [3], [15], [16], [17], [1000], [4, 5], [3, 1, 33], [2, 0, 3], []),
  dtypes: fc.array(fc.constantFrom(...DTYPES), { minLength: 1, maxLength: 3 }),
  steps: fc.array(fc.record({
    unary: fc.option(fc.constantFrom(...UNARY)),
    binary: fc.constantFrom(...BINARY),
    a: fc.nat(8),
    b: fc.integer({ min: -3, max: 8 }),
    constant: fc.constantFrom(...CONSTANTS),
    // The first operand read through a view: reversed along axis 0, or reshaped flat and back.
    view: fc.constantFrom('none', 'reversed', 'reshaped'),
  }), { minLength: 1, maxLength: 6 }),
  reduce: fc.option(fc.record({ op: fc.constantFrom(...REDUCE), axis: fc.option(fc.nat(2)) })),
  // What a second kernel then makes of the reduction (its dimensions kept), with the chain or a constant: as x - mean(x) does.
  after: fc.option(fc.record({ binary: fc.constantFrom(...BINARY), withChain: fc.boolean(), constant: fc.constantFrom(...CONSTANTS) })),
  seed: fc.nat(100),
});

type Program = typeof program extends fc.Arbitrary<infer P> ? P : never;

/** The program's arrays (values from its seed, special values among them), its chain of steps, and its reduction; its roots. */
function chainOf(p: Program): da.DeferredArray[] {
  const size = (p.shape as readonly number[]).reduce((a, b) => a * b, 1);
  const special = [NaN, -0, Infinity, -Infinity, 5e-324, 2147483647, -2147483648];
  // Nested lists, so that an array is a source of its own shape (views of it are the steps' to make).
  const nest = (flat: number[], shape: readonly number[]): unknown => (shape.length === 0 ? flat[0]
    : Array.from({ length: shape[0]! }, (_, k) => nest(flat.slice(k * (flat.length / shape[0]!), (k + 1) * (flat.length / shape[0]!)), shape.slice(1))));
  const values: da.DeferredArray[] = p.dtypes.map((dtype, i) => {
    const flat = Array.from({ length: size }, (_, j) => (j % 11 === 7 ? special[(j + i) % special.length]! : ((j * 7 + p.seed * 13 + i * 5) % 23) - 9));
    return size === 0 ? da.array(flat, { dtype }).reshape(p.shape) : da.array(nest(flat, p.shape) as number[], { dtype });
  });
  const call = (name: string, ...args: unknown[]): da.DeferredArray => (da as unknown as Record<string, (...a: unknown[]) => da.DeferredArray>)[name]!(...args);
  const through = (x: da.DeferredArray, view: string): da.DeferredArray =>
    (view === 'reversed' && x.shape.length > 0 ? x.get('::-1') : view === 'reshaped' ? x.reshape([-1]).reshape([...x.shape]) : x);
  for (const s of p.steps) {
    const a = through(values[s.a % values.length]!, s.view);
    const b = s.b < 0 ? s.constant : values[s.b % values.length]!;
    const y = call(s.binary, a, b);
    values.push(s.unary ? call(s.unary, y) : y);
  }
  const last = values[values.length - 1]!;
  if (!p.reduce) return [last];
  const axis = p.reduce.axis === null || p.shape.length === 0 ? undefined : p.reduce.axis % p.shape.length;
  const reduced = call(p.reduce.op, last, axis === undefined ? undefined : { axis });
  if (!p.after) return [last, reduced];
  const kept = call(p.reduce.op, last, { ...(axis === undefined ? {} : { axis }), keepdims: true });
  return [last, reduced, call(p.after.binary, p.after.withChain ? last : p.after.constant, kept)];
}

/** The program's roots, or undefined where NumPy's rules refuse to build it (a bool subtract, say). */
function rootsOf(p: Program): ReturnType<typeof nodeOf>[] | undefined {
  try {
    return chainOf(p).map(nodeOf);
  } catch {
    return undefined;
  }
}

describe('the lean run', () => {
  test('gives the general run\'s bits for random elementwise chains, their reductions, constants and special values', () => {
    const lean = linker(true);
    const general = linker(false);
    fc.assert(fc.property(program, (p) => {
      if (!rootsOf(p)) return;
      const roots = (): ReturnType<typeof nodeOf>[] => rootsOf(p)!;
      // Twice on the lean side: a plan's first run makes its lean form, the second reuses it.
      outcome(() => lean.runNodes(roots(), true));
      expect(outcome(() => lean.runNodes(roots(), true))).toEqual(outcome(() => general.runNodes(roots(), true)));
    }), { numRuns: 300 });
  }, 60_000); // 300 random graphs, each planned and run twice: about 5 s alone on the 2-core machine

  test('on the worker pool too: execute() of lean plans gives the general run\'s bits', async () => {
    const pooled = linker(true);
    pooled.configure({ threads: 2, inlineThreshold: 0 });
    const general = linker(false);
    await fc.assert(fc.asyncProperty(program, async (p) => {
      if (!rootsOf(p)) return;
      let got: Outcome | undefined;
      let failed: string | undefined;
      try {
        got = await pooled.runNodesAsync(rootsOf(p)!, true);
      } catch (e) {
        failed = `${(e as Error).name}: ${(e as Error).message}`;
      }
      expect(failed ? [failed] : outcome(() => got)).toEqual(outcome(() => general.runNodes(rootsOf(p)!, true)));
    }), { numRuns: 60 });
    expect(pooled.stats().pooled).toBeGreaterThan(0);
  }, 60_000); // a pool of 2 started and 60 graphs run on it: seconds on a loaded machine

  test('constants ride in the launch block: a run of the 10-op chain allocates one block (the launch block and its result), whatever its constants', () => {
    const heap = ownHeap();
    const l = new Linker(heap);
    l.register(new WasmBackend(heap));
    linkers.push(l);
    const a = da.array(new Float64Array(1000).map((_, i) => i * 0.5 - 100));
    const b = da.array(new Float64Array(1000).map((_, i) => 3 - i * 0.25));
    const chain = (c: number): da.DeferredArray => a.mul(c).add(b).sub(0.25).mul(a).add(2).mul(0.5).sub(b).abs().sqrt().add(1);
    // A source is cached in the heap from its second read.
    l.runNodes([nodeOf(chain(1.5))], false);
    l.runNodes([nodeOf(chain(0.5))], false);
    const before = heap.stats().allocations;
    const r = l.runNodes([nodeOf(chain(2.5))], false) as da.StdNdarray;
    // A result copied out of the heap is never taken as a view: its block is carved from the launch block's.
    expect(heap.stats().allocations - before).toBe(1);
    expect(heap.stats().liveAllocations).toBe(2); // the two sources' cached copies
    // A result left as a view takes a block of its own.
    const view = l.runNodes([nodeOf(chain(3.5))], false, false, { view: true, owner: undefined, out: undefined }) as da.StdNdarray;
    expect(heap.stats().allocations - before).toBe(3);
    expect(heap.stats().liveAllocations).toBe(3);
    da.release(view);
    expect(heap.stats().liveAllocations).toBe(2);
    const want = Array.from({ length: 1000 }, (_, i) => {
      const x = i * 0.5 - 100;
      const y = 3 - i * 0.25;
      return Math.sqrt(Math.abs(((x * 2.5 + y - 0.25) * x + 2) * 0.5 - y)) + 1;
    });
    expect(Array.from(r.data as Float64Array)).toEqual(want);
  });

  test('kernels that read what earlier ones made (x - mean(x), sum(x) * 2, a softmax, a mean read twice) run the lean way: one block a run, the general run\'s bits', () => {
    const heap = ownHeap();
    const l = new Linker(heap);
    l.register(new WasmBackend(heap));
    l.configure({ errors: { divide: 'ignore', invalid: 'ignore' } });
    linkers.push(l);
    const general = linker(false);
    const x = da.array(new Float64Array(1000).map((_, i) => Math.sin(i) * 10));
    const softmax = (): da.DeferredArray => {
      const e = da.exp(x.sub(da.max(x)));
      return e.div(da.sum(e));
    };
    const graphs: Array<[() => da.DeferredArray, number]> = [
      [() => x.sub(da.mean(x)), 2], [() => da.sum(x).mul(2), 2], [() => x.div(da.max(da.abs(x))).sum(), 2], [softmax, 3],
      [() => da.countNonzero(x.greater(0)), 2],
      // The mean read by the two kernels after it (copied into the run's block once).
      [() => { const m = da.mean(x); return da.sum(x.sub(m).square()).div(m); }, 3],
    ];
    for (const [g, kernels] of graphs) {
      expect(l.plan([nodeOf(g())]).steps.filter((s) => s.kind === 'kernel')).toHaveLength(kernels);
      // A source is cached in the heap from its second read.
      l.runNodes([nodeOf(g())], false);
      l.runNodes([nodeOf(g())], false);
      const before = heap.stats().allocations;
      l.runNodes([nodeOf(g())], false);
      // Every kernel's launch block, the stores and the reductions reread: carved from one block.
      expect(heap.stats().allocations - before).toBe(1);
      expect(heap.stats().liveAllocations).toBe(1); // x's cached copy
      expect(outcome(() => l.runNodes([nodeOf(g())], true))).toEqual(outcome(() => general.runNodes([nodeOf(g())], true)));
    }
  });

  test('a result with an out goes there a block at a time through a scratch block: the same bits, and the heap never holds it whole', () => {
    const heap = ownHeap();
    const l = new Linker(heap);
    l.register(new WasmBackend(heap));
    linkers.push(l);
    const general = linker(false);
    const BLOCK = 16384;
    for (const n of [2 * BLOCK - 1, 2 * BLOCK, 3 * BLOCK + 5]) {
      const x = da.array(new Float64Array(n).map((_, i) => Math.sin(i) * 1e3));
      const y = da.array(new Float32Array(n).map((_, i) => (i % 7) - 3));
      const f = (): da.DeferredArray => x.mul(1.5).add(y).sqrt().sub(x.mul(-0));
      l.runNodes([nodeOf(f())], false);
      l.runNodes([nodeOf(f())], false); // the sources are cached in the heap from their second read
      const out = new Float64Array(n).fill(7);
      heap.kernels.resetPeak();
      const before = heap.stats().bytesInUse;
      const r = l.runNodes([nodeOf(f())], false, false, { view: false, owner: undefined, out }) as da.StdNdarray;
      expect(r.data).toBe(out);
      // One block's values (16384 float64) and the launch block, not n values.
      expect(heap.stats().peakBytes - before).toBeLessThan(BLOCK * 8 + 4096);
      expect(outcome(() => [r])).toEqual(outcome(() => general.runNodes([nodeOf(f())], true)));
      // A result asked for without an out is made whole in the heap, as before.
      expect(outcome(() => l.runNodes([nodeOf(f())], true))).toEqual(outcome(() => [r]));
    }
  });

  test('an out of many blocks is left as it was when a kernel counts an error the policy raises, or throws', () => {
    const heap = ownHeap();
    const l = new Linker(heap);
    l.register(new WasmBackend(heap));
    l.configure({ errors: { divide: 'raise' } });
    linkers.push(l);
    const n = 3 * 16384;
    const x = da.array(new Int32Array(n).map((_, i) => i - 5));
    const out = new Int32Array(n).fill(-1);
    const request = { view: false, owner: undefined, out };
    const untouched = (): boolean => out.every((v) => v === -1);
    // Counted in the kernel: an integer division, and C's remainder (fmod).
    expect(() => l.runNodes([nodeOf(da.floorDivide(100, x))], false, false, request)).toThrow(/integer division by zero in floorDivide/);
    expect(untouched()).toBe(true);
    expect(() => l.runNodes([nodeOf(da.fmod(100, x))], false, false, request)).toThrow(/integer division by zero in fmod/);
    expect(untouched()).toBe(true);
    // Thrown by a host function in the last block: a negative integer power.
    expect(() => l.runNodes([nodeOf(da.power(2, x.mul(-1).add(n - 10)))], false, false, request)).toThrow(/negative integer powers/);
    expect(untouched()).toBe(true);
    l.configure({ errors: { divide: 'ignore' } });
    l.runNodes([nodeOf(da.floorDivide(100, x))], false, false, request);
    expect([out[0], out[5], out[6], out[n - 1]]).toEqual([-20, 0, 100, Math.floor(100 / (n - 6))]);
  });

  test('takes in its kernel: every mode, along axis 0 or the last, the general run\'s bits on the calling thread and the pool', async () => {
    const lean = linker(true);
    const pooled = linker(true);
    pooled.configure({ threads: 2, inlineThreshold: 0 });
    const general = linker(false);
    const x = [[1.5, -2, 3], [0.25, -0, 7], [NaN, 9, -4], [5, 6, -Infinity]];
    const idx = [3, -1, 0, 2, 2, -4, 1];
    const far = [3, -1, 9, -7, 40, -13, 1];
    const graphs = (): da.DeferredArray[] => [
      da.take(da.array(x), da.array(idx, { dtype: 'int32' }), { axis: 0 }).mul(2).add(1),
      da.sum(da.take(da.array(x), da.array(idx.map((k) => k % 3), { dtype: 'int16' }), { axis: 1 }).square(), { axis: 1 }),
      ...(['wrap', 'clip'] as const).map((mode) => da.take(da.array(x), da.array(far, { dtype: 'int32' }), { axis: 0, mode }).sub(da.take(da.array(x), da.array(idx, { dtype: 'int32' }), { axis: 0 }))),
      da.take(da.array(x[0]!), da.array(far.map(Math.abs), { dtype: 'uint8' }), { mode: 'wrap' }).maximum(0),
    ];
    for (let g = 0; g < graphs().length; g++) {
      const roots = (): ReturnType<typeof nodeOf>[] => [nodeOf(graphs()[g]!)];
      const want = outcome(() => general.runNodes(roots(), true));
      outcome(() => lean.runNodes(roots(), true));
      expect(outcome(() => lean.runNodes(roots(), true))).toEqual(want);
      const got = await pooled.runNodesAsync(roots(), true);
      expect(outcome(() => got)).toEqual(want);
    }
  });

  test('an index a take cannot place fails a compiled call with the general run\'s error, its out of many blocks untouched, on the calling thread and the pool', async () => {
    const x = da.wrap(Float64Array.from({ length: 12 }, (_, k) => k));
    const n = 3 * 16384;
    const f = da.compile((i, j) => da.take(x, i).mul(2).add(da.take(x, j)), [da.placeholder([n], 'int32'), da.placeholder([n], 'int32')]);
    const message = 'take: index 20 is out of bounds for axis 0 with size 12';
    // Out of bounds in the last block only: a run that wrote the out as it went would have written most of it.
    const bad = new Int32Array(n).fill(1);
    bad[n - 3] = 20;
    const [zeros, far] = [new Int32Array(n), new Int32Array(n).fill(-14)];
    const out = new Float64Array(n).fill(7);
    const untouched = (): boolean => out.every((v) => v === 7);
    for (let k = 0; k < 2; k++) expect(() => f.sync(da.wrap(bad), da.wrap(zeros), { out })).toThrow(message);
    expect(() => f.sync(da.wrap(zeros), da.wrap(far), { out })).toThrow('take: index -14 is out of bounds for axis 0 with size 12');
    expect(untouched()).toBe(true);
    da.configure({ threads: 2, inlineThreshold: 0 });
    try {
      await expect(f(da.wrap(bad), da.wrap(zeros), { out })).rejects.toThrow(message);
    } finally {
      da.configure({ threads: DEFAULT_THREADS, inlineThreshold: DEFAULT_INLINE });
    }
    expect(untouched()).toBe(true);
    f.sync(da.wrap(bad.map((v) => (v === 20 ? -1 : v))), da.wrap(zeros), { out });
    expect([out[0], out[n - 3], out[n - 1]]).toEqual([2, 22, 2]);
  });

  test('a take over arrays wrapped afresh is one block a run, as any lean run', () => {
    const heap = ownHeap();
    const l = new Linker(heap);
    l.register(new WasmBackend(heap));
    linkers.push(l);
    const table = Float64Array.from({ length: 64 }, (_, i) => i * 0.5);
    const idx = Int32Array.from({ length: 1000 }, (_, i) => (i * 37) % 64);
    const take = (): ReturnType<typeof nodeOf> => nodeOf(da.take(da.wrap(table), da.wrap(idx)).mul(2).add(1));
    for (let i = 0; i < 2; i++) l.runNodes([take()], false);
    const before = heap.stats().allocations;
    const r = l.runNodes([take()], false) as da.StdNdarray;
    expect(Array.from(r.data as Float64Array)).toEqual(Array.from(idx, (k) => table[k]! * 2 + 1));
    expect(heap.stats().allocations - before).toBe(1);
  });

  test('a graph over arrays wrapped afresh copies its sources into the run\'s one block at their first read, and keeps them from the second', () => {
    const heap = ownHeap();
    const l = new Linker(heap);
    l.register(new WasmBackend(heap));
    linkers.push(l);
    const xs = new Float64Array(1000).map((_, i) => i * 0.5 - 100);
    const ys = new Float64Array(1000).map((_, i) => 3 - i * 0.25);
    const chain = (a: da.DeferredArray, b: da.DeferredArray): da.DeferredArray => a.mul(1.5).add(b).sub(0.25).mul(a).add(2).mul(0.5).sub(b).abs().sqrt().add(1);
    const want = Array.from(xs, (x, i) => Math.sqrt(Math.abs(((x * 1.5 + ys[i]! - 0.25) * x + 2) * 0.5 - ys[i]!)) + 1);
    // The structure's plan is made by the first two requests (a template from the second).
    for (let i = 0; i < 2; i++) l.runNodes([nodeOf(chain(da.wrap(xs), da.wrap(ys)))], false);
    const before = heap.stats().allocations;
    for (let i = 0; i < 3; i++) {
      const r = l.runNodes([nodeOf(chain(da.wrap(xs), da.wrap(ys)))], false) as da.StdNdarray;
      expect(Array.from(r.data as Float64Array)).toEqual(want);
    }
    // One block per run: launch block, both sources' copies and the result, all freed at its end.
    expect(heap.stats().allocations - before).toBe(3);
    expect(heap.stats().liveAllocations).toBe(0);
    // The same graph read again keeps its sources' copies, as a source read twice always has.
    const again = chain(da.wrap(xs), da.wrap(ys));
    l.runNodes([nodeOf(again)], false);
    l.runNodes([nodeOf(again)], false);
    expect(heap.stats().liveAllocations).toBe(2);
    const r = l.runNodes([nodeOf(again)], false) as da.StdNdarray;
    expect(Array.from(r.data as Float64Array)).toEqual(want);
  });

  test('a compiled call over one array bound twice copies it once at its first read, and keeps no copy', () => {
    const f = da.compile((x, y) => x.mul(2).add(y), [da.placeholder([1000], 'float64'), da.placeholder([1000], 'float64')]);
    const warm = da.wrap(new Float64Array(1000));
    f.sync(warm, warm);
    const a = da.wrap(new Float64Array(1000).map((_, i) => i));
    const before = da.heapStats();
    const r = f.sync(a, a) as da.StdNdarray;
    expect(Array.from(r.data as Float64Array).slice(0, 4)).toEqual([0, 3, 6, 9]);
    if (da.stats().backend !== 'wasm') return;
    expect(da.heapStats().cachedBytes).toBe(before.cachedBytes);
    expect(da.heapStats().liveAllocations).toBe(before.liveAllocations);
    // Read a second time, it is kept, as any source is from its second read.
    f.sync(a, a);
    expect(da.heapStats().cachedBytes - before.cachedBytes).toBe(8000);
  });

  test('a compiled call reading two windows of one argument, in one kernel or in two, places it once a run and keeps nothing', () => {
    const n = 1001;
    const calls: Array<[da.CompiledFunction, (v: Float64Array) => number[]]> = [
      [da.compile((x) => x.get('1:').sub(x.get(':-1')).mul(x.get('::-1').get('1:')), [da.placeholder([n], 'float64')]),
        (v) => Array.from({ length: n - 1 }, (_, i) => (v[i + 1]! - v[i]!) * v[n - 2 - i]!)],
      [da.compile((x) => x.get('1:').sub(da.mean(x.get(':-1'))), [da.placeholder([n], 'float64')]),
        (v) => { const m = v.slice(0, n - 1).reduce((a, b) => a + b, 0) / (n - 1); return Array.from({ length: n - 1 }, (_, i) => v[i + 1]! - m); }],
    ];
    for (const [f, want] of calls) {
      f.sync(da.wrap(new Float64Array(n)));
      for (let round = 0; round < 3; round++) {
        // A fresh array each call: read once, so the run copies it into its block (once, whatever reads it).
        const v = new Float64Array(n).map((_, i) => Math.cos(i + round) * 100 + i);
        const before = da.heapStats();
        const r = f.sync(da.wrap(v)) as da.StdNdarray;
        const got = Array.from(r.data as Float64Array);
        want(v).forEach((w, i) => expect(got[i]).toBeCloseTo(w, 9));
        if (da.stats().backend !== 'wasm') continue;
        expect(da.heapStats().allocations - before.allocations).toBe(1);
        // The argument's copy once, the result's store, and the launch blocks: not a copy per window.
        expect(da.heapStats().allocatedBytes - before.allocatedBytes).toBeLessThan(8 * n + 8 * (n - 1) + 4096);
        expect(da.heapStats().liveAllocations).toBe(before.liveAllocations);
      }
    }
  });

  test('a kernel that throws midway leaves no block behind', () => {
    const before = da.heapStats().bytesInUse;
    const x = da.array([2, 3, 4], { dtype: 'int32' });
    for (let i = 0; i < 3; i++) expect(() => da.power(x, -1).executeSync()).toThrow(/negative integer powers/);
    x.executeSync(); // x's own cached copy, which the failed runs made too
    expect(da.heapStats().bytesInUse).toBeLessThanOrEqual(before + 64);
  });

  test('results leave as views without a copy, and their blocks return to the heap on release', () => {
    const x = da.array(new Float64Array(4096).map((_, i) => i));
    x.executeSync();
    x.executeSync(); // a source is cached in the heap from its second read
    const before = da.heapStats();
    const [y, s] = da.scopeSync(() => {
      const r = da.executeSync([x.mul(2).add(1), x.mul(2).add(1).sum()]) as da.StdNdarray[];
      // The launch block, the kernel's block (now the first view's) and the sum's block of its own: no copy.
      expect(da.heapStats().allocations - before.allocations).toBe(3);
      expect(da.heapStats().bytesInUse - before.bytesInUse).toBeGreaterThanOrEqual(4096 * 8 + 8);
      expect(da.heapStats().bytesInUse - before.bytesInUse).toBeLessThan(4096 * 8 + 128);
      return r.map((v) => Array.from(v.data as Float64Array));
    });
    expect(y![4095]).toBe(8191);
    expect(s).toEqual([4096 * 4095 + 4096]);
    expect(da.heapStats().bytesInUse).toBe(before.bytesInUse);
  });

  test('execute() of a small graph runs it on the calling thread, as executeSync() does, with the same bits', async () => {
    const x = da.array(new Float32Array(333).map((_, i) => Math.sin(i) * 100));
    const f = (): da.DeferredArray => da.exp(x.mul(0.01)).sub(x).maximum(-3);
    const sync = f().executeSync();
    const async = await f().execute();
    expect(Array.from(async.data as Float32Array)).toEqual(Array.from(sync.data as Float32Array));
  });
});

// The backend keeps its latest lean run for the run's shape (util/keep-shapes.ts); released, it must
// keep none of the values it handed out. A process of its own, which can collect garbage when told.
test('a reduction\'s result and an out the caller dropped are collected, though the backend keeps its latest lean run', () => {
  const script = fileURLToPath(new URL('../../test/fixtures/lean-run-retention.mjs', import.meta.url));
  const r = spawnSync(process.execPath, ['--expose-gc', '--no-warnings', script], { timeout: 60000, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(JSON.parse(r.stdout)).toEqual({ collected: true, outCollected: true });
});
