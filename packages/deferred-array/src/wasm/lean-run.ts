// The lean run: a plan whose steps are leaves bound and one elementwise
// kernel (most small expressions, and every chain of ufuncs ending in full or
// axis reductions) runs on the calling thread without WasmRun's general
// machinery. What the plan's run needs beyond the leaves' addresses is worked
// out once per plan: the kernel (the very one the general run builds for the
// same values, so the bits are the same), its launch block as an image
// (kernels-wasm fixLaunch) and where each leaf goes. A run then allocates one
// block for the launch (scalar constants ride in it, never in heap cells of
// their own) and one per stored result, writes the addresses, calls the kernel
// and hands the results back. Reductions' values are combined into ordinary
// arrays, which reach the caller without a copy.
import { blockSize, drainBytes, fixLaunch, instantiate, runFixed } from 'kernels-wasm';
import type { CompiledModule, Drain, FixedLaunch, Heap as KernelHeap, HeapLike, KernelFn, Launch, LaunchResult } from 'kernels-wasm';
import type { Bindings, Bound, RunResult } from '../execute/backend.js';
import { newFlags } from '../core/flags.js';
import { sourcesOf } from '../core/source-cache.js';
import type { CacheEntry, SourceCache } from '../core/source-cache.js';
import type { Dense } from '../core/dense.js';
import { dtypeInfo, isInteger, setElements } from '../ir/dtypes.js';
import type { DType, Scalar, TypedArray } from '../ir/dtypes.js';
import type { Node } from '../ir/node.js';
import { sizeOf } from '../ir/shape.js';
import type { FusedGroup, Plan } from '../plan/plan.js';
import type { WasmHeap } from './heap.js';
import { atAddress, viewType } from './heap-value.js';
import * as host from './host-functions.js';
import { buildKernel, launchOf } from './kernel-builder.js';
import { addLaunchFlags, kernelLabel, writeReduction } from './kernel-results.js';
import type { ReductionLayout } from './kernel-results.js';
import type { KernelLaunch } from './run.js';
import type { Compile } from './group-kernels.js';

/** How a run finds a leaf's address: a wrapped array's cached copy, a bound placeholder, or a constant in the launch block. */
const enum Leaf { Source, Placeholder, Scalar }

/** A group input: how a run finds its address; a constant's own value and byte offset in the launch block. */
interface LeanLeaf {
  readonly node: Node;
  readonly kind: Leaf;
  readonly at: number;
  readonly value: Scalar;
}

/** A plan the lean run takes, with everything its runs share. */
interface LeanPlan {
  readonly group: FusedGroup;
  readonly compiled: CompiledModule;
  readonly fixed: FixedLaunch;
  /** The launch as the pool takes it (addresses 0), for a run on the pool. */
  readonly launch: Launch;
  /** Per group input: how its address is found, and for a constant its byte offset in the launch block. */
  readonly leaves: readonly LeanLeaf[];
  /** Per launch array: the index into [...inputs, ...stores] of the value it passes. */
  readonly operands: readonly number[];
  readonly storeBytes: readonly number[];
  readonly reductions: ReductionLayout;
  /** The elements of its iteration space, from which execute() weighs its work. */
  readonly elements: number;
  /**
   * The launch array of its one store where that store can go straight to
   * the caller's out through a scratch block (kernels-wasm's Drain): a kernel
   * that neither counts an error the policy may raise nor calls a host
   * function (which may count one, or throw), so the out is never left
   * partly written.
   */
  readonly drain: number | undefined;
}

/** Kernel calls a drained run makes: one per block, whose values the copy then reads from the caches. */
const DRAIN_BLOCKS = 1;

/**
 * Whether a member's code counts errors the policy may raise (addLaunchFlags
 * names them): an integer division or reciprocal (by zero), a cast to an
 * integer (of NaN or out of range). Host functions, which may count or throw,
 * are refused apart (CompiledModule.hostKeys).
 */
const flagging = (n: Node): boolean => isInteger(n.dtype) && (n.op === 'floorDivide' || n.op === 'mod' || n.op === 'reciprocal' || n.op === 'astype');

/** The one kernel group of a plan the lean run can take, else undefined. */
function leanGroup(plan: Plan): FusedGroup | undefined {
  if (plan.stores.length > 0) return undefined;
  let group: FusedGroup | undefined;
  for (const step of plan.steps) {
    if (step.kind === 'kernel') {
      if (group) return undefined;
      group = step.group;
    } else if (step.node.family !== 'scalar' && step.node.op !== 'source' && step.node.op !== 'placeholder') {
      return undefined;
    }
  }
  if (!group || group.contraction || group.scans?.length || group.temps?.length) return undefined;
  const made = new Set<Node>([...group.stores, ...group.reductions]);
  return plan.results.every((n) => made.has(n)) && plan.outputs.every((o) => made.has(o.node)) ? group : undefined;
}

const leanPlans = new WeakMap<Plan, LeanPlan | null>();

/** The lean form of `plan`, made at its first run (null when the general run must take it). */
function leanPlanOf(plan: Plan, compile: Compile): LeanPlan | null {
  let lean = leanPlans.get(plan);
  if (lean === undefined) leanPlans.set(plan, (lean = makeLean(plan, compile)));
  return lean;
}

