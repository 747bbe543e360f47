// any, all and the count of a mask (its sum as float64) run in vector lanes
// of every type, and give exactly what they should: a mask with a single
// true (for any) or a single false (for all) at each position, across lengths
// around the lane counts, block sizes that end runs in the scalar tail, and
// reduced runs (segments) that cut blocks into pieces.
import { compileKernel } from './compile.js';
import type { KInstr, KType, KernelSpec } from './kernel-spec.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import { instantiate, launch } from './launch.js';
import { noHost, testHeap } from './test-heap.js';
import { VIEW_CONSTRUCTORS } from '../heap/dtypes.js';

const arr = (dtype: KType) => ({ dtype, role: 'in', inner: 'contiguous' }) as const;

/** fn over the mask x != 0 of an array of t (a bool array is its own mask). */
function maskReduce(t: KType, fn: 'any' | 'all'): KernelSpec {
  const zero = t === 'int64' || t === 'uint64' ? 0n : 0;
  const body: KInstr[] = t === 'bool'
    ? [{ op: 'load', array: 0, type: 'bool' }, { op: 'reduce', fn, arg: 0, slot: 0, type: 'bool' }]
    : [{ op: 'load', array: 0, type: t }, { op: 'const', value: zero, type: t } as KInstr,
      { op: 'binary', fn: 'notEqual', args: [0, 1], type: 'bool' }, { op: 'reduce', fn, arg: 2, slot: 0, type: 'bool' }];
  return { ndim: 1, arrays: [arr(t)], body, slots: 1 };
}

/** The count of a bool array's trues (its sum as float64), and whether any is set, in one kernel. */
const countAndAny = (): KernelSpec => ({
  ndim: 1,
  arrays: [arr('bool')],
  body: [
    { op: 'load', array: 0, type: 'bool' },
    { op: 'cast', arg: 0, type: 'float64' },
    { op: 'reduce', fn: 'sum', arg: 1, slot: 0, type: 'float64' },
    { op: 'reduce', fn: 'any', arg: 0, slot: 1, type: 'bool' },
  ],
  slots: 2,
});

/** The count of a and not b over two bool arrays. */
const countBoth = (): KernelSpec => ({
  ndim: 1,
  arrays: [arr('bool'), arr('bool')],
  body: [
    { op: 'load', array: 0, type: 'bool' },
    { op: 'load', array: 1, type: 'bool' },
    { op: 'unary', fn: 'logicalNot', arg: 1, type: 'bool' },
    { op: 'binary', fn: 'logicalAnd', args: [0, 2], type: 'bool' },
    { op: 'cast', arg: 3, type: 'float64' },
    { op: 'reduce', fn: 'sum', arg: 4, slot: 0, type: 'float64' },
  ],
  slots: 1,
});

const LANES: Record<Exclude<KType, never>, string> = {
  float64: 'f64x2', float32: 'f32x4', int32: 'i32x4', uint32: 'i32x4', int16: 'i16x8', uint16: 'i16x8',
  int8: 'i8x16', uint8: 'i8x16', int64: 'i64x2', uint64: 'i64x2', bool: 'i8x16',
};
const TYPES = Object.keys(LANES) as KType[];

/** A nonzero value of t that is no bool's 1 alone (NaN for floats: NaN != 0, as NumPy's truth test). */
const SET: Record<KType, number | bigint> = {
  float64: NaN, float32: -0.5, int32: -2147483648, uint32: 4294967295, int16: -32768, uint16: 65535,
  int8: -128, uint8: 128, int64: -(2n ** 63n), uint64: 2n ** 64n - 1n, bool: 1,
};
/** A zero of t (-0 for floats, which is no mask's true). */
const UNSET: Record<KType, number | bigint> = { ...Object.fromEntries(TYPES.map((t) => [t, 0])), float64: -0, float32: -0, int64: 0n, uint64: 0n } as Record<KType, number | bigint>;

/** A compiled spec and a heap to run it over arrays of up to `max` elements, again and again. */
function runner(spec: KernelSpec, max: number) {
  const heap = testHeap();
  const ptrs = spec.arrays.map((a) => heap.alloc(Math.max(1, max) * KTYPE_BYTES[a.dtype]));
  const compiled = compileKernel(spec);
  const fn = instantiate(compiled, heap.memory, { hostFunction: noHost });
  return {
    lanes: compiled.lanes,
    /**
     * Runs over `values` (one list per array) in blocks of blockSize, reducing
     * runs of `segment`; per slot, each segment's value, the pieces' partials
     * combined by `combine`.
     */
    run(values: ReadonlyArray<ReadonlyArray<number | bigint>>, blockSize: number, segment: number, combine: ReadonlyArray<(a: number, b: number) => number>): number[][] {
      const n = values[0]!.length;
      spec.arrays.forEach((a, k) => {
        const view = new (VIEW_CONSTRUCTORS[a.dtype] as Float64ArrayConstructor)(heap.memory.buffer, ptrs[k]!, n);
        (view as unknown as { set(v: ReadonlyArray<number | bigint>): void }).set(values[k]!);
      });
      const r = launch(compiled, heap, fn, { shape: [n], arrays: ptrs.map((ptr) => ({ ptr, strides: [1] })), blockSize, segment });
      // Pieces are the runs between block and segment boundaries, in element order.
      const cuts = [...new Set([...Array.from({ length: Math.ceil(n / blockSize) }, (_, b) => b * blockSize),
        ...Array.from({ length: Math.ceil(n / segment) }, (_, s) => s * segment)])].sort((x, y) => x - y);
      return Array.from({ length: spec.slots }, (_, slot) => {
        const out: number[] = [];
        cuts.forEach((start, piece) => {
          const s = Math.floor(start / segment);
          const v = r.partials[piece * spec.slots + slot]!;
          out[s] = out[s] === undefined ? v : combine[slot]!(out[s]!, v);
        });
        return out;
      });
    },
  };
}

