// One heap per process (per thread that allocates), made on first use so that
// importing the package costs nothing and reserves no memory.
import { Heap } from './heap.js';
import { Lazy, heapIsShared } from '../support.js';

/** A heap as the process's is made: shared where the host allows, under the environment's ceiling. */
const newHeap = (): Heap => new Heap({ shared: heapIsShared(), ...ceiling() });

const instance = new Lazy(newHeap);

/**
 * The process-wide heap, shared where the host allows (heapIsShared). It grows
 * up to 4 GiB, or up to KERNELS_WASM_HEAP_MAX_MB mebibytes when that is set
 * in the environment before the heap is first used: a ceiling for tests that
 * exhaust the heap mid-run, and for hosts that must cap their memory.
 */
function defaultHeap(): Heap {
  return instance.get();
}

function ceiling(): { maxPages?: number } {
  const raw = typeof process === 'undefined' ? undefined : process.env?.['KERNELS_WASM_HEAP_MAX_MB'];
  if (raw === undefined || raw === '') return {};
  const mb = Number(raw);
  if (!Number.isInteger(mb) || mb < 1 || mb > 4096) {
    throw new RangeError(`KERNELS_WASM_HEAP_MAX_MB must be a whole number of mebibytes from 1 to 4096; got ${JSON.stringify(raw)}`);
  }
  return { maxPages: mb * 16 };
}

/** Whether `buffer` is (or was, before a grow) the process-wide heap's memory; false while there is no heap yet. */
function inDefaultHeap(buffer: ArrayBufferLike): boolean {
  return instance.made && instance.get().isHeapBuffer(buffer);
}

/** The process-wide heap if it has been made; never makes it. */
const defaultHeapIfMade = (): Heap | undefined => (instance.made ? instance.get() : undefined);

export { defaultHeap, defaultHeapIfMade, inDefaultHeap, newHeap };