function makeLean(plan: Plan, compile: Compile): LeanPlan | null {
  const group = leanGroup(plan);
  if (!group) return null;
  // The layout the general run gives these values: leaves and stores contiguous at their nodes' shapes.
  const built = buildKernel(group, group.inputs.map((n) => atAddress(0, n.dtype, n.shape)), group.stores.map((n) => atAddress(0, n.dtype, n.shape)));
  const compiled = compile(built.spec);
  if (!built.operands) return null;
  let scalars = 0;
  const leaves = group.inputs.map((node): LeanLeaf => {
    if (node.family === 'scalar') return { node, kind: Leaf.Scalar, at: 8 * scalars++, value: node.attrs.value };
    return { node, kind: node.op === 'source' ? Leaf.Source : Leaf.Placeholder, at: 0, value: 0 };
  });
  const fixed = fixLaunch(compiled, launchOf(built), 8 * scalars);
  const drainArray = group.stores.length === 1 ? built.operands.indexOf(group.inputs.length) : -1;
  return {
    group, compiled, fixed, launch: launchOf(built), leaves: leaves.map((l) => (l.kind === Leaf.Scalar ? { ...l, at: fixed.extraAt + l.at } : l)),
    operands: built.operands, storeBytes: group.stores.map((n) => sizeOf(n.shape) * dtypeInfo(n.dtype).bytes),
    reductions: { segment: built.segment, mode: built.mode, zeroSlots: built.zeroSlots, slots: built.spec.slots },
    elements: sizeOf(built.shape),
    drain: drainArray >= 0 && fixed.drainable[drainArray] && fixed.blocks > DRAIN_BLOCKS && compiled.hostKeys.length === 0 && !group.members.some(flagging)
      ? drainArray
      : undefined,
  };
}

/** Whether a run of `lean` can write its one store straight into `into`, the caller's out of the store's type and size. */
function drainsInto(lean: LeanPlan, into: TypedArray): boolean {
  return lean.drain !== undefined && into.length === lean.elements;
}

/**
 * Each lean plan's kernel instantiated per memory (an instance stays valid
 * once out of kernels-wasm's cache), keyed by the memory first: a heap that
 * starts over on a new memory lets the old go, instances and all.
 */
const instances = new WeakMap<WebAssembly.Memory, WeakMap<LeanPlan, KernelFn>>();

function kernelOn(lean: LeanPlan, memory: WebAssembly.Memory): KernelFn {
  let perPlan = instances.get(memory);
  if (!perPlan) instances.set(memory, (perPlan = new WeakMap()));
  let fn = perPlan.get(lean);
  if (!fn) perPlan.set(lean, (fn = instantiate(lean.compiled, memory, host)));
  return fn;
}

