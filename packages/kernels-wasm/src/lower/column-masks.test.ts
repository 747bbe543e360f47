// any and all over the rows of a column kernel (over axis 0 of a row-major
// matrix), in vector lanes: each column's answer exactly, for a bool array and
// for comparisons of float64, float32, int32 and int16 arrays with 0, and the
// scalar loop's (the matrix read with a column stride of 2). Each column holds
// at most one element unlike the rest, at a row that moves from column to
// column, so that every row of a row group, and a column with none, is met.
import { compileKernel } from './compile.js';
import type { KInstr, KType, KernelSpec } from './kernel-spec.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import { instantiate, launch } from './launch.js';
import { noHost, testHeap } from './test-heap.js';
import { VIEW_CONSTRUCTORS } from '../heap/dtypes.js';

type Type = 'bool' | 'float64' | 'float32' | 'int32' | 'int16';
const LANES: Record<Type, string> = { bool: 'i32x4', float64: 'f64x2', float32: 'f32x4', int32: 'i32x4', int16: 'i32x4' };

const spec = (t: Type, fn: 'any' | 'all', inner: 'contiguous' | 'strided'): KernelSpec => ({
  ndim: 2, slots: 1, mode: 'columns',
  arrays: [{ dtype: t, role: 'in', inner }],
  body: (t === 'bool'
    ? [{ op: 'load', array: 0, type: 'bool' }, { op: 'reduce', fn, arg: 0, slot: 0, type: 'bool' }]
    : [{ op: 'load', array: 0, type: t }, { op: 'const', value: 0, type: t },
      { op: 'binary', fn: 'notEqual', args: [0, 1], type: 'bool' }, { op: 'reduce', fn, arg: 2, slot: 0, type: 'bool' }]) as KInstr[],
});

/** Column c's odd row out: none for every fifth column, else one moving down the rows. */
const oddRow = (c: number, R: number): number => (c % 5 === 4 ? -1 : (c * 7) % R);

function run(t: Type, fn: 'any' | 'all', R: number, C: number, colStride: number) {
  const heap = testHeap();
  const bytes = KTYPE_BYTES[t as KType];
  const xp = heap.alloc(R * C * colStride * bytes);
  const xv = new (VIEW_CONSTRUCTORS[t as KType] as unknown as Float64ArrayConstructor)(heap.memory.buffer, xp, R * C * colStride);
  // any: set (NaN for floats, which is not 0) where a column's odd row is; all: clear (-0) there and set elsewhere.
  const set = t === 'bool' ? 1 : t === 'float64' || t === 'float32' ? NaN : -1;
  const clear = t === 'float64' || t === 'float32' ? -0 : 0;
  for (let r = 0; r < R; r++) {
    for (let c = 0; c < C; c++) {
      const odd = oddRow(c, R) === r;
      xv[(r * C + c) * colStride] = fn === 'any' ? (odd ? set : clear) : (odd ? clear : set);
    }
  }
  const compiled = compileKernel(spec(t, fn, colStride === 1 ? 'contiguous' : 'strided'));
  const kernel = instantiate(compiled, heap.memory, { hostFunction: noHost });
  const r = launch(compiled, heap, kernel, { shape: [R, C], arrays: [{ ptr: xp, strides: [C * colStride, colStride] }], blockSize: 8 * 16 });
  return { lanes: compiled.lanes, columns: Array.from(r.partials.subarray(0, C)) };
}

describe('any and all over the rows of a column kernel', () => {
  const types = Object.keys(LANES) as Type[];
  test.each(types.flatMap((t) => (['any', 'all'] as const).map((fn) => [t, fn] as const)))('%s %s: in vector lanes, each column\'s answer', (t, fn) => {
    for (const [R, C] of [[1, 1], [3, 4], [17, 5], [16, 33], [40, 19], [33, 64]] as const) {
      const want = Array.from({ length: C }, (_, c) => {
        const odd = oddRow(c, R) >= 0;
        return fn === 'any' ? (odd ? 1 : 0) : (odd ? 0 : 1);
      });
      const v = run(t, fn, R, C, 1);
      const s = run(t, fn, R, C, 2);
      expect(v.lanes).toBe(LANES[t]);
      expect(s.lanes).toBeUndefined();
      expect([R, C, v.columns]).toEqual([R, C, want]);
      expect([R, C, s.columns]).toEqual([R, C, want]);
    }
  });
});
