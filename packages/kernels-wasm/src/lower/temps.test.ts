import { compileKernel } from './compile.js';
import type { KType, KernelSpec, TempSpec } from './kernel-spec.js';
import { disassembleFunction } from '../encode/index.js';
import { instantiate, launch } from './launch.js';
import type { Launch, TempLaunch } from './launch.js';
import { noHost, testHeap } from './test-heap.js';
import { VIEW_CONSTRUCTORS } from '../heap/dtypes.js';

/** The temporary t = a * a + 1 over its own space of `ndim` axes (array 0 in, array 1 out). */
const square1 = (t: KType, ndim: number, inner: 'contiguous' | 'strided' = 'contiguous'): TempSpec => ({
  array: 1,
  out: 1,
  kernel: {
    ndim,
    arrays: [{ dtype: t, role: 'in', inner }, { dtype: t, role: 'out', inner: 'contiguous' }],
    body: [
      { op: 'load', array: 0, type: t },
      { op: 'binary', fn: 'multiply', args: [0, 0], type: t },
      { op: 'const', value: 1, type: t },
      { op: 'binary', fn: 'add', args: [1, 2], type: t },
      { op: 'store', array: 1, arg: 3, type: t },
    ],
    slots: 0,
  },
});

/** out = x * tmp over a space of `ndim` axes; arrays: x, tmp (read by strides), out. */
const scaleBy = (t: KType, ndim: number, tmpInner: 'contiguous' | 'broadcast' | 'strided', temp: TempSpec): KernelSpec => ({
  ndim,
  arrays: [{ dtype: t, role: 'in', inner: 'contiguous' }, { dtype: t, role: 'in', inner: tmpInner }, { dtype: t, role: 'out', inner: 'contiguous' }],
  body: [
    { op: 'load', array: 0, type: t },
    { op: 'load', array: 1, type: t },
    { op: 'binary', fn: 'multiply', args: [0, 1], type: t },
    { op: 'store', array: 2, arg: 2, type: t },
  ],
  slots: 0,
  temps: [temp],
});

const rowMajor = (shape: readonly number[]): number[] => shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));

/**
 * Runs out = x * (a*a + 1) with a (of `tshape`) pinned and read through
 * `tstrides` over the row-major space `shape`; returns out and the launch result.
 */
function runScale(t: KType, shape: number[], tshape: number[], tstrides: number[], blockSize?: number) {
  const heap = testHeap();
  const total = shape.reduce((p, q) => p * q, 1);
  const tsize = tshape.reduce((p, q) => p * q, 1);
  const x = Array.from({ length: total }, (_, i) => (i % 13) - 4);
  const a = Array.from({ length: tsize }, (_, i) => (i % 7) - 3.5);
  const put = (values: number[]): number => {
    const p = heap.alloc(Math.max(1, values.length) * 8);
    new (VIEW_CONSTRUCTORS[t] as Float64ArrayConstructor)(heap.memory.buffer, p, values.length).set(values);
    return p;
  };
  const [xp, ap, outp] = [put(x), put(a), heap.alloc(Math.max(1, total) * 8)];
  const spec = scaleBy(t, shape.length, tstrides.at(-1) === 0 ? 'broadcast' : tstrides.at(-1) === 1 ? 'contiguous' : 'strided', square1(t, tshape.length));
  const compiled = compileKernel(spec);
  const temps: TempLaunch[] = [{ shape: tshape, arrays: [{ ptr: ap, strides: rowMajor(tshape) }, { ptr: 0, strides: rowMajor(tshape) }] }];
  const l: Launch = { shape, arrays: [{ ptr: xp, strides: rowMajor(shape) }, { ptr: 0, strides: tstrides }, { ptr: outp, strides: rowMajor(shape) }], temps, ...(blockSize ? { blockSize } : {}) };
  const r = launch(compiled, heap, instantiate(compiled, heap.memory, { hostFunction: noHost }), l);
  const out = Array.from(new (VIEW_CONSTRUCTORS[t] as Float64ArrayConstructor)(heap.memory.buffer, outp, total));
  const round = t === 'float32' ? Math.fround : (v: number): number => v;
  const expected = x.map((v, i) => {
    let rest = i;
    let at = 0;
    for (let d = shape.length - 1; d >= 0; d--) { at += (rest % shape[d]!) * tstrides[d]!; rest = Math.floor(rest / shape[d]!); }
    return round(v * round(round(a[at]! * a[at]!) + 1));
  });
  return { out, expected, r, compiled, heap };
}

