import { HEAP_BASE, PAGE_BYTES } from './constants.js';
import { Heap } from './heap.js';

describe('Heap.shrink', () => {
  test('with nothing live, a grown heap starts over on a new memory of its initial size', () => {
    const heap = new Heap({ initialPages: 2, maxPages: 64, shared: true });
    const old = heap.memory;
    const a = heap.alloc(10 * PAGE_BYTES);
    const oldView = heap.f64(a, 4);
    oldView[0] = 7;
    heap.free(a);
    expect(heap.stats().heapBytes).toBeGreaterThan(2 * PAGE_BYTES);
    expect(heap.isHeapBuffer(oldView.buffer)).toBe(true);
    expect(heap.shrink()).toBe(true);
    expect(heap.memory).not.toBe(old);
    expect(heap.memory.buffer.byteLength).toBe(2 * PAGE_BYTES);
    expect(heap.stats()).toMatchObject({ heapBytes: 2 * PAGE_BYTES, bytesInUse: 0, liveAllocations: 0, shrinks: 1 });
    // Arrays over the old memory are no longer heap memory: read in place, they would read the new one.
    expect(heap.isHeapBuffer(oldView.buffer)).toBe(false);
    expect(heap.isHeapBuffer(heap.buffer)).toBe(true);
    expect(oldView[0]).toBe(7);
    // The allocator starts over at the base, and views are of the new memory.
    const b = heap.alloc(100);
    expect(b).toBe(HEAP_BASE);
    expect(heap.f64(b, 1).buffer).toBe(heap.memory.buffer);
    expect(heap.whole('float64').buffer).toBe(heap.memory.buffer);
    expect(heap.dataView().buffer).toBe(heap.memory.buffer);
    heap.free(b);
  });

  test('a live block keeps the memory, and so does a heap that never grew', () => {
    const heap = new Heap({ initialPages: 1, maxPages: 64 });
    const old = heap.memory;
    expect(heap.shrink()).toBe(false);
    const a = heap.alloc(3 * PAGE_BYTES);
    const b = heap.alloc(16);
    heap.free(a);
    expect(heap.shrink()).toBe(false);
    expect(heap.memory).toBe(old);
    expect(heap.stats().shrinks).toBe(0);
    heap.free(b);
    expect(heap.shrink()).toBe(true);
    expect(heap.memory.buffer.byteLength).toBe(PAGE_BYTES);
  });

  test('an unshared heap shrinks too, and grows again after', () => {
    const heap = new Heap({ initialPages: 1, maxPages: 64, shared: false });
    heap.free(heap.alloc(5 * PAGE_BYTES));
    expect(heap.shrink()).toBe(true);
    const p = heap.alloc(5 * PAGE_BYTES);
    heap.f64(p, 1)[0] = 3;
    expect(heap.f64(p, 1)[0]).toBe(3);
    expect(heap.stats().heapBytes).toBeGreaterThanOrEqual(6 * PAGE_BYTES);
    expect(() => heap.free(p + 16)).toThrow(/pointer/i);
    heap.free(p);
  });
});
