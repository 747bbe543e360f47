// What the host's WebAssembly can do, found by validating tiny modules rather
// than by sniffing versions: the kernels need SIMD (v128) and, for the worker
// pool, a shared memory.

interface WasmSupport {
  readonly wasm: boolean;
  /** 128-bit SIMD (f64x2, f32x4, i32x4, i8x16). */
  readonly simd: boolean;
  /** Shared WebAssembly.Memory, so workers can see the heap without copying. */
  readonly sharedMemory: boolean;
}

// (module (func (result v128) i32.const 0 i8x16.splat i8x16.popcnt))
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type section: () -> v128
  0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
  0x0a, 0x0a, 0x01, 0x08, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0xfd, 0x62, 0x0b, // code
]);

// (module) — the smallest valid module.
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

/** Whether b is a SharedArrayBuffer; false, not a ReferenceError, where the host hides the constructor (a page without cross-origin isolation). */
const isSharedBuffer = (b: unknown): b is SharedArrayBuffer => typeof SharedArrayBuffer !== 'undefined' && b instanceof SharedArrayBuffer;

function detectSupport(): WasmSupport {
  const W = (globalThis as { WebAssembly?: typeof WebAssembly }).WebAssembly;
  if (!W || typeof W.validate !== 'function') return { wasm: false, simd: false, sharedMemory: false };
  const wasm = W.validate(EMPTY_MODULE);
  const simd = wasm && W.validate(SIMD_PROBE);
  return { wasm, simd, sharedMemory: sharedMemoryWorks(W) };
}

function sharedMemoryWorks(W: typeof WebAssembly): boolean {
  try {
    return isSharedBuffer(new W.Memory({ initial: 1, maximum: 1, shared: true }).buffer);
  } catch {
    return false; // e.g. a browser page without cross-origin isolation
  }
}

/** A value made on first use and kept: for what is fixed for the life of the process. */
class Lazy<T> {
  readonly #make: () => T;
  #made: { readonly value: T } | undefined;

  constructor(make: () => T) {
    this.#make = make;
  }

  get(): T {
    this.#made ??= { value: this.#make() };
    return this.#made.value;
  }

  /** Whether get() has made it. */
  get made(): boolean {
    return this.#made !== undefined;
  }
}

const heapShared = new Lazy((): boolean => {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.['DEFERRED_ARRAY_SHARED_MEMORY'];
  if (env !== undefined && env !== '' && env !== '0' && env !== '1') {
    throw new TypeError(`DEFERRED_ARRAY_SHARED_MEMORY must be 0 or 1; got ${JSON.stringify(env)}`);
  }
  return detectSupport().sharedMemory && env !== '0';
});

/**
 * Whether the process-wide heap, and so every kernel, uses a shared memory:
 * where the host has one (a browser page only when cross-origin isolated),
 * unless the environment says DEFERRED_ARRAY_SHARED_MEMORY=0, which runs the
 * fallback such a page gets (tests use it). Without one there is no worker
 * pool: kernels run on the calling thread over an ordinary memory. Fixed at
 * first use, since kernels are compiled for one or the other.
 */
const heapIsShared = (): boolean => heapShared.get();

export { detectSupport, heapIsShared, isSharedBuffer, SIMD_PROBE, Lazy };
export type { WasmSupport };
