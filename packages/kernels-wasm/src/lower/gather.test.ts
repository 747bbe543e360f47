// Gather kernels: out[i, j] = x[resolve(idx[i]), j] read through the gathered
// array's pointer and strides plus the resolved index times the axis stride.
// Checked against a plain loop for each mode, index dtype and stride, with the
// index flag counting what 'raise' cannot place.
import fc from 'fast-check';
import { compileKernel } from './compile.js';
import type { GatherMode, KInstr, KType, KernelSpec } from './kernel-spec.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import { instantiate, launch } from './launch.js';
import type { LaunchResult } from './launch.js';
import { noHost, testHeap } from './test-heap.js';
import { validateSpec } from './validate-spec.js';
import { VIEW_CONSTRUCTORS } from '../heap/dtypes.js';

/** [idx of `it`] gathers rows of x (float64 unless given) into out, times 2 when `scale`. */
function gatherSpec(mode: GatherMode, it: KType, xt: KType = 'float64', scale = false): KernelSpec {
  const body: KInstr[] = [{ op: 'load', array: 0, type: it }];
  if (it !== 'int32') body.push({ op: 'cast', arg: 0, type: 'int32' });
  body.push({ op: 'gather', array: 1, index: body.length - 1, mode, type: xt });
  if (scale) {
    body.push({ op: 'const', value: 2, type: xt });
    body.push({ op: 'binary', fn: 'multiply', args: [body.length - 2, body.length - 1], type: xt });
  }
  body.push({ op: 'store', array: 2, arg: body.length - 1, type: xt });
  return {
    ndim: 2, slots: 0, body,
    arrays: [
      { dtype: it, role: 'in', inner: 'broadcast' },
      { dtype: xt, role: 'in', inner: 'contiguous', gathered: true },
      { dtype: xt, role: 'out', inner: 'contiguous' },
    ],
  };
}

/** NumPy's take rule for one index in an axis of length n: the place, or undefined ('raise', outside). */
function resolve(i: number, n: number, mode: GatherMode): number | undefined {
  if (mode === 'wrap') return ((i % n) + n) % n;
  if (mode === 'clip') return Math.min(Math.max(i, 0), n - 1);
  return i >= -n && i < n ? (i + n) % n : undefined;
}

/**
 * Gathers rows of an [n, width] float64 matrix (stored with row stride
 * `rowStride` >= width, or reversed when negative) by `idx`; returns the
 * output rows and the launch result.
 */
function runGather(mode: GatherMode, it: KType, x: number[][], idx: number[], rowStride: number, blockSize?: number): { out: number[][]; r: LaunchResult } {
  const heap = testHeap();
  const n = x.length;
  const width = x[0]?.length ?? 1;
  const abs = Math.abs(rowStride);
  const xPtr = heap.alloc(Math.max(1, n * abs) * 8);
  const xs = heap.f64(xPtr, n * abs);
  // A negative stride walks rows from the last one stored first.
  x.forEach((row, r) => { xs.set(row, (rowStride < 0 ? n - 1 - r : r) * abs); });
  const first = rowStride < 0 ? xPtr + (n - 1) * abs * 8 : xPtr;
  const iPtr = heap.alloc(Math.max(1, idx.length) * KTYPE_BYTES[it]);
  new (VIEW_CONSTRUCTORS[it] as Float64ArrayConstructor)(heap.memory.buffer, iPtr, idx.length).set(idx);
  const oPtr = heap.alloc(Math.max(1, idx.length * width) * 8);
  const spec = gatherSpec(mode, it);
  validateSpec(spec);
  const compiled = compileKernel(spec);
  const fn = instantiate(compiled, heap.memory, { hostFunction: noHost });
  const r = launch(compiled, heap, fn, {
    shape: [idx.length, width],
    arrays: [
      { ptr: iPtr, strides: [1, 0] },
      { ptr: first, strides: [0, 1], gather: { length: n, stride: rowStride } },
      { ptr: oPtr, strides: [width, 1] },
    ],
    ...(blockSize ? { blockSize } : {}),
  });
  const o = heap.f64(oPtr, idx.length * width);
  return { out: idx.map((_, i) => Array.from(o.subarray(i * width, (i + 1) * width))), r };
}

