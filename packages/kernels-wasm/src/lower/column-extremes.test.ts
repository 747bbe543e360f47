// min and max over the rows of a column kernel (a max over axis 0 of a
// row-major matrix) for every integer type up to 32 bits: in i32x4 lanes,
// whose partials hold narrow values extended and uint32 values unsigned,
// against each column's extreme in JS, and against the scalar loop (the
// matrix read with a column stride of 2). Widths around the lanes and the
// vectors taken side by side, row counts around the row groups, the types'
// extremes and blocks of columns.
import { compileKernel } from './compile.js';
import type { KernelSpec } from './kernel-spec.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import { instantiate, launch } from './launch.js';
import { noHost, testHeap } from './test-heap.js';
import { VIEW_CONSTRUCTORS } from '../heap/dtypes.js';

type IntType = 'int32' | 'uint32' | 'int16' | 'uint16' | 'int8' | 'uint8';
const RANGE: Record<IntType, readonly [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1], uint32: [0, 2 ** 32 - 1], int16: [-32768, 32767], uint16: [0, 65535], int8: [-128, 127], uint8: [0, 255],
};

const spec = (t: IntType, fn: 'min' | 'max', inner: 'contiguous' | 'strided'): KernelSpec => ({
  ndim: 2, slots: 1, mode: 'columns',
  arrays: [{ dtype: t, role: 'in', inner }],
  body: [{ op: 'load', array: 0, type: t }, { op: 'reduce', fn, arg: 0, slot: 0, type: t }],
});

/** Values of t drawn from its extremes, values near them and small ones, by a fixed sequence. */
function values(t: IntType, n: number, seed: number): number[] {
  const [lo, hi] = RANGE[t];
  const picks = [lo, hi, lo + 1, hi - 1, 0, 1, Math.floor(hi / 2) + 1, Math.floor((lo + hi) / 2) - 3];
  let s = seed;
  return Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    const k = s % 16;
    return k < picks.length ? picks[k]! : lo + (s % (hi - lo + 1));
  });
}

function run(t: IntType, fn: 'min' | 'max', x: readonly number[], R: number, C: number, colStride: number) {
  const heap = testHeap();
  const bytes = KTYPE_BYTES[t];
  const xp = heap.alloc(R * C * colStride * bytes);
  const xv = new (VIEW_CONSTRUCTORS[t] as unknown as Float64ArrayConstructor)(heap.memory.buffer, xp, R * C * colStride);
  x.forEach((v, i) => { xv[i * colStride] = v; });
  const compiled = compileKernel(spec(t, fn, colStride === 1 ? 'contiguous' : 'strided'));
  const kernel = instantiate(compiled, heap.memory, { hostFunction: noHost });
  const r = launch(compiled, heap, kernel, { shape: [R, C], arrays: [{ ptr: xp, strides: [C * colStride, colStride] }], blockSize: 8 * 16 });
  return { lanes: compiled.lanes, columns: Array.from(r.partials.subarray(0, C)) };
}

describe('integer extremes over the rows of a column kernel', () => {
  const types = Object.keys(RANGE) as IntType[];
  test.each(types.flatMap((t) => (['min', 'max'] as const).map((fn) => [t, fn] as const)))('%s %s: in i32x4 lanes, each column\'s extreme', (t, fn) => {
    for (const [R, C] of [[1, 1], [3, 4], [17, 5], [16, 33], [40, 19], [33, 64]] as const) {
      const x = values(t, R * C, R * 31 + C);
      const want = Array.from({ length: C }, (_, c) => {
        const column = Array.from({ length: R }, (_, r) => x[r * C + c]!);
        return fn === 'min' ? Math.min(...column) : Math.max(...column);
      });
      const v = run(t, fn, x, R, C, 1);
      const s = run(t, fn, x, R, C, 2);
      expect(v.lanes).toBe('i32x4');
      expect(s.lanes).toBeUndefined();
      expect(v.columns).toEqual(want);
      expect(s.columns).toEqual(want);
    }
  });
});
