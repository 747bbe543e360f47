// argmax and argmin as one-pass row reductions: each piece's (value,
// position) partials, combined over a run's pieces by the same rule, give
// NumPy's answer (the first position holding the extreme; for floats the
// first NaN), in the vector loop and the scalar loop (an input declared
// strided), for every number type up to 32 bits, runs cut into pieces by
// blocks of several sizes, runs spanning rows, and the types' special values.
import fc from 'fast-check';
import { compileKernel } from './compile.js';
import type { KernelSpec } from './kernel-spec.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import { instantiate, launch } from './launch.js';
import { noHost, testHeap } from './test-heap.js';
import { validateSpec } from './validate-spec.js';
import { VIEW_CONSTRUCTORS } from '../heap/dtypes.js';

type T = 'float64' | 'float32' | 'int32' | 'uint32' | 'int16' | 'uint16' | 'int8' | 'uint8';
const LANES: Record<T, string> = { float64: 'f64x2', float32: 'f32x4', int32: 'i32x4', uint32: 'i32x4', int16: 'i32x4', uint16: 'i32x4', int8: 'i32x4', uint8: 'i32x4' };

/** Values of each type drawn to collide often: extremes, ties, NaN, infinities and signed zeros for floats. */
const POOL: Record<T, number[]> = {
  float64: [0, -0, 1, -1, 2.5, -Infinity, Infinity, NaN, 1e308, -1e308, 5e-324, 3],
  float32: [0, -0, 1, -1, 2.5, -Infinity, Infinity, NaN, 3.4028234663852886e38, -3.4028234663852886e38, 1e-45, 3],
  int32: [0, 1, -1, 2147483647, -2147483648, 5, -5, 7],
  uint32: [0, 1, 4294967295, 2147483648, 2147483647, 5, 7],
  int16: [0, 1, -1, 32767, -32768, 5, -5],
  uint16: [0, 1, 65535, 32768, 5],
  int8: [0, 1, -1, 127, -128, 5],
  uint8: [0, 1, 255, 128, 5],
};

const spec = (t: T, fn: 'argmax' | 'argmin', inner: 'contiguous' | 'strided', ndim: number): KernelSpec => ({
  ndim, slots: 2,
  arrays: [{ dtype: t, role: 'in', inner }],
  body: [{ op: 'load', array: 0, type: t }, { op: 'reduce', fn, arg: 0, slot: 1, position: 0, type: t }],
});

/** Whether (b, ib) beats (a, ia): NumPy's rule. */
function beats(fn: 'argmax' | 'argmin', a: number, ia: number, b: number, ib: number): boolean {
  if (Number.isNaN(b)) return !Number.isNaN(a) || ib < ia;
  if (Number.isNaN(a)) return false;
  return (fn === 'argmax' ? b > a : b < a) || (b === a && ib < ia);
}

/** NumPy's argmax/argmin of each run of `seg` values. */
function model(fn: 'argmax' | 'argmin', x: readonly number[], seg: number): number[] {
  const out: number[] = [];
  for (let o = 0; o * seg < x.length; o++) {
    let best = 0;
    for (let p = 1; p < seg; p++) {
      const v = x[o * seg + p]!;
      const w = x[o * seg + best]!;
      if (Number.isNaN(w)) break;
      if (Number.isNaN(v) || (fn === 'argmax' ? v > w : v < w)) best = p;
    }
    out.push(best);
  }
  return out;
}

/** Runs the kernel over `shape` (runs of `seg` elements) and combines each run's pieces by the rule. */
function run(t: T, fn: 'argmax' | 'argmin', x: readonly number[], shape: readonly number[], seg: number, blockSize: number, strided: boolean) {
  const heap = testHeap();
  const n = x.length;
  const ptr = heap.alloc(Math.max(1, n) * KTYPE_BYTES[t]);
  new (VIEW_CONSTRUCTORS[t] as unknown as Float64ArrayConstructor)(heap.memory.buffer, ptr, n).set(x);
  const s = spec(t, fn, strided ? 'strided' : 'contiguous', shape.length);
  validateSpec(s);
  const compiled = compileKernel(s);
  const kernel = instantiate(compiled, heap.memory, { hostFunction: noHost });
  const strides = shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));
  const r = launch(compiled, heap, kernel, { shape, arrays: [{ ptr, strides }], segment: seg, blockSize });
  const positions: number[] = [];
  for (let o = 0; o * seg < n; o++) {
    const from = r.pieceIndex(o * seg);
    const to = (o + 1) * seg < n ? r.pieceIndex((o + 1) * seg) : r.pieces;
    // The value in slot 1, its position in slot 0.
    let [a, ia] = [r.partials[from * 2 + 1]!, r.partials[from * 2]!];
    for (let p = from + 1; p < to; p++) {
      const [b, ib] = [r.partials[p * 2 + 1]!, r.partials[p * 2]!];
      if (beats(fn, a, ia, b, ib)) [a, ia] = [b, ib];
    }
    positions.push(ia);
  }
  return { lanes: compiled.lanes, positions };
}