/** gatherSpec over a line: one index per element (contiguous), x along its only axis (the pointer stays). */
const lineSpec = (mode: GatherMode, it: KType, xt: KType): KernelSpec => {
  const spec = gatherSpec(mode, it, xt, true);
  return { ...spec, ndim: 1, arrays: spec.arrays.map((a, k) => ({ ...a, inner: k === 1 ? 'broadcast' as const : 'contiguous' as const })) };
};

/** The spec with its output declared strided, which keeps the kernel in its scalar loop. */
const stridedOut = (spec: KernelSpec): KernelSpec => ({ ...spec, arrays: spec.arrays.map((a) => (a.role === 'out' ? { ...a, inner: 'strided' as const } : a)) });

/** out[i] = x[resolve(idx[i])] (times 2, as gatherSpec scales): a line, one index per element; x's axis is its only one. */
function runLine(spec: KernelSpec, x: number[], idx: number[], blockSize?: number): { out: number[]; flags: number; lanes: string | undefined } {
  const heap = testHeap();
  const [it, xt] = [spec.arrays[0]!.dtype, spec.arrays[1]!.dtype];
  const iPtr = heap.alloc(Math.max(1, idx.length) * KTYPE_BYTES[it]);
  new (VIEW_CONSTRUCTORS[it] as Float64ArrayConstructor)(heap.memory.buffer, iPtr, idx.length).set(idx);
  const xPtr = heap.alloc(x.length * KTYPE_BYTES[xt]);
  new (VIEW_CONSTRUCTORS[xt] as Float64ArrayConstructor)(heap.memory.buffer, xPtr, x.length).set(x);
  const oPtr = heap.alloc(Math.max(1, idx.length) * KTYPE_BYTES[xt]);
  const compiled = compileKernel(spec);
  const fn = instantiate(compiled, heap.memory, { hostFunction: noHost });
  const r = launch(compiled, heap, fn, {
    shape: [idx.length],
    arrays: [{ ptr: iPtr, strides: [1] }, { ptr: xPtr, strides: [0], gather: { length: x.length, stride: 1 } }, { ptr: oPtr, strides: [1] }],
    ...(blockSize ? { blockSize } : {}),
  });
  return { out: Array.from(new (VIEW_CONSTRUCTORS[xt] as Float64ArrayConstructor)(heap.memory.buffer, oPtr, idx.length)), flags: r.flags.index, lanes: compiled.lanes };
}

const matrix = (n: number, width: number): number[][] => Array.from({ length: n }, (_, r) => Array.from({ length: width }, (_, c) => r * 100 + c + 0.5));

