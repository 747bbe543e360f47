// kernels-wasm: the WebAssembly side of deferred-array. It knows nothing of
// graphs; it compiles and runs kernels described by a KernelSpec. So far it
// only reports what the host's WebAssembly supports; the encoder, lowering,
// vector math, heap and pool land with the next issues.
export { detectSupport } from './support.js';
export type { WasmSupport } from './support.js';
