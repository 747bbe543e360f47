// The heap as this package sees it: one shared memory that kernels, mutable
// arrays, view results and cached sources live in. Its allocator is the
// WebAssembly backend's (wasm/heap.ts installs it when the package loads), so
// that nothing outside wasm/ knows kernels-wasm; the heap outlives any
// runtime, since arrays and views made under one are read under another.
import type { DType, TypedArray } from '../ir/dtypes.js';

/** What the heap holds now and has handed out. */
interface HeapStats {
  /** Bytes in live blocks, counting each block at its rounded size (a multiple of 16, at least 16). */
  readonly bytesInUse: number;
  /** The highest bytesInUse since the heap was made or resetPeak() was called. */
  readonly peakBytes: number;
  readonly liveAllocations: number;
  /** Bytes requested by every alloc() since the heap was made (never decreases): what a loop allocates per step is its difference. */
  readonly allocatedBytes: number;
  /** alloc() calls since the heap was made. */
  readonly allocations: number;
  /** memory.buffer.byteLength: the memory's current size, reserved area included. */
  readonly heapBytes: number;
  /** Bytes of the current memory neither reserved nor in use (free blocks plus untouched space). */
  readonly freeBytes: number;
}

interface Heap {
  /** Whether the memory is shared with worker threads (where the host allows it): view results need that. */
  readonly shared: boolean;
  /** A block of `bytes`; throws an error isFull() recognises when none fits. */
  alloc(bytes: number): number;
  free(ptr: number): void;
  /** `length` elements of `dtype` at `ptr` (bool as bytes). */
  view(dtype: DType, ptr: number, length: number): TypedArray;
  /** The size of the block at `ptr`. */
  sizeOf(ptr: number): number;
  /** Whether `buffer` is (or was, before a grow) the heap's memory; false, and no heap made, when there is none yet. */
  isHeapBuffer(buffer: ArrayBufferLike): boolean;
  /** Whether `e` is the heap's "no block fits" error. */
  isFull(e: unknown): boolean;
  stats(): HeapStats;
  /** A byte count as the heap's own errors print it, so that a note added to one of them reads the same. */
  formatBytes(bytes: number): string;
}

/** The process's heap, once the backend that provides it has been loaded. */
const installed: { heap?: Heap } = {};

/** Makes `h` the process's heap (wasm/heap.ts, once, when the package loads). */
function installHeap(h: Heap): void {
  installed.heap = h;
}

function heap(): Heap {
  if (!installed.heap) throw new Error('internal: no heap installed (import the package through its index)');
  return installed.heap;
}

export { heap, installHeap };
export type { Heap, HeapStats };
