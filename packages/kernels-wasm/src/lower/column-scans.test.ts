// Scans over the rows of a column kernel (a cumsum over axis 0 of a row-major
// matrix): a lane per column, each column's running value kept in the
// partials between row groups, each row's value stored. Every column adds its
// rows in order, so the bits are a line scanned element by element; checked
// against that in JS for each lane type, the scalar loop, widths around the
// lanes and the vectors taken side by side, row counts around the row groups,
// and blocks of columns.
import fc from 'fast-check';
import { compileKernel } from './compile.js';
import type { KInstr, KScan, KType, KernelSpec } from './kernel-spec.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import { instantiate, launch } from './launch.js';
import { noHost, testHeap } from './test-heap.js';
import { validateSpec } from './validate-spec.js';
import { VIEW_CONSTRUCTORS } from '../heap/dtypes.js';

/** out[r, c] = scan over rows of (x[r, c] * w[r]), and out2 = out + x: w is one value per row (broadcast across columns). */
function columnSpec(t: KType, fn: KScan): KernelSpec {
  const body: KInstr[] = [
    { op: 'load', array: 0, type: t },
    { op: 'load', array: 1, type: t },
    { op: 'binary', fn: 'multiply', args: [0, 1], type: t },
    { op: 'scan', fn, arg: 2, slot: 0, type: t },
    { op: 'store', array: 2, arg: 3, type: t },
    { op: 'binary', fn: 'add', args: [3, 0], type: t },
    { op: 'store', array: 3, arg: 5, type: t },
  ];
  return {
    ndim: 2, slots: 1, mode: 'columns', body,
    arrays: [
      { dtype: t, role: 'in', inner: 'contiguous' }, { dtype: t, role: 'in', inner: 'broadcast' },
      { dtype: t, role: 'out', inner: 'contiguous' }, { dtype: t, role: 'out', inner: 'contiguous' },
    ],
  };
}

const rounding = (t: KType): ((v: number) => number) =>
  (t === 'float32' ? Math.fround : t === 'int32' ? (v: number) => v | 0 : t === 'uint8' ? (v: number) => v & 255 : (v: number) => v);

function times(t: KType, a: number, b: number): number {
  if (t === 'int32') return Math.imul(a, b);
  return rounding(t)(a * b);
}

/** Each column's running value down its rows, from the identity. */
function expected(t: KType, fn: KScan, x: readonly number[], w: readonly number[], R: number, C: number): [number[], number[]] {
  const round = rounding(t);
  const out = new Array<number>(R * C);
  const out2 = new Array<number>(R * C);
  for (let c = 0; c < C; c++) {
    let acc = fn === 'sum' ? 0 : 1;
    for (let r = 0; r < R; r++) {
      const v = times(t, round(x[r * C + c]!), round(w[r]!));
      acc = fn === 'sum' ? round(acc + v) : times(t, acc, v);
      out[r * C + c] = acc;
      out2[r * C + c] = round(acc + round(x[r * C + c]!));
    }
  }
  return [out, out2];
}

function run(t: KType, fn: KScan, x: readonly number[], w: readonly number[], R: number, C: number, colStride = 1) {
  const heap = testHeap();
  const bytes = KTYPE_BYTES[t];
  const n = R * C;
  const xp = heap.alloc(n * colStride * bytes);
  const wp = heap.alloc(R * bytes);
  const [o1, o2] = [heap.alloc(n * bytes), heap.alloc(n * bytes)];
  const xv = new (VIEW_CONSTRUCTORS[t] as Float64ArrayConstructor)(heap.memory.buffer, xp, n * colStride);
  x.forEach((v, i) => { xv[i * colStride] = v; });
  new (VIEW_CONSTRUCTORS[t] as Float64ArrayConstructor)(heap.memory.buffer, wp, R).set(w);
  const spec = colStride === 1 ? columnSpec(t, fn) : { ...columnSpec(t, fn), arrays: columnSpec(t, fn).arrays.map((a, k) => (k === 0 ? { ...a, inner: 'strided' as const } : a)) };
  const compiled = compileKernel(spec);
  launch(compiled, heap, instantiate(compiled, heap.memory, { hostFunction: noHost }), {
    shape: [R, C],
    arrays: [{ ptr: xp, strides: [C * colStride, colStride] }, { ptr: wp, strides: [1, 0] }, { ptr: o1, strides: [C, 1] }, { ptr: o2, strides: [C, 1] }],
  });
  const view = (p: number): number[] => Array.from(new (VIEW_CONSTRUCTORS[t] as Float64ArrayConstructor)(heap.memory.buffer, p, n));
  return { out: [view(o1), view(o2)], lanes: compiled.lanes };
}

