// The array heap: one WebAssembly.Memory that every kernel and worker sees,
// and an allocator over it. See index.ts for the rules callers must follow.
import { BlockAllocator, blockSize } from './allocator.js';
import type { AllocatorLayout } from './allocator.js';
import { HEAP_BASE, NULL_GUARD_BYTES, PAGE_BYTES } from './constants.js';
import { VIEW_CONSTRUCTORS, isHeapDType } from './dtypes.js';
import type { HeapDType, HeapViewTypes } from './dtypes.js';
import { HeapExhaustedError, HeapPointerError } from './errors.js';
import { Lifetimes } from './lifetimes.js';
import { resolveHeapOptions } from './options.js';
import type { HeapOptions } from './options.js';

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
  /** Times shrink() gave the memory back. */
  readonly shrinks: number;
}

class Heap {
  /** Replaced by shrink(): a WebAssembly.Memory never gives pages back, so the heap starts over on a new one. */
  #memory: WebAssembly.Memory;
  readonly #initialPages: number;
  readonly #maxPages: number;
  readonly #shared: boolean;
  #blocks = new BlockAllocator();
  readonly #lifetimes: Lifetimes;
  /** Every buffer object views were made over: growing makes a new one, and views made before keep the old. */
  #buffers = new WeakSet<ArrayBufferLike>();
  /** whole()'s views, of the buffer #wholeOf. */
  readonly #wholes = new Map<HeapDType, HeapViewTypes[HeapDType]>();
  #wholeOf: ArrayBuffer | undefined;
  #dataView: DataView | undefined;
  /**
   * memory.buffer as of the heap's last growth. Only the heap grows its
   * memory, so this is the current buffer; reading memory.buffer of a shared
   * memory costs about 50 ns, and a compiled call read it a dozen times.
   */
  #buffer: ArrayBuffer;
  #peakBytes = 0;
  #allocatedBytes = 0;
  #allocations = 0;
  #shrinks = 0;

  constructor(options?: HeapOptions) {
    const o = resolveHeapOptions(options);
    this.#initialPages = o.initialPages;
    this.#maxPages = o.maxPages;
    this.#shared = o.shared;
    this.#memory = createMemory(o.initialPages, o.maxPages, o.shared);
    this.#buffer = this.#memory.buffer;
    this.#lifetimes = new Lifetimes(o.registry, (ptr) => this.free(ptr));
  }

  /**
   * The memory to import into kernel instances and to post to workers. It
   * is a new one after shrink(): read it per launch, never keep it.
   */
  get memory(): WebAssembly.Memory {
    return this.#memory;
  }

  /** Whether shrink() would give memory back once `releasable` of the live blocks were freed (and none other is live). */
  shrinkable(releasable: number): boolean {
    return this.#blocks.liveCount <= releasable && this.#memory.buffer.byteLength > this.#initialPages * PAGE_BYTES;
  }

  /**
   * Gives the memory back: when no block is live and the memory has grown
   * past its initial size, the heap starts over on a new memory of that
   * size, and the old one is the collector's once nothing else holds it
   * (kernel instances and workers import it: bind them to the new one).
   * Typed arrays made over the old memory keep it alive and stop being heap
   * memory (isHeapBuffer). Returns whether it shrank.
   */
  shrink(): boolean {
    if (!this.shrinkable(0)) return false;
    this.#memory = createMemory(this.#initialPages, this.#maxPages, this.#shared);
    this.#buffer = this.#memory.buffer;
    this.#blocks = new BlockAllocator();
    this.#buffers = new WeakSet();
    this.#wholes.clear();
    this.#wholeOf = undefined;
    this.#dataView = undefined;
    this.#shrinks++;
    return true;
  }

  /**
   * The memory's buffer, for views of heap addresses: it spans every address
   * the heap has handed out. Views made from it follow the rules of view().
   */
  get buffer(): ArrayBuffer {
    return this.#current();
  }

  /** The buffer kept, or the memory's own where the kept one was detached (an unshared memory grown by someone else). */
  #current(): ArrayBuffer {
    if (this.#buffer.byteLength === 0) this.#buffer = this.#memory.buffer;
    return this.#buffer;
  }

  /** The most bytes the memory may grow to (maxPages * 64 KiB). */
  get limitBytes(): number {
    return this.#maxPages * PAGE_BYTES;
  }

  /**
   * Reserves `bytes` bytes and returns their 16-byte-aligned address (never
   * below HEAP_BASE). The contents are unspecified: reused blocks keep old data.
   * May grow the memory, which leaves existing typed-array views short: derive
   * views again after every alloc. Throws HeapExhaustedError when even the
   * largest memory allowed cannot hold the request.
   */
  alloc(bytes: number): number {
    if (typeof bytes !== 'number') throw new TypeError(`Heap.alloc(bytes): bytes must be a number, got ${typeof bytes}.`);
    if (!Number.isInteger(bytes) || bytes < 0) {
      throw new RangeError(`Heap.alloc(bytes): bytes must be a non-negative integer, got ${bytes}.`);
    }
    if (bytes > this.limitBytes) throw this.#exhausted(bytes);
    const size = blockSize(bytes);
    const placed = this.#blocks.allocate(size, this.#buffer.byteLength);
    const ptr = placed ?? this.#growAndAllocate(bytes, size);
    this.#peakBytes = Math.max(this.#peakBytes, this.#blocks.bytesInUse);
    this.#allocatedBytes += bytes;
    this.#allocations++;
    return ptr;
  }

