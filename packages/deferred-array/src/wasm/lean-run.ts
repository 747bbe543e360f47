// The lean run: a plan whose steps are leaves bound and elementwise kernels
// (most small expressions, every chain of ufuncs ending in full or axis
// reductions, and what then reads those reductions, as x - mean(x) does)
// runs on the calling thread without WasmRun's general machinery, from what
// lean-plan.ts worked out once for the plan. A run allocates, per kernel, a
// block for the launch (scalar constants ride in it, never in heap cells of
// their own) and one per store, writes the addresses, calls the kernel, and
// hands the results back. Reductions' values are combined into ordinary
// arrays, which reach the caller without a copy (and are written into a
// block of the run where a later kernel reads them). A store bound for the
// caller's out goes there a block at a time through a scratch block
// (kernels-wasm's Drain).
import { blockSize, runFixed } from 'kernels-wasm';
import type { Drain, Heap as KernelHeap, LaunchResult } from 'kernels-wasm';
import type { Bindings, Bound, RunResult } from '../execute/backend.js';
import { newFlags } from '../core/flags.js';
import { sourcesOf } from '../core/source-cache.js';
import type { CacheEntry, SourceCache } from '../core/source-cache.js';
import type { Dense } from '../core/dense.js';
import { dtypeInfo, setElements } from '../ir/dtypes.js';
import type { TypedArray } from '../ir/dtypes.js';
import type { Node } from '../ir/node.js';
import { sizeOf } from '../ir/shape.js';
import type { WasmHeap } from './heap.js';
import { viewType } from './heap-value.js';
import * as host from './host-functions.js';
import { addLaunchFlags, writeReduction } from './kernel-results.js';
import { raisedError } from './gather-kernel.js';
import { at } from '../util/lookup.js';
import { DRAIN_BLOCKS, Leaf, kernelOn, sumBlocks, writeScalar } from './lean-plan.js';
import type { LeanKernel, LeanLeaf, LeanPlan } from './lean-plan.js';

/** What a lean run writes in place: nothing (it has no stores into arrays of the trace). */
const WRITES_NOTHING: ReadonlySet<Node> = new Set();

/** A run of a lean plan: the blocks it holds until its results are handed out. */
class LeanRun implements RunResult {
  readonly flags = newFlags();
  readonly written: ReadonlySet<Node> = WRITES_NOTHING;
  readonly #lean: LeanPlan;
  readonly #heap: KernelHeap;
  readonly #sources: SourceCache;
  readonly #space: WasmHeap;
  /** Cached copies this run reads, pinned until it has run (made at the first: most runs of a compiled call read none). */
  #pinned: Set<CacheEntry> | undefined;
  /** Blocks this run frees at its end: the launch blocks, copies of bound values and of reductions reread, stores not taken. */
  readonly #held: number[] = [];
  /** Each store's block, in the plan's order of stores (LeanPlan.stores). */
  readonly #stores: number[] = [];
  /** Per store, whether its block went to the caller (a view), who frees it. */
  readonly #given: boolean[] = [];
  /** Reductions' values, made only by a kernel that has some. */
  #reduced: Map<Node, TypedArray> | undefined;
  /**
   * For a run none of whose blocks is taken: the next free byte of the one
   * block that holds them all (one allocation a run, not one per block).
   */
  #carving: number | undefined;
  #carvedEnd = 0;
  /** The copies of sources read for the first time made by this run, by source (rarely more than two). */
  #firstReads: Map<Node, number> | undefined;
  /** Where a shared leaf's value (LeanLeaf.shared) lies for this run once a leaf has read it: the others read it there too. */
  #placed: Map<Node, number> | undefined;
  /** Where the run's one store goes as the kernel makes it (its block then a scratch block); see LeanPlan.drain. */
  #into: TypedArray | undefined;

  constructor(lean: LeanPlan, space: WasmHeap) {
    this.#lean = lean;
    this.#space = space;
    this.#heap = space.kernels;
    this.#sources = sourcesOf(space);
  }

