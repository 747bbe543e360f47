// The WebAssembly heap as a cache of source arrays. Sources live in ordinary
// JS memory, which the garbage collector understands; kernels need them in
// the heap, so each is copied in on first use and kept for later runs. When
// the heap is full, the least recently used copies that the running plan
// does not read are evicted (they can always be copied in again), so a loop
// that makes new arrays every step never exhausts the heap waiting for the
// collector. A copy whose source is collected is freed too.
import { defaultHeap } from 'kernels-wasm';
import { dtypeInfo } from '../ir/dtypes.js';
import { expectOp, leaseOf } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import type { TypedArray } from '../ir/dtypes.js';

interface Entry {
  ptr: number;
  readonly bytes: number;
  freed: boolean;
  /** Runs in progress that read this copy (several when execute() calls overlap); pinned copies are never evicted. */
  pins: number;
  /** Its source's handle was disposed while a run read it: freed when that run ends. */
  dropped?: boolean;
}

const entries = new WeakMap<Node, Entry>();
/** Insertion order is recency: the first entry is the least recently used. */
const recency = new Map<Entry, true>();
const registry = new FinalizationRegistry<Entry>((e) => release(e));
let cached = 0;

/** Copies kept between runs beyond this are evicted, oldest first, so an idle heap stays modest. */
const CACHE_BUDGET = 1024 ** 3;

function release(e: Entry): void {
  if (e.freed) return;
  e.freed = true;
  recency.delete(e);
  cached -= e.bytes;
  defaultHeap().free(e.ptr);
}

/** Evicts the least recently used unpinned copies until `more` bytes fit the budget. */
function trim(more: number): void {
  for (const e of [...recency.keys()]) {
    if (cached + more <= CACHE_BUDGET) return;
    if (e.pins === 0) release(e);
  }
}

const isHeapFull = (e: unknown): boolean => (e as { code?: unknown } | null)?.code === 'HEAP';

/**
 * Allocates `bytes`, evicting unpinned cached copies until it fits; rethrows
 * the heap's error when nothing is left to evict.
 */
function allocEvicting(bytes: number): number {
  for (;;) {
    try {
      return defaultHeap().alloc(bytes);
    } catch (e) {
      if (!isHeapFull(e)) throw e;
      const victim = [...recency.keys()].find((v) => v.pins === 0);
      if (!victim) throw e;
      release(victim);
    }
  }
}

/** A heap block of its own (evicting cached copies for room) holding the first `bytes` bytes of `data`. */
function copyToHeap(data: ArrayBufferView, bytes: number): number {
  const ptr = allocEvicting(bytes);
  new Uint8Array(defaultHeap().memory.buffer, ptr, bytes).set(new Uint8Array(data.buffer, data.byteOffset, bytes));
  return ptr;
}

/**
 * The heap address of a copy of `node`'s data (or of `data`, the values of a
 * node that holds none, such as a compiled function's constant), made now if
 * there is none; pins it for the run (see unpin).
 */
function residentAddress(node: Node, pinned: Set<Entry>, data: TypedArray = expectOp(node, 'source').attrs.data): number {
  // Heap memory read in place (a view result): the linker holds it for the run.
  if (leaseOf(node)) return data.byteOffset;
  let e = entries.get(node);
  if (!e || e.freed) {
    const bytes = data.length * dtypeInfo(node.dtype).bytes;
    trim(bytes);
    e = { ptr: copyToHeap(data, bytes), bytes, freed: false, pins: 0 };
    cached += bytes;
    entries.set(node, e);
    // One registration per source: an evicted copy's would hold its record until the source dies, one more per eviction.
    registry.unregister(node);
    registry.register(node, e, node);
  }
  recency.delete(e);
  recency.set(e, true);
  if (!pinned.has(e)) {
    pinned.add(e);
    e.pins++;
  }
  return e.ptr;
}

/** Ends a run's pins. */
function unpin(pinned: ReadonlySet<Entry>): void {
  for (const e of pinned) {
    e.pins--;
    if (e.pins === 0 && e.dropped) release(e);
  }
}

/**
 * Frees the heap copy of `node` (a source whose handle was disposed) now, or
 * when the runs reading it end. Graphs that still read the source copy it in again.
 */
function dropCopy(node: Node): void {
  const e = entries.get(node);
  if (!e || e.freed) return;
  entries.delete(node);
  registry.unregister(node);
  if (e.pins === 0) release(e);
  else e.dropped = true;
}

/** Bytes the cache holds (for tests and statistics). */
const cachedBytes = (): number => cached;

export { residentAddress, allocEvicting, unpin, cachedBytes, dropCopy, copyToHeap };
export type { Entry as CacheEntry };
