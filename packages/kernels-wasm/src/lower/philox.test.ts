// Random arrays in kernels against test/vectors/philox.json (Philox 4x32-10
// computed with NumPy's uint64 arithmetic and checked there against
// Random123's known answers): the vector and scalar paths, float64 and
// float32, every starting element (odd ones included), strided and broadcast
// reads, a reduction over one, and keys and streams at their extremes.
import { readFileSync } from 'node:fs';
import { compileKernel } from './compile.js';
import type { KInstr, KernelSpec, KType } from './kernel-spec.js';
import { launch, instantiate } from './launch.js';
import type { LaunchArray } from './launch.js';
import { noHost, testHeap } from './test-heap.js';
import { validateSpec } from './validate-spec.js';

interface Stream { key: [number, number]; stream: [number, number]; words: number[][]; float64: string[]; float32: string[] }
const vectors = JSON.parse(readFileSync(new URL('../../test/vectors/philox.json', import.meta.url), 'utf8')) as { streams: Stream[] };

const dv = new DataView(new ArrayBuffer(8));
const f64 = (hex: string): number => { dv.setBigUint64(0, BigInt(`0x${hex}`)); return dv.getFloat64(0); };
const f32 = (hex: string): number => { dv.setUint32(0, parseInt(hex, 16)); return dv.getFloat32(0); };
const expected = (s: Stream, dtype: 'float64' | 'float32'): number[] => (dtype === 'float64' ? s.float64.map(f64) : s.float32.map(f32));

/** A kernel storing (or summing) a random array of `dtype` read with `inner`, into `out` of the same dtype. */
function spec(dtype: 'float64' | 'float32', inner: 'contiguous' | 'strided' | 'broadcast', reduce = false, outType: KType = dtype): KernelSpec {
  const body: KInstr[] = [{ op: 'load', array: 0, type: dtype }];
  if (outType !== dtype) body.push({ op: 'cast', arg: 0, type: outType });
  body.push(reduce
    ? { op: 'reduce', fn: 'sum', arg: body.length - 1, slot: 0, type: outType }
    : { op: 'store', array: 1, arg: body.length - 1, type: outType });
  return {
    ndim: 1, slots: reduce ? 1 : 0,
    arrays: [{ dtype, role: 'in', inner, random: true }, ...(reduce ? [] : [{ dtype: outType, role: 'out' as const, inner: 'contiguous' as const }])],
    body,
  };
}

/** Runs `s` over n elements of the random array from element `first` with `stride`; returns what was stored, or the partials. */
function run(s: KernelSpec, n: number, random: Stream, first: number, stride: number, blockSize?: number): { out: number[]; partials: Float64Array; lanes?: string } {
  validateSpec(s);
  const heap = testHeap();
  const outType = s.arrays[1]?.dtype ?? 'float64';
  const bytes = outType === 'float64' ? 8 : 4;
  const outPtr = heap.alloc(Math.max(1, n) * bytes);
  const compiled = compileKernel(s);
  const fn = instantiate(compiled, heap.memory, { hostFunction: noHost });
  const arrays: LaunchArray[] = [{ ptr: first, strides: [stride], random: { key: random.key, stream: random.stream } }];
  if (s.arrays.length > 1) arrays.push({ ptr: outPtr, strides: [1] });
  const r = launch(compiled, heap, fn, { shape: [n], arrays, ...(blockSize ? { blockSize } : {}) });
  const View = outType === 'float64' ? Float64Array : Float32Array;
  return { out: Array.from(new View(heap.memory.buffer, outPtr, n)), partials: r.partials, ...(compiled.lanes ? { lanes: compiled.lanes } : {}) };
}