const or = (a: number, b: number): number => (a || b ? 1 : 0);
const and = (a: number, b: number): number => (a && b ? 1 : 0);
const plus = (a: number, b: number): number => a + b;

/** Lengths either side of every lane count and of the unrolled vector loop's step. */
const LENGTHS = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100];
/** Blocks of 13 end most runs in the scalar tail; blocks of 80 hold unrolled vectors of 16 lanes. */
const BLOCKS = [13, 80];

describe('any and all of masks, in vector lanes', () => {
  test.each(TYPES.flatMap((t) => (['any', 'all'] as const).map((fn) => [t, fn] as const)))('%s %s: exact for a lone element at every position', (t, fn) => {
    const r = runner(maskReduce(t, fn), 100);
    expect(r.lanes).toBe(LANES[t]);
    // any: one set element among unset ones; all: one unset among set ones.
    const [lone, rest] = fn === 'any' ? [SET[t], UNSET[t]] : [UNSET[t], SET[t]];
    for (const n of LENGTHS) {
      for (const at of [-1, ...Array.from({ length: n }, (_, i) => i)]) {
        const values = Array.from({ length: n }, (_, i) => (i === at ? lone : rest));
        for (const blockSize of BLOCKS) {
          const got = r.run([values], blockSize, Math.max(n, 1), [fn === 'any' ? or : and])[0]?.[0];
          // An empty any is false and an empty all true, as NumPy's.
          const want = fn === 'any' ? (at >= 0 ? 1 : 0) : (at >= 0 ? 0 : 1);
          expect([n, at, blockSize, got ?? (fn === 'any' ? 0 : 1)]).toEqual([n, at, blockSize, want]);
        }
      }
    }
  });

  test('along reduced runs that cut blocks into pieces: each run its own answer', () => {
    const r = runner(maskReduce('float64', 'any'), 440);
    for (const segment of [1, 2, 5, 16, 17, 40]) {
      // Runs of `segment` elements, about 400 of them (a launch's runs divide its elements).
      const n = segment * Math.ceil(391 / segment);
      // Every third run holds one set element, at a place that moves along the run.
      const values = Array.from({ length: n }, (_, i) => {
        const s = Math.floor(i / segment);
        return s % 3 === 0 && i % segment === s % segment ? 2.5 : 0;
      });
      for (const blockSize of BLOCKS) {
        const [got] = r.run([values], blockSize, segment, [or]);
        const want = Array.from({ length: Math.ceil(n / segment) }, (_, s) => values.slice(s * segment, (s + 1) * segment).some((v) => v !== 0) ? 1 : 0);
        expect(got).toEqual(want);
      }
    }
  });
});

describe('the count of a mask, in i8x16 lanes', () => {
  /** A deterministic mask of n elements, about `density` of them set. */
  const maskOf = (n: number, density: number, seed: number): number[] => {
    let s = seed;
    return Array.from({ length: n }, () => {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      return s / 2 ** 32 < density ? 1 : 0;
    });
  };
  const count = (m: readonly number[], from = 0, to = m.length): number => m.slice(from, to).reduce((a, b) => a + b, 0);

  test('its count and any in one kernel: counted, exactly', () => {
    const r = runner(countAndAny(), 5000);
    expect(r.lanes).toBe('i8x16');
    for (const n of [...LENGTHS, 255, 256, 257, 1023, 4099]) {
      for (const density of [0, 0.3, 1]) {
        const m = maskOf(n, density, n + 7);
        for (const blockSize of [...BLOCKS, 4096]) {
          const [sums, anys] = r.run([m], blockSize, Math.max(n, 1), [plus, or]);
          const [sum, any] = [sums?.[0], anys?.[0]];
          expect([n, density, blockSize, sum ?? 0, any ?? 0]).toEqual([n, density, blockSize, count(m), count(m) > 0 ? 1 : 0]);
        }
      }
    }
  });

  test('of a mask combined from two, per reduced run', () => {
    const r = runner(countBoth(), 1100);
    expect(r.lanes).toBe('i8x16');
    for (const segment of [1, 3, 16, 33, 500, 997]) {
      const n = segment * Math.ceil(997 / segment);
      const a = maskOf(n, 0.5, 1);
      const b = maskOf(n, 0.5, 2);
      const both = a.map((x, i) => (x && !b[i] ? 1 : 0));
      for (const blockSize of BLOCKS) {
        const [got] = r.run([a, b], blockSize, segment, [plus]);
        expect(got).toEqual(Array.from({ length: Math.ceil(n / segment) }, (_, s) => count(both, s * segment, (s + 1) * segment)));
      }
    }
  });

  test('a mask made float64 for anything but sums keeps float lanes', () => {
    const spec: KernelSpec = {
      ndim: 1,
      arrays: [arr('bool')],
      body: [{ op: 'load', array: 0, type: 'bool' }, { op: 'cast', arg: 0, type: 'float64' }, { op: 'reduce', fn: 'max', arg: 1, slot: 0, type: 'float64' }],
      slots: 1,
    };
    const r = runner(spec, 100);
    expect(r.lanes).toBe('f64x2');
    const m = maskOf(77, 0.1, 3);
    expect(r.run([m], 13, 77, [Math.max])[0]).toEqual([Math.max(...m)]);
  });
});