/** Writes `value` as `dtype` at byte address `at`, as a typed array of that dtype would store it. */
function writeScalar(view: DataView, at: number, dtype: DType, scalar: Scalar): void {
  if (typeof scalar === 'bigint') {
    if (dtype === 'int64') view.setBigInt64(at, scalar, true);
    else view.setBigUint64(at, scalar, true);
    return;
  }
  const value = scalar;
  switch (viewType(dtype)) {
    case 'float64': view.setFloat64(at, value, true); break;
    case 'float32': view.setFloat32(at, value, true); break;
    case 'int32': view.setInt32(at, value, true); break;
    case 'uint32': view.setUint32(at, value, true); break;
    case 'int16': view.setInt16(at, value, true); break;
    case 'uint16': view.setUint16(at, value, true); break;
    case 'int8': view.setInt8(at, value); break;
    default: view.setUint8(at, value);
  }
}

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
  /** Blocks this run frees at its end: the launch block, copies of bound values, stores not taken. */
  readonly #held: number[] = [];
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
  /** Where the run's one store goes as the kernel makes it (its block then a scratch block); see drainsInto. */
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
   */
  run(bound: Bindings | undefined, untaken = false, into?: TypedArray): this {
    try {
      this.#into = into;
      if (untaken) this.#carve(bound);
      const { block, ptrs } = this.#bind(bound);
      const memory = this.#heap.memory;
      this.#finish(runFixed(this.#lean.fixed, memory, kernelOn(this.#lean, memory), block, ptrs, host, this.#drain(ptrs)));
    } catch (e) {
      this.release();
      throw e;
    } finally {
      this.#unpin();
      // The backend keeps its latest run: it must not keep the sources read.
      this.#firstReads = undefined;
    }
    return this;
  }

  /** As run(), the kernel launched by `launch` (on the pool, where its work repays it). */
  async runAsync(bound: Bindings | undefined, launch: (k: KernelLaunch, heap: HeapLike) => Promise<LaunchResult>): Promise<this> {
    try {
      const { ptrs } = this.#bind(bound);
      const lean = this.#lean;
      const arrays = lean.launch.arrays.map((a, k) => ({ ...a, ptr: ptrs[k]! }));
      const kernel: KernelLaunch = { compiled: lean.compiled, launch: { ...lean.launch, arrays }, get label() { return kernelLabel(lean.group); } };
      this.#finish(await launch(kernel, { memory: this.#heap.memory, alloc: (bytes) => this.#alloc(bytes), free: (ptr) => this.#heap.free(ptr) }));
    } catch (e) {
      this.release();
      throw e;
    } finally {
      this.#unpin();
      // The backend keeps its latest run: it must not keep the sources read.
      this.#firstReads = undefined;
    }
    return this;
  }

  /** Allocates the one block the run's blocks are carved from: each at the size the heap would give it. */
  #carve(bound: Bindings | undefined): void {
    const lean = this.#lean;
    let bytes = blockSize(lean.fixed.bytes);
    for (const leaf of lean.leaves) {
      const b = leaf.kind === Leaf.Placeholder ? bound?.get(leaf.node) : undefined;
      if (b && (this.#copied(b) || this.#copiedOnce(b))) bytes += blockSize(b.value.data.byteLength);
    }
    for (const s of this.#storeBytes()) bytes += blockSize(s);
    const block = this.#sources.allocEvicting(bytes);
    this.#held.push(block);
    this.#carving = block;
    this.#carvedEnd = block + bytes;
  }

  /**
   * Allocates the run's blocks (the launch block, with the constants in it,
   * copies of bound values, the stores) and writes the constants; the
   * addresses of the kernel's arrays, in its order.
   */
  #bind(bound: Bindings | undefined): { block: number; ptrs: number[] } {
    const lean = this.#lean;
    const block = this.#alloc(lean.fixed.bytes);
    this.#hold(block);
    const addresses: number[] = [];
    for (const leaf of lean.leaves) addresses.push(this.#address(leaf, bound, block));
    for (const bytes of this.#storeBytes()) {
      const ptr = this.#alloc(bytes);
      this.#stores.push(ptr);
      addresses.push(ptr);
    }
    // A view of the memory only once nothing more is allocated: growing it leaves earlier ones short (or detached).
    const view = this.#heap.dataView();
    for (const leaf of lean.leaves) {
      if (leaf.kind === Leaf.Scalar) writeScalar(view, block + leaf.at, leaf.node.dtype, bound?.get(leaf.node)?.value.data[0] ?? leaf.value);
    }
    return { block, ptrs: lean.operands.map((k) => addresses[k]!) };
  }

  /** Bytes of each store's block: a drained store's scratch holds one call's values. */
  #storeBytes(): readonly number[] {
    const { drain, fixed, storeBytes } = this.#lean;
    return this.#into && drain !== undefined ? [drainBytes(fixed, DRAIN_BLOCKS, drain)] : storeBytes;
  }

  /** The drain of a run with a target (its store's block is the scratch), else undefined. */
  #drain(ptrs: readonly number[]): Drain | undefined {
    const into = this.#into;
    const array = this.#lean.drain;
    if (!into || array === undefined) return undefined;
    const scratch = ptrs[array]!;
    const whole = this.#heap.whole(viewType(this.#lean.group.stores[0]!.dtype));
    const at = scratch / whole.BYTES_PER_ELEMENT;
    return { array, scratch, blocks: DRAIN_BLOCKS, take: (from, to) => { setElements(into, whole.subarray(at, at + to - from), from); } };
  }

  #unpin(): void {
    if (!this.#pinned) return;
    this.#sources.unpin(this.#pinned);
    this.#pinned.clear();
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

  /** Where a leaf's values lie for this run (a constant's, written into the launch block once every block is allocated). */
  #address(leaf: LeanLeaf, bound: Bindings | undefined, block: number): number {
    const { node, kind } = leaf;
    if (kind === Leaf.Scalar) return block + leaf.at;
    if (kind === Leaf.Source) return this.#sources.residentAddress(node, (this.#pinned ??= new Set()));
    return this.#boundAddress(node, bound?.get(node));
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
    const data = b.value.data;
    const ptr = this.#alloc(data.byteLength);
    this.#hold(ptr);
    if (b.source) (this.#firstReads ??= new Map()).set(b.source, ptr);
    // Through the heap's view of its own type (blocks are 16-byte aligned): a copy, with no view made per call.
    // A bound value's elements are its dtype's (compile checks them), so set() converts nothing.
    setElements(this.#heap.whole(viewType(node.dtype)), data, ptr / data.BYTES_PER_ELEMENT);
    return ptr;
  }

  #finish(r: LaunchResult): void {
    const { group, reductions } = this.#lean;
    addLaunchFlags(this.flags, group, r);
    group.reductions.forEach((node, slot) => {
      const out = new (dtypeInfo(node.dtype).ctor)(sizeOf(node.shape));
      writeReduction(node, slot, reductions, r, out);
      (this.#reduced ??= new Map()).set(node, out);
    });
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
    const k = this.#lean.group.stores.indexOf(node);
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
    const ptr = this.#stores[this.#lean.group.stores.indexOf(node)];
    if (ptr === undefined) throw new Error('internal: a lean run was asked for a value it no longer holds');
    return ptr;
  }
}

export { leanPlanOf, drainsInto, LeanRun };
export type { LeanPlan };
