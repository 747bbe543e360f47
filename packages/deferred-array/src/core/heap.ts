// The heap as this package sees it: a memory that kernels, view results and
// cached sources live in. Each runtime has its own (made on its first run);
// the default runtime's is the process heap, which is also home to mutable
// arrays, since those belong to no runtime. The allocator is the WebAssembly
// backend's (wasm/heap.ts), so that nothing outside wasm/ knows kernels-wasm.
// Data crosses heaps by copy: a view result of one runtime read by another is
// copied in like any array, and a runtime reads and writes mutable arrays in
// the process heap through copies.
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
  /** Times the heap gave its memory back, starting over on a small one (when the runtime was idle with nothing in the heap, or shut down). */
  readonly shrinks: number;
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
  /** Whether `buffer` is (or was, before a grow) this heap's memory; false, and no memory made, when it has none yet. */
  isHeapBuffer(buffer: ArrayBufferLike): boolean;
  /** Whether `e` is the heap's "no block fits" error. */
  isFull(e: unknown): boolean;
  stats(): HeapStats;
  /**
   * Whether shrink() would give memory back once `releasable` of the live
   * blocks were freed: the memory has grown past its initial size, and no
   * other block is live.
   */
  shrinkable(releasable: number): boolean;
  /**
   * Starts over on a new memory of the initial size when no block is live
   * and the memory has grown (see shrinkable); true if it did. Whatever
   * imports the old memory (kernels, workers) must be bound to the new one.
   */
  shrink(): boolean;
  /** A byte count as the heap's own errors print it, so that a note added to one of them reads the same. */
  formatBytes(bytes: number): string;
}

/** The process heap once the backend that provides it has been loaded, and every heap made since (weakly). */
const heaps: { process?: Heap; readonly all: Set<WeakRef<Heap>> } = { all: new Set() };

/** Makes `h` the process heap: the default runtime's, and home to mutable arrays (wasm/heap.ts, once, when the package loads). */
function installHeap(h: Heap): void {
  heaps.process = h;
  registerHeap(h);
}

/** Counts `h` among the heaps whose memory a typed array may lie in (a runtime's own heap, when it is made). */
function registerHeap(h: Heap): void {
  heaps.all.add(new WeakRef(h));
}

/** The default runtime's heap, where mutable arrays live. */
function processHeap(): Heap {
  if (!heaps.process) throw new Error('internal: no heap installed (import the package through its index)');
  return heaps.process;
}

/** The heap `ref` holds, forgetting the reference once its heap is collected. */
function derefHeap(ref: WeakRef<Heap>): Heap | undefined {
  const h = ref.deref();
  if (h === undefined) heaps.all.delete(ref);
  return h;
}

/** Every heap still reachable. */
function liveHeaps(): Heap[] {
  const live: Heap[] = [];
  for (const ref of heaps.all) {
    const h = derefHeap(ref);
    if (h) live.push(h);
  }
  return live;
}

/** The heap whose memory `buffer` is, if any. */
function heapHolding(buffer: ArrayBufferLike): Heap | undefined {
  // No list made: this runs for every typed array a call reads or writes.
  for (const ref of heaps.all) {
    const h = derefHeap(ref);
    if (h?.isHeapBuffer(buffer)) return h;
  }
  return undefined;
}

export { processHeap, installHeap, registerHeap, liveHeaps, heapHolding };
export type { Heap, HeapStats };