describe('random arrays in kernels: Philox 4x32-10', () => {
  test.each(vectors.streams.map((s) => [`key ${s.key.map((k) => k.toString(16)).join(':')} stream ${s.stream.map((k) => k.toString(16)).join(':')}`, s] as const))(
    'float64 and float32, vector and scalar paths, %s', (_, s) => {
      for (const dtype of ['float64', 'float32'] as const) {
        const want = expected(s, dtype);
        const r = run(spec(dtype, 'contiguous'), want.length, s, 0, 1);
        expect(r.lanes).toBe(dtype === 'float64' ? 'f64x2' : 'f32x4');
        expect(r.out).toEqual(want);
        // The scalar path (a strided read never vectorises) gives the same bits.
        const strided = run(spec(dtype, 'strided'), 33, s, 1, 2);
        expect(strided.out).toEqual(want.filter((_, e) => e % 2 === 1).slice(0, 33));
      }
    });

  test('every starting element and length around the vector width gives the same element values', () => {
    const s = vectors.streams[5]!;
    for (const dtype of ['float64', 'float32'] as const) {
      const want = expected(s, dtype);
      for (let first = 0; first < 9; first++) {
        for (const n of [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33]) {
          if (first + n > want.length) continue;
          expect(run(spec(dtype, 'contiguous'), n, s, first, 1, 5).out).toEqual(want.slice(first, first + n));
        }
      }
    }
  });

  test('float32 values read into float64 lanes (a cast in the kernel) are the float32 values, widened', () => {
    const s = vectors.streams[2]!;
    const want = expected(s, 'float32');
    const r = run(spec('float32', 'contiguous', false, 'float64'), want.length, s, 0, 1);
    expect(r.lanes).toBe('f64x2');
    expect(r.out).toEqual(want);
  });

  test('a broadcast read is one element everywhere', () => {
    const s = vectors.streams[7]!;
    const r = run(spec('float64', 'broadcast'), 21, s, 13, 0);
    expect(r.out).toEqual(new Array(21).fill(expected(s, 'float64')[13]));
  });

  test('a sum over a random array reads no memory and adds the same values', () => {
    const s = vectors.streams[0]!;
    const want = expected(s, 'float64');
    const r = run(spec('float64', 'contiguous', true), want.length, s, 0, 1);
    const total = [...r.partials].reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(want.reduce((a, b) => a + b, 0), 12);
  });

  test('a random array must be a float input (or the int32 counter), outside columns mode', () => {
    const bad = (change: (s: KernelSpec) => KernelSpec): (() => void) => () => validateSpec(change(spec('float64', 'contiguous')));
    expect(bad((s) => ({ ...s, arrays: [{ ...s.arrays[0]!, dtype: 'uint8' }, s.arrays[1]!], body: [{ op: 'load', array: 0, type: 'uint8' }, { op: 'cast', arg: 0, type: 'float64' }, { op: 'store', array: 1, arg: 1, type: 'float64' }] })))
      .toThrow(/array 0 is random, so it must be float64, float32 or int32 \(the counter itself\)/);
    expect(bad((s) => ({ ...s, arrays: [s.arrays[0]!, { ...s.arrays[1]!, random: true }] }))).toThrow(/array 1 is random, so it must be an input/);
  });

  test('a launch gives random words exactly for the random arrays of the kernel', () => {
    const s = spec('float64', 'contiguous');
    const heap = testHeap();
    const compiled = compileKernel(s);
    const fn = instantiate(compiled, heap.memory, { hostFunction: noHost });
    const out = { ptr: heap.alloc(8), strides: [1] };
    const words = { key: [1, 2] as [number, number], stream: [3, 4] as [number, number] };
    expect(() => launch(compiled, heap, fn, { shape: [1], arrays: [{ ptr: 0, strides: [1] }, out] }))
      .toThrow(/array 0 is a random array in the kernel, so it needs random words/);
    expect(() => launch(compiled, heap, fn, { shape: [1], arrays: [{ ptr: 0, strides: [1], random: words }, { ...out, random: words }] }))
      .toThrow(/array 1 is not a random array in the kernel, so it takes no random words/);
  });
});