describe('column scans', () => {
  test.each([
    ['float64', 'f64x2'], ['float32', 'f32x4'], ['int32', 'i32x4'], ['uint8', undefined],
  ] as const)('%s (%s): each column scanned down its rows, in row order (fast-check)', (t, lanes) => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 40 }),
      fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 2040, max: 2060 })),
      fc.constantFrom<KScan>('sum', 'prod'),
      fc.integer({ min: 1, max: 1e6 }),
      (R, C, fn, seed) => {
        let s = seed;
        const rand = (): number => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
        const int = t === 'int32' || t === 'uint8';
        const value = (): number => (int ? Math.floor(rand() * 7) - 2 : fn === 'prod' ? 0.6 + rand() : (rand() - 0.4) * 1e3);
        const x = Array.from({ length: R * C }, value);
        const w = Array.from({ length: R }, () => (int ? Math.floor(rand() * 3) + 1 : 0.5 + rand()));
        const { out, lanes: got } = run(t, fn, x, w, R, C);
        expect(got).toBe(lanes);
        const want = expected(t, fn, x, w, R, C);
        out.forEach((o, k) => o.forEach((v, i) => { if (!Object.is(v, want[k]![i])) throw new Error(`${t} ${fn} R=${R} C=${C}: output ${k} element ${i} is ${v}, want ${want[k]![i]}`); }));
      },
    ), { numRuns: 40 });
  });

  test('special values in lanes: NaN, infinities and -0 run down their columns', () => {
    const C = 9;
    const specials = [NaN, Infinity, -Infinity, -0, 0, 1e308, -1e308, 5e-324, 1];
    const x = Array.from({ length: 5 * C }, (_, i) => specials[(i * 7) % specials.length]!);
    const w = [1, -1, 2, 0.5, -0];
    for (const fn of ['sum', 'prod'] as const) expect(run('float64', fn, x, w, 5, C).out).toEqual(expected('float64', fn, x, w, 5, C));
  });

  test('a strided input column stride runs the scalar loop, same bits', () => {
    const [R, C] = [19, 11];
    const x = Array.from({ length: R * C }, (_, i) => Math.sin(i) * 100);
    const w = Array.from({ length: R }, (_, i) => 1 + i / 7);
    const { out, lanes } = run('float64', 'sum', x, w, R, C, 3);
    expect(lanes).toBeUndefined();
    expect(out).toEqual(expected('float64', 'sum', x, w, R, C));
  });

  test('a column kernel takes no starting values, and no temporaries', () => {
    const heap = testHeap();
    const compiled = compileKernel(columnSpec('float64', 'sum'));
    const p = heap.alloc(64);
    expect(() => launch(compiled, heap, instantiate(compiled, heap.memory, { hostFunction: noHost }), {
      shape: [2, 2], arrays: [{ ptr: p, strides: [2, 1] }, { ptr: p, strides: [1, 0] }, { ptr: p, strides: [2, 1] }, { ptr: p, strides: [2, 1] }],
      initial: new Float64Array(2),
    })).toThrow(/takes no initial values/);
    expect(() => validateSpec({ ...columnSpec('float64', 'sum'), temps: [] })).toThrow(/runs in 'rows' mode/);
  });
});
