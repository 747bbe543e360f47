// solve, inv, det and slogdet by kernels-wasm's LU, one matrix of the stack
// at a time on the calling thread: the reference's algorithm operation for
// operation (reference/decompositions.ts), so the same bits, with its rows
// updated two lanes at a time. The matrices are factored in a float64 copy;
// solve and inv solve in place over a copy of b or the identity, written
// into the result's block directly where it is float64 and contiguous.
import { LU_SCRATCH, luFactor, luSolve } from 'kernels-wasm/routines';
import type { FamilyNode } from '../ir/node.js';
import { sizeOf } from '../ir/shape.js';
import { detOf, singularMatrix, slogdetOf } from '../reference/decompositions.js';
import { dropValue, isContiguous } from './heap-value.js';
import type { HeapValue } from './heap-value.js';
import { writtenInto } from './step-heap.js';
import type { StepHeap } from './step-heap.js';

const LU_OPS: ReadonlySet<string> = new Set(['solve', 'inv', 'det', 'slogdet']);

/** Whether the decomposition is one luStep runs (the rest run through the reference). */
const isLuStep = (n: FamilyNode<'decomp'>): boolean => LU_OPS.has(n.op);

function luStep(n: FamilyNode<'decomp'>, inputs: readonly HeapValue[], h: StepHeap): HeapValue {
  const a = inputs[0]!;
  const size = a.shape[a.shape.length - 1] ?? 0;
  const count = sizeOf(a.shape.slice(0, -2));
  const { memory } = h.heap;
  const lu = h.copy(a, 'float64', `copy of linalg.${n.op}'s matrix`);
  const piv = h.temp('int32', [Math.max(1, size)]);
  const scratch = h.temp('uint8', [LU_SCRATCH]);
  const factor = (i: number): ReturnType<typeof luFactor> => luFactor(memory, matrix(i), size, piv.ptr, scratch.ptr);
  const matrix = (i: number): number => lu.ptr + i * size * size * 8;
  try {
    if (n.op === 'det' || n.op === 'slogdet') {
      const values = h.temp('float64', n.op === 'det' ? [count] : [count, 2]);
      const v = new Float64Array(memory.buffer, values.ptr, sizeOf(values.shape));
      for (let i = 0; i < count; i++) {
        const { sign } = factor(i);
        const r = slogdetOf({ a: new Float64Array(memory.buffer, matrix(i), size * size), sign }, size);
        if (n.op === 'det') v[i] = detOf(r);
        else v.set(r, 2 * i);
      }
      return writtenInto(n, values, h.place(n), h, `linalg.${n.op} into place`);
    }
    const op = n.op === 'inv' ? 'inv' : 'solve';
    const b = inputs[1];
    const k = op === 'inv' ? size : b!.shape.length === a.shape.length ? b!.shape[b!.shape.length - 1]! : 1;
    const out = h.place(n);
    const x = n.dtype === 'float64' && isContiguous(out) ? out : h.temp('float64', n.shape);
    if (b) {
      h.copyInto(b, x, "copy of linalg.solve's b");
    } else {
      const eye = new Float64Array(memory.buffer, x.ptr, count * size * size).fill(0);
      for (let i = 0; i < count * size; i++) eye[i * size + (i % size)] = 1;
    }
    for (let i = 0; i < count; i++) {
      if (factor(i).singular) throw singularMatrix(op);
      luSolve(memory, matrix(i), size, piv.ptr, x.ptr + i * size * k * 8, k);
    }
    return x === out ? out : writtenInto(n, x, out, h, `linalg.${n.op} into place`);
  } finally {
    for (const v of [lu, piv, scratch]) dropValue(v);
  }
}

export { isLuStep, luStep };
