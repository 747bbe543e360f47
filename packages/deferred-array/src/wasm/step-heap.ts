// What a step run by one of kernels-wasm's routines on the calling thread
// (sort-step.ts, lu-step.ts, decomp-step.ts) needs of its run: contiguous
// copies made by copy kernels, the block its value goes to, and scratch
// blocks.
import type { HeapLike } from 'kernels-wasm';
import type { DType } from '../ir/dtypes.js';
import type { Node } from '../ir/node.js';
import { contiguousStrides } from '../ir/shape.js';
import { dropValue } from './heap-value.js';
import type { HeapValue } from './heap-value.js';

interface StepHeap {
  readonly heap: HeapLike;
  /** A contiguous copy of window `v` in `dtype`, by a copy kernel; the step drops it (dropValue) when done. */
  copy(v: HeapValue, dtype: DType, label: string): HeapValue;
  /** Copies window `from` into window `to`, cast to its dtype, by a copy kernel. */
  copyInto(from: HeapValue, to: HeapValue, label: string): void;
  /** Where `n`'s value goes (the run's block for it, an out, or a mutable array's). */
  place(n: Node, shape?: readonly number[]): HeapValue;
  /** A contiguous block of the run's for `shape`; the step drops it when done. */
  temp(dtype: DType, shape: readonly number[]): HeapValue;
}

/** `out`, node n's block, with `from` (n's values, contiguous) copied into it, cast to its dtype; `from` is dropped. */
function writtenInto(n: Node, from: HeapValue, out: HeapValue, h: StepHeap, label: string): HeapValue {
  h.copyInto({ ...from, shape: n.shape, strides: contiguousStrides(n.shape) }, out, label);
  dropValue(from);
  return out;
}

export { writtenInto };
export type { StepHeap };