  /**
   * Binds the leaves, launches the kernel on the calling thread and keeps
   * what it made; frees everything if it throws. With `untaken`, no store
   * will be taken (passed to a view): the run's blocks are carved from one.
   * With `into`, the caller's out of the result's type and size, a plan that
   * can drain its one store writes it there as the kernel makes it.
   */
  run(bound: Bindings | undefined, untaken = false, into?: TypedArray): this {
    try {
      // Only a plan whose store can be drained takes the out (value() then hands it back); any other writes its block.
      this.#into = this.#lean.drain && into;
      if (untaken) this.#carve(bound);
      this.#allocStores();
      for (const k of this.#lean.kernels) {
        const { block, ptrs, addresses } = this.#bind(k, bound);
        const memory = this.#heap.memory;
        this.#finish(k, addresses, runFixed(k.fixed, memory, kernelOn(k, memory), block, ptrs, host, this.#drain(ptrs)));
      }
    } catch (e) {
      this.release();
      throw e;
    } finally {
      this.#ran();
    }
    return this;
  }

  /**
   * As run(), for a plan of one kernel, launched by `launch` through the
   * run's launch block at `block` over the arrays at `ptrs` (on the pool,
   * where its work repays it).
   */
  async runAsync(bound: Bindings | undefined, launch: (block: number, ptrs: readonly number[]) => Promise<LaunchResult>): Promise<this> {
    try {
      const [k, more] = this.#lean.kernels;
      if (!k || more) throw new Error('internal: only a lean plan of one kernel runs on the pool');
      this.#allocStores();
      const { block, ptrs, addresses } = this.#bind(k, bound);
      this.#finish(k, addresses, await launch(block, ptrs));
    } catch (e) {
      this.release();
      throw e;
    } finally {
      this.#ran();
    }
    return this;
  }

