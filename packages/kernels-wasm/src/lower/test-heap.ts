// A bump allocator over a shared memory (or an unshared one), for the lowering's own tests; the
// real allocator lives in src/heap.
import type { HeapLike } from './launch.js';
import type { HostFunction } from './compile.js';
import { HEAP_BASE } from '../heap/constants.js';

/** For kernels that import no host function: any lookup is a test failure. */
const noHost = (k: string): HostFunction => { throw new Error(`no host function ${k}`); };

function testHeap(pages = 256, shared = true): HeapLike & { f64(ptr: number, n: number): Float64Array } {
  const memory = new WebAssembly.Memory({ initial: pages, maximum: 65536, shared });
  // Above the control words and the math constant table, as the real heap.
  let top = HEAP_BASE;
  return {
    memory,
    alloc(bytes: number): number {
      const p = top;
      top += Math.ceil(Math.max(bytes, 1) / 16) * 16;
      if (top > memory.buffer.byteLength) memory.grow(Math.ceil((top - memory.buffer.byteLength) / 65536));
      return p;
    },
    free(): void {},
    f64: (ptr, n) => new Float64Array(memory.buffer, ptr, n),
  };
}

export { testHeap, noHost };
