import { compileKernel, compileCount } from './compile.js';
import type { HostFunction } from './compile.js';
import type { KBinary, KInstr, KernelSpec, KType } from './kernel-spec.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import { disassembleFunction } from '../encode/index.js';
import { finishLaunch, instantiate, launch, prepareLaunch, runBlocks } from './launch.js';
import { noHost, testHeap } from './test-heap.js';
import { VIEW_CONSTRUCTORS } from '../heap/dtypes.js';
import { createMathRunner } from '../math/harness.js';

/** Copies arrays into a fresh heap, runs the spec over `shape`, returns outputs and partials. */
function run(spec: KernelSpec, shape: number[], data: Array<{ values: number[]; strides: number[] } | { out: number; strides: number[] }>,
  host: (k: string) => HostFunction = noHost, blockSize?: number) {
  const heap = testHeap();
  const ptrs = data.map((d, k) => {
    const t = spec.arrays[k]!.dtype;
    const n = 'values' in d ? d.values.length : d.out;
    const p = heap.alloc(Math.max(1, n) * KTYPE_BYTES[t]);
    if ('values' in d) new (VIEW_CONSTRUCTORS[t] as Float64ArrayConstructor)(heap.memory.buffer, p, n).set(d.values);
    return p;
  });
  const compiled = compileKernel(spec);
  const fn = instantiate(compiled, heap.memory, { hostFunction: host });
  const r = launch(compiled, heap, fn, { shape, arrays: data.map((d, k) => ({ ptr: ptrs[k]!, strides: d.strides })), ...(blockSize ? { blockSize } : {}) });
  const outs = data.map((d, k) => ('out' in d ? Array.from(new (VIEW_CONSTRUCTORS[spec.arrays[k]!.dtype] as Float64ArrayConstructor)(heap.memory.buffer, ptrs[k]!, d.out)) : []));
  return { outs, ...r, compiled };
}

/** One array in, one out, of type t: a load, `middle` (which reads the load as value 0), and a store of its last value. */
const mapSpec = (t: KType, middle: KInstr[]): KernelSpec => ({
  ndim: 1, slots: 0,
  arrays: [{ dtype: t, role: 'in', inner: 'contiguous' }, { dtype: t, role: 'out', inner: 'contiguous' }],
  body: [{ op: 'load', array: 0, type: t }, ...middle, { op: 'store', array: 1, arg: middle.length, type: t }],
});

const binarySpec = (t: KType, fn: KBinary, inner: 'contiguous' | 'broadcast' | 'strided' = 'contiguous'): KernelSpec => ({
  ndim: 1,
  arrays: [{ dtype: t, role: 'in', inner: 'contiguous' }, { dtype: t, role: 'in', inner }, { dtype: t, role: 'out', inner: 'contiguous' }],
  body: [
    { op: 'load', array: 0, type: t },
    { op: 'load', array: 1, type: t },
    { op: 'binary', fn, args: [0, 1], type: t },
    { op: 'store', array: 2, arg: 2, type: t },
  ],
  slots: 0,
});

