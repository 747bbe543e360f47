// The free blocks below the heap's top, indexed three ways: by start and by
// end address (so a freed block finds its free neighbours in O(1) and merges
// with them), and by size class (so an allocation finds a block that fits
// without walking the whole list). All sizes and addresses are in bytes;
// every size is a positive multiple of ALIGNMENT.
import { ALIGNMENT } from './constants.js';
import { CLASS_COUNT, classMin, classOf } from './size-classes.js';

interface FreeBlock {
  readonly start: number;
  readonly size: number;
}

class FreeBlocks {
  #sizeByStart = new Map<number, number>();
  #startByEnd = new Map<number, number>();
  // Sets keep insertion order, so each class is served first-in first-out.
  #classes: Set<number>[] = Array.from({ length: CLASS_COUNT }, () => new Set<number>());
  /** Bit c set when class c holds a block: a search skips empty classes 32 at a time. */
  #held = new Uint32Array(Math.ceil(CLASS_COUNT / 32));
  #bytes = 0;

  /** Number of free blocks. */
  get count(): number {
    return this.#sizeByStart.size;
  }

  /** Sum of the sizes of all free blocks. */
  get bytes(): number {
    return this.#bytes;
  }

  add(start: number, size: number): void {
    this.#sizeByStart.set(start, size);
    this.#startByEnd.set(start + size, start);
    const c = classOf(size / ALIGNMENT);
    this.#bucket(c).add(start);
    this.#held[c >>> 5]! |= 1 << (c & 31);
    this.#bytes += size;
  }

  remove(start: number): number {
    const size = this.#sizeByStart.get(start);
    if (size === undefined) throw new Error(`internal: no free block starts at ${start}`);
    this.#sizeByStart.delete(start);
    this.#startByEnd.delete(start + size);
    const c = classOf(size / ALIGNMENT);
    const bucket = this.#bucket(c);
    bucket.delete(start);
    if (bucket.size === 0) this.#held[c >>> 5]! &= ~(1 << (c & 31));
    this.#bytes -= size;
    return size;
  }

  /** The free block that ends exactly at `end`, if any. */
  endingAt(end: number): FreeBlock | undefined {
    const start = this.#startByEnd.get(end);
    if (start === undefined) return undefined;
    return { start, size: this.#sizeByStart.get(start) ?? 0 };
  }

  /** The free block that starts exactly at `start`, if any. */
  startingAt(start: number): FreeBlock | undefined {
    const size = this.#sizeByStart.get(start);
    return size === undefined ? undefined : { start, size };
  }

  /**
   * Finds a free block of at least `size` bytes, or undefined. Good fit: any
   * block of a class whose smallest member is big enough is taken without
   * looking at its size; only when none exists is the request's own class
   * searched block by block.
   */
  find(size: number): FreeBlock | undefined {
    const units = size / ALIGNMENT;
    const own = classOf(units);
    const firstSure = classMin(own) === units ? own : own + 1;
    const c = this.#firstHeld(firstSure);
    if (c >= 0) {
      for (const start of this.#bucket(c)) return { start, size: this.#sizeByStart.get(start) ?? 0 };
    }
    if (firstSure === own) return undefined;
    for (const start of this.#classes[own] ?? []) {
      const s = this.#sizeByStart.get(start) ?? 0;
      if (s >= size) return { start, size: s };
    }
    return undefined;
  }

  /** The size of the largest free block (0 when there is none). */
  largest(): number {
    for (let c = CLASS_COUNT - 1; c >= 0; c--) {
      const bucket = this.#classes[c];
      if (bucket === undefined || bucket.size === 0) continue;
      let best = 0;
      for (const start of bucket) best = Math.max(best, this.#sizeByStart.get(start) ?? 0);
      return best;
    }
    return 0;
  }

  /** The free block containing `addr`, if any; a linear scan, for error messages only. */
  containing(addr: number): FreeBlock | undefined {
    for (const [start, size] of this.#sizeByStart) if (addr >= start && addr < start + size) return { start, size };
    return undefined;
  }

  /** All free blocks in address order (for inspection and tests). */
  list(): FreeBlock[] {
    return [...this.#sizeByStart].map(([start, size]) => ({ start, size })).sort((a, b) => a.start - b.start);
  }

  /** The first class at or above `from` that holds a block, or -1. */
  #firstHeld(from: number): number {
    for (let w = from >>> 5; w < this.#held.length; w++) {
      // The word's bits below `from` masked off in its first word.
      const bits = w === from >>> 5 ? this.#held[w]! & (~0 << (from & 31)) : this.#held[w]!;
      if (bits !== 0) return w * 32 + 31 - Math.clz32(bits & -bits);
    }
    return -1;
  }

  #bucket(c: number): Set<number> {
    const bucket = this.#classes[c];
    if (bucket === undefined) throw new Error(`internal: no size class ${c}`);
    return bucket;
  }
}

export { FreeBlocks };
export type { FreeBlock };
