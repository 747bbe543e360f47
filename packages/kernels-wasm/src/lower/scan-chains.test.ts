// Scans along lines longer than a block, SCAN_CHAINS blocks at a time: each
// block is a piece that accumulates in element order from the starting value
// the launch gives it, so chaining blocks changes no bit. Checked against that
// rule computed in JS, for lines that are the whole space, lines of whole
// blocks (chained) and lines of other lengths (block by block), with the
// groups cut short by the end of the space.
import fc from 'fast-check';
import { compileKernel } from './compile.js';
import type { KInstr, KScan, KType, KernelSpec } from './kernel-spec.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import { instantiate, launch } from './launch.js';
import { noHost, testHeap } from './test-heap.js';
import { VIEW_CONSTRUCTORS } from '../heap/dtypes.js';
import { SCAN_CHAINS, chainsScans } from './emit-scan-chains.js';
import { disassemble } from '../encode/index.js';

/** out = scan(fn, x - 0.5), and out2 = that plus x (a value computed from the running value). */
function chainSpec(t: KType, fn: KScan): KernelSpec {
  const body: KInstr[] = [
    { op: 'load', array: 0, type: t },
    { op: 'const', value: t === 'int32' ? 1 : 0.5, type: t },
    { op: 'binary', fn: 'subtract', args: [0, 1], type: t },
    { op: 'scan', fn, arg: 2, slot: 0, type: t },
    { op: 'store', array: 1, arg: 3, type: t },
    { op: 'binary', fn: 'add', args: [3, 0], type: t },
    { op: 'store', array: 2, arg: 5, type: t },
  ];
  const arr = (role: 'in' | 'out') => ({ dtype: t, role, inner: 'contiguous' as const });
  return { ndim: 1, slots: 1, arrays: [arr('in'), arr('out'), arr('out')], body };
}

/** Per piece: from its starting value, the running value in element order, rounded in the scan's type. */
function expected(t: KType, fn: KScan, xs: readonly number[], starts: Float64Array, pieceIndex: (i: number) => number): [number[], number[]] {
  const round = t === 'float32' ? Math.fround : t === 'int32' ? (v: number) => v | 0 : (v: number) => v;
  const d = t === 'int32' ? 1 : 0.5;
  let acc = 0;
  const out: number[] = [];
  const out2: number[] = [];
  xs.map(round).forEach((x, i) => {
    if (i === 0 || pieceIndex(i) !== pieceIndex(i - 1)) acc = round(starts[pieceIndex(i)]!);
    const v = round(x - d);
    acc = t === 'int32' ? (fn === 'sum' ? (acc + v) | 0 : Math.imul(acc, v)) : round(fn === 'sum' ? acc + v : acc * v);
    out.push(acc);
    out2.push(round(acc + x));
  });
  return [out, out2];
}

function run(t: KType, fn: KScan, xs: readonly number[], segment: number, blockSize: number, starts: (pieces: number) => Float64Array) {
  const heap = testHeap();
  const n = xs.length;
  const bytes = KTYPE_BYTES[t];
  const [a, b, c] = [heap.alloc(n * bytes), heap.alloc(n * bytes), heap.alloc(n * bytes)];
  new VIEW_CONSTRUCTORS[t](heap.memory.buffer, a, n).set(xs);
  const spec = chainSpec(t, fn);
  const compiled = compileKernel(spec);
  const kernel = instantiate(compiled, heap.memory, { hostFunction: noHost });
  const l = { shape: [n], arrays: [{ ptr: a, strides: [1] }, { ptr: b, strides: [1] }, { ptr: c, strides: [1] }], segment, blockSize };
  // A first launch only to learn the pieces, then the launch with starting values.
  const pieces = launch(compiled, heap, kernel, l);
  const initial = starts(pieces.pieces);
  const r = launch(compiled, heap, kernel, { ...l, initial });
  const view = (p: number): number[] => Array.from(new VIEW_CONSTRUCTORS[t](heap.memory.buffer, p, n));
  return { out: [view(b), view(c)], want: expected(t, fn, xs, initial, r.pieceIndex) };
}

describe('chained scans', () => {
  test('a one-axis scan kernel chains blocks; columns, lanes and random arrays do not', () => {
    const spec = chainSpec('float64', 'sum');
    expect(chainsScans(spec, undefined)).toBe(true);
    expect(chainsScans(spec, 'f64x2')).toBe(false);
    expect(chainsScans({ ...spec, ndim: 2 }, undefined)).toBe(false);
    expect(chainsScans({ ...spec, arrays: spec.arrays.map((a, k) => (k === 0 ? { ...a, dtype: 'float64' as const, random: true } : a)) }, undefined)).toBe(false);
    // The claim loop takes a chained kernel's blocks SCAN_CHAINS at a time.
    const text = disassemble(compileKernel(spec).bytes);
    expect(text).toMatch(new RegExp(`i32\\.const ${SCAN_CHAINS}\\s+i32\\.atomic\\.rmw\\.add`));
  });

  test.each(['float64', 'float32', 'int32'] as const)('%s: every piece from its starting value, in element order (fast-check)', (t) => {
    fc.assert(fc.property(
      fc.constantFrom(2, 3, 4, 8),
      fc.integer({ min: 0, max: 14 }),
      fc.integer({ min: 0, max: 7 }),
      fc.constantFrom('whole', 'blocks', 'other'),
      fc.constantFrom<KScan>('sum', 'prod'),
      fc.integer({ min: 1, max: 1e6 }),
      (bs, blocks, extra, lines, fn, seed) => {
        const n = bs * blocks + extra;
        let s = seed;
        const rand = (): number => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
        const xs = Array.from({ length: n }, () => (t === 'int32' ? Math.floor(rand() * 7) - 3 : (rand() - 0.3) * (fn === 'prod' ? 2.5 : 1e3)));
        const segment = lines === 'whole' ? Math.max(1, n) : lines === 'blocks' ? bs * Math.max(1, Math.floor(blocks / 3)) : bs + 1;
        if (n % segment !== 0) return;
        const { out, want } = run(t, fn, xs, segment, bs, (p) => Float64Array.from({ length: p }, () => (t === 'int32' ? Math.floor(rand() * 9) - 4 : rand() * 10 - 5)));
        out.forEach((o, k) => o.forEach((v, i) => { if (!Object.is(v, want[k]![i])) throw new Error(`${t} ${fn} n=${n} bs=${bs} segment=${segment}: output ${k} element ${i} is ${v}, want ${want[k]![i]}`); }));
      },
    ), { numRuns: 60 });
  });

  test('special values run through every chain: NaN, infinities, -0', () => {
    const bs = 4;
    const xs = [0.5, -0, NaN, 1, Infinity, 0.5, -Infinity, 2, 0.5, 0.5, 0.5, 0.5, 1e308, 1e308, -1e308, 0.5, 3, 4, 5];
    for (const fn of ['sum', 'prod'] as const) {
      const { out, want } = run('float64', fn, xs, xs.length, bs, (p) => Float64Array.from({ length: p }, (_, i) => [0, -0, 1, -1, 2][i % 5]!));
      expect(out).toEqual(want);
    }
  });
});
