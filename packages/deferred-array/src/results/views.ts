// Heap views: results handed to the caller where the kernels wrote them, in
// the heap, with no copy (inside da.scope(), or with execute({ view: true })).
// Each owns its heap block until it is released: by the end of its scope,
// da.release(r), r[Symbol.dispose]() (`using`), or, as a safety net only,
// when its data is garbage collected. The package never reads a released
// view: every way an array enters it asks this registry first (DisposedError).
// A run reading or writing a view pins it, so a release during the run frees
// the block only when the run ends.
import { DisposedError } from '../ir/errors.js';
import type { DType, TypedArray } from '../ir/dtypes.js';
import type { HeapLease } from '../ir/node.js';
import { formatShape, sizeOf } from '../ir/shape.js';
import type { Shape } from '../ir/shape.js';
import { toNdarray } from '../execute/to-ndarray.js';
import { heapHolding } from '../core/heap.js';
import type { Heap } from '../core/heap.js';
import type { StdNdarray } from '../util/stdlib.js';

/** Whoever releases a view in bulk: a scope. */
interface ViewOwner {
  readonly views: Set<ViewEntry>;
}

class ViewEntry {
  /** The heap of the runtime that made it. */
  readonly heap: Heap;
  /** Byte address of the heap block, which the view owns. */
  readonly ptr: number;
  /** The block's size. */
  readonly bytes: number;
  /** 'float64(1000)', for messages. */
  readonly label: string;
  /** The view's data, which the safety net watches (held weakly: holding it would keep it alive). */
  readonly data: WeakRef<object>;
  released = false;
  /** Runs in progress reading or writing it. */
  pins = 0;
  owner: ViewOwner | undefined;

  constructor(heap: Heap, ptr: number, label: string, data: object, owner: ViewOwner | undefined) {
    this.heap = heap;
    this.ptr = ptr;
    this.bytes = heap.sizeOf(ptr);
    this.label = label;
    this.data = new WeakRef(data);
    this.owner = owner;
  }

  /** Whether heap bytes [from, to) lie in this view's block. */
  holds(from: number, to: number): boolean {
    return from >= this.ptr && to <= this.ptr + this.bytes;
  }
}

/**
 * A view a graph reads in place (da.wrap(view)): its entry, and its data,
 * held so that the safety net never frees what a graph still reads.
 */
class ViewLease implements HeapLease {
  readonly heapLease = true;
  readonly entry: ViewEntry;
  readonly #data: object;

  constructor(entry: ViewEntry) {
    const data = entry.data.deref();
    // Collected already: the safety net is about to free it.
    if (!data) release(entry);
    assertLive(entry, 'this array');
    this.entry = entry;
    this.#data = data!;
  }

  /** For the collector's sake only: the lease keeps the view's data reachable. */
  get data(): object {
    return this.#data;
  }

  /** The heap the view lies in: read in place there, copied into any other. */
  get heap(): Heap {
    return this.entry.heap;
  }
}

/** DisposedError unless the view a source reads in place (if any) is live; `what` names it. */
function assertLeaseLive(lease: HeapLease | undefined, what: string): void {
  if (lease) assertLive((lease as ViewLease).entry, what);
}

/** Views by their ndarray and by their data (stdlib slices of a view share its data). */
const byObject = new WeakMap<object, ViewEntry>();
/** Views not yet released. */
const live = new Set<ViewEntry>();
/** The safety net for views outside scopes: frees a view's block when its data is collected. */
const collected = new FinalizationRegistry<ViewEntry>((e) => release(e));

/**
 * A view over the block of `heap` at `ptr` (its ownership passes to the view),
 * holding a `dtype` array of `shape`, row-major. Owned by `owner` (a scope)
 * or, without one, released by hand or by the collector.
 */
function makeView(heap: Heap, ptr: number, dtype: Exclude<DType, 'bool'>, shape: Shape, owner: ViewOwner | undefined): StdNdarray {
  const data = heap.view(dtype, ptr, sizeOf(shape));
  const entry = new ViewEntry(heap, ptr, `${dtype}${formatShape(shape)}`, data, owner);
  const nd = toNdarray({ dtype, shape, data });
  Object.defineProperty(nd, Symbol.dispose, { value: () => release(entry), enumerable: false });
  byObject.set(nd, entry);
  byObject.set(data, entry);
  live.add(entry);
  if (owner) owner.views.add(entry);
  else collected.register(data, entry, entry);
  return nd;
}

/** The view `x` is (an ndarray or its data), if it is one. */
function viewEntryOf(x: unknown): ViewEntry | undefined {
  if (typeof x !== 'object' || x === null) return undefined;
  return byObject.get(x) ?? byObject.get((x as { data?: object }).data ?? x);
}

/**
 * For a typed array over heap memory: the live view it lies in (a view's
 * data, a stdlib slice of it, or a typed array the caller made over its
 * buffer). Anything else in the heap is memory no live view owns: a
 * DisposedError, since reading it would read whatever the heap put there since.
 * `what` names the array in that error (a function where the name costs a string per call).
 */
function heapViewOf(data: TypedArray, what: string | (() => string)): ViewEntry | undefined {
  const heap = heapHolding(data.buffer);
  if (!heap) return undefined;
  const known = byObject.get(data);
  const from = data.byteOffset;
  const to = from + data.byteLength;
  const entry = known && known.holds(from, to) ? known : [...live].find((e) => e.heap === heap && e.holds(from, to));
  if (!entry || entry.released) {
    throw new DisposedError(
      `${typeof what === 'string' ? what : what()} lies in the package's heap, in ${known ? `a released ${known.label} view result` : 'memory no live view result owns'}; ` +
      'a view result must not be used after its scope ends or after da.release(): keep what you need with a copy ' +
      '(return it from the scope, or execute() without a scope)',
    );
  }
  return entry;
}

/** Throws DisposedError for a released view; `what` names it in the message. */
function assertLive(e: ViewEntry, what: string): void {
  if (!e.released) return;
  throw new DisposedError(
    `${what} is a ${e.label} view result that was released (its scope ended, or da.release() or dispose was called); ` +
    'the package never reads a released view. Copy what you need before releasing it (return it from the scope), ' +
    'or execute() without a scope for an ordinary array',
  );
}

/** Marks the view released and frees its block, now or when the last run using it ends. */
function release(e: ViewEntry): void {
  if (e.released) return;
  e.released = true;
  live.delete(e);
  e.owner?.views.delete(e);
  e.owner = undefined;
  collected.unregister(e);
  if (e.pins === 0) e.heap.free(e.ptr);
}

function pin(e: ViewEntry): void {
  e.pins++;
}

function unpin(e: ViewEntry): void {
  e.pins--;
  if (e.pins === 0 && e.released) e.heap.free(e.ptr);
}

/** Views of `heap` not yet released, and the bytes they hold of it. */
function viewStats(heap: Heap): { views: number; viewBytes: number } {
  let views = 0;
  let viewBytes = 0;
  for (const e of live) {
    if (e.heap !== heap) continue;
    views++;
    viewBytes += e.bytes;
  }
  return { views, viewBytes };
}

export { ViewEntry, ViewLease, makeView, viewEntryOf, heapViewOf, assertLive, assertLeaseLive, release, pin, unpin, viewStats };
export type { ViewOwner };
