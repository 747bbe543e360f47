import { ALIGNMENT, CONTROL_BYTES, CONTROL_OFFSET, HEAP_BASE, MATH_CONSTANTS_BYTES, MATH_CONSTANTS_OFFSET, MATH_TABLES_BYTES, MATH_TABLES_OFFSET, NULL_GUARD_BYTES, PAGE_BYTES } from './constants.js';
import { HeapPointerError } from './errors.js';
import { Heap } from './heap.js';
import { Heap as ExportedHeap, defaultHeap } from './index.js';

const small = (): Heap => new Heap({ initialPages: 1, maxPages: 16 });

describe('Heap layout and alignment', () => {
  test('the reserved area is a null guard, the control words, the math constant table and the math lookup tables, and the allocator starts after it', () => {
    expect(NULL_GUARD_BYTES).toBeGreaterThanOrEqual(64);
    expect(CONTROL_OFFSET).toBe(NULL_GUARD_BYTES);
    expect(MATH_CONSTANTS_OFFSET).toBe(CONTROL_OFFSET + CONTROL_BYTES);
    expect(MATH_CONSTANTS_OFFSET % 16).toBe(0);
    expect(MATH_TABLES_OFFSET).toBe(MATH_CONSTANTS_OFFSET + MATH_CONSTANTS_BYTES);
    expect(HEAP_BASE).toBe(MATH_TABLES_OFFSET + MATH_TABLES_BYTES);
    expect(HEAP_BASE).toBe(53248);
  });

  test('pointers are 16-byte aligned, never 0 and never in the reserved header', () => {
    const heap = small();
    for (const n of [0, 1, 7, 15, 16, 17, 100, 4096, 65_536]) {
      const p = heap.alloc(n);
      expect(p % ALIGNMENT).toBe(0);
      expect(p).toBeGreaterThanOrEqual(HEAP_BASE);
      expect(heap.sizeOf(p)).toBe(Math.max(16, Math.ceil(n / 16) * 16));
    }
  });

  test('zero-byte allocations are valid and distinct', () => {
    const heap = small();
    const ptrs = Array.from({ length: 10 }, () => heap.alloc(0));
    expect(new Set(ptrs).size).toBe(10);
    for (const p of ptrs) heap.free(p);
    expect(heap.stats().liveAllocations).toBe(0);
  });

  test('the memory is a shared WebAssembly.Memory and the default heap is one lazily made instance', () => {
    const heap = small();
    expect(heap.memory).toBeInstanceOf(WebAssembly.Memory);
    expect(Object.prototype.toString.call(heap.memory.buffer)).toBe('[object SharedArrayBuffer]');
    expect(heap.limitBytes).toBe(16 * PAGE_BYTES);
    expect(defaultHeap()).toBe(defaultHeap());
    expect(defaultHeap()).toBeInstanceOf(ExportedHeap);
    expect(defaultHeap().limitBytes).toBe(4 * 1024 ** 3);
  });

  test('an unshared memory is available for hosts without cross-origin isolation', () => {
    const heap = new Heap({ initialPages: 1, maxPages: 4, shared: false });
    // toString, not instanceof: jest's sandbox has its own ArrayBuffer constructor.
    expect(Object.prototype.toString.call(heap.memory.buffer)).toBe('[object ArrayBuffer]');
    const p = heap.alloc(8);
    heap.f64(p, 1)[0] = 2.5;
    heap.alloc(2 * PAGE_BYTES); // grows, which detaches the old buffer
    expect(heap.f64(p, 1)[0]).toBe(2.5);
  });
});

