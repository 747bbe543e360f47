// kernels-wasm: the WebAssembly side of deferred-array. It knows nothing of
// graphs; it compiles and runs kernels described by a KernelSpec. So far it
// only reports what the host's WebAssembly supports; the encoder, lowering,
// vector math, heap and pool land with the next issues.
export { detectSupport } from './support.js';
export type { WasmSupport } from './support.js';
export {
  Heap,
  defaultHeap,
  HeapExhaustedError,
  HeapPointerError,
  HEAP_DTYPES,
  PAGE_BYTES,
  WASM32_MAX_PAGES,
  ALIGNMENT,
  NULL_GUARD_BYTES,
  CONTROL_OFFSET,
  CONTROL_BYTES,
  HEAP_BASE,
} from './heap/index.js';
export type {
  HeapStats,
  HeapOptions,
  HeapDType,
  HeapViewTypes,
  HeapView,
  HeapPointerProblem,
  TrackedAllocation,
  FinalizerRegistry,
  RegistryFactory,
  AllocatorLayout,
  FreeBlock,
} from './heap/index.js';