describe('pinned temporaries: computed per block into scratch, read like any input', () => {
  test.each([
    ['a row broadcast into several rows per block', [9, 5], [5], [0, 1], 7],
    ['a row broadcast, rows longer than a block', [3, 37], [37], [0, 1], 8],
    ['a column broadcast', [9, 5], [9], [1, 0], 7],
    ['the same shape as the space', [23], [23], [1], 4],
    ['the same shape, 2-d, one block', [4, 6], [4, 6], [6, 1], undefined],
    ['a transposed read', [5, 6], [6, 5], [1, 5], 7],
  ] as const)('%s (float64 and float32)', (_, shape, tshape, tstrides, blockSize) => {
    for (const t of ['float64', 'float32'] as const) {
      const { out, expected } = runScale(t, [...shape], [...tshape], [...tstrides], blockSize);
      expect(out).toEqual(expected);
    }
  });

  test('lengths around the SIMD width and an empty space', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 7, 8, 9, 17]) {
      const { out, expected } = runScale('float64', [3, n], [n], [0, 1], 5);
      expect(out).toEqual(expected);
    }
  });

  test('the temporary is a function of the module: temp0 computes it, the block loop calls it', () => {
    const { compiled } = runScale('float64', [9, 5], [5], [0, 1], 7);
    const text = disassembleFunction(compiled.bytes, 'kernel');
    expect(text).toMatch(/call \$temp0/);
    expect(compiled.hash).toContain('"temps"');
  });

  test('a contraction epilogue reads a pinned temporary', () => {
    const heap = testHeap();
    // C = A (2x3) @ B (3x4); out = C * (v*v + 1), v of length 4 broadcast along C's rows.
    const A = [1, 2, 3, 4, 5, 6];
    const B = [1, 0, 2, -1, 0, 1, 1, 2, 3, 1, 0, 1];
    const v = [0.5, -1, 2, 3];
    const put = (values: number[]): number => {
      const p = heap.alloc(values.length * 8);
      new Float64Array(heap.memory.buffer, p, values.length).set(values);
      return p;
    };
    const [ap, bp, vp, cp, outp] = [put(A), put(B), put(v), heap.alloc(64), heap.alloc(64)];
    const spec: KernelSpec = {
      ...scaleBy('float64', 2, 'contiguous', square1('float64', 1)),
      contraction: { dtype: 'float64', product: 0, vectorise: 'columns' },
    };
    const compiled = compileKernel(spec);
    const r = launch(compiled, heap, instantiate(compiled, heap.memory, { hostFunction: noHost }), {
      shape: [2, 4],
      arrays: [{ ptr: cp, strides: [4, 1] }, { ptr: 0, strides: [0, 1] }, { ptr: outp, strides: [4, 1] }],
      contraction: { batches: 1, P: 2, K: 3, Q: 4, a: { ptr: ap, batch: 0, row: 3, col: 1 }, b: { ptr: bp, batch: 0, row: 4, col: 1 }, rowsPerBlock: 1 },
      temps: [{ shape: [4], arrays: [{ ptr: vp, strides: [1] }, { ptr: 0, strides: [1] }] }],
    });
    expect(r.blocks).toBe(2);
    const C = [0, 1].flatMap((i) => [0, 1, 2, 3].map((j) => [0, 1, 2].reduce((acc, k) => acc + A[i * 3 + k]! * B[k * 4 + j]!, 0)));
    expect(Array.from(new Float64Array(heap.memory.buffer, outp, 8))).toEqual(C.map((c, i) => c * (v[i % 4]! * v[i % 4]! + 1)));
  });

  test('refuses a launch without the temporaries, or reading one out of its range', () => {
    const spec = scaleBy('float64', 2, 'broadcast', square1('float64', 1));
    const compiled = compileKernel(spec);
    const heap = testHeap();
    const fn = instantiate(compiled, heap.memory, { hostFunction: noHost });
    const arrays = [{ ptr: 0, strides: [5, 1] }, { ptr: 0, strides: [0, 1] }, { ptr: 0, strides: [5, 1] }];
    expect(() => launch(compiled, heap, fn, { shape: [3, 5], arrays })).toThrow(/pinned temporary; give launch.temps/);
    const temps = [{ shape: [4], arrays: [{ ptr: 0, strides: [1] }, { ptr: 0, strides: [1] }] }];
    expect(() => launch(compiled, heap, fn, { shape: [3, 5], arrays, temps })).toThrow(/stay within its 4 elements/);
    const backwards = [{ shape: [5], arrays: [{ ptr: 0, strides: [1] }, { ptr: 0, strides: [-1] }] }];
    expect(() => launch(compiled, heap, fn, { shape: [3, 5], arrays, temps: backwards })).toThrow(/row-major/);
  });

  test('refuses a malformed spec with what is wrong', () => {
    const good = scaleBy('float64', 1, 'contiguous', square1('float64', 1));
    expect(() => compileKernel({ ...good, temps: [{ ...good.temps![0]!, array: 2 }] })).toThrow(/must be an input of the body/);
    expect(() => compileKernel({ ...good, temps: [{ ...good.temps![0]!, out: 0 }] })).toThrow(/must be an output of float64/);
    const twice = square1('float64', 1);
    expect(() => compileKernel({ ...good, temps: [twice, twice] })).toThrow(/reads another temporary already/);
    expect(() => compileKernel({ ...good, temps: [square1('float32', 1)] })).toThrow(/must be an output of float64/);
  });
});
