// Scratch blocks a routine takes from the caller's heap for one call.
import type { HeapLike } from '../lower/launch.js';

interface Scratch {
  /** A block of at least `bytes` (16 at least), held until release. */
  alloc(bytes: number): number;
  /** Gives every block taken back to the heap. */
  release(): void;
}

function scratchOn(heap: HeapLike): Scratch {
  const held: number[] = [];
  return {
    alloc(bytes) {
      const p = heap.alloc(Math.max(16, bytes));
      held.push(p);
      return p;
    },
    release() {
      for (const p of held.splice(0)) heap.free(p);
    },
  };
}

export { scratchOn };