describe('lowering: elementwise kernels', () => {
  test.each([0, 1, 2, 3, 4, 5, 7, 8, 9, 33, 1000])('f64 add over %i elements (vector loop and scalar tail)', (n) => {
    const a = Array.from({ length: n }, (_, i) => i * 1.5);
    const b = Array.from({ length: n }, (_, i) => 100 - i);
    const r = run(binarySpec('float64', 'add'), [n], [{ values: a, strides: [1] }, { values: b, strides: [1] }, { out: n, strides: [1] }]);
    expect(r.compiled.lanes).toBe('f64x2');
    expect(r.outs[2]).toEqual(a.map((x, i) => x + b[i]!));
  });

  test('broadcast operand, several blocks, small block size', () => {
    const n = 50;
    const a = Array.from({ length: n }, (_, i) => i);
    const r = run(binarySpec('float32', 'multiply', 'broadcast'), [n],
      [{ values: a, strides: [1] }, { values: [2.5], strides: [0] }, { out: n, strides: [1] }], noHost, 7);
    expect(r.compiled.lanes).toBe('f32x4');
    expect(r.blocks).toBe(8);
    expect(r.outs[2]).toEqual(a.map((x) => Math.fround(x * 2.5)));
  });

  test('2-D with a transposed, negatively strided operand runs the scalar loop', () => {
    // a is 3x4 row-major; b is a 4x3 array read transposed and reversed along axis 1.
    const a = Array.from({ length: 12 }, (_, i) => i);
    const b = Array.from({ length: 12 }, (_, i) => 100 * i);
    const spec = { ...binarySpec('int32', 'subtract', 'strided'), ndim: 2 };
    // b.T[:, ::-1] of a 4x3 b: element (i, j) is b[3 - j, i]; it starts at b[3, 0] with strides (1, -3).
    const heapIndex = (i: number, j: number) => (3 - j) * 3 + i;
    const heap = testHeap();
    const pa = heap.alloc(48); const pb = heap.alloc(48); const po = heap.alloc(48);
    new Int32Array(heap.memory.buffer, pa, 12).set(a);
    new Int32Array(heap.memory.buffer, pb, 12).set(b);
    const compiled = compileKernel(spec);
    expect(compiled.lanes).toBeUndefined();
    launch(compiled, heap, instantiate(compiled, heap.memory, { hostFunction: noHost }), {
      shape: [3, 4], arrays: [{ ptr: pa, strides: [4, 1] }, { ptr: pb + 9 * 4, strides: [1, -3] }, { ptr: po, strides: [4, 1] }],
    });
    const out = Array.from(new Int32Array(heap.memory.buffer, po, 12));
    const want = Array.from({ length: 12 }, (_, k) => a[k]! - b[heapIndex(Math.floor(k / 4), k % 4)]!);
    expect(out).toEqual(want);
  });

  test('uint8 chains wrap at every step, as if each result were stored', () => {
    const spec: KernelSpec = {
      ndim: 1,
      arrays: [{ dtype: 'uint8', role: 'in', inner: 'contiguous' }, { dtype: 'uint8', role: 'out', inner: 'contiguous' }],
      body: [
        { op: 'load', array: 0, type: 'uint8' },
        { op: 'const', value: 10, type: 'uint8' },
        { op: 'binary', fn: 'add', args: [0, 1], type: 'uint8' },
        { op: 'const', value: 2, type: 'uint8' },
        { op: 'binary', fn: 'floorDivide', args: [2, 3], type: 'uint8' },
        { op: 'store', array: 1, arg: 4, type: 'uint8' },
      ],
      slots: 0,
    };
    const r = run(spec, [4], [{ values: [250, 0, 245, 100], strides: [1] }, { out: 4, strides: [1] }]);
    expect(r.outs[1]).toEqual([2, 5, 127, 55]);
  });

  test('integer floorDivide and mod: floor rounding, Python signs, 0 and a flag for division by zero, MIN // -1 wraps', () => {
    const spec = (fn: 'floorDivide' | 'mod'): KernelSpec => binarySpec('int32', fn);
    const a = [7, -7, 7, -7, 5, -2147483648, -2147483648, 0];
    const b = [2, 2, -2, -2, 0, -1, 3, -5];
    const fd = run(spec('floorDivide'), [8], [{ values: a, strides: [1] }, { values: b, strides: [1] }, { out: 8, strides: [1] }]);
    expect(fd.outs[2]).toEqual([3, -4, -4, 3, 0, -2147483648, -715827883, 0]);
    expect(fd.flags.divide).toBe(1);
    const md = run(spec('mod'), [8], [{ values: a, strides: [1] }, { values: b, strides: [1] }, { out: 8, strides: [1] }]);
    expect(md.outs[2]).toEqual([1, 1, -1, -1, 0, 0, 1, 0]);
  });

  test('float to int casts saturate, NaN gives 0, and the invalid flag counts them', () => {
    const spec: KernelSpec = {
      ndim: 1,
      arrays: [{ dtype: 'float64', role: 'in', inner: 'contiguous' }, { dtype: 'int32', role: 'out', inner: 'contiguous' },
        { dtype: 'uint8', role: 'out', inner: 'contiguous' }],
      body: [
        { op: 'load', array: 0, type: 'float64' },
        { op: 'cast', arg: 0, type: 'int32' },
        { op: 'store', array: 1, arg: 1, type: 'int32' },
        { op: 'cast', arg: 0, type: 'uint8' },
        { op: 'store', array: 2, arg: 3, type: 'uint8' },
      ],
      slots: 0,
    };
    const x = [NaN, Infinity, -Infinity, 3e9, -3e9, 2.9, -2.9, 255.5, 256, -0.5];
    const r = run(spec, [x.length], [{ values: x, strides: [1] }, { out: x.length, strides: [1] }, { out: x.length, strides: [1] }]);
    expect(r.outs[1]).toEqual([0, 2147483647, -2147483648, 2147483647, -2147483648, 2, -2, 255, 256, 0]);
    expect(r.outs[2]).toEqual([0, 255, 0, 255, 0, 2, 0, 255, 255, 0]);
    expect(r.flags.invalid).toBe(5 + 7); // int32: NaN, ±Inf, ±3e9; uint8: also -2.9 and 256
  });
});

