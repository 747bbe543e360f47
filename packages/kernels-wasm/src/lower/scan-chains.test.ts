// Scans along lines longer than a block, a group of blocks at a time
// (emit-scan-chains.ts). Each block is a piece that accumulates in element
// order from its starting value. A kernel without host functions finds the
// starting values itself: each block's total from the identity, combined in
// block order from the line's start. One with host functions takes them from
// the launch. Both are checked against those rules computed in JS, for lines
// that are the whole space, lines of whole blocks and lines of other lengths
// (then block by block, from the launch's values), with groups cut short by
// the end of the space.
import fc from 'fast-check';
import { compileKernel } from './compile.js';
import type { KInstr, KScan, KType, KernelSpec } from './kernel-spec.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import { finishLaunch, instantiate, launch, prepareLaunch, scanLooksBack, stopClaims } from './launch.js';
import type { KernelFn } from './launch.js';
import { noHost, testHeap } from './test-heap.js';
import { VIEW_CONSTRUCTORS } from '../heap/dtypes.js';
import { SCAN_CHAINS, chainsScans } from './emit-scan-chains.js';
import { disassemble } from '../encode/index.js';
import { Worker } from 'node:worker_threads';

/** out = scan(fn, f(x)) and out2 = that plus x, where f(x) is x - d, or with `host` x ** 2 (int32: a host function). */
function chainSpec(t: KType, fn: KScan, host = false): KernelSpec {
  const body: KInstr[] = [
    { op: 'load', array: 0, type: t },
    { op: 'const', value: host ? 2 : t === 'int32' ? 1 : 0.5, type: t },
    { op: 'binary', fn: host ? 'power' : 'subtract', args: [0, 1], type: t },
    { op: 'scan', fn, arg: 2, slot: 0, type: t },
    { op: 'store', array: 1, arg: 3, type: t },
    { op: 'binary', fn: 'add', args: [3, 0], type: t },
    { op: 'store', array: 2, arg: 5, type: t },
  ];
  const arr = (role: 'in' | 'out') => ({ dtype: t, role, inner: 'contiguous' as const });
  return { ndim: 1, slots: 1, arrays: [arr('in'), arr('out'), arr('out')], body };
}

/** a ** b wrapped to int32 (b >= 0 here), integer power's host function. */
const intPower = (a: number, b: number): number => { let r = 1; for (let e = 0; e < b; e++) r = Math.imul(r, a); return r; };

function rules(t: KType, fn: KScan, host: boolean) {
  const round = t === 'float32' ? Math.fround : t === 'int32' ? (v: number) => v | 0 : (v: number) => v;
  const combine = (acc: number, v: number): number => (t === 'int32' ? (fn === 'sum' ? (acc + v) | 0 : Math.imul(acc, v)) : round(fn === 'sum' ? acc + v : acc * v));
  const f = (x: number): number => (host ? round(intPower(x, 2)) : round(x - (t === 'int32' ? 1 : 0.5)));
  return { round, combine, f, id: fn === 'sum' ? 0 : 1 };
}

/**
 * What the kernel must produce: each piece from its start (given, or found by
 * the look-back rule: the blocks' totals combined in block order from the
 * line's start), in element order.
 */
function expected(t: KType, fn: KScan, host: boolean, xs: readonly number[], segment: number, bs: number, given?: Float64Array): [number[], number[]] {
  const { round, combine, f, id } = rules(t, fn, host);
  const x = xs.map(round);
  const n = x.length;
  const out: number[] = [];
  const out2: number[] = [];
  let before = id;
  for (let b = 0; b * bs < n; b++) {
    const [lo, hi] = [b * bs, Math.min((b + 1) * bs, n)];
    if (lo % segment === 0) before = id;
    let start = before;
    if (given) start = round(given[b]!);
    let total = id;
    for (let i = lo; i < hi; i++) total = combine(total, f(x[i]!));
    before = combine(before, total);
    let acc = start;
    for (let i = lo; i < hi; i++) {
      acc = combine(acc, f(x[i]!));
      out.push(acc);
      out2.push(round(acc + x[i]!));
    }
  }
  return [out, out2];
}

