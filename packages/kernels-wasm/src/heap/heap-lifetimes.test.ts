import { HeapPointerError } from './errors.js';
import { Heap } from './heap.js';
import type { FinalizerRegistry, TrackedAllocation } from './lifetimes.js';

// A registry that records what the heap asks of it and lets the test play the
// garbage collector: GC timing is never relied on.
class FakeRegistry implements FinalizerRegistry {
  cleanup: (held: TrackedAllocation) => void;
  registered = new Map<object, { owner: object; held: TrackedAllocation }>();
  unregistered: object[] = [];

  constructor(cleanup: (held: TrackedAllocation) => void) {
    this.cleanup = cleanup;
  }

  register(owner: object, held: TrackedAllocation, token: object): void {
    this.registered.set(token, { owner, held });
  }

  unregister(token: object): boolean {
    this.unregistered.push(token);
    return this.registered.delete(token);
  }

  /** Simulates the collection of `owner`: runs cleanup for each of its registrations. */
  collect(owner: object): void {
    for (const [token, r] of [...this.registered]) {
      if (r.owner !== owner) continue;
      this.registered.delete(token);
      this.cleanup(r.held);
    }
  }
}

function fakeHeap(): { heap: Heap; registry: () => FakeRegistry } {
  let made: FakeRegistry | undefined;
  const heap = new Heap({
    initialPages: 1,
    maxPages: 4,
    registry: (cleanup) => (made = new FakeRegistry(cleanup)),
  });
  return { heap, registry: () => made! };
}

describe('Heap.track (FinalizationRegistry)', () => {
  test('collecting the owner frees its allocation', () => {
    const { heap, registry } = fakeHeap();
    const owner = {};
    const p = heap.alloc(100);
    heap.track(owner, p);
    const [entry] = [...registry().registered.values()];
    expect(entry?.owner).toBe(owner);
    expect(entry?.held.ptr).toBe(p);
    // The held value must not reference the owner, or the owner could never be collected.
    expect(Object.values(entry!.held)).not.toContain(owner);
    registry().collect(owner);
    expect(heap.isLive(p)).toBe(false);
    expect(heap.stats().liveAllocations).toBe(0);
  });

  test('an explicit free unregisters, and a late cleanup cannot free the reused address', () => {
    const { heap, registry } = fakeHeap();
    const p = heap.alloc(64);
    heap.track({}, p);
    const [token, { held }] = [...registry().registered][0]!;
    heap.free(p);
    expect(registry().unregistered).toEqual([token]);
    const q = heap.alloc(64); // same address, new owner
    expect(q).toBe(p);
    const newOwner = {};
    heap.track(newOwner, q);
    registry().cleanup(held); // the stale callback arrives anyway
    expect(heap.isLive(q)).toBe(true);
    expect(() => heap.free(q)).not.toThrow();
  });

  test('untrack stops the owner from freeing, and a cleanup after it does nothing', () => {
    const { heap, registry } = fakeHeap();
    const owner = {};
    const p = heap.alloc(8);
    heap.track(owner, p);
    const [held] = [...registry().registered.values()].map((r) => r.held);
    expect(heap.untrack(p)).toBe(true);
    expect(heap.untrack(p)).toBe(false);
    registry().cleanup(held!);
    expect(heap.isLive(p)).toBe(true);
    // Ownership can then move to another object.
    const next = {};
    heap.track(next, p);
    registry().collect(next);
    expect(heap.isLive(p)).toBe(false);
  });

  test('an allocation has one owner; tracking needs a live pointer and an object', () => {
    const { heap } = fakeHeap();
    const p = heap.alloc(8);
    heap.track({}, p);
    expect(() => heap.track({}, p)).toThrow(HeapPointerError);
    expect(() => heap.track({}, p)).toThrow(/already has an owner; call untrack/);
    expect(() => heap.track({}, p + 4096)).toThrow(HeapPointerError);
    expect(() => heap.track(42 as unknown as object, p)).toThrow(TypeError);
    expect(() => heap.track(null as unknown as object, p)).toThrow(TypeError);
    heap.free(p);
    expect(() => heap.track({}, p)).toThrow(/Cannot track/);
  });

  test('a failed free of an unknown pointer leaves tracking alone', () => {
    const { heap, registry } = fakeHeap();
    const p = heap.alloc(8);
    heap.track({}, p);
    expect(() => heap.free(p + 8)).toThrow(HeapPointerError);
    expect(registry().unregistered).toEqual([]);
  });

  test('with the host registry, tracking works without waiting on the collector', () => {
    const heap = new Heap({ initialPages: 1, maxPages: 4 });
    const p = heap.alloc(8);
    heap.track({}, p);
    heap.free(p);
    expect(heap.untrack(p)).toBe(false);
  });
});