describe('argmax and argmin in one pass', () => {
  const types = Object.keys(POOL) as T[];
  test.each(types.flatMap((t) => (['argmax', 'argmin'] as const).map((fn) => [t, fn] as const)))('%s %s: NumPy\'s positions, vector and scalar loops', (t, fn) => {
    fc.assert(fc.property(
      fc.array(fc.nat(POOL[t].length - 1), { minLength: 1, maxLength: 300 }),
      fc.constantFrom(1, 2, 3, 7, 16, 33), fc.constantFrom(8, 16, 40, 64, 4096), fc.boolean(),
      (picks, rowLength, blockSize, twoD) => {
        const x = picks.map((k) => POOL[t][k]!);
        // Runs of whole rows (a 2-d space reducing its last axis), or one run over the whole (rows of rowLength inside it).
        const rows = Math.ceil(x.length / rowLength);
        const data = [...x, ...Array.from({ length: rows * rowLength - x.length }, () => POOL[t][0]!)];
        const shape = [rows, rowLength];
        const seg = twoD ? rowLength : data.length;
        const want = model(fn, data, seg);
        const v = run(t, fn, data, shape, seg, blockSize, false);
        const s = run(t, fn, data, shape, seg, blockSize, true);
        expect(v.lanes).toBe(LANES[t]);
        expect(s.lanes).toBeUndefined();
        expect(v.positions).toEqual(want);
        expect(s.positions).toEqual(want);
      }), { numRuns: 60 });
  });

  test.each(types.flatMap((t) => (['argmax', 'argmin'] as const).map((fn) => [t, fn] as const)))('%s %s over the rows of a column kernel: each column\'s position, vector and scalar loops', (t, fn) => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 37 }), fc.nat(1e6), fc.constantFrom(4, 16, 4096), (R, C, seed, blockSize) => {
      let state = seed;
      const x = Array.from({ length: R * C }, () => { state = (state * 1103515245 + 12345) % 2147483648; return POOL[t][state % POOL[t].length]!; });
      const want = Array.from({ length: C }, (_, c) => model(fn, Array.from({ length: R }, (_, r) => x[r * C + c]!), R)[0]);
      for (const colStride of [1, 2]) {
        const heap = testHeap();
        const bytes = KTYPE_BYTES[t];
        const ptr = heap.alloc(R * C * colStride * bytes);
        const view = new (VIEW_CONSTRUCTORS[t] as unknown as Float64ArrayConstructor)(heap.memory.buffer, ptr, R * C * colStride);
        x.forEach((v, i) => { view[i * colStride] = v; });
        const s: KernelSpec = { ...spec(t, fn, colStride === 1 ? 'contiguous' : 'strided', 2), mode: 'columns' };
        validateSpec(s);
        const compiled = compileKernel(s);
        const kernel = instantiate(compiled, heap.memory, { hostFunction: noHost });
        const r = launch(compiled, heap, kernel, { shape: [R, C], arrays: [{ ptr, strides: [C * colStride, colStride] }], blockSize });
        expect(compiled.lanes).toBe(colStride === 1 ? LANES[t] : undefined);
        // Slot-major: the positions (slot 0) first.
        expect(Array.from(r.partials.subarray(0, C))).toEqual(want);
      }
    }), { numRuns: 40 });
  });

  test('refused on bools, and without a position slot', () => {
    expect(() => validateSpec({ ...spec('bool' as T, 'argmin', 'contiguous', 1) })).toThrow('argmin compares numbers');
    expect(() => validateSpec({ ...spec('float64', 'argmax', 'contiguous', 1), slots: 1 })).toThrow('slot 1 is outside 0..0');
    expect(() => validateSpec({ ...spec('float64', 'argmax', 'contiguous', 1), body: [{ op: 'load', array: 0, type: 'float64' }, { op: 'reduce', fn: 'argmax', arg: 0, slot: 0, type: 'float64' }] }))
      .toThrow('argmax needs a position slot');
    expect(() => validateSpec({ ...spec('float64', 'argmax', 'contiguous', 1), body: [{ op: 'load', array: 0, type: 'float64' }, { op: 'reduce', fn: 'max', arg: 0, slot: 0, position: 1, type: 'float64' }] }))
      .toThrow('only argmax and argmin have a position slot');
  });
});

