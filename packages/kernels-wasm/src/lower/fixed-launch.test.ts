// runFixed's drain (fixed-launch.ts): a kernel run a few blocks at a time,
// its output array's address moved onto a scratch block for each call, gives
// the bits and partials of one call over the whole array; arrays that are
// not outputs in the blocks' own order are refused.
import { compileKernel } from './compile.js';
import type { KType, KernelSpec } from './kernel-spec.js';
import { instantiate, launch } from './launch.js';
import type { Launch } from './launch.js';
import { drainBytes, fixLaunch, runFixed } from './fixed-launch.js';
import { noHost, testHeap } from './test-heap.js';
import { VIEW_CONSTRUCTORS } from '../heap/dtypes.js';

/** out = a * 3 + b over `ndim` axes, and the sum of out in slot 0: arrays a, b, out. */
const spec = (t: KType, ndim: number): KernelSpec => ({
  ndim,
  arrays: [{ dtype: t, role: 'in', inner: 'contiguous' }, { dtype: t, role: 'in', inner: 'contiguous' }, { dtype: t, role: 'out', inner: 'contiguous' }],
  body: [
    { op: 'load', array: 0, type: t },
    { op: 'const', value: 3, type: t },
    { op: 'binary', fn: 'multiply', args: [0, 1], type: t },
    { op: 'load', array: 1, type: t },
    { op: 'binary', fn: 'add', args: [2, 3], type: t },
    { op: 'store', array: 2, arg: 4, type: t },
    { op: 'reduce', fn: 'sum', arg: 4, slot: 0, type: t },
  ],
  slots: 1,
});

const rowMajor = (shape: readonly number[]): number[] => shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));

/**
 * The kernel run once whole and once drained `blocks` blocks at a time into a
 * scratch block, the drained values gathered by `take` into an array of their
 * own; both outputs and both partials.
 */
function both(t: KType, shape: number[], blockSize: number, blocks: number) {
  const heap = testHeap();
  const total = shape.reduce((p, q) => p * q, 1);
  const View = VIEW_CONSTRUCTORS[t] as Float64ArrayConstructor;
  const bytes = View.BYTES_PER_ELEMENT;
  const put = (f: (i: number) => number): number => {
    const p = heap.alloc(Math.max(1, total) * bytes);
    new View(heap.memory.buffer, p, total).set(Array.from({ length: total }, (_, i) => f(i)));
    return p;
  };
  const a = put((i) => (i % 17) - 8.5);
  const b = put((i) => (i % 5) * 0.25);
  const whole = heap.alloc(Math.max(1, total) * bytes);
  const compiled = compileKernel(spec(t, shape.length));
  const l: Launch = { shape, arrays: [0, 1, 2].map(() => ({ ptr: 0, strides: rowMajor(shape) })), blockSize };
  const fixed = fixLaunch(compiled, l);
  const kernel = instantiate(compiled, heap.memory, { hostFunction: noHost });
  const plain = runFixed(fixed, heap.memory, kernel, heap.alloc(fixed.bytes), [a, b, whole]);
  const scratch = heap.alloc(drainBytes(fixed, blocks, 2));
  const drained = new View(total);
  const calls: [number, number][] = [];
  const take = (from: number, to: number): void => {
    calls.push([from, to]);
    drained.set(new View(heap.memory.buffer, scratch, to - from), from);
  };
  const viaScratch = runFixed(fixed, heap.memory, kernel, heap.alloc(fixed.bytes), [a, b, 0], undefined, { array: 2, scratch, blocks, take });
  return { whole: new View(heap.memory.buffer, whole, total).slice(), drained, calls, plain, viaScratch, fixed };
}

