import { jest } from '@jest/globals';
import { HEAP_BASE, PAGE_BYTES } from './constants.js';
import { HeapExhaustedError } from './errors.js';
import { Heap } from './heap.js';

afterEach(() => jest.restoreAllMocks());

describe('Heap growth', () => {
  test('allocating more than the initial memory grows it, and data written before is intact', () => {
    const heap = new Heap({ initialPages: 1, maxPages: 64 });
    const a = heap.alloc(8 * 1000);
    const before = heap.f64(a, 1000);
    before.forEach((_, i) => (before[i] = i * 1.5));
    const big = heap.alloc(5 * PAGE_BYTES);
    expect(heap.stats().heapBytes).toBeGreaterThanOrEqual(big + 5 * PAGE_BYTES);
    const after = heap.f64(a, 1000);
    expect(after.every((x, i) => x === i * 1.5)).toBe(true);
    // The old view still reads the same memory, but only its old length: re-derive after alloc.
    expect(before.buffer.byteLength).toBe(PAGE_BYTES);
    const end = big + 5 * PAGE_BYTES - 8;
    expect(() => new Float64Array(before.buffer, end, 1)).toThrow(RangeError);
    heap.f64(end, 1)[0] = 42; // a fresh view reaches the new pages
    expect(heap.f64(end, 1)[0]).toBe(42);
  });

  test('growth doubles when the cap allows, so many small allocations grow rarely', () => {
    const heap = new Heap({ initialPages: 1, maxPages: 64 });
    const sizes: number[] = [];
    for (let i = 0; i < 2000; i++) {
      heap.alloc(1000);
      const now = heap.stats().heapBytes;
      if (sizes[sizes.length - 1] !== now) sizes.push(now);
    }
    expect(sizes.map((b) => b / PAGE_BYTES)).toEqual([1, 2, 4, 8, 16, 32]);
  });

  test('growth stops at maxPages exactly, never past it', () => {
    const heap = new Heap({ initialPages: 3, maxPages: 5 });
    heap.alloc(4 * PAGE_BYTES);
    expect(heap.stats().heapBytes).toBe(5 * PAGE_BYTES);
    expect(heap.memory.buffer.byteLength).toBe(5 * PAGE_BYTES);
  });

  test('after freeing everything, a big allocation reuses the memory instead of growing it', () => {
    const heap = new Heap({ initialPages: 1, maxPages: 64 });
    const ptrs = Array.from({ length: 50 }, (_, i) => heap.alloc(1000 + i * 997));
    const grown = heap.stats().heapBytes;
    for (const p of ptrs.filter((_, i) => i % 2 === 0)) heap.free(p);
    for (const p of ptrs.filter((_, i) => i % 2 === 1)) heap.free(p);
    expect(heap.layout()).toEqual({ live: [], free: [], top: HEAP_BASE });
    const p = heap.alloc(grown - HEAP_BASE);
    expect(p).toBe(HEAP_BASE);
    expect(heap.stats().heapBytes).toBe(grown);
  });

  test('if the host cannot double the memory, growth falls back to the minimum needed', () => {
    const heap = new Heap({ initialPages: 16, maxPages: 64 });
    const realGrow = WebAssembly.Memory.prototype.grow;
    const asked: number[] = [];
    jest.spyOn(WebAssembly.Memory.prototype, 'grow').mockImplementation(function (this: WebAssembly.Memory, delta: number) {
      asked.push(delta);
      if (delta > 1) throw new RangeError('WebAssembly.Memory.grow(): Unable to grow instance memory');
      return realGrow.call(this, delta);
    });
    heap.alloc(16 * PAGE_BYTES); // needs 17 pages; doubling would ask for 32
    expect(asked).toEqual([16, 1]);
    expect(heap.stats().heapBytes).toBe(17 * PAGE_BYTES);
  });

  test('if the host refuses to grow at all, the error is HeapExhaustedError with the cause attached', () => {
    const heap = new Heap({ initialPages: 1, maxPages: 64 });
    const refusal = new RangeError('WebAssembly.Memory.grow(): Unable to grow instance memory');
    jest.spyOn(WebAssembly.Memory.prototype, 'grow').mockImplementation(() => {
      throw refusal;
    });
    const p = heap.alloc(1000);
    let caught: unknown;
    try {
      heap.alloc(2 * PAGE_BYTES);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(HeapExhaustedError);
    const e = caught as HeapExhaustedError;
    expect(e.cause).toBe(refusal);
    expect(e.message).toMatch(/host refused to grow/);
    // Nothing changed: the live block is still there and the heap still works.
    expect(heap.stats().liveAllocations).toBe(1);
    heap.free(p);
  });
});
