// Scan kernels: a running sum or product along each run of `segment`
// elements, stored element by element. A run cut into pieces at block
// boundaries goes on from the starting value the launch gives each piece; the
// caller gets those from a reduction over the same pieces first.
import { compileKernel } from './compile.js';
import type { KInstr, KScan, KType, KernelSpec } from './kernel-spec.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import { instantiate, launch, scanLooksBack } from './launch.js';
import type { LaunchResult } from './launch.js';
import { noHost, testHeap } from './test-heap.js';
import { validateSpec } from './validate-spec.js';
import { VIEW_CONSTRUCTORS } from '../heap/dtypes.js';

/** out = scan(fn, x * 2) along runs; or, with `reduce`, the same runs reduced (no store). */
function scanSpec(t: KType, fn: KScan, reduce = false): KernelSpec {
  const body: KInstr[] = [
    { op: 'load', array: 0, type: t },
    { op: 'const', value: 2, type: t },
    { op: 'binary', fn: 'multiply', args: [0, 1], type: t },
    reduce ? { op: 'reduce', fn, arg: 2, slot: 0, type: t } : { op: 'scan', fn, arg: 2, slot: 0, type: t },
  ];
  if (!reduce) body.push({ op: 'store', array: 1, arg: 3, type: t });
  return { ndim: 1, slots: 1, arrays: [{ dtype: t, role: 'in', inner: 'contiguous' }, { dtype: t, role: 'out', inner: 'contiguous' }], body };
}

function runOnce(spec: KernelSpec, values: number[], segment: number, blockSize: number, initial?: Float64Array): { out: number[]; r: LaunchResult } {
  const heap = testHeap();
  const t = spec.arrays[0]!.dtype;
  const n = values.length;
  const [a, b] = [heap.alloc(n * KTYPE_BYTES[t]), heap.alloc(n * KTYPE_BYTES[t])];
  new (VIEW_CONSTRUCTORS[t] as Float64ArrayConstructor)(heap.memory.buffer, a, n).set(values);
  const compiled = compileKernel(spec);
  const fn = instantiate(compiled, heap.memory, { hostFunction: noHost });
  const r = launch(compiled, heap, fn, {
    shape: [n], arrays: [{ ptr: a, strides: [1] }, { ptr: b, strides: [1] }], segment, blockSize, ...(initial ? { initial } : {}),
  });
  return { out: Array.from(new (VIEW_CONSTRUCTORS[t] as Float64ArrayConstructor)(heap.memory.buffer, b, n)), r };
}

/**
 * The two launches: piece totals, then each piece from the running value
 * before it; or one, where the scan finds those values itself (each block is
 * one piece: scan-chains.test.ts).
 */
function twoPhase(t: KType, fn: KScan, values: number[], segment: number, blockSize: number): number[] {
  if (scanLooksBack(compileKernel(scanSpec(t, fn)), { shape: [values.length], segment, blockSize })) return runOnce(scanSpec(t, fn), values, segment, blockSize).out;
  const totals = runOnce(scanSpec(t, fn, true), values, segment, blockSize).r;
  const initial = new Float64Array(totals.pieces);
  const round = t === 'float32' ? Math.fround : (x: number) => x;
  for (let run = 0; run * segment < values.length; run++) {
    const first = totals.pieceIndex(run * segment);
    const end = (run + 1) * segment < values.length ? totals.pieceIndex((run + 1) * segment) : totals.pieces;
    let acc = fn === 'sum' ? 0 : 1;
    for (let p = first; p < end; p++) {
      initial[p] = acc;
      acc = round(fn === 'sum' ? acc + totals.partials[p]! : acc * totals.partials[p]!);
    }
  }
  return runOnce(scanSpec(t, fn), values, segment, blockSize, initial).out;
}

/** The running values of x * 2 along each run, one element after another. */
function sequential(t: KType, fn: KScan, values: number[], segment: number): number[] {
  const round = t === 'float32' ? Math.fround : (x: number) => x;
  let acc = 0;
  return values.map((x, i) => {
    if (i % segment === 0) acc = fn === 'sum' ? 0 : 1;
    acc = round(fn === 'sum' ? acc + round(x * 2) : acc * round(x * 2));
    return acc;
  });
}

