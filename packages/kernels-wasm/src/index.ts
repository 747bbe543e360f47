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
  compileKernel, compileCount, compileMs, specHash, moduleCacheSize, MODULE_CACHE, KernelCache, launch, instantiate, instanceCount, scanLooksBack, INSTANCE_CACHE, BLOCK_SIZE, collapseDims, validateSpec, INT64_UNARY, INT64_BINARY, KTYPE_BYTES,
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
export { createPool, launchOnPool, WorkerFailure, PoolStartError, builtModuleUrl } from './pool/index.js';
export type { CreatePoolOptions, PoolKind, KernelPool, PoolJob, PoolOptions, PoolStats, SpawnWorker, WorkerHandle, SerializedFailure } from './pool/index.js';
export { sortLines } from './routines/radix-sort.js';
export { selectJob, sortJob } from './routines/sort-job.js';
export type { SortJob } from './routines/sort-job.js';
export { longSortJobs } from './routines/long-sort-job.js';
export { onlyLaunch } from './routines/routine-kernel.js';
export type { RoutineJob, RoutineSequence } from './routines/routine-kernel.js';
export { selectLines } from './routines/select.js';
export { partitionLines } from './routines/partition.js';
export type { PartitionOutput } from './routines/partition.js';
export type { SortKind, SortOutput } from './routines/radix-sort.js';
export { luFactor, luSolve, LU_SCRATCH } from './routines/lu.js';
export type { LuFactors } from './routines/lu.js';
export { addAt, checkedAddAt, countJob, countSpreads, firstIndexOutside } from './routines/scatter.js';
export type { CountJob } from './routines/scatter.js';
export type { AddAtType } from './routines/scatter.js';
export { reflect, hestenesRow } from './routines/rotations.js';
export { tredApply, tredUpdate, tredAccumulate, qlRotations, sweepTableBytes } from './routines/tridiagonal.js';
export { choleskyColumn } from './routines/cholesky.js';
export type { TridiagonalWork, QlSweep } from './routines/tridiagonal.js';
export type { Reflectors } from './routines/rotations.js';