  /** After the kernel, failed or not: the copies read are unpinned, and the sources let go (the backend keeps its latest run). */
  #ran(): void {
    if (this.#pinned) {
      this.#sources.unpin(this.#pinned);
      this.#pinned.clear();
    }
    this.#firstReads = undefined;
    this.#placed = undefined;
  }

  /** Allocates the one block the run's blocks are carved from: each at the size the heap would give it. */
  #carve(bound: Bindings | undefined): void {
    const lean = this.#lean;
    let bytes = lean.fixedBytes + sumBlocks(this.#storeBytes());
    let copies: Set<Node> | undefined;
    for (const k of lean.kernels) {
      for (const leaf of k.leaves) {
        const b = leaf.kind === Leaf.Placeholder ? bound?.get(leaf.node) : undefined;
        if (!b || !(this.#copied(b) || this.#copiedOnce(b))) continue;
        // A placeholder that several leaves read is placed once (#placed).
        if (leaf.shared) {
          if (copies?.has(leaf.node)) continue;
          (copies ??= new Set()).add(leaf.node);
        }
        bytes += blockSize(b.value.data.byteLength);
      }
    }
    const block = this.#sources.allocEvicting(bytes);
    this.#held.push(block);
    this.#carving = block;
    this.#carvedEnd = block + bytes;
  }

  /** Allocates every kernel's stores, in the plan's order. */
  #allocStores(): void {
    for (const bytes of this.#storeBytes()) this.#stores.push(this.#alloc(bytes));
  }

  /**
   * Allocates a kernel's blocks (the launch block, with the constants in it,
   * copies of bound values and of reductions reread) and writes the
   * constants; the addresses of the kernel's arrays, in its order, and of its
   * inputs then stores (read only for an index error).
   */
  #bind(k: LeanKernel, bound: Bindings | undefined): { block: number; ptrs: number[]; addresses: number[] } {
    const block = this.#alloc(k.fixed.bytes);
    this.#hold(block);
    const addresses: number[] = [];
    for (const leaf of k.leaves) addresses.push(this.#address(leaf, bound, block) + leaf.offset);
    for (let s = 0; s < k.group.stores.length; s++) addresses.push(at(this.#stores, k.storeStart + s, 'store'));
    // A view of the memory only once nothing more is allocated: growing it leaves earlier ones short (or detached).
    const view = this.#heap.dataView();
    for (const leaf of k.leaves) {
      if (leaf.kind === Leaf.Scalar) writeScalar(view, block + leaf.at, leaf.node.dtype, bound?.get(leaf.node)?.value.data[0] ?? leaf.value);
    }
    return { block, ptrs: k.operands.map((i) => addresses[i]!), addresses };
  }

  /** Bytes of each store's block: a drained store's scratch holds one call's values. */
  #storeBytes(): readonly number[] {
    const { drain, storeBytes } = this.#lean;
    return this.#into && drain ? drain.storeBytes : storeBytes;
  }

  /** The drain of a run with a target (its store's block is the scratch), else undefined. */
  #drain(ptrs: readonly number[]): Drain | undefined {
    const into = this.#into;
    const drain = this.#lean.drain;
    if (!into || !drain) return undefined;
    const { array } = drain;
    const scratch = ptrs[array]!;
    const whole = this.#heap.whole(viewType(this.#lean.stores[0]!.dtype));
    const at = scratch / whole.BYTES_PER_ELEMENT;
    return { array, scratch, blocks: DRAIN_BLOCKS, take: (from, to) => { setElements(into, whole.subarray(at, at + to - from), from); } };
  }

  /** A block the run frees at its end (a store's is freed there unless taken): carved, or allocated. */
  #alloc(bytes: number): number {
    const at = this.#carving;
    if (at !== undefined) {
      this.#carving = at + blockSize(bytes);
      if (this.#carving > this.#carvedEnd) throw new Error('internal: a lean run carved past its block');
      return at;
    }
    return this.#sources.allocEvicting(bytes);
  }

  /** A launch block or copy allocated by #alloc, freed at the run's end (one carved is freed with its whole). */
  #hold(ptr: number): void {
    if (this.#carving === undefined) this.#held.push(ptr);
  }

  /** Whether a bound value lies in this heap already (a mutable array's block), read where it is. */
  #inHeap(b: Bound): boolean {
    return b.at !== undefined && b.at.heap === this.#space;
  }

  /** Whether a bound value is copied into a block of this run (else read in this heap, or its source's cached copy). */
  #copied(b: Bound): boolean {
    return !this.#inHeap(b) && !b.source;
  }

  /** Whether a bound source is read for the first time and small: copied into a block of this run, as #copied values are. */
  #copiedOnce(b: Bound): boolean {
    return b.source !== undefined && this.#sources.readsOnce(b.source, b.value.data.byteLength);
  }

  /** Where a kernel input's values lie for this run (a constant's, written into the launch block once every block is allocated). */
  #address(leaf: LeanLeaf, bound: Bindings | undefined, block: number): number {
    const { node, kind } = leaf;
    switch (kind) {
      case Leaf.Scalar: return block + leaf.at;
      case Leaf.Source: return this.#sources.residentAddress(node, (this.#pinned ??= new Set()));
      case Leaf.Store: return at(this.#stores, leaf.at, 'store');
    }
    const placed = leaf.shared ? this.#placed?.get(node) : undefined;
    if (placed !== undefined) return placed;
    const ptr = kind === Leaf.Reduced ? this.#copyIn(node, this.#reducedOf(node)) : this.#boundAddress(node, bound?.get(node));
    if (leaf.shared) (this.#placed ??= new Map()).set(node, ptr);
    return ptr;
  }

  /** An earlier kernel's reduction, as this run combined it. */
  #reducedOf(node: Node): TypedArray {
    const r = this.#reduced?.get(node);
    if (!r) throw new Error('internal: a lean run read a reduction before its kernel ran');
    return r;
  }

  /** `data` (of node's dtype) copied into a block this run frees at its end; its address. */
  #copyIn(node: Node, data: TypedArray): number {
    const ptr = this.#alloc(data.byteLength);
    this.#hold(ptr);
    // Through the heap's view of its own type (blocks are 16-byte aligned): a copy, with no view made per call.
    setElements(this.#heap.whole(viewType(node.dtype)), data, ptr / data.BYTES_PER_ELEMENT);
    return ptr;
  }

  /** A bound value's address: where it lies in this heap, its source's cached copy, or a copy made for this run. */
  #boundAddress(node: Node, b: Bound | undefined): number {
    if (!b) throw new Error(`internal: placeholder ${node.attrs.label ?? node.id} has no value in this run`);
    if (this.#inHeap(b)) return b.at!.ptr;
    if (b.source) {
      // A source bound twice (f(a, a)) is copied once: the second binding reads the first's copy.
      const copied = this.#firstReads?.get(b.source);
      if (copied !== undefined) return copied;
      if (!this.#copiedOnce(b)) return this.#sources.residentAddress(b.source, (this.#pinned ??= new Set()), b.value.data);
      this.#sources.noteRead(b.source, b.value.data.byteLength);
    }
    // A bound value's elements are its dtype's (compile checks them), so the copy converts nothing.
    const ptr = this.#copyIn(node, b.value.data);
    if (b.source) (this.#firstReads ??= new Map()).set(b.source, ptr);
    return ptr;
  }

  #finish(k: LeanKernel, addresses: readonly number[], r: LaunchResult): void {
    const { group, reductions } = k;
    // Nothing was handed out yet (a raising take's group never drains into the caller's out).
    if (r.flags.index > 0) throw raisedError(group.raising ?? [], (t) => this.#leafValue(k, addresses, t.inputs[1]));
    addLaunchFlags(this.flags, group, r);
    group.reductions.forEach((node, slot) => {
      const out = new (dtypeInfo(node.dtype).ctor)(sizeOf(node.shape));
      writeReduction(node, slot, reductions, r, out);
      (this.#reduced ??= new Map()).set(node, out);
    });
  }

  /** A kernel input's values where this run placed them (a constant's in the launch block, of its dtype too). */
  #leafValue(k: LeanKernel, addresses: readonly number[], node: Node): Dense {
    const ptr = at(addresses, k.group.inputs.indexOf(node), 'group input');
    return { dtype: node.dtype, shape: node.shape, data: this.#heap.view(viewType(node.dtype), ptr, sizeOf(node.shape)) as TypedArray };
  }

  value(node: Node): Dense {
    const reduced = this.#reduced?.get(node);
    if (reduced) return { dtype: node.dtype, shape: node.shape, data: reduced };
    if (this.#into) return { dtype: node.dtype, shape: node.shape, data: this.#into };
    const ptr = this.#storeOf(node);
    return { dtype: node.dtype, shape: node.shape, data: this.#heap.view(viewType(node.dtype), ptr, sizeOf(node.shape)) as TypedArray };
  }

  owns(data: Dense['data']): boolean {
    return !this.#space.isHeapBuffer(data.buffer);
  }

  take(node: Node): number | undefined {
    const k = this.#lean.stores.indexOf(node);
    // A carved store is part of the run's one block: not the caller's to free.
    if (k < 0 || this.#given[k] || this.#stores[k] === undefined || this.#carving !== undefined || this.#into) return undefined;
    this.#given[k] = true;
    return this.#stores[k];
  }

  release(): void {
    for (const ptr of this.#held) this.#heap.free(ptr);
    if (this.#carving === undefined) {
      this.#stores.forEach((ptr, k) => {
        if (!this.#given[k]) this.#heap.free(ptr);
      });
    }
    this.#held.length = 0;
    this.#stores.length = 0;
    // The reductions' values and the out are the caller's now: a run kept after its release (the backend
    // keeps its latest for its shape) must not keep them too, however large they are.
    this.#reduced = undefined;
    this.#into = undefined;
  }

  #storeOf(node: Node): number {
    const ptr = this.#stores[this.#lean.stores.indexOf(node)];
    if (ptr === undefined) throw new Error('internal: a lean run was asked for a value it no longer holds');
    return ptr;
  }
}

export { LeanRun };
