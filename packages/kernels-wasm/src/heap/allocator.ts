// The bookkeeping half of the heap: which address ranges are live and which
// are free. It never touches memory, so it can be tested (and reasoned about)
// as pure address arithmetic; Heap owns the WebAssembly.Memory and grows it
// when this says the top must move past the memory's end.
//
// Layout: live and free blocks tile [HEAP_BASE, top) exactly; [top, end of
// memory) is untouched space. Invariants kept by every operation:
//   - no two free blocks are adjacent (freeing merges with both neighbours);
//   - no free block ends at top (it is folded into the untouched space).
// Block metadata lives in JS maps, not in boundary tags inside the memory, so
// a kernel writing out of bounds cannot corrupt the allocator.
//
// Parking: a freed block of up to PARK_MAX_BYTES is first set aside, still
// marked in the live map (by its negated size), and handed out again to the
// next request of exactly its size. A call that allocates and frees the same
// few blocks every time (a compiled function's launch block, its copies, its
// result) then costs a map write and an array push or pop per block, where
// merging and splitting cost a dozen map and set operations that also make
// V8 reallocate tables as they empty and fill. Parked blocks count as free
// (bytesInUse, liveCount); they are all merged back at the first request of a
// size none of them has (so before the memory could grow), before any layout
// is reported, and when more sizes than PARK_SIZES would be parked (a block
// past the other bounds is merged at once): a request of a new size finds the
// layout it would have found unparked, and the invariants above hold for
// every layout anyone sees.
import { ALIGNMENT, HEAP_BASE, NULL_GUARD_BYTES } from './constants.js';
import { HeapPointerError } from './errors.js';
import { FreeBlocks } from './free-blocks.js';
import type { FreeBlock } from './free-blocks.js';

/** The block size a request of `bytes` occupies: a multiple of ALIGNMENT, at least one, so zero-byte blocks stay distinct. */
function blockSize(bytes: number): number {
  return Math.max(ALIGNMENT, Math.ceil(bytes / ALIGNMENT) * ALIGNMENT);
}

interface AllocatorLayout {
  /** Live blocks in address order. */
  readonly live: readonly FreeBlock[];
  /** Free blocks in address order. */
  readonly free: readonly FreeBlock[];
  /** Everything at or above top is untouched. */
  readonly top: number;
}

/** Blocks larger than this are merged at once: their contents cost far more than the merging. */
const PARK_MAX_BYTES = 256 * 1024;
/** Parked blocks per size, and parked bytes in all. */
const PARK_PER_SIZE = 8;
const PARK_BUDGET_BYTES = 4 * 1024 * 1024;
/** Distinct sizes parked at once; a program cycling through more merges them all and starts over. */
const PARK_SIZES = 64;

class BlockAllocator {
  /** Live blocks by start: their sizes; a parked block's size negated. */
  #live = new Map<number, number>();
  #free = new FreeBlocks();
  #top = HEAP_BASE;
  #bytesInUse = 0;
  /** Parked blocks' starts by size, most recently parked last. */
  #parked = new Map<number, number[]>();
  #parkedBytes = 0;
  #parkedCount = 0;

  get top(): number {
    return this.#top;
  }

  get bytesInUse(): number {
    return this.#bytesInUse;
  }

  get liveCount(): number {
    return this.#live.size - this.#parkedCount;
  }

  /** Bytes in free blocks below top, parked ones included. */
  get fragmentBytes(): number {
    return this.#free.bytes + this.#parkedBytes;
  }

  largestFreeBlock(): number {
    this.unpark();
    return this.#free.largest();
  }