describe('lowering: reductions', () => {
  const sumSpec = (t: KType): KernelSpec => ({
    ndim: 1,
    arrays: [{ dtype: t, role: 'in', inner: 'contiguous' }],
    body: [
      { op: 'load', array: 0, type: t },
      { op: 'reduce', fn: 'sum', arg: 0, slot: 0, type: t },
      { op: 'reduce', fn: 'max', arg: 0, slot: 1, type: t },
    ],
    slots: 2,
  });

  test('per-block partials of sum and max, vectorised, in block order', () => {
    const x = Array.from({ length: 37 }, (_, i) => (i % 5) - 2 + i / 8);
    const r = run(sumSpec('float64'), [37], [{ values: x, strides: [1] }], noHost, 10);
    expect(r.compiled.lanes).toBe('f64x2');
    expect(r.blocks).toBe(4);
    for (let b = 0; b < 4; b++) {
      const part = x.slice(b * 10, b * 10 + 10);
      expect(r.partials[2 * b]).toBeCloseTo(part.reduce((s, v) => s + v, 0), 12);
      expect(r.partials[2 * b + 1]).toBe(Math.max(...part));
    }
  });

  test('int32 max and NaN-propagating float max', () => {
    const ri = run(sumSpec('int32'), [6], [{ values: [3, -7, 12, 5, -1, 11], strides: [1] }]);
    expect(ri.partials[1]).toBe(12);
    const rf = run(sumSpec('float64'), [5], [{ values: [1, NaN, 3, 4, 5], strides: [1] }]);
    expect(rf.partials[1]).toBeNaN();
  });
});

describe('loop shape', () => {
  test('a constant is splatted once, outside the loops (V8 would rebuild it per vector)', () => {
    const spec = mapSpec('float64', [{ op: 'const', value: 2.5, type: 'float64' }, { op: 'binary', fn: 'multiply', args: [0, 1], type: 'float64' }]);
    const r = run(spec, [37], [{ values: Array.from({ length: 37 }, (_, i) => i - 3), strides: [1] }, { out: 37, strides: [1] }]);
    expect(r.outs[1]).toEqual(Array.from({ length: 37 }, (_, i) => (i - 3) * 2.5));
    const text = disassembleFunction(r.compiled.bytes, 'kernel');
    expect(text.match(/v128\.const f64x2 2\.5 2\.5/g)).toHaveLength(1);
  });

  test('a math routine is written into the vector loop; only the scalar tail calls it', () => {
    const spec = mapSpec('float32', [{ op: 'unary', fn: 'exp', arg: 0, type: 'float32' }]);
    const x = Array.from({ length: 39 }, (_, i) => Math.fround((i - 20) * 5.3));
    const r = run(spec, [39], [{ values: x, strides: [1] }, { out: 39, strides: [1] }]);
    expect(r.outs[1]).toEqual(Array.from(createMathRunner('exp', 'f32x4').run(Float32Array.from(x))));
    const text = disassembleFunction(r.compiled.bytes, 'kernel');
    expect(text.match(/\bcall\b/g)).toHaveLength(1);
    expect(text.match(/f32x4\.mul/g)!.length).toBeGreaterThan(8);
  });

  test('claim() runs each block once, however often it is called, and returns how many it ran', () => {
    const heap = testHeap();
    const n = 1000;
    const [a, out] = [heap.alloc(n * 8), heap.alloc(n * 8)];
    new Float64Array(heap.memory.buffer, a, n).set(Array.from({ length: n }, (_, i) => i));
    const spec = binarySpec('float64', 'add', 'broadcast');
    const one = heap.alloc(8);
    new Float64Array(heap.memory.buffer, one, 1)[0] = 1;
    const compiled = compileKernel(spec);
    const fn = instantiate(compiled, heap.memory, { hostFunction: noHost });
    const p = prepareLaunch(compiled, heap, { shape: [n], arrays: [{ ptr: a, strides: [1] }, { ptr: one, strides: [0] }, { ptr: out, strides: [1] }], blockSize: 64 });
    expect(p.blocks).toBe(16);
    const ran = [runBlocks(fn, heap.memory, p.argsPtr, p.blocks), runBlocks(fn, heap.memory, p.argsPtr, p.blocks)];
    finishLaunch(p, heap, true);
    expect(ran).toEqual([16, 0]);
    expect(Array.from(new Float64Array(heap.memory.buffer, out, n))).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  });
});

describe('kernel cache', () => {
  test('the same spec compiles once; different sizes reuse it', () => {
    const spec = binarySpec('float64', 'add');
    compileKernel(spec);
    const before = compileCount();
    for (const n of [3, 300, 30000]) {
      run(spec, [n], [{ values: new Array(n).fill(1), strides: [1] }, { values: new Array(n).fill(2), strides: [1] }, { out: n, strides: [1] }]);
    }
    expect(compileCount()).toBe(before);
  });
});