describe('scan kernels', () => {
  const values = Array.from({ length: 100 }, (_, i) => ((i * 37) % 11) - 4);

  test.each([
    ['runs inside blocks', 10, 20],
    ['runs across blocks', 25, 7],
    ['one run over many blocks', 100, 16],
    ['runs of one element', 1, 16],
  ])('%s: each piece goes on from the running value before it', (_, segment, blockSize) => {
    for (const t of ['float64', 'float32', 'int32'] as const) {
      // Integer-valued sums are exact in every type here, so cutting runs into pieces changes nothing.
      expect(twoPhase(t, 'sum', values, segment, blockSize)).toEqual(sequential(t, 'sum', values, segment));
    }
    const small = values.map((x) => (x % 3) + 1);
    expect(twoPhase('float64', 'prod', small, segment, blockSize)).toEqual(sequential('float64', 'prod', small, segment));
  });

  test('without initial values every piece starts from the identity, unless the kernel finds the starts itself', () => {
    const { out } = runOnce(scanSpec('float64', 'sum'), values.slice(0, 12), 6, 5);
    // Runs of 6 in blocks of 5: pieces [0, 5), [5, 6), [6, 10), [10, 12), each from 0.
    const piece = (lo: number, hi: number) => sequential('float64', 'sum', values.slice(lo, hi), hi - lo);
    expect(out).toEqual([...piece(0, 5), ...piece(5, 6), ...piece(6, 10), ...piece(10, 12)]);
    // Where each block is one piece the kernel finds the starts itself: one run of 12, whole.
    expect(runOnce(scanSpec('float64', 'sum'), values.slice(0, 12), 12, 5).out).toEqual(sequential('float64', 'sum', values.slice(0, 12), 12));
    expect(runOnce(scanSpec('float64', 'prod'), [3, 3, 3], 3, 16).out).toEqual([6, 36, 216]);
  });

  test('a float32 scan rounds at every step, in float32', () => {
    const xs = [0.1, 0.2, 0.3, 1e8, 0.7, -1e8, 0.25];
    const { out } = runOnce(scanSpec('float32', 'sum'), xs, xs.length, 16);
    expect(out).toEqual(sequential('float32', 'sum', xs.map(Math.fround), xs.length));
  });

  test('a narrow integer\'s running sum wraps at every step, as stored values would', () => {
    // scan sum of int8 [100, 100, 1], and whether each running value is > 0.
    const spec: KernelSpec = {
      ndim: 1, slots: 1,
      arrays: [{ dtype: 'int8', role: 'in', inner: 'contiguous' }, { dtype: 'int8', role: 'out', inner: 'contiguous' }, { dtype: 'bool', role: 'out', inner: 'contiguous' }],
      body: [
        { op: 'load', array: 0, type: 'int8' },
        { op: 'scan', fn: 'sum', arg: 0, slot: 0, type: 'int8' },
        { op: 'store', array: 1, arg: 1, type: 'int8' },
        { op: 'const', value: 0, type: 'int8' },
        { op: 'binary', fn: 'greater', args: [1, 3], type: 'bool' },
        { op: 'store', array: 2, arg: 4, type: 'bool' },
      ],
    };
    const heap = testHeap();
    const [a, b, c] = [heap.alloc(3), heap.alloc(3), heap.alloc(3)];
    new Int8Array(heap.memory.buffer, a, 3).set([100, 100, 1]);
    const compiled = compileKernel(spec);
    const r = launch(compiled, heap, instantiate(compiled, heap.memory, { hostFunction: noHost }), {
      shape: [3], arrays: [{ ptr: a, strides: [1] }, { ptr: b, strides: [1] }, { ptr: c, strides: [1] }],
    });
    expect(Array.from(new Int8Array(heap.memory.buffer, b, 3))).toEqual([100, -56, -55]);
    expect(Array.from(new Uint8Array(heap.memory.buffer, c, 3))).toEqual([1, 0, 0]);
    expect(r.partials.length).toBe(1);
    // The same as a reduction: its partial is the wrapped sum.
    const totals = runOnce({ ...scanSpec('int8', 'sum', true), body: [{ op: 'load', array: 0, type: 'int8' }, { op: 'reduce', fn: 'sum', arg: 0, slot: 0, type: 'int8' }] },
      [100, 100, 1], 3, 16);
    expect(Array.from(totals.r.partials)).toEqual([-55]);
  });

  test('row scans run the scalar loop, and the spec is checked', () => {
    expect(compileKernel(scanSpec('float64', 'sum')).lanes).toBeUndefined();
    const bad = (change: (s: KernelSpec) => KernelSpec, why: RegExp): void => {
      expect(() => validateSpec(change(scanSpec('float64', 'sum')))).toThrow(why);
    };
    bad((s) => ({ ...s, body: s.body.map((i) => (i.op === 'scan' ? { ...i, fn: 'max' as KScan } : i)) }), /scans are sums or products/);
    bad((s) => ({ ...s, slots: 0 }), /slot 0 is outside/);
    bad((s) => ({ ...s, temps: [] }), /without a contraction or temporaries/);
    expect(() => runOnce(scanSpec('float64', 'sum'), [1, 2, 3, 4, 5, 6], 3, 2, new Float64Array(5))).toThrow(/initial holds 5 values; the kernel's 4 pieces/);
    expect(() => runOnce(scanSpec('float64', 'sum', true), [1, 2, 3], 3, 2, new Float64Array(2))).toThrow(/no scan/);
  });
});
