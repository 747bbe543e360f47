// The heap as a cache of source arrays. Sources live in ordinary JS memory,
// which the garbage collector understands; kernels need them in the heap, so
// each is copied in when a run reads it and, mostly, kept for later runs.
// A small source's first copy is its run's own, freed when the run ends, and
// only its second read keeps one: small sources are the ones wrapped afresh
// per call and read once, and a kept copy would stay in the heap until the
// collector runs the source's finalizer, which a loop that never yields to
// the event loop never lets happen (the heap grew by each call's inputs). A
// large source's copy is kept from its first read, since copying it twice
// costs more than a call's bookkeeping; but copies read only once are held
// to a budget of their own, oldest evicted first as each new one comes in
// (a run's own first reads all stay, so that running it again copies
// nothing, even where they pass the budget), so large arrays wrapped
// afresh per call do not fill the heap either (a copy read again is kept
// under the cache's whole budget). When the heap is
// full, the least recently used copies that the running plan does not read
// are evicted (they can always be copied in again), so a loop that makes new
// arrays every step never exhausts the heap waiting for the collector. A
// copy read again is freed when its source is collected too; one read once
// waits for eviction or a trim, with no finalizer record per copy (records
// pile up in a loop that never yields). Each heap has its cache: a
// source read by two runtimes of their own heaps is copied into each.
import { dtypeInfo } from '../ir/dtypes.js';
import { expectOp, leaseOf } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import type { TypedArray } from '../ir/dtypes.js';
import { liveHeaps } from './heap.js';
import type { Heap } from './heap.js';

interface Entry {
  ptr: number;
  readonly bytes: number;
  freed: boolean;
  /** Runs in progress that read this copy (several when execute() calls overlap); pinned copies are never evicted. */
  pins: number;
  /** Freed when the runs reading it end: its source's handle was disposed, or it is a first run's copy. */
  dropped: boolean;
  /** Kept, and read by one run so far: evicted first, past ONCE_READ_BUDGET. */
  once: boolean;
}

/** Copies kept between runs beyond this are evicted, oldest first, so an idle heap stays modest. */
const CACHE_BUDGET = 1024 ** 3;

/** Sources of fewer bytes are kept from their second read; larger ones from their first. */
const KEEP_FROM_FIRST_READ = 64 * 1024;

/**
 * Kept copies read by one run only, beyond this, are evicted oldest first (a
 * copy larger than it alone stays). A few times a core's L2: a loop over large
 * arrays wrapped afresh copies each call's inputs into blocks it used a few
 * calls before, still in the caches; with 64 MiB every copy went to memory
 * gone cold (10^5 float64, two wrapped per call: 15-20% slower a call).
 */
const ONCE_READ_BUDGET = 8 * 1024 ** 2;

class SourceCache {
  readonly #heap: Heap;
  readonly #entries = new WeakMap<Node, Entry>();
  /** Insertion order is recency: the first entry is the least recently used. */
  readonly #recency = new Map<Entry, true>();
  readonly #registry = new FinalizationRegistry<Entry>((e) => this.#release(e));
  #cached = 0;
  /** The kept copies read by one run so far, oldest first, and their bytes. */
  readonly #onceRead = new Map<Entry, true>();
  #onceBytes = 0;

  constructor(heap: Heap) {
    this.#heap = heap;
  }

  /** Bytes the cache holds (for tests and statistics). */
  get cachedBytes(): number {
    return this.#cached;
  }

  /** Heap blocks of the copies kept between runs (a run's own copies, freed as it ends, are not counted). */
  get keptBlocks(): number {
    return this.#recency.size;
  }