describe('runFixed with a drain', () => {
  test.each([
    ['float64', [1000], 64, 1],
    ['float64', [1001], 64, 3],
    ['float32', [7, 33], 16, 2],
    ['int32', [3, 4, 50], 40, 1],
    ['float64', [64], 64, 1],
  ] as [KType, number[], number, number][])('%s %j, blocks of %i drained %i at a time: the same bits and partials as one call', (t, shape, blockSize, blocks) => {
    const r = both(t, shape, blockSize, blocks);
    expect(Array.from(r.drained)).toEqual(Array.from(r.whole));
    expect(Array.from(r.viaScratch.partials)).toEqual(Array.from(r.plain.partials));
    // Each call's elements in order, the last run short where the total is not a whole number of blocks.
    const total = shape.reduce((p, q) => p * q, 1);
    const runs = Math.ceil(Math.ceil(total / blockSize) / blocks);
    expect(r.calls).toHaveLength(runs);
    expect(r.calls[0]).toEqual([0, Math.min(total, blocks * blockSize)]);
    expect(r.calls.at(-1)![1]).toBe(total);
    // The scratch holds one call's values, not the array.
    expect(drainBytes(r.fixed, blocks, 2)).toBe(Math.min(total, blocks * blockSize) * (VIEW_CONSTRUCTORS[t] as Float64ArrayConstructor).BYTES_PER_ELEMENT);
  });

  test('refuses an input, and an output not in the blocks\' order', () => {
    const compiled = compileKernel(spec('float64', 2));
    const heap = testHeap();
    const transposed: Launch = { shape: [4, 6], arrays: [{ ptr: 0, strides: [6, 1] }, { ptr: 0, strides: [6, 1] }, { ptr: 0, strides: [1, 4] }], blockSize: 8 };
    const fixed = fixLaunch(compiled, transposed);
    expect(fixed.drainable).toEqual([false, false, false]);
    const kernel = instantiate(compiled, heap.memory, { hostFunction: noHost });
    const run = (array: number) => runFixed(fixed, heap.memory, kernel, heap.alloc(fixed.bytes), [0, 0, 0], undefined, { array, scratch: heap.alloc(64 * 8), blocks: 1, take: () => {} });
    expect(() => run(2)).toThrow(/array 2 cannot be drained/);
    expect(() => run(0)).toThrow(/array 0 cannot be drained/);
  });
});

describe('fixLaunch with a gathered array', () => {
  // out[i, j] = x[wrap(idx[i]), j] * 2, x's rows stored last first (a negative row stride).
  const gatherSpec: KernelSpec = {
    ndim: 2, slots: 1,
    arrays: [
      { dtype: 'int32', role: 'in', inner: 'broadcast' },
      { dtype: 'float64', role: 'in', inner: 'contiguous', gathered: true },
      { dtype: 'float64', role: 'out', inner: 'contiguous' },
    ],
    body: [
      { op: 'load', array: 0, type: 'int32' },
      { op: 'gather', array: 1, index: 0, mode: 'wrap', type: 'float64' },
      { op: 'const', value: 2, type: 'float64' },
      { op: 'binary', fn: 'multiply', args: [1, 2], type: 'float64' },
      { op: 'store', array: 2, arg: 3, type: 'float64' },
      { op: 'reduce', fn: 'sum', arg: 3, slot: 0, type: 'float64' },
    ],
  };
  const [rows, width] = [5, 3];

  test('writes the taken axis into its image: each run, at new addresses, gives what launch() gives', () => {
    const heap = testHeap();
    const compiled = compileKernel(gatherSpec);
    const kernel = instantiate(compiled, heap.memory, { hostFunction: noHost });
    const layout = (ptrs: readonly number[]): Launch => ({
      shape: [4, width], blockSize: 4,
      arrays: [
        { ptr: ptrs[0]!, strides: [1, 0] },
        { ptr: ptrs[1]! + (rows - 1) * width * 8, strides: [0, 1], gather: { length: rows, stride: -width } },
        { ptr: ptrs[2]!, strides: [width, 1] },
      ],
    });
    const fixed = fixLaunch(compiled, layout([0, 0, 0]));
    for (const [shift, idx] of [[0, [0, 4, -1, 7]], [0.25, [3, -6, 2, 1]]] as [number, number[]][]) {
      const i = heap.alloc(16);
      new Int32Array(heap.memory.buffer, i, 4).set(idx);
      const x = heap.alloc(rows * width * 8);
      heap.f64(x, rows * width).set(Array.from({ length: rows * width }, (_, k) => k + shift));
      const [viaLaunch, viaFixed] = [heap.alloc(4 * width * 8), heap.alloc(4 * width * 8)];
      const want = launch(compiled, heap, kernel, layout([i, x, viaLaunch]));
      // The fixed launch is given x's first byte, as every array: its gathered axis walks back from the last row.
      const got = runFixed(fixed, heap.memory, kernel, heap.alloc(fixed.bytes), [i, x + (rows - 1) * width * 8, viaFixed]);
      expect(Array.from(heap.f64(viaFixed, 4 * width))).toEqual(Array.from(heap.f64(viaLaunch, 4 * width)));
      expect(Array.from(got.partials)).toEqual(Array.from(want.partials));
      // Row wrap(idx[0]) of x, stored last first: x's row rows - 1 - r.
      expect(heap.f64(viaFixed, 1)[0]).toBe(2 * ((rows - 1 - ((idx[0]! % rows) + rows) % rows) * width + shift));
    }
  });
});
