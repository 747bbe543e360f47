// kernels-wasm: the WebAssembly side of deferred-array. It knows nothing of
// graphs: it compiles KernelSpecs to WebAssembly SIMD kernels and runs them
// over one shared heap.
export { detectSupport, heapIsShared, isSharedBuffer } from './support.js';
export { disassemble, disassembleFunction } from './encode/index.js';
export type { WasmSupport } from './support.js';
export {
  Heap,
  defaultHeap,
  defaultHeapIfMade,
  newHeap,
  inDefaultHeap,
  HeapExhaustedError,
  HeapPointerError,
  formatBytes,
  HEAP_DTYPES,
  PAGE_BYTES,
  WASM32_MAX_PAGES,
  ALIGNMENT,
  NULL_GUARD_BYTES,
  CONTROL_OFFSET,
  CONTROL_BYTES,
  HEAP_BASE,
  blockSize,
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
export {
  compileKernel, compileCount, compileMs, specHash, moduleCacheSize, MODULE_CACHE, KernelCache, unsharedKernel, launch, instantiate, instanceCount, scanLooksBack, INSTANCE_CACHE, BLOCK_SIZE, collapseDims, validateSpec, INT64_UNARY, INT64_BINARY, KTYPE_BYTES,
  workPerElement, launchWork, fixLaunch, runFixed, drainBytes,
} from './lower/index.js';
export type {
  CompiledModule, MathProvider, HostFunction, HostModule, KernelModule, HeapLike, Launch, LaunchArray, LaunchResult, KernelFn, Collapsed,
  FixedLaunch, Drain, KType, InnerStride, KernelArray, KUnary, KBinary, KReduce, KScan, KInstr, KernelSpec, ContractionSpec, ContractionLaunch, ContractionOperand, TempSpec, TempLaunch,
} from './lower/index.js';
export { ELEMENTWISE_OPS, isElementwiseOp, rowOf, arity } from './ops/index.js';
export type { ElementwiseRow, ElementwiseRule, ElementwiseOp, NativeOp, Lowering, UlpBound } from './ops/index.js';
export { mathFunction, isMathAvailable, MATH_ARITY, MATH_FNS } from './math/index.js';
export type { MathFn, MathLanes } from './math/index.js';
export { createPool, launchOnPool, launchFixedOnPool, WorkerFailure, PoolStartError, builtModuleUrl } from './pool/index.js';
export type { CreatePoolOptions, PoolKind, Join, KernelPool, PoolJob, PoolOptions, PoolStats, SpawnWorker, WorkerHandle, SerializedFailure } from './pool/index.js';
// The routines (sorting, selection, scatters, LU, the decompositions' loops) are the entry
// kernels-wasm/routines (routines.ts), which a page loads only when a run needs one.
export type { RoutineJob, RoutineSequence } from './routines/routine-kernel.js';
