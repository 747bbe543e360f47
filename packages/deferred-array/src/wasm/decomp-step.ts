// qr, eigh, svd and cholesky by kernels-wasm's Householder, tridiagonal,
// Jacobi and Cholesky routines (decomp-kernels.ts), one matrix of the stack
// at a time on the calling thread: the reference's algorithms
// (reference/decomp.ts's packedParts) with their inner work in kernels, so
// the same bits. The matrices are read from a float64 copy; the packed
// results are written into the result's block directly where it is float64
// and contiguous.
import type { FamilyNode } from '../ir/node.js';
import { sizeOf } from '../ir/shape.js';
import { packedParts } from '../reference/decomp.js';
import { blockSizes, decompKernels } from './decomp-kernels.js';
import { dropValue, isContiguous } from './heap-value.js';
import type { HeapValue } from './heap-value.js';
import { writtenInto } from './step-heap.js';
import type { StepHeap } from './step-heap.js';

const KERNEL_OPS: ReadonlySet<string> = new Set(['qr', 'eigh', 'svd', 'cholesky']);

/** Whether the decomposition is one decompStep runs. */
const isDecompStep = (n: FamilyNode<'decomp'>): boolean => KERNEL_OPS.has(n.op);

function decompStep(n: FamilyNode<'decomp'>, inputs: readonly HeapValue[], h: StepHeap): HeapValue {
  const a = inputs[0]!;
  const m = a.shape[a.shape.length - 2] ?? 0;
  const cols = a.shape[a.shape.length - 1] ?? 0;
  const count = sizeOf(a.shape.slice(0, -2));
  // Values per matrix: the packed parts, or cholesky's n x n.
  const total = count === 0 ? 0 : sizeOf(n.shape) / count;
  // Every block taken goes back, whichever of the allocations or the work fails.
  const held: HeapValue[] = [];
  const take = (v: HeapValue): HeapValue => { held.push(v); return v; };
  let x: HeapValue | undefined;
  let out: HeapValue;
  try {
    const src = take(h.copy(a, 'float64', `copy of linalg.${n.op}'s matrix`));
    const blocks = blockSizes(n.op, m, cols, n.attrs.uv ?? false).map((size) => take(h.temp('float64', [Math.max(1, size)])));
    out = h.place(n);
    x = n.dtype === 'float64' && isContiguous(out) ? out : take(h.temp('float64', n.shape));
    // Views taken after every block is made: a memory that grows after them could leave them behind.
    const { memory } = h.heap;
    const kernels = decompKernels({ memory, a: blocks[0]!.ptr, b: blocks[1]!.ptr, c: blocks[2]!.ptr, d: blocks[3]!.ptr });
    const from = new Float64Array(memory.buffer, src.ptr, count * m * cols);
    const to = new Float64Array(memory.buffer, x.ptr, count * total);
    for (let i = 0; i < count; i++) {
      let at = i * total;
      for (const part of packedParts(n, from.slice(i * m * cols, (i + 1) * m * cols), m, cols, kernels)) {
        to.set(part, at);
        at += part.length;
      }
    }
    // The result block leaves the held ones: writtenInto drops it once copied into place.
    if (x !== out) held.splice(held.indexOf(x), 1);
  } finally {
    for (const v of held) dropValue(v);
  }
  return x === out ? out : writtenInto(n, x, out, h, `linalg.${n.op} into place`);
}

export { decompStep, isDecompStep };