function run(t: KType, fn: KScan, host: boolean, xs: readonly number[], segment: number, bs: number, given?: (pieces: number) => Float64Array) {
  const heap = testHeap();
  const n = xs.length;
  const bytes = KTYPE_BYTES[t];
  const [a, b, c] = [heap.alloc(n * bytes), heap.alloc(n * bytes), heap.alloc(n * bytes)];
  new (VIEW_CONSTRUCTORS[t] as Float64ArrayConstructor)(heap.memory.buffer, a, n).set(xs);
  const compiled = compileKernel(chainSpec(t, fn, host));
  const kernel = instantiate(compiled, heap.memory, { hostFunction: host ? () => intPower : noHost });
  const l = { shape: [n], arrays: [{ ptr: a, strides: [1] }, { ptr: b, strides: [1] }, { ptr: c, strides: [1] }], segment, blockSize: bs };
  // A launch without starting values first, to learn how many pieces the launch cuts.
  const initial = given?.(launch(compiled, heap, kernel, l).pieces);
  launch(compiled, heap, kernel, initial ? { ...l, initial } : l);
  const view = (p: number): number[] => Array.from(new (VIEW_CONSTRUCTORS[t] as Float64ArrayConstructor)(heap.memory.buffer, p, n));
  return { out: [view(b), view(c)], looksBack: scanLooksBack(compiled, l) };
}

const lcg = (seed: number): (() => number) => {
  let s = seed;
  return () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
};

const check = (got: number[][], want: number[][], what: string): void => {
  got.forEach((o, k) => o.forEach((v, i) => { if (!Object.is(v, want[k]![i])) throw new Error(`${what}: output ${k} element ${i} is ${v}, want ${want[k]![i]}`); }));
};

