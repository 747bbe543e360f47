// One heap per process (per thread that allocates), made on first use so that
// importing the package costs nothing and reserves no memory.
import { Heap } from './heap.js';

let instance: Heap | undefined;

/** The process-wide heap, with default options (grows up to 4 GiB). */
function defaultHeap(): Heap {
  instance ??= new Heap();
  return instance;
}

export { defaultHeap };
