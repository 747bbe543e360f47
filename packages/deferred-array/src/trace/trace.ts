// PyOP2's execution trace: in-place computations on mutable arrays, in
// program order, each with its read and write sets. Nothing here computes;
// force.ts runs what a request needs, chosen by the forcing rule of
// shared/design.md:
//   walking newest to oldest, c must run if R_a∩W_c ∪ W_a∩R_c ∪ W_a∩W_c ≠ ∅;
//   then R_a := R_a ∪ R_c − W_c and W_a := W_a ∪ W_c.
// Reads are of versions: an expression built before a write reads the
// version before it, which that write does not produce, so a request for the
// expression does not force the write (it runs first, while the write waits).
import { topoOrder } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import { formatShape } from '../ir/shape.js';
import type { Storage } from './storage.js';
import type { Window } from './window.js';

type InPlaceOp = 'assign' | 'iadd' | 'isub' | 'imul' | 'idiv' | 'set';

/** A version of a mutable array that something reads. */
interface Read {
  readonly storage: Storage;
  readonly version: number;
}

interface Computation {
  /** Program order. */
  readonly seq: number;
  readonly op: InPlaceOp;
  readonly storage: Storage;
  /** The version it produces (the one before it is version - 1). */
  readonly version: number;
  /** The new values of the window written: its shape, the array's dtype. */
  readonly value: Node;
  /** The part written; undefined for the whole array. */
  readonly window: Window | undefined;
  /** What it reads: the versions under `value`, and for a window write the version it writes over. */
  readonly reads: readonly Read[];
  /** For printers: 'A1 += …' or 'A2[1:-1, 1:-1] -= …'. */
  readonly label: string;
}

/** Every stored version among `nodes`. */
function storedIn(nodes: readonly Node[]): Read[] {
  // A loop, not filter() and map(): this runs for every request, and arrows made per call are new
  // functions, which V8 optimizes again for each.
  const reads: Read[] = [];
  for (const n of nodes) if (n.op === 'stored') reads.push({ storage: n.attrs.storage as Storage, version: n.attrs.version });
  return reads;
}

/** Every stored version `roots` read. */
const readsOf = (roots: readonly Node[]): Read[] => storedIn(topoOrder(roots));

const SYMBOL: Record<InPlaceOp, string> = { assign: '=', set: '=', iadd: '+=', isub: '-=', imul: '*=', idiv: '/=' };

/**
 * The trace in program order, held weakly: each computation is held by the
 * array it writes (Storage.queued), so once nothing can read that array (no
 * handle, no expression, no pending computation reading it) its pending
 * writes can never be observed, and the collector takes them with the array
 * and its heap blocks. A write that failed and is never retried, or one never
 * forced, would otherwise be kept for the life of the process.
 */
class PendingList {
  #seq = 0;
  readonly #order: Array<WeakRef<Computation>> = [];
  /** Past this length add() compacts the list, so a program that writes and drops arrays without forcing keeps it bounded. */
  #compactAt = 64;

  /** The next computation's place in program order. */
  nextSeq(): number {
    return this.#seq++;
  }

  add(c: Computation): void {
    if (this.#order.length >= this.#compactAt) this.live();
    this.#order.push(new WeakRef(c));
  }

  /** The live pending computations in program order, dropping those collected with their arrays. */
  live(): Computation[] {
    const out: Computation[] = [];
    this.#keep((c) => {
      out.push(c);
      return true;
    });
    this.#compactAt = 2 * this.#order.length + 64;
    return out;
  }

  /** Drops `gone` (and the collected) from the list. */
  remove(gone: ReadonlySet<object>): void {
    this.#keep((c) => !gone.has(c));
  }

  clear(): void {
    this.#order.length = 0;
  }

  #keep(keep: (c: Computation) => boolean): void {
    let k = 0;
    for (const ref of this.#order) {
      const c = ref.deref();
      if (c && keep(c)) this.#order[k++] = ref;
    }
    this.#order.length = k;
  }
}

