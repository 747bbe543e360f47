// int32 "random" arrays are the counter itself: element e's value is e. Read
// contiguous (vector lanes of each type), broadcast (one value per row),
// strided (the scalar loop), in a 2-d space, and selected into a minimum as
// argmin/argmax lowerings read them.
import { compileKernel } from './compile.js';
import type { KInstr, KType, KernelSpec } from './kernel-spec.js';
import { instantiate, launch } from './launch.js';
import type { LaunchArray } from './launch.js';
import { noHost, testHeap } from './test-heap.js';
import { validateSpec } from './validate-spec.js';

const WORDS = { key: [0, 0], stream: [0, 0] } as const;
const CTOR = { float64: Float64Array, float32: Float32Array, int32: Int32Array } as const;

/** Stores the counter (cast to `out`) over [rows, cols] read with strides `strides` from element `first`. */
function run(out: 'float64' | 'float32' | 'int32', shape: [number, number], strides: [number, number], first: number, inner: KernelSpec['arrays'][number]['inner']) {
  const body: KInstr[] = [{ op: 'load', array: 0, type: 'int32' }];
  if (out !== 'int32') body.push({ op: 'cast', arg: 0, type: out });
  body.push({ op: 'store', array: 1, arg: body.length - 1, type: out });
  const spec: KernelSpec = {
    ndim: 2, slots: 0, body,
    arrays: [{ dtype: 'int32', role: 'in', inner, random: true }, { dtype: out, role: 'out', inner: 'contiguous' }],
  };
  validateSpec(spec);
  const heap = testHeap();
  const n = shape[0] * shape[1];
  const ptr = heap.alloc(Math.max(1, n) * CTOR[out].BYTES_PER_ELEMENT);
  const compiled = compileKernel(spec);
  const arrays: LaunchArray[] = [{ ptr: first, strides, random: WORDS }, { ptr, strides: [shape[1], 1] }];
  launch(compiled, heap, instantiate(compiled, heap.memory, { hostFunction: noHost }), { shape, arrays, blockSize: 7 });
  return { values: Array.from(new CTOR[out](heap.memory.buffer, ptr, n)), lanes: compiled.lanes };
}

const want = (shape: [number, number], strides: [number, number], first: number): number[] =>
  Array.from({ length: shape[0] * shape[1] }, (_, i) => first + Math.floor(i / shape[1]) * strides[0] + (i % shape[1]) * strides[1]);

describe('the counter as an int32 array', () => {
  test.each(['int32', 'float64', 'float32'] as const)('contiguous rows in %s lanes: each element its index', (out) => {
    for (const cols of [1, 3, 4, 9, 33]) {
      const shape: [number, number] = [5, cols];
      const r = run(out, shape, [cols, 1], 11, 'contiguous');
      expect(r.lanes).toBe(({ int32: 'i32x4', float64: 'f64x2', float32: 'f32x4' } as const)[out]);
      expect([cols, r.values]).toEqual([cols, want(shape, [cols, 1], 11)]);
    }
  });

  test.each(['int32', 'float64', 'float32'] as const)('broadcast along the rows (%s): the row index, as an index along axis 0 reads', (out) => {
    const shape: [number, number] = [6, 10];
    expect(run(out, shape, [1, 0], 0, 'broadcast').values).toEqual(want(shape, [1, 0], 0));
  });

  test('strided (the scalar loop) and large indices', () => {
    const shape: [number, number] = [3, 5];
    expect(run('int32', shape, [100, 7], 2 ** 30, 'strided').values).toEqual(want(shape, [100, 7], 2 ** 30));
  });

  test('selected where a value equals its maximum, then the least such index: an argmax', () => {
    // x = [3, 9, 2, 9, 1, 9] in float64; m = 9 broadcast; min(where(x == m, index, 6)) = 1.
    const x = [3, 9, 2, 9, 1, 9];
    for (const [t, lanes] of [['float64', 'f64x2'], ['int32', 'i32x4']] as const) {
      const body: KInstr[] = [
        { op: 'load', array: 0, type: t },
        { op: 'load', array: 1, type: t },
        { op: 'binary', fn: 'equal', args: [0, 1], type: 'bool' },
        { op: 'load', array: 2, type: 'int32' },
        ...(t === 'float64' ? [{ op: 'cast', arg: 3, type: 'float64' } as const] : []),
        { op: 'const', value: x.length, type: t as KType },
      ];
      const idx = t === 'float64' ? 4 : 3;
      body.push({ op: 'select', args: [2, idx, body.length - 1], type: t });
      body.push({ op: 'reduce', fn: 'min', arg: body.length - 1, slot: 0, type: t });
      const spec: KernelSpec = {
        ndim: 1, slots: 1, body,
        arrays: [{ dtype: t, role: 'in', inner: 'contiguous' }, { dtype: t, role: 'in', inner: 'broadcast' }, { dtype: 'int32', role: 'in', inner: 'contiguous', random: true }],
      };
      validateSpec(spec);
      const heap = testHeap();
      const Ctor = t === 'float64' ? Float64Array : Int32Array;
      const xp = heap.alloc(x.length * Ctor.BYTES_PER_ELEMENT);
      new Ctor(heap.memory.buffer, xp, x.length).set(x);
      const mp = heap.alloc(8);
      new Ctor(heap.memory.buffer, mp, 1)[0] = 9;
      const compiled = compileKernel(spec);
      expect(compiled.lanes).toBe(lanes);
      const r = launch(compiled, heap, instantiate(compiled, heap.memory, { hostFunction: noHost }), {
        shape: [x.length], arrays: [{ ptr: xp, strides: [1] }, { ptr: mp, strides: [0] }, { ptr: 0, strides: [1], random: WORDS }],
      });
      expect(Math.min(...Array.from(r.partials))).toBe(1);
    }
  });
});