  /** Releases an allocation (and stops tracking its owner). Throws HeapPointerError on a double free or a foreign pointer. */
  free(ptr: number): void {
    this.#blocks.sizeOf(ptr, 'free');
    this.#lifetimes.untrack(ptr);
    this.#blocks.release(ptr);
  }

  /** The usable size of a live allocation: the request rounded up to a multiple of 16 (at least 16). */
  sizeOf(ptr: number): number {
    return this.#blocks.sizeOf(ptr);
  }

  isLive(ptr: number): boolean {
    return this.#blocks.isLive(ptr);
  }

  /**
   * A typed array over `length` elements at byte address `ptr`, made from the
   * current memory.buffer. A view made before a later alloc may be too short
   * (shared memory) or detached (unshared): make views just before use and
   * never keep them across an alloc.
   */
  view<D extends HeapDType>(dtype: D, ptr: number, length: number): HeapViewTypes[D] {
    if (!isHeapDType(dtype)) {
      throw new TypeError(`Heap.view: unknown dtype ${JSON.stringify(dtype)}; use one of ${Object.keys(VIEW_CONSTRUCTORS).join(', ')}.`);
    }
    const ctor = VIEW_CONSTRUCTORS[dtype];
    const buffer = this.#current();
    this.#buffers.add(buffer);
    checkRange(dtype, ptr, length, ctor.BYTES_PER_ELEMENT, buffer.byteLength);
    return new ctor(buffer, ptr, length) as HeapViewTypes[D];
  }

  /**
   * A typed array over the whole current buffer, made once per buffer: for
   * copies into and out of the heap (`whole('float64').set(x, ptr / 8)`)
   * with no view made per copy. It follows the rules of view(): take it
   * after the last alloc before its use.
   */
  whole<D extends HeapDType>(dtype: D): HeapViewTypes[D] {
    const buffer = this.#current();
    if (buffer !== this.#wholeOf) {
      this.#wholes.clear();
      this.#wholeOf = buffer;
      this.#buffers.add(buffer);
    }
    let v = this.#wholes.get(dtype);
    if (!v) this.#wholes.set(dtype, (v = new VIEW_CONSTRUCTORS[dtype](buffer)));
    return v as HeapViewTypes[D];
  }

  /** A DataView of the whole current buffer, made once per buffer (the rules of whole()). */
  dataView(): DataView {
    const buffer = this.#current();
    if (this.#dataView?.buffer !== buffer) {
      this.#buffers.add(buffer);
      this.#dataView = new DataView(buffer);
    }
    return this.#dataView;
  }

  f64(ptr: number, length: number): Float64Array {
    return this.view('float64', ptr, length);
  }

  f32(ptr: number, length: number): Float32Array {
    return this.view('float32', ptr, length);
  }

  i32(ptr: number, length: number): Int32Array {
    return this.view('int32', ptr, length);
  }

  u8(ptr: number, length: number): Uint8Array {
    return this.view('uint8', ptr, length);
  }

  /**
   * Whether `buffer` is this heap's memory: its current buffer, or one that
   * views were made over before the memory grew (byte offsets into either are heap addresses).
   */
  isHeapBuffer(buffer: ArrayBufferLike): boolean {
    // The current buffer is longer than the one the heap last saw only if something else grew the memory.
    return buffer === this.#buffer || this.#buffers.has(buffer) || (buffer.byteLength > this.#buffer.byteLength && buffer === this.#memory.buffer);
  }

  /** Allocates room for `source` and copies its bytes in; returns the address. Free it like any allocation. */
  copyIn(source: ArrayBufferView): number {
    if (!ArrayBuffer.isView(source)) throw new TypeError('Heap.copyIn(source): source must be a typed array or DataView.');
    const ptr = this.alloc(source.byteLength);
    // Read through a fresh byte view: `source` may itself be an old view of this memory.
    this.u8(ptr, source.byteLength).set(new Uint8Array(source.buffer, source.byteOffset, source.byteLength));
    return ptr;
  }

  /** A copy of `length` elements at `ptr`, in an ordinary (unshared) typed array the heap no longer affects. */
  copyOut<D extends HeapDType>(ptr: number, dtype: D, length: number): HeapViewTypes[D] {
    return this.view(dtype, ptr, length).slice() as HeapViewTypes[D];
  }

