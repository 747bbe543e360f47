// The array heap: one shared WebAssembly.Memory holding every array that
// kernels touch, visible to all workers without copying.
//
// Rules for callers:
// - alloc() returns a 16-byte-aligned byte address >= HEAP_BASE; 0 is never
//   valid. Zero-byte requests get distinct addresses. free() each address
//   exactly once; a double free or a foreign address throws HeapPointerError.
// - alloc() may grow the memory. Growing a shared memory does not detach
//   the old buffer, but views made over it keep their old length (and an
//   unshared memory detaches it): derive views with view()/f64()/... after
//   every alloc, never keep one across an alloc.
// - The bytes [CONTROL_OFFSET, CONTROL_OFFSET + CONTROL_BYTES) are reserved
//   for kernel control words (atomic block counters); alloc() never hands
//   them out.
// - wasm32 caps the memory at 4 GiB; a request that cannot fit even then
//   (or under a lower maxPages) throws HeapExhaustedError (code 'HEAP').
// - track(owner, ptr) frees ptr when owner is garbage collected; an explicit
//   free() or untrack() cancels that, so nothing is freed twice.
// - stats().bytesInUse counts blocks at their rounded size (a multiple of 16,
//   at least 16), which is what they occupy.
export { Heap } from './heap.js';
export type { HeapStats } from './heap.js';
export { defaultHeap, defaultHeapIfMade, inDefaultHeap, newHeap } from './default-heap.js';
export { HeapExhaustedError, HeapPointerError, formatBytes } from './errors.js';
export type { HeapPointerProblem } from './errors.js';
export type { HeapOptions } from './options.js';
export type { HeapDType, HeapViewTypes, HeapView } from './dtypes.js';
export { HEAP_DTYPES } from './dtypes.js';
export type { TrackedAllocation, FinalizerRegistry, RegistryFactory } from './lifetimes.js';
export { blockSize } from './allocator.js';
export type { AllocatorLayout } from './allocator.js';
export type { FreeBlock } from './free-blocks.js';
export {
  PAGE_BYTES,
  WASM32_MAX_PAGES,
  ALIGNMENT,
  NULL_GUARD_BYTES,
  CONTROL_OFFSET,
  CONTROL_BYTES,
  HEAP_BASE,
} from './constants.js';