describe('Heap free and coalescing', () => {
  test('freeing every block in any order returns the heap to empty', () => {
    const heap = small();
    const [a, b, c] = [heap.alloc(100), heap.alloc(200), heap.alloc(300)];
    heap.free(a!);
    heap.free(c!);
    // a is a free block; c merged into the untouched space above.
    expect(heap.layout().free).toEqual([{ start: a, size: 112 }]);
    expect(heap.layout().top).toBe(b! + 208);
    heap.free(b!);
    expect(heap.layout()).toEqual({ live: [], free: [], top: HEAP_BASE });
  });

  test('a freed block merges with free neighbours on both sides', () => {
    const heap = small();
    const ps = [64, 64, 64, 64, 64].map((n) => heap.alloc(n));
    heap.free(ps[1]!);
    heap.free(ps[3]!);
    expect(heap.layout().free.length).toBe(2);
    heap.free(ps[2]!);
    expect(heap.layout().free).toEqual([{ start: ps[1], size: 192 }]);
    // The merged block serves a request none of the pieces could.
    expect(heap.alloc(190)).toBe(ps[1]);
  });

  test('a freed block is reused, and a larger one is split', () => {
    const heap = small();
    const a = heap.alloc(1024);
    heap.alloc(16);
    heap.free(a);
    const b = heap.alloc(256);
    expect(b).toBe(a);
    expect(heap.layout().free).toEqual([{ start: a + 256, size: 768 }]);
  });

  test('blocks freed and asked for again at their sizes come back as they were, counted free meanwhile; another size sees them merged', () => {
    const heap = small();
    const guard = heap.alloc(16);
    const run = (): number[] => [heap.alloc(600), heap.alloc(8000), heap.alloc(8000)];
    const first = run();
    const top = heap.layout().top;
    for (const p of first) heap.free(p);
    expect(heap.stats()).toMatchObject({ bytesInUse: 16, liveAllocations: 1 });
    for (let i = 0; i < 5; i++) {
      const again = run();
      expect(new Set(again)).toEqual(new Set(first));
      for (const p of again) heap.free(p);
    }
    for (const p of first) expect(heap.isLive(p)).toBe(false);
    expect(() => heap.free(first[0]!)).toThrow(/double free/);
    expect(() => heap.free(first[1]! + 16)).toThrow(HeapPointerError);
    // A request of a size no freed block has is placed as if they had been merged when freed.
    expect(heap.alloc(20_000)).toBe(guard + 16);
    expect(heap.layout().top).toBe(Math.max(top, guard + 16 + 20_000));
  });

  test('a free block of the request\'s size class that is too small is passed over', () => {
    const heap = small();
    const hole = heap.alloc(320); // 20 units: the class holding 20 to 23 units
    heap.alloc(16);
    heap.free(hole);
    const p = heap.alloc(330); // 21 units, same class, does not fit the hole
    expect(p).not.toBe(hole);
    expect(heap.layout().free).toEqual([{ start: hole, size: 320 }]);
    expect(heap.alloc(320)).toBe(hole);
  });

  test('double free, foreign and interior pointers throw HeapPointerError saying what was wrong', () => {
    const heap = small();
    const p = heap.alloc(64);
    const q = heap.alloc(64);
    heap.free(p);
    const err = (f: () => void): HeapPointerError => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(HeapPointerError);
        return e as HeapPointerError;
      }
      throw new Error('expected a throw');
    };
    const dbl = err(() => heap.free(p));
    expect(dbl.problem).toBe('double-free');
    expect(dbl.code).toBe('HEAP_POINTER');
    expect(dbl.ptr).toBe(p);
    expect(dbl.message).toMatch(/double free/);
    expect(err(() => heap.free(q + 16)).problem).toBe('interior');
    expect(err(() => heap.free(q + 16)).message).toMatch(new RegExp(`16 bytes into the live block at ${q}`));
    expect(err(() => heap.free(0)).message).toMatch(/null guard/);
    expect(err(() => heap.free(CONTROL_OFFSET)).message).toMatch(/reserved control area/);
    expect(err(() => heap.free(q + 65)).problem).toBe('unknown');
    expect(err(() => heap.free(-16)).problem).toBe('unknown');
    expect(err(() => heap.free(Number.NaN)).problem).toBe('unknown');
    // The failed frees changed nothing.
    expect(heap.stats().liveAllocations).toBe(1);
    heap.free(q);
    expect(err(() => heap.free(q)).problem).toBe('double-free');
  });

  test('alloc validates its argument', () => {
    const heap = small();
    expect(() => heap.alloc(-1)).toThrow(RangeError);
    expect(() => heap.alloc(1.5)).toThrow(/non-negative integer/);
    expect(() => heap.alloc(Number.NaN)).toThrow(RangeError);
    expect(() => heap.alloc('8' as unknown as number)).toThrow(TypeError);
  });
});

describe('Heap statistics', () => {
  test('bytesInUse counts rounded block sizes; peak and free bytes follow', () => {
    const heap = small();
    const start = heap.stats();
    expect(start).toEqual({ bytesInUse: 0, peakBytes: 0, liveAllocations: 0, allocatedBytes: 0, allocations: 0, heapBytes: PAGE_BYTES, freeBytes: PAGE_BYTES - HEAP_BASE, shrinks: 0 });
    const a = heap.alloc(10);
    const b = heap.alloc(1000);
    expect(heap.stats()).toEqual({
      bytesInUse: 16 + 1008,
      peakBytes: 1024,
      liveAllocations: 2,
      allocatedBytes: 1010,
      allocations: 2,
      heapBytes: PAGE_BYTES,
      freeBytes: PAGE_BYTES - HEAP_BASE - 1024,
      shrinks: 0,
    });
    heap.free(b);
    // What was requested, not what is live: freeing does not take it back.
    expect(heap.stats().allocatedBytes).toBe(1010);
    expect(heap.stats().bytesInUse).toBe(16);
    expect(heap.stats().peakBytes).toBe(1024);
    heap.resetPeak();
    expect(heap.stats().peakBytes).toBe(16);
    heap.free(a);
    expect(heap.stats().peakBytes).toBe(16);
  });
});

