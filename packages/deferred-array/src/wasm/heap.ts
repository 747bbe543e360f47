// kernels-wasm's process heap as the package's Heap (core/heap.ts): installed
// when this module loads, which every runtime's WebAssembly backend does.
import { defaultHeap, formatBytes, heapIsShared, inDefaultHeap } from 'kernels-wasm';
import type { TypedArray } from '../ir/dtypes.js';
import { installHeap } from '../core/heap.js';
import type { Heap } from '../core/heap.js';

const wasmHeap: Heap = {
  get shared() {
    return heapIsShared();
  },
  alloc: (bytes) => defaultHeap().alloc(bytes),
  free: (ptr) => defaultHeap().free(ptr),
  view: (dtype, ptr, length): TypedArray => defaultHeap().view(dtype, ptr, length),
  sizeOf: (ptr) => defaultHeap().sizeOf(ptr),
  // Never makes the heap: a buffer cannot be the memory of a heap not yet made.
  isHeapBuffer: (buffer) => inDefaultHeap(buffer),
  isFull: (e) => e instanceof Error && 'code' in e && e.code === 'HEAP',
  stats: () => defaultHeap().stats(),
  formatBytes,
};

installHeap(wasmHeap);

export { wasmHeap };