  /** Merges every parked block into the free blocks (or the untouched space). */
  unpark(): void {
    if (this.#parkedCount === 0) return;
    for (const stack of this.#parked.values()) {
      for (const ptr of stack) {
        const size = -this.#live.get(ptr)!;
        this.#live.delete(ptr);
        this.#merge(ptr, size);
      }
    }
    this.#parked.clear();
    this.#parkedBytes = 0;
    this.#parkedCount = 0;
  }

  /**
   * Places a block of `size` bytes (a blockSize result) below `end`, preferring
   * free blocks to the untouched space. Returns undefined when only moving top
   * past `end` would do; the caller grows the memory to top + size and retries.
   */
  allocate(size: number, end: number): number | undefined {
    const stack = this.#parkedCount === 0 ? undefined : this.#parked.get(size);
    if (stack !== undefined && stack.length > 0) {
      const ptr = stack.pop()!;
      this.#parkedBytes -= size;
      this.#parkedCount--;
      return this.#commit(ptr, size);
    }
    // A request of another size sees every freed block merged, as if none had been parked: parking
    // speeds up a repeating pattern of sizes and changes nothing else about where blocks go.
    this.unpark();
    const fit = this.#free.find(size);
    if (fit !== undefined) {
      this.#free.remove(fit.start);
      // The remainder keeps the old block's right neighbour, which is live, so it needs no merging.
      if (fit.size > size) this.#free.add(fit.start + size, fit.size - size);
      return this.#commit(fit.start, size);
    }
    if (this.#top + size > end) return undefined;
    const ptr = this.#top;
    this.#top += size;
    return this.#commit(ptr, size);
  }

  /** Releases a live block and returns its size; throws HeapPointerError for anything else. */
  release(ptr: number): number {
    const size = this.#live.get(ptr);
    if (size === undefined || size < 0) throw this.#pointerError(ptr, 'free');
    this.#bytesInUse -= size;
    if (this.#park(ptr, size)) return size;
    this.#live.delete(ptr);
    this.#merge(ptr, size);
    return size;
  }

  /** Sets a freed block aside for the next request of its size, if parking's bounds allow. */
  #park(ptr: number, size: number): boolean {
    if (size > PARK_MAX_BYTES || this.#parkedBytes + size > PARK_BUDGET_BYTES) return false;
    let stack = this.#parked.get(size);
    if (stack === undefined) {
      if (this.#parked.size >= PARK_SIZES) this.unpark();
      this.#parked.set(size, (stack = []));
    }
    if (stack.length >= PARK_PER_SIZE) return false;
    stack.push(ptr);
    this.#live.set(ptr, -size);
    this.#parkedBytes += size;
    this.#parkedCount++;
    return true;
  }

  /** Files the free range [ptr, ptr + size) among the free blocks, merged with its free neighbours. */
  #merge(ptr: number, size: number): void {
    let start = ptr;
    let end = ptr + size;
    const left = this.#free.endingAt(start);
    if (left !== undefined) {
      this.#free.remove(left.start);
      start = left.start;
    }
    const right = this.#free.startingAt(end);
    if (right !== undefined) {
      this.#free.remove(right.start);
      end += right.size;
    }
    if (end === this.#top) this.#top = start;
    else this.#free.add(start, end - start);
  }

  /** The size of a live block; throws HeapPointerError for anything else. */
  sizeOf(ptr: number, action = 'use'): number {
    const size = this.#live.get(ptr);
    if (size === undefined || size < 0) throw this.#pointerError(ptr, action);
    return size;
  }

  isLive(ptr: number): boolean {
    return (this.#live.get(ptr) ?? -1) > 0;
  }

  /** Live and free blocks, parked ones merged first: the layout the invariants above describe. */
  layout(): AllocatorLayout {
    this.unpark();
    const live = [...this.#live].map(([start, size]) => ({ start, size })).sort((a, b) => a.start - b.start);
    return { live, free: this.#free.list(), top: this.#top };
  }

  #commit(ptr: number, size: number): number {
    this.#live.set(ptr, size);
    this.#bytesInUse += size;
    return ptr;
  }

  // Says why a pointer is not a live block, as precisely as the layout allows:
  // a pointer into free space was almost certainly freed already.
  #pointerError(ptr: number, action: string): HeapPointerError {
    // A parked block is free space like any other.
    this.unpark();
    const what = `Cannot ${action} heap pointer ${String(ptr)}`;
    if (typeof ptr !== 'number' || !Number.isInteger(ptr) || ptr < 0) {
      return new HeapPointerError(ptr, 'unknown', `${what}: a pointer is a non-negative integer returned by alloc().`);
    }
    if (ptr < HEAP_BASE) {
      const area = ptr < NULL_GUARD_BYTES ? 'the null guard' : 'the reserved control area';
      return new HeapPointerError(ptr, 'unknown', `${what}: it lies in ${area} below ${HEAP_BASE}, which alloc() never hands out.`);
    }
    const owner = this.#liveBlockContaining(ptr);
    if (owner !== undefined) {
      return new HeapPointerError(
        ptr,
        'interior',
        `${what}: it points ${ptr - owner.start} bytes into the live block at ${owner.start} (${owner.size} bytes); pass the address alloc() returned.`,
      );
    }
    if (ptr % ALIGNMENT === 0 && (ptr >= this.#top || this.#free.containing(ptr) !== undefined)) {
      return new HeapPointerError(
        ptr,
        'double-free',
        `${what}: it is not allocated (it lies in free space), so it was most likely freed already (double free). ` +
          'Free each allocation exactly once, and do not use a pointer after freeing it.',
      );
    }
    return new HeapPointerError(ptr, 'unknown', `${what}: alloc() never returned it (pointers are ${ALIGNMENT}-byte aligned).`);
  }

  // Linear, but only ever on the way to an error.
  #liveBlockContaining(addr: number): FreeBlock | undefined {
    for (const [start, size] of this.#live) if (addr > start && addr < start + size) return { start, size };
    return undefined;
  }
}

export { BlockAllocator, blockSize };
export type { AllocatorLayout };