  /**
   * Frees `ptr` when `owner` is garbage collected, unless it is freed or
   * untracked first. A safety net only: collection may come late or never,
   * so owners should still free explicitly. One owner per allocation.
   */
  track(owner: object, ptr: number): void {
    if ((typeof owner !== 'object' && typeof owner !== 'function') || owner === null) {
      throw new TypeError(`Heap.track(owner, ptr): owner must be an object, got ${owner === null ? 'null' : typeof owner}.`);
    }
    this.#blocks.sizeOf(ptr, 'track');
    if (this.#lifetimes.isTracked(ptr)) {
      throw new HeapPointerError(ptr, 'already-tracked', `Heap.track: pointer ${ptr} already has an owner; call untrack(${ptr}) first.`);
    }
    this.#lifetimes.track(owner, ptr);
  }

  /** Stops freeing `ptr` on its owner's collection (e.g. when ownership moves); true if it was tracked. */
  untrack(ptr: number): boolean {
    return this.#lifetimes.untrack(ptr);
  }

  stats(): HeapStats {
    const heapBytes = this.#memory.buffer.byteLength;
    const bytesInUse = this.#blocks.bytesInUse;
    return {
      bytesInUse,
      peakBytes: this.#peakBytes,
      liveAllocations: this.#blocks.liveCount,
      allocatedBytes: this.#allocatedBytes,
      allocations: this.#allocations,
      heapBytes,
      freeBytes: heapBytes - HEAP_BASE - bytesInUse,
      shrinks: this.#shrinks,
    };
  }

  /** Starts peak tracking afresh from the current bytesInUse (e.g. before measuring one execute()). */
  resetPeak(): void {
    this.#peakBytes = this.#blocks.bytesInUse;
  }

  /** Live and free blocks in address order, and the top of the used range: for tests and debugging. */
  layout(): AllocatorLayout {
    return this.#blocks.layout();
  }

  // Grows to at least what the request needs, doubling when the cap allows so
  // that a run of allocations costs amortised O(1) grows, and falls back to the
  // bare minimum if the host cannot provide the doubled size.
  #growAndAllocate(bytes: number, size: number): number {
    const neededPages = Math.ceil((this.#blocks.top + size) / PAGE_BYTES);
    if (neededPages > this.#maxPages) throw this.#exhausted(bytes);
    const current = this.#memory.buffer.byteLength / PAGE_BYTES;
    const target = Math.max(neededPages, Math.min(this.#maxPages, current * 2));
    try {
      this.#memory.grow(target - current);
    } catch {
      try {
        this.#memory.grow(neededPages - current);
      } catch (cause) {
        throw this.#exhausted(bytes, cause);
      }
    }
    this.#buffer = this.#memory.buffer;
    const ptr = this.#blocks.allocate(size, this.#buffer.byteLength);
    if (ptr === undefined) throw new Error(`internal: ${size} bytes did not fit after growing the heap`);
    return ptr;
  }

  #exhausted(bytes: number, cause?: unknown): HeapExhaustedError {
    const limit = this.limitBytes;
    const untouched = limit - this.#blocks.top;
    const details = {
      requested: bytes,
      available: Math.max(this.#blocks.largestFreeBlock(), untouched),
      limit,
      freeBytes: this.#blocks.fragmentBytes + untouched,
      bytesInUse: this.#blocks.bytesInUse,
      liveAllocations: this.#blocks.liveCount,
      hostRefused: cause !== undefined,
    };
    return cause === undefined ? new HeapExhaustedError(details) : new HeapExhaustedError(details, { cause });
  }
}

function createMemory(initial: number, maximum: number, shared: boolean): WebAssembly.Memory {
  try {
    return new WebAssembly.Memory({ initial, maximum, shared });
  } catch (cause) {
    const hint = shared
      ? ' A shared memory needs SharedArrayBuffer: in a browser, serve the page cross-origin isolated (COOP/COEP headers), or pass { shared: false } to run single-threaded.'
      : '';
    throw new RangeError(`Cannot create the heap's WebAssembly.Memory (${initial} to ${maximum} pages).${hint}`, { cause });
  }
}

function checkRange(dtype: HeapDType, ptr: number, length: number, bytesPer: number, heapBytes: number): void {
  const what = `Heap.view(${dtype}, ${ptr}, ${length})`;
  if (!Number.isInteger(ptr) || ptr < NULL_GUARD_BYTES) {
    throw new RangeError(`${what}: ptr must be an integer heap address of at least ${NULL_GUARD_BYTES}; addresses below are the null guard.`);
  }
  if (!Number.isInteger(length) || length < 0) throw new RangeError(`${what}: length must be a non-negative integer.`);
  if (ptr % bytesPer !== 0) throw new RangeError(`${what}: ptr must be a multiple of ${bytesPer} for ${dtype} elements.`);
  if (ptr + length * bytesPer > heapBytes) {
    throw new RangeError(`${what}: the view would end at ${ptr + length * bytesPer}, past the heap's ${heapBytes} bytes; was the pointer allocated from this heap?`);
  }
}

export { Heap };
export type { HeapStats };
