// An async compiled call's typed-array arguments, copied when it is called
// (the caller may change them before the run, which follows an await)
// straight into heap blocks of the call's own, freed when the call ends.
// The run reads them there (a bound value's `at`), and no JS copy is made:
// V8 takes several microseconds to allocate a typed array of a few KB, more
// than the copy, and the heap copy is the one a run needs anyway.
import type { DType, TypedArray } from '../ir/dtypes.js';
import type { Heap } from '../core/heap.js';
import { sourcesOf } from '../core/source-cache.js';
import type { Bound } from '../execute/backend.js';

/** `t` copied into JS memory: where it is empty, or the heap has no room. */
const jsCopy = (t: TypedArray, dtype: DType): Bound => ({ value: { dtype, shape: [t.length], data: t.slice() } });

class ArgumentCopies {
  readonly #heap: Heap;
  readonly #blocks: number[] = [];

  constructor(heap: Heap) {
    this.#heap = heap;
  }

  /** `t` (of `dtype`) as a bound value of its own: in a heap block, or a JS copy where the heap has no room. */
  bound(t: TypedArray, dtype: DType): Bound {
    const length = t.length;
    if (t.byteLength === 0) return jsCopy(t, dtype);
    let ptr: number;
    try {
      ptr = sourcesOf(this.#heap).copyIn(t, t.byteLength);
    } catch (e) {
      if (this.#heap.isFull(e)) return jsCopy(t, dtype);
      throw e;
    }
    this.#blocks.push(ptr);
    const heap = this.#heap;
    return {
      // A view made when asked for: one made now could be left short (or detached) by a later allocation.
      value: {
        dtype,
        shape: [length],
        get data(): TypedArray {
          return heap.view(dtype, ptr, length);
        },
      },
      at: { heap, ptr },
    };
  }

  /** Frees the blocks: the call has run, and its results do not share them (they are copied out, or into blocks of their own). */
  free(): void {
    for (const ptr of this.#blocks) this.#heap.free(ptr);
    this.#blocks.length = 0;
  }
}

export { ArgumentCopies };
