// Random alloc/free sequences checked against a model and the allocator's
// own invariants after every step. Each live block is filled with a byte
// unique to it, so any overlap also shows up as corrupted data.
import fc from 'fast-check';
import { ALIGNMENT, HEAP_BASE, PAGE_BYTES } from './constants.js';
import { HeapExhaustedError } from './errors.js';
import { Heap } from './heap.js';

type Op = { readonly kind: 'alloc'; readonly bytes: number } | { readonly kind: 'free'; readonly pick: number };

const sizeArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 256 }) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 8192 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 3 * PAGE_BYTES }) },
);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: sizeArb.map((bytes) => ({ kind: 'alloc' as const, bytes })) },
  { weight: 2, arbitrary: fc.nat().map((pick) => ({ kind: 'free' as const, pick })) },
);

const rounded = (bytes: number): number => Math.max(ALIGNMENT, Math.ceil(bytes / ALIGNMENT) * ALIGNMENT);

interface Live {
  readonly bytes: number;
  readonly mark: number;
}

function checkInvariants(heap: Heap, model: Map<number, Live>): void {
  const stats = heap.stats();
  const heapBytes = heap.memory.buffer.byteLength;
  const { live, free, top } = heap.layout();
  expect(stats.heapBytes).toBe(heapBytes);
  expect(stats.liveAllocations).toBe(model.size);
  expect(stats.bytesInUse).toBe([...model.values()].reduce((s, l) => s + rounded(l.bytes), 0));
  expect(stats.freeBytes).toBe(heapBytes - HEAP_BASE - stats.bytesInUse);
  expect(stats.peakBytes).toBeGreaterThanOrEqual(stats.bytesInUse);
  expect(live.map((b) => b.start).sort((a, b) => a - b)).toEqual([...model.keys()].sort((a, b) => a - b));
  // Live and free blocks tile [HEAP_BASE, top) with no gap and no overlap.
  const tiles = [...live.map((b) => ({ ...b, free: false })), ...free.map((b) => ({ ...b, free: true }))].sort(
    (a, b) => a.start - b.start,
  );
  let cursor = HEAP_BASE;
  let previousFree = false;
  for (const t of tiles) {
    expect(t.start).toBe(cursor);
    expect(t.start % ALIGNMENT).toBe(0);
    expect(t.size % ALIGNMENT).toBe(0);
    expect(t.size).toBeGreaterThan(0);
    // Coalescing: two free blocks are never neighbours.
    expect(previousFree && t.free).toBe(false);
    previousFree = t.free;
    cursor = t.start + t.size;
  }
  expect(cursor).toBe(top);
  // A free block never touches the untouched space above top: it would have merged into it.
  expect(previousFree).toBe(false);
  expect(top).toBeLessThanOrEqual(heapBytes);
  for (const [ptr, l] of model) expect(heap.sizeOf(ptr)).toBe(rounded(l.bytes));
}

function intact(heap: Heap, ptr: number, l: Live): boolean {
  return heap.u8(ptr, l.bytes).every((b) => b === l.mark);
}

// Whether the layout before an alloc had room for it without growing.
function fitsWithoutGrowth(heap: Heap, bytes: number): boolean {
  const { free, top } = heap.layout();
  const size = rounded(bytes);
  return free.some((b) => b.size >= size) || top + size <= heap.memory.buffer.byteLength;
}

function run(ops: readonly Op[]): void {
  const heap = new Heap({ initialPages: 1, maxPages: 48 });
  const model = new Map<number, Live>();
  let serial = 0;
  for (const op of ops) {
    if (op.kind === 'alloc') {
      const before = heap.stats().heapBytes;
      const roomy = fitsWithoutGrowth(heap, op.bytes);
      let ptr: number;
      try {
        ptr = heap.alloc(op.bytes);
      } catch (e) {
        expect(e).toBeInstanceOf(HeapExhaustedError);
        expect((e as HeapExhaustedError).available).toBeLessThan(rounded(op.bytes));
        expect(roomy).toBe(false);
        continue;
      }
      // Free space is reused: a request that fitted somewhere never grows the memory.
      if (roomy) expect(heap.stats().heapBytes).toBe(before);
      expect(model.has(ptr)).toBe(false);
      const mark = (serial++ % 255) + 1;
      heap.u8(ptr, op.bytes).fill(mark);
      model.set(ptr, { bytes: op.bytes, mark });
    } else if (model.size > 0) {
      const ptrs = [...model.keys()];
      const ptr = ptrs[op.pick % ptrs.length]!;
      const l = model.get(ptr)!;
      expect(intact(heap, ptr, l)).toBe(true);
      heap.free(ptr);
      model.delete(ptr);
    }
    checkInvariants(heap, model);
  }
  for (const [ptr, l] of model) expect(intact(heap, ptr, l)).toBe(true);
  // After freeing everything the heap is one empty range again, and the largest
  // possible block fits in the memory already grown.
  const grown = heap.stats().heapBytes;
  for (const ptr of [...model.keys()]) heap.free(ptr);
  expect(heap.layout()).toEqual({ live: [], free: [], top: HEAP_BASE });
  expect(heap.alloc(grown - HEAP_BASE)).toBe(HEAP_BASE);
  expect(heap.stats().heapBytes).toBe(grown);
}

describe('Heap under random alloc/free sequences', () => {
  test('keeps blocks inside the memory, disjoint, intact and accounted for; reuses and coalesces free space', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 120 }), (ops) => run(ops)),
      { numRuns: 150 },
    );
  });

  // Sizes within a few classes, so that requests often meet a free block of
  // their own class that is too small: the one case where find() must look at
  // block sizes rather than at classes.
  test('never hands out a block of the right class but the wrong size', () => {
    const narrow = fc.integer({ min: 250, max: 400 }).map((bytes) => ({ kind: 'alloc' as const, bytes }));
    const ops = fc.array(fc.oneof(narrow, fc.nat().map((pick) => ({ kind: 'free' as const, pick }))), { maxLength: 80 });
    fc.assert(fc.property(ops, (o) => run(o)), { numRuns: 150 });
  });

  test('survives sequences that run into a small cap', () => {
    const big = fc.integer({ min: PAGE_BYTES, max: 12 * PAGE_BYTES });
    const ops = fc.array(
      fc.oneof(
        big.map((bytes) => ({ kind: 'alloc' as const, bytes })),
        fc.nat().map((pick) => ({ kind: 'free' as const, pick })),
      ),
      { maxLength: 40 },
    );
    fc.assert(fc.property(ops, (o) => run(o)), { numRuns: 60 });
  });
});
