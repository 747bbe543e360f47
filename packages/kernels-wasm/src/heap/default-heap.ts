// One heap per process (per thread that allocates), made on first use so that
// importing the package costs nothing and reserves no memory.
import { Heap } from './heap.js';
import { heapIsShared } from '../support.js';

let instance: Heap | undefined;

/** The process-wide heap, with default options (grows up to 4 GiB), shared where the host allows (heapIsShared). */
function defaultHeap(): Heap {
  instance ??= new Heap({ shared: heapIsShared() });
  return instance;
}

/** Whether `buffer` is (or was, before a grow) the process-wide heap's memory; false while there is no heap yet. */
function inDefaultHeap(buffer: ArrayBufferLike): boolean {
  return instance !== undefined && instance.isHeapBuffer(buffer);
}

export { defaultHeap, inDefaultHeap };