  /**
   * Frees every kept copy no run reads now (they come back on their next
   * read): for giving the heap's memory back.
   */
  releaseAll(): void {
    for (const e of this.#recency.keys()) if (e.pins === 0) this.#release(e);
  }

  /**
   * Allocates `bytes`, evicting unpinned cached copies until it fits; rethrows
   * the heap's error when nothing is left to evict.
   */
  allocEvicting(bytes: number): number {
    for (;;) {
      try {
        return this.#heap.alloc(bytes);
      } catch (e) {
        if (!this.#heap.isFull(e)) throw e;
        let victim: Entry | undefined;
        for (const v of this.#recency.keys()) {
          if (v.pins === 0) {
            victim = v;
            break;
          }
        }
        if (!victim) throw e;
        this.#release(victim);
      }
    }
  }

  /**
   * Whether a run should copy `node`'s `bytes` bytes into a block of its own
   * rather than ask for its address: a small source of no heap read for the
   * first time, whose copy would be freed at the run's end anyway. A graph
   * built afresh per call reads only such sources; its run carves their copies
   * with its other blocks instead of allocating and freeing one each.
   */
  readsOnce(node: Node, bytes: number): boolean {
    return bytes < KEEP_FROM_FIRST_READ && leaseOf(node) === undefined && !this.#entries.has(node);
  }

  /** Notes a read readsOnce allowed, so the next read of `node` keeps its copy (as residentAddress does). */
  noteRead(node: Node, bytes: number): void {
    this.#entries.set(node, { ptr: 0, bytes, freed: true, pins: 0, dropped: true, once: false });
  }

  /**
   * The heap address of a copy of `node`'s data (or of `data`, the values of a
   * node that holds none, such as a compiled function's constant), made now if
   * there is none; pins it for the run (see unpin).
   */
  residentAddress(node: Node, pinned: Set<Entry>, data: TypedArray = expectOp(node, 'source').attrs.data): number {
    const bytes = data.length * dtypeInfo(node.dtype).bytes;
    const lease = leaseOf(node);
    // A view result of this heap, read in place: the linker holds it for the run.
    if (lease?.heap === this.#heap) return data.byteOffset;
    if (lease) {
      // Another heap's view: copied for this run alone, since its values may change before the next.
      const e: Entry = { ptr: this.copyIn(data, bytes), bytes, freed: false, pins: 1, dropped: true, once: false };
      pinned.add(e);
      return e.ptr;
    }
    let e = this.#entries.get(node);
    if (e === undefined && bytes < KEEP_FROM_FIRST_READ) {
      // A small source's first read: a copy for the runs in progress only (several share it when
      // they overlap). It stays listed, freed, to say the source was read before.
      e = { ptr: this.copyIn(data, bytes), bytes, freed: false, pins: 0, dropped: true, once: false };
      this.#entries.set(node, e);
    } else if (e === undefined || e.freed) {
      const first = e === undefined;
      this.#trim(bytes);
      if (first) this.#trimOnceRead(bytes);
      // One registration per source: an evicted copy's would hold its record until the source dies,
      // one more per eviction. A first run's copy was never registered.
      if (e !== undefined && !e.dropped) this.#registry.unregister(node);
      e = { ptr: this.copyIn(data, bytes), bytes, freed: false, pins: 0, dropped: false, once: first };
      this.#cached += bytes;
      if (first) {
        this.#onceRead.set(e, true);
        this.#onceBytes += bytes;
      }
      this.#entries.set(node, e);
      // A copy read once is not registered: a loop over large arrays wrapped afresh, never letting
      // the finalizers run, kept a record and the entry per copy until it yielded (about 150 bytes
      // each, a heap growing with every call, and every full collection slower), and such copies
      // are held to the budget of copies read once. One larger than that budget is (it alone would
      // stay past it, until the next first read); so is every copy from its second read.
      if (!first || bytes > ONCE_READ_BUDGET) this.#registry.register(node, e, node);
    } else if (e.once && !pinned.has(e)) {
      // Read by a second run: kept under the whole budget from now on, until its source is collected.
      this.#forgetOnce(e);
      if (e.bytes <= ONCE_READ_BUDGET) this.#registry.register(node, e, node);
    }
    if (!e.dropped) {
      this.#recency.delete(e);
      this.#recency.set(e, true);
    }
    if (!pinned.has(e)) {
      pinned.add(e);
      e.pins++;
    }
    return e.ptr;
  }

  /** Ends a run's pins. */
  unpin(pinned: ReadonlySet<Entry>): void {
    for (const e of pinned) {
      e.pins--;
      if (e.pins === 0 && e.dropped) this.#release(e);
    }
  }

  /**
   * Frees the heap copy of `node` (a source whose handle was disposed) now, or
   * when the runs reading it end. Graphs that still read the source copy it in again.
   */
  dropCopy(node: Node): void {
    const e = this.#entries.get(node);
    if (!e || e.freed) return;
    this.#entries.delete(node);
    this.#registry.unregister(node);
    if (e.pins === 0) this.#release(e);
    else e.dropped = true;
  }

  /** A heap block of its own (evicting cached copies for room) holding the first `bytes` bytes of `data`. */
  copyIn(data: ArrayBufferView, bytes: number): number {
    const ptr = this.allocEvicting(bytes);
    (this.#heap.view('uint8', ptr, bytes) as Uint8Array).set(new Uint8Array(data.buffer, data.byteOffset, bytes));
    return ptr;
  }

  #release(e: Entry): void {
    if (e.freed) return;
    e.freed = true;
    if (this.#recency.delete(e)) this.#cached -= e.bytes;
    if (e.once) this.#forgetOnce(e);
    this.#heap.free(e.ptr);
  }

  #forgetOnce(e: Entry): void {
    e.once = false;
    this.#onceRead.delete(e);
    this.#onceBytes -= e.bytes;
  }

  /** Evicts the oldest unpinned copies read once until `more` bytes more of them fit their budget. */
  #trimOnceRead(more: number): void {
    this.#evict(this.#onceRead, () => this.#onceBytes + more <= ONCE_READ_BUDGET);
  }

  /** Evicts the least recently used unpinned copies until `more` bytes fit the budget. */
  #trim(more: number): void {
    this.#evict(this.#recency, () => this.#cached + more <= CACHE_BUDGET);
  }

  /** Releases the unpinned copies of `order`, oldest first, until `fits`. */
  #evict(order: ReadonlyMap<Entry, true>, fits: () => boolean): void {
    // When it fits (nearly always) nothing is looked at: a loop wrapping new arrays every step
    // caches a copy per step until the collector frees them, and a walk per copy was quadratic.
    if (fits()) return;
    // Releasing deletes the entry being visited from `order`, which is safe while iterating a Map.
    for (const e of order.keys()) {
      if (fits()) return;
      if (e.pins === 0) this.#release(e);
    }
  }
}

const caches = new WeakMap<Heap, SourceCache>();

/** The cache of `heap`'s copies of sources. */
function sourcesOf(heap: Heap): SourceCache {
  let c = caches.get(heap);
  if (!c) caches.set(heap, (c = new SourceCache(heap)));
  return c;
}

/**
 * Frees every heap's copy of `node` (a source whose handle was disposed) now,
 * or when the runs reading it end. Graphs that still read the source copy it in again.
 */
function dropCopies(node: Node): void {
  for (const h of liveHeaps()) caches.get(h)?.dropCopy(node);
}

export { SourceCache, sourcesOf, dropCopies, KEEP_FROM_FIRST_READ, ONCE_READ_BUDGET };
export type { Entry as CacheEntry };
