// kernels-wasm heaps as the package's Heap (core/heap.ts): the process heap,
// installed when this module loads (which every runtime's WebAssembly backend
// does), and a runtime's own, each made on first use so that a runtime
// reserves no memory until it runs.
import { HEAP_BASE, Heap as KernelHeapOf, PAGE_BYTES, defaultHeap, defaultHeapIfMade, formatBytes, heapIsShared, newHeap } from 'kernels-wasm';
import type { Heap as KernelHeap } from 'kernels-wasm';
import type { TypedArray } from '../ir/dtypes.js';
import { installHeap, registerHeap } from '../core/heap.js';
import type { Heap, HeapStats } from '../core/heap.js';

class WasmHeap implements Heap {
  readonly #get: () => KernelHeap;
  readonly #peek: () => KernelHeap | undefined;
  readonly #private: boolean;

  /** `get` makes the memory on first call; `peek` gives it only once made. A `private` one is never shared (privateHeap). */
  constructor(get: () => KernelHeap, peek: () => KernelHeap | undefined, isPrivate = false) {
    this.#get = get;
    this.#peek = peek;
    this.#private = isPrivate;
  }

  /** kernels-wasm's heap, made now if it is not yet: its memory is what kernels and workers import. */
  get kernels(): KernelHeap {
    return this.#get();
  }

  /** kernels-wasm's heap if it has been made. */
  get made(): KernelHeap | undefined {
    return this.#peek();
  }

  get shared(): boolean {
    return !this.#private && heapIsShared();
  }

  alloc(bytes: number): number {
    return this.#get().alloc(bytes);
  }

  free(ptr: number): void {
    this.#get().free(ptr);
  }

  view(dtype: Parameters<Heap['view']>[0], ptr: number, length: number): TypedArray {
    return this.#get().view(dtype, ptr, length);
  }

  sizeOf(ptr: number): number {
    return this.#get().sizeOf(ptr);
  }

  // Never makes the memory: a buffer cannot be the memory of a heap not yet made.
  isHeapBuffer(buffer: ArrayBufferLike): boolean {
    return this.#peek()?.isHeapBuffer(buffer) ?? false;
  }

  isFull(e: unknown): boolean {
    return e instanceof Error && 'code' in e && e.code === 'HEAP';
  }

  stats(): HeapStats {
    return this.#get().stats();
  }

  shrinkable(releasable: number): boolean {
    return this.#peek()?.shrinkable(releasable) ?? false;
  }

  shrink(): boolean {
    return this.#peek()?.shrink() ?? false;
  }

  formatBytes(bytes: number): string {
    return formatBytes(bytes);
  }
}

/** The process heap: kernels-wasm's default one. */
const processWasmHeap = new WasmHeap(defaultHeap, defaultHeapIfMade);

installHeap(processWasmHeap);

/** A heap of a runtime's own, under the same ceiling as the process heap. */
function ownHeap(): WasmHeap {
  let made: KernelHeap | undefined;
  const h = new WasmHeap(() => (made ??= newHeap()), () => made);
  registerHeap(h);
  return h;
}

/**
 * A heap private to the calling thread, over an unshared memory of at most
 * twice `runBytes` (made at its first use): for runs that copy their
 * arguments in and their result out, which V8 does as plain memory copies
 * there, and a word at a time to and from a shared buffer. No array of the
 * caller's lives in it, so it is no runtime's heap (not registered).
 */
function privateHeap(runBytes: number): WasmHeap {
  let made: KernelHeap | undefined;
  const pages = (bytes: number): number => Math.ceil((HEAP_BASE + bytes) / PAGE_BYTES);
  const make = (): KernelHeap => new KernelHeapOf({ shared: false, initialPages: pages(runBytes / 4), maxPages: pages(2 * runBytes) });
  return new WasmHeap(() => (made ??= make()), () => made, true);
}

export { WasmHeap, processWasmHeap, ownHeap, privateHeap };
