// Lowering: KernelSpec -> WebAssembly, and running kernels on the calling thread.
export { compileKernel, compileCount, compileMs, specHash, moduleCacheSize, MODULE_CACHE, KernelCache, unsharedKernel } from './compile.js';
export { launch, instantiate, instanceCount, scanLooksBack, BLOCK_SIZE, INSTANCE_CACHE } from './launch.js';
export { fixLaunch, runFixed, drainBytes } from './fixed-launch.js';
export type { FixedLaunch, Drain } from './fixed-launch.js';
export { collapseDims } from './collapse.js';
export { INT64_BINARY, INT64_UNARY, validateSpec } from './validate-spec.js';
export { KTYPE_BYTES } from './kernel-spec.js';
export { workPerElement, launchWork } from './work.js';
export type { CompiledModule, MathProvider, HostFunction } from './compile.js';
export type { HeapLike, HostModule, KernelModule, Launch, LaunchArray, LaunchResult, KernelFn, ContractionLaunch, ContractionOperand, TempLaunch } from './launch.js';
export type { Collapsed } from './collapse.js';
export type { KType, InnerStride, KernelArray, KUnary, KBinary, KReduce, KScan, KInstr, KernelSpec, ContractionSpec, TempSpec } from './kernel-spec.js';
