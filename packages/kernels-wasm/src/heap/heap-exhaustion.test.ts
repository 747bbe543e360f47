import { HEAP_BASE, PAGE_BYTES } from './constants.js';
import { HeapExhaustedError } from './errors.js';
import { Heap } from './heap.js';

function exhaustion(f: () => unknown): HeapExhaustedError {
  try {
    f();
  } catch (e) {
    if (e instanceof HeapExhaustedError) return e;
    throw e;
  }
  throw new Error('expected HeapExhaustedError');
}

describe('Heap exhaustion', () => {
  test('a request larger than the capped heap throws HeapExhaustedError with its fields', () => {
    const heap = new Heap({ initialPages: 1, maxPages: 4 });
    const e = exhaustion(() => heap.alloc(5 * PAGE_BYTES));
    expect(e).toBeInstanceOf(RangeError);
    expect(e.name).toBe('HeapExhaustedError');
    expect(e.code).toBe('HEAP');
    expect(e.requested).toBe(5 * PAGE_BYTES);
    expect(e.limit).toBe(4 * PAGE_BYTES);
    expect(e.available).toBe(4 * PAGE_BYTES - HEAP_BASE);
    expect(e.message).toContain('cannot allocate 327,680 bytes (320.0 KiB)');
    expect(e.message).toContain('only 208,896 bytes (204.0 KiB) are available');
    expect(e.message).toContain('wasm32 caps the heap at 4 GiB');
    expect(e.message).toContain('capped lower, at 262,144 bytes (256.0 KiB)');
    expect(e.message).toMatch(/Dispose arrays .* or process the data in smaller chunks/);
    // A failed request does not grow the memory or change the accounting.
    expect(heap.stats()).toMatchObject({ heapBytes: PAGE_BYTES, bytesInUse: 0, liveAllocations: 0 });
  });

  test('a request beyond 4 GiB names only the wasm32 limit', () => {
    const heap = new Heap({ initialPages: 1 });
    const e = exhaustion(() => heap.alloc(2 ** 32 + 1));
    expect(e.limit).toBe(2 ** 32);
    expect(e.message).toContain('wasm32 caps the heap at 4 GiB (65536 pages of 64 KiB).');
    expect(e.message).not.toContain('capped lower');
    expect(heap.stats().heapBytes).toBe(PAGE_BYTES);
  });

  test('filling the heap then asking for more fails; freeing makes room again', () => {
    const heap = new Heap({ initialPages: 1, maxPages: 4 });
    const blocks: number[] = [];
    let error: HeapExhaustedError | undefined;
    for (;;) {
      try {
        blocks.push(heap.alloc(16_000));
      } catch (e) {
        error = e as HeapExhaustedError;
        break;
      }
    }
    expect(error).toBeInstanceOf(HeapExhaustedError);
    expect(error!.available).toBeLessThan(16_000);
    expect(blocks.length).toBe(Math.floor((4 * PAGE_BYTES - HEAP_BASE) / 16_000));
    expect(heap.stats().liveAllocations).toBe(blocks.length);
    heap.free(blocks.pop()!);
    expect(() => heap.alloc(16_000)).not.toThrow();
  });

  test('when free space is fragmented the message says so, and available is the largest piece', () => {
    const heap = new Heap({ initialPages: 4, maxPages: 4 });
    const blocks = Array.from({ length: 10 }, () => heap.alloc(20_000));
    for (let i = 0; i < blocks.length; i += 2) heap.free(blocks[i]!);
    const e = exhaustion(() => heap.alloc(30_000));
    const untouched = 4 * PAGE_BYTES - heap.layout().top;
    expect(e.available).toBe(Math.max(20_000, untouched));
    expect(e.message).toContain('free in total, but not in one piece');
  });
});