describe('Heap views and copies', () => {
  test('typed views of each dtype read and write the same bytes', () => {
    const heap = small();
    const p = heap.alloc(32);
    heap.f64(p, 2).set([1.5, -2]);
    expect(Array.from(heap.view('float64', p, 2))).toEqual([1.5, -2]);
    heap.i32(p, 1)[0] = 7;
    expect(heap.u8(p, 4)).toEqual(new Uint8Array([7, 0, 0, 0]));
    heap.f32(p, 1)[0] = 0.5;
    expect(heap.view('uint32', p, 1)[0]).toBe(0x3f000000);
    expect(heap.view('bool', p, 1)).toBeInstanceOf(Uint8Array);
    expect(heap.view('int16', p, 2)).toBeInstanceOf(Int16Array);
  });

  test('views refuse misaligned, out-of-range and null-guard addresses, and unknown dtypes', () => {
    const heap = small();
    const p = heap.alloc(16);
    expect(() => heap.f64(p + 4, 1)).toThrow(/multiple of 8/);
    expect(() => heap.f64(0, 1)).toThrow(/null guard/);
    expect(() => heap.u8(p, PAGE_BYTES)).toThrow(/past the heap/);
    expect(() => heap.u8(p, -1)).toThrow(/length/);
    expect(() => heap.view('complex128' as 'float64', p, 1)).toThrow(TypeError);
    expect(heap.u8(CONTROL_OFFSET, CONTROL_BYTES).length).toBe(CONTROL_BYTES);
  });

  test('copyIn copies any typed array in; copyOut returns an unshared copy', () => {
    const heap = small();
    const src = new Float32Array([1, 2, 3, 4.5]);
    const p = heap.copyIn(src);
    expect(heap.sizeOf(p)).toBe(16);
    const out = heap.copyOut(p, 'float32', 4);
    expect(out).toEqual(src);
    expect(Object.prototype.toString.call(out.buffer)).toBe('[object ArrayBuffer]');
    heap.f32(p, 1)[0] = 99;
    expect(out[0]).toBe(1);
    // A source that is a sub-view (offset into its buffer) copies only its own bytes.
    const big = new Uint8Array([9, 8, 7, 6, 5]);
    const q = heap.copyIn(big.subarray(1, 4));
    expect(Array.from(heap.copyOut(q, 'uint8', 3))).toEqual([8, 7, 6]);
    const z = heap.copyIn(new Float64Array(0));
    expect(heap.copyOut(z, 'float64', 0).length).toBe(0);
    expect(() => heap.copyIn([1, 2] as unknown as Float64Array)).toThrow(TypeError);
  });

  test('copyIn of a stale view of the heap itself copies the right data across a grow', () => {
    const heap = new Heap({ initialPages: 1, maxPages: 8 });
    const p = heap.alloc(40_000);
    heap.u8(p, 40_000).fill(3);
    const stale = heap.u8(p, 40_000);
    const q = heap.copyIn(stale); // needs a grow: the old view still reads the same memory
    expect(heap.stats().heapBytes).toBeGreaterThan(PAGE_BYTES);
    expect(heap.u8(q, 40_000).every((b) => b === 3)).toBe(true);
  });
});

describe('Heap options', () => {
  test('bad options are rejected with the option named', () => {
    expect(() => new Heap({ maxPages: 0 })).toThrow(/maxPages/);
    expect(() => new Heap({ maxPages: 65_537 })).toThrow(/maxPages must be an integer from 1 to 65536/);
    expect(() => new Heap({ maxPages: 2.5 })).toThrow(RangeError);
    expect(() => new Heap({ maxPages: '4' as unknown as number })).toThrow(TypeError);
    expect(() => new Heap({ maxPages: 4, initialPages: 5 })).toThrow(/initialPages must be an integer from 1 to 4/);
    expect(() => new Heap({ shared: 1 as unknown as boolean })).toThrow(/shared/);
    expect(() => new Heap({ registry: {} as never })).toThrow(/registry/);
    expect(() => new Heap(null as never)).toThrow(TypeError);
  });

  test('initialPages defaults to 64 pages, or maxPages when lower', () => {
    expect(new Heap({ maxPages: 128 }).stats().heapBytes).toBe(64 * PAGE_BYTES);
    expect(new Heap({ maxPages: 3 }).stats().heapBytes).toBe(3 * PAGE_BYTES);
  });
});