describe('scans in groups of blocks', () => {
  test('a one-axis scan kernel runs in groups; columns, lanes, random arrays and scans of scans do not', () => {
    const spec = chainSpec('float64', 'sum');
    expect(chainsScans(spec, undefined)).toBe(true);
    expect(chainsScans(spec, 'f64x2')).toBe(false);
    expect(chainsScans({ ...spec, ndim: 2 }, undefined)).toBe(false);
    expect(chainsScans({ ...spec, arrays: spec.arrays.map((a, k) => (k === 0 ? { ...a, random: true } : a)) }, undefined)).toBe(false);
    expect(chainsScans({ ...spec, slots: 2, body: [...spec.body, { op: 'scan', fn: 'sum', arg: 3, slot: 1, type: 'float64' }] }, undefined)).toBe(false);
    const compiled = compileKernel(spec);
    expect(compiled.claimGroup).toBe(SCAN_CHAINS);
    expect(compiled.scanLookBack).toBe(true);
    // The claim loop takes SCAN_CHAINS blocks at a time; with a host function the kernel does not look back.
    expect(disassemble(compiled.bytes)).toMatch(new RegExp(`i32\\.const ${SCAN_CHAINS}\\s+i32\\.atomic\\.rmw\\.add`));
    expect(compileKernel(chainSpec('int32', 'sum', true)).scanLookBack).toBe(false);
  });

  test.each(['float64', 'float32', 'int32'] as const)('%s: the look-back\'s starts and every piece in element order (fast-check)', (t) => {
    fc.assert(fc.property(
      fc.constantFrom(2, 3, 4, 8), fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 7 }),
      fc.constantFrom('whole', 'blocks', 'other'), fc.constantFrom<KScan>('sum', 'prod'), fc.integer({ min: 1, max: 1e6 }),
      (bs, blocks, extra, lines, fn, seed) => {
        const n = bs * blocks + extra;
        const rand = lcg(seed);
        const xs = Array.from({ length: n }, () => (t === 'int32' ? Math.floor(rand() * 7) - 2 : fn === 'prod' ? 0.7 + rand() : (rand() - 0.3) * 1e3));
        const segment = lines === 'whole' ? Math.max(1, n) : lines === 'blocks' ? bs * Math.max(1, Math.floor(blocks / 3)) : bs + 1;
        if (n % segment !== 0) return;
        // Where blocks are not pieces, the launch gives each piece's start (here: each line from the identity).
        // Lines no longer than a block start from the identity in every block: no look-back either.
        const onePiece = n > 0 && (segment === n || segment % bs === 0);
        const r = run(t, fn, false, xs, segment, bs, onePiece ? undefined : (p) => new Float64Array(p).fill(fn === 'sum' ? 0 : 1));
        expect(r.looksBack).toBe(onePiece && segment > bs);
        if (onePiece) check(r.out, expected(t, fn, false, xs, segment, bs), `${t} ${fn} n=${n} bs=${bs} segment=${segment}`);
      },
    ), { numRuns: 60 });
  });

  test('with a host function, the launch gives each block\'s start, and groups of full blocks still run chained', () => {
    fc.assert(fc.property(fc.constantFrom(2, 4, 8), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 1, max: 1e6 }),
      (bs, blocks, extra, seed) => {
        const n = bs * blocks + extra;
        if (n === 0) return;
        const rand = lcg(seed);
        const xs = Array.from({ length: n }, () => Math.floor(rand() * 100 - 30));
        const given = Float64Array.from({ length: Math.ceil(n / bs) }, () => Math.floor(rand() * 10 - 5));
        const r = run('int32', 'sum', true, xs, n, bs, () => given);
        expect(r.looksBack).toBe(false);
        check(r.out, expected('int32', 'sum', true, xs, n, bs, given), `host n=${n} bs=${bs}`);
      }), { numRuns: 40 });
  });

  test('special values through every chain and every start: NaN, infinities, -0, overflow', () => {
    const xs = [0.5, -0, NaN, 1, Infinity, 0.5, -Infinity, 2, 0.5, 0.5, 0.5, 0.5, 1e308, 1e308, -1e308, 0.5, 3, 4, 5, 0.5, 0.5];
    for (const fn of ['sum', 'prod'] as const) {
      const r = run('float64', fn, false, xs, xs.length, 4);
      expect(r.out).toEqual(expected('float64', fn, false, xs, xs.length, 4));
    }
  });

  test('a group waits for the group before it to publish, when another thread runs that one', async () => {
    const heap = testHeap();
    const [bs, n] = [4, 32];
    const xs = Array.from({ length: n }, (_, i) => Math.sin(i) * 100);
    const [a, b, c] = [heap.alloc(n * 8), heap.alloc(n * 8), heap.alloc(n * 8)];
    new Float64Array(heap.memory.buffer, a, n).set(xs);
    const compiled = compileKernel(chainSpec('float64', 'sum'));
    const p = prepareLaunch(compiled, heap, { shape: [n], arrays: [{ ptr: a, strides: [1] }, { ptr: b, strides: [1] }, { ptr: c, strides: [1] }], blockSize: bs });
    expect(p.lookBack).toBe(true);
    // Blocks [4, 8) start at once, on one worker; blocks [0, 4), on another, only 200 ms later: the
    // first group's starts are the identity until then, so a group that did not wait scans wrong.
    const run = (from: number, to: number, delayMs: number): Promise<void> => new Promise((resolve, reject) => {
      const w = new Worker(`
        const { workerData, parentPort } = require('node:worker_threads');
        (async () => {
          const { instantiate } = await import(workerData.dist);
          const fn = instantiate(workerData.compiled, workerData.memory, { hostFunction: () => { throw new Error('no host function'); } });
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.delayMs);
          fn(workerData.args, workerData.from, workerData.to);
          parentPort.postMessage('done');
        })().catch((e) => { throw e; });`, {
        eval: true,
        workerData: { dist: new URL('../../dist/index.js', import.meta.url).href, compiled, memory: heap.memory, args: p.argsPtr, from, to, delayMs },
      });
      w.once('message', () => resolve());
      w.once('error', reject);
    });
    const late = setTimeout(() => stopClaims(heap.memory, p.argsPtr), 20_000);
    try {
      await Promise.all([run(4, 8, 0), run(0, 4, 200)]);
    } finally {
      clearTimeout(late);
    }
    finishLaunch(p, heap, true);
    const out = [b, c].map((ptr) => Array.from(new Float64Array(heap.memory.buffer, ptr, n)));
    check(out, expected('float64', 'sum', false, xs, n, bs), 'two threads');
  }, 30_000);

  test('a looking-back launch takes no initial values, and a group waiting on a failed launch gives up', () => {
    expect(() => run('float64', 'sum', false, [1, 2, 3, 4], 4, 2, () => new Float64Array(2))).toThrow(/takes no initial values/);
    const heap = testHeap();
    const n = 64;
    const [a, b, c] = [heap.alloc(n * 8), heap.alloc(n * 8), heap.alloc(n * 8)];
    const compiled = compileKernel(chainSpec('float64', 'sum'));
    const kernel: KernelFn = instantiate(compiled, heap.memory, { hostFunction: noHost });
    const p = prepareLaunch(compiled, heap, { shape: [n], arrays: [{ ptr: a, strides: [1] }, { ptr: b, strides: [1] }, { ptr: c, strides: [1] }], blockSize: 4 });
    // Blocks 4-7 wait on blocks 0-3, which no thread will run: once the claims are stopped, the wait ends.
    stopClaims(heap.memory, p.argsPtr);
    kernel(p.argsPtr, 4, 8);
    finishLaunch(p, heap, false);
  });
});