// The process's trace: mutable arrays belong to no runtime, so neither do their pending writes.
const pending = new PendingList();

const live = (): Computation[] => pending.live();

/** Enqueues a write of `value` (which reads `valueReads`) into `storage`, through `window` if given; returns it. */
function enqueue(op: InPlaceOp, storage: Storage, value: Node, valueReads: readonly Read[], window: Window | undefined, where: string): Computation {
  const version = ++storage.latest;
  const reads = [...valueReads];
  if (window) reads.push({ storage, version: version - 1 });
  const label = `${storage.name}${where} ${SYMBOL[op]} ${value.dtype}${formatShape(value.shape)}`;
  const c: Computation = Object.freeze({ seq: pending.nextSeq(), op, storage, version, value, window, reads: Object.freeze(reads), label });
  storage.queued.push(c);
  pending.add(c);
  return c;
}

/** Versions read, per array. */
type ReadSets = Map<Storage, Set<number>>;

function addRead(sets: ReadSets, r: Read): void {
  const set = sets.get(r.storage);
  if (set) set.add(r.version);
  else sets.set(r.storage, new Set([r.version]));
}

/** The pending computations the request (reads `want`, writes none) needs, oldest first. */
function choose(want: readonly Read[]): Computation[] {
  const reads: ReadSets = new Map();
  for (const r of want) addRead(reads, r);
  const writes = new Set<Storage>();
  const chosen: Computation[] = [];
  const pending = live();
  for (let i = pending.length - 1; i >= 0; i--) {
    const c = pending[i]!;
    const raw = [...(reads.get(c.storage) ?? [])].some((v) => v >= c.version);
    const war = c.reads.some((r) => writes.has(r.storage));
    if (!raw && !war && !writes.has(c.storage)) continue;
    chosen.push(c);
    for (const r of c.reads) addRead(reads, r);
    const own = reads.get(c.storage);
    if (own) for (const v of own) if (v >= c.version) own.delete(v);
    writes.add(c.storage);
  }
  return chosen.reverse();
}

/** Takes computations that ran out of the trace. */
function retire(done: readonly Computation[]): void {
  const gone = new Set<object>(done);
  for (const s of new Set(done.map((c) => c.storage))) {
    const left = s.queued.filter((c) => !gone.has(c));
    s.queued.length = 0;
    s.queued.push(...left);
  }
  pending.remove(gone);
}

const pendingComputations = (): readonly Computation[] => live();

/** Drops every pending computation unrun (tests start each program from an empty trace with it). */
function discardPending(): void {
  for (const c of live()) c.storage.queued.length = 0;
  pending.clear();
}

/**
 * The versions pending computations (but those in `except`) will read, per
 * array: kept in memory until they run, so a computation in the trace never
 * finds its inputs gone.
 */
function pendingReads(except: ReadonlySet<Computation> = new Set()): ReadSets {
  const out: ReadSets = new Map();
  for (const c of live()) if (!except.has(c)) for (const r of c.reads) addRead(out, r);
  return out;
}

/** Refuses, now, a computation reading a version that is gone (not held, and not still to be made). */
function checkReadable(reads: readonly Read[]): void {
  for (const r of reads) if (r.version <= r.storage.committed) r.storage.assertHeld(r.version);
}

/**
 * Why `later` must run after `earlier` (both pending): read after write
 * (it reads what earlier writes), write after read, write after write.
 */
function dependency(earlier: Computation, later: Computation): 'RAW' | 'WAR' | 'WAW' | undefined {
  if (later.reads.some((r) => r.storage === earlier.storage && r.version >= earlier.version)) return 'RAW';
  if (earlier.reads.some((r) => r.storage === later.storage)) return 'WAR';
  if (earlier.storage === later.storage) return 'WAW';
  return undefined;
}

export { enqueue, choose, retire, discardPending, readsOf, storedIn, addRead, pendingComputations, pendingReads, checkReadable, dependency };
export type { Computation, InPlaceOp, Read, ReadSets };