describe('gather kernels', () => {
  it('run in vector lanes where each lane\'s index is exact (int32 indices beside floats, any integer index beside integers), else the scalar loop', () => {
    expect(compileKernel(gatherSpec('raise', 'int32')).lanes).toBe('f64x2');
    expect(compileKernel(gatherSpec('raise', 'int32', 'float32')).lanes).toBe('f32x4');
    expect(compileKernel(gatherSpec('raise', 'int16', 'int32')).lanes).toBe('i32x4');
    // An int16 index beside floats is cast to int32 in the kernel, which float lanes do not hold.
    expect(compileKernel(gatherSpec('raise', 'int16')).lanes).toBeUndefined();
  });

  it.each([['int32', 'float64'], ['int32', 'float32'], ['int16', 'int32'], ['int32', 'int32'], ['uint8', 'int32'], ['int8', 'int16'], ['int32', 'uint8']] as const)(
    'one index per element (%s indices, %s values): in lanes, the scalar loop\'s values and flags for every mode', (it, xt) => {
      fc.assert(fc.property(
        fc.integer({ min: 1, max: 40 }), fc.array(fc.integer({ min: -100, max: 100 }), { maxLength: 70 }), fc.constantFrom<GatherMode>('raise', 'wrap', 'clip'),
        fc.constantFrom(undefined, 5, 16), (n, raw, mode, blockSize) => {
          const idx = raw.map((i) => (it === 'uint8' ? Math.abs(i) : i));
          const x = Array.from({ length: n }, (_, k) => (xt === 'uint8' ? (k * 7) % 120 : k * 3 - 7));
          const lanes = runLine(lineSpec(mode, it, xt), x, idx, blockSize);
          const scalar = runLine(stridedOut(lineSpec(mode, it, xt)), x, idx, blockSize);
          expect(lanes.lanes).toBe(xt === 'float64' ? 'f64x2' : xt === 'float32' ? 'f32x4' : 'i32x4');
          expect(scalar.lanes).toBeUndefined();
          expect(lanes.out).toEqual(scalar.out);
          expect(lanes.out).toEqual(idx.map((i) => 2 * x[resolve(i, n, mode) ?? 0]!));
          expect(lanes.flags).toBe(scalar.flags);
          expect(lanes.flags).toBe(idx.filter((i) => resolve(i, n, mode) === undefined).length);
        }), { numRuns: 40 });
    });

  it.each(['raise', 'wrap', 'clip'] as const)('%s mode picks rows as NumPy take does, for every index dtype and stride', (mode) => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 5 }), fc.constantFrom<KType>('int32', 'int16', 'int8', 'uint8', 'uint16'),
      fc.constantFrom(1, 2, -1), fc.array(fc.integer({ min: -20, max: 20 }), { maxLength: 40 }), fc.constantFrom(undefined, 3, 16),
      (n, width, it, strideSign, raw, blockSize) => {
        const unsigned = it.startsWith('uint');
        // 'raise' gets indices it can place: [-n, n), or [0, n) unsigned.
        const placeable = (i: number): number => (unsigned ? ((i % n) + n) % n : ((i % (2 * n)) + 2 * n) % (2 * n) - n);
        const idx = raw.map((i) => (mode === 'raise' ? placeable(i) : unsigned ? Math.abs(i) : i));
        const x = matrix(n, width);
        const { out, r } = runGather(mode, it, x, idx, strideSign === 2 ? 2 * width : strideSign * width, blockSize);
        expect(out).toEqual(idx.map((i) => x[resolve(i, n, mode)!]));
        expect(r.flags.index).toBe(0);
      }), { numRuns: 60 });
  });

  it('raise counts each element whose index it cannot place, and reads inside the array instead', () => {
    const x = matrix(4, 2);
    const { out, r } = runGather('raise', 'int32', x, [0, 4, -5, 3, -4, 1000000], 2);
    // Three indices it cannot place, each read for two columns.
    expect(r.flags.index).toBe(6);
    expect(out[0]).toEqual(x[0]);
    expect(out[3]).toEqual(x[3]);
    expect(out[4]).toEqual(x[0]);
    // The unplaced ones read row 0: never memory outside x.
    expect(out[1]).toEqual(x[0]);
  });

  it.each([
    ['int64', 'raise'], ['int64', 'wrap'], ['int64', 'clip'], ['uint64', 'raise'], ['uint64', 'wrap'], ['uint64', 'clip'],
  ] as const)('%s indices resolve in i64 by %s, past 2^32 and at the extremes, never wrapping into the axis', (it, mode) => {
    const n = 7;
    const signed = [0n, 6n, -1n, -7n, 7n, -8n, 2n ** 32n + 1n, -(2n ** 32n) + 3n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n), 4n];
    // Unsigned: the same bits read as uint64 (-1 is 2^64 - 1), and 2^63 and 2^63 + 7, which int64 would read as negative.
    const idx = it === 'int64' ? signed : [...signed.map((b) => BigInt.asUintN(64, b)), 2n ** 63n, 2n ** 63n + 7n];
    const heap = testHeap();
    const spec: KernelSpec = {
      ndim: 1, slots: 0,
      body: [{ op: 'load', array: 0, type: it }, { op: 'gather', array: 1, index: 0, mode, type: 'float64' }, { op: 'store', array: 2, arg: 1, type: 'float64' }],
      arrays: [{ dtype: it, role: 'in', inner: 'contiguous' }, { dtype: 'float64', role: 'in', inner: 'broadcast', gathered: true }, { dtype: 'float64', role: 'out', inner: 'contiguous' }],
    };
    validateSpec(spec);
    const [i, x, o] = [heap.alloc(8 * idx.length), heap.alloc(8 * n), heap.alloc(8 * idx.length)];
    (it === 'int64' ? new BigInt64Array(heap.memory.buffer, i, idx.length) : new BigUint64Array(heap.memory.buffer, i, idx.length)).set(idx);
    new Float64Array(heap.memory.buffer, x, n).set(Array.from({ length: n }, (_, k) => k + 0.5));
    const compiled = compileKernel(spec);
    const r = launch(compiled, heap, instantiate(compiled, heap.memory, { hostFunction: noHost }), {
      shape: [idx.length], arrays: [{ ptr: i, strides: [1] }, { ptr: x, strides: [0], gather: { length: n, stride: 1 } }, { ptr: o, strides: [1] }],
    });
    const m = BigInt(n);
    const place = (b: bigint): number | undefined => (mode === 'wrap' ? Number(((b % m) + m) % m)
      : mode === 'clip' ? (b < 0n ? 0 : b >= m ? n - 1 : Number(b)) : b >= -m && b < m ? Number(b < 0n ? b + m : b) : undefined);
    expect(Array.from(new Float64Array(heap.memory.buffer, o, idx.length))).toEqual(idx.map((b) => (place(b) ?? 0) + 0.5));
    expect(r.flags.index).toBe(idx.filter((b) => place(b) === undefined).length);
  });

  it('wrap and clip take the extremes of int32', () => {
    const x = matrix(7, 1);
    const idx = [2147483647, -2147483648, -1, 7];
    expect(runGather('wrap', 'int32', x, idx, 1).out).toEqual(idx.map((i) => x[resolve(i, 7, 'wrap')!]));
    expect(runGather('clip', 'int32', x, idx, 1).out).toEqual(idx.map((i) => x[resolve(i, 7, 'clip')!]));
  });

  it('a gathered float32 array, scaled in the body', () => {
    const heap = testHeap();
    const spec = gatherSpec('wrap', 'int32', 'float32', true);
    const compiled = compileKernel(spec);
    const fn = instantiate(compiled, heap.memory, { hostFunction: noHost });
    const [i, x, o] = [heap.alloc(16), heap.alloc(12), heap.alloc(16)];
    new Int32Array(heap.memory.buffer, i, 4).set([2, -1, 0, 4]);
    new Float32Array(heap.memory.buffer, x, 3).set([1.5, 2.5, 3.25]);
    launch(compiled, heap, fn, {
      shape: [4, 1], arrays: [{ ptr: i, strides: [1, 0] }, { ptr: x, strides: [0, 0], gather: { length: 3, stride: 1 } }, { ptr: o, strides: [1, 1] }],
    });
    expect(Array.from(new Float32Array(heap.memory.buffer, o, 4))).toEqual([6.5, 6.5, 3, 5]);
  });

  it('specs and launches that misuse a gathered array are refused, saying what is wrong', () => {
    const spec = gatherSpec('raise', 'int32');
    expect(() => validateSpec({ ...spec, arrays: spec.arrays.map((a, k) => (k === 1 ? { ...a, gathered: undefined } : a)) as KernelSpec['arrays'] }))
      .toThrow(/not marked gathered/);
    expect(() => validateSpec({ ...spec, body: [{ op: 'load', array: 0, type: 'int32' }, { op: 'cast', arg: 0, type: 'float64' }, { op: 'gather', array: 1, index: 1, mode: 'raise', type: 'float64' }, { op: 'store', array: 2, arg: 2, type: 'float64' }] }))
      .toThrow(/index of a gather must be int32, int64 or uint64/);
    expect(() => validateSpec({ ...spec, body: [{ op: 'load', array: 1, type: 'float64' }, { op: 'store', array: 2, arg: 0, type: 'float64' }] }))
      .toThrow(/gathered, so it is read by gathers only/);
    const heap = testHeap();
    const compiled = compileKernel(spec);
    const fn = instantiate(compiled, heap.memory, { hostFunction: noHost });
    const arrays = [{ ptr: 64, strides: [1, 0] }, { ptr: 64, strides: [0, 1] }, { ptr: 64, strides: [1, 1] }];
    expect(() => launch(compiled, heap, fn, { shape: [1, 1], arrays })).toThrow(/array 1 is a gathered array in the kernel, so it needs gather words/);
    const empty = arrays.map((a, k) => (k === 1 ? { ...a, gather: { length: 0, stride: 1 } } : a));
    expect(() => launch(compiled, heap, fn, { shape: [1, 1], arrays: empty })).toThrow(/gathered axis of length 0/);
  });
});
