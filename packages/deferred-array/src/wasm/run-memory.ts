// The heap blocks one run of a plan holds: its values so far, each in its
// plan buffer's block (handed from value to value as the planner laid them
// out) or in a block of its own, the cached source copies it reads (pinned,
// so that no allocation evicts them, until it ends), and what end() gives
// back. The run's steps (run.ts) say what to compute; this says where it
// lies and when it is freed.
import type { Heap as KernelHeap, HeapLike } from 'kernels-wasm';
import type { Node, StorageRef } from '../ir/node.js';
import { dtypeInfo, setElements } from '../ir/dtypes.js';
import type { DType } from '../ir/dtypes.js';
import type { Plan, Step, StoreTarget } from '../plan/plan.js';
import type { Bound, OutWindow } from '../execute/backend.js';
import type { Dense } from '../core/dense.js';
import { allocValue, atAddress, dropValue, isContiguous } from './heap-value.js';
import type { Alloc, Allocation, HeapValue } from './heap-value.js';
import { sourcesOf } from '../core/source-cache.js';
import type { CacheEntry, SourceCache } from '../core/source-cache.js';
import type { WasmHeap } from './heap.js';

class RunMemory {
  /** The values computed so far, by node; a step's inputs are here when it runs. */
  readonly values = new Map<Node, HeapValue>();
  /** The heap as launches see it: blocks and partials come from the same evicting allocator. */
  readonly heap: HeapLike;
  /** The heap's kernels-wasm allocator. */
  readonly kernels: KernelHeap;
  readonly #space: WasmHeap;
  readonly #sources: SourceCache;
  readonly #alloc: Alloc;
  readonly #plan: Plan;
  /** Heap outs the kernels store results into directly. */
  readonly #outs: ReadonlyMap<Node, OutWindow>;
  readonly #allocations = new Set<Allocation>();
  /** Cached sources this run reads: not evicted to make room while it runs. */
  readonly #pinned = new Set<CacheEntry>();
  /** Heap blocks of the plan's buffers, while a value in them is live or a later one is to come. */
  readonly #blocks = new Map<number, { readonly ptr: number; live: boolean }>();
  #done = false;

  constructor(space: WasmHeap, plan: Plan, outs: ReadonlyMap<Node, OutWindow>) {
    this.#space = space;
    const kernels = (this.kernels = space.kernels);
    this.#sources = sourcesOf(space);
    this.#alloc = (bytes) => this.#sources.allocEvicting(bytes);
    this.heap = { memory: kernels.memory, alloc: this.#alloc, free: (ptr) => kernels.free(ptr) };
    this.#plan = plan;
    this.#outs = outs;
  }

  /** The value of `n`, which an earlier step computed. */
  value(n: Node): HeapValue {
    const v = this.values.get(n);
    if (!v) throw new Error(`internal: ${n.op} %${n.id} has no value in this run`);
    return v;
  }

  /** Whether `n`'s kernel stores it straight into a heap out. */
  hasOut(n: Node): boolean {
    return this.#outs.has(n);
  }

  /** Where a kernel stores `n`: its heap out, or its buffer's block. */
  output(n: Node): HeapValue {
    const w = this.#outs.get(n);
    return w ? { dtype: n.dtype, shape: n.shape, ptr: w.ptr, strides: w.strides } : this.place(n);
  }

  /** Whether `n`'s value is its heap out's window (the kernel wrote the out). */
  inOut(n: Node, v: HeapValue): boolean {
    return this.#outs.get(n)?.ptr === v.ptr;
  }

  /**
   * Where `n`'s value goes: its buffer's block (allocated at the buffer's first
   * value, at the size of its largest), handed on to the buffer's next value
   * once this one is dropped, freed after its last.
   */
  place(n: Node, shape: readonly number[] = n.shape): HeapValue {
    const id = this.#plan.bufferOf.get(n);
    if (id === undefined) {
      // A trace stage's write that the planner gave no buffer: the kernel stores it in its target block.
      const target = this.#plan.stores.find((st) => st.node === n);
      return target && this.inHeap(target.storage) ? targetValue(target) : this.temp(n.dtype, shape);
    }
    const buffer = this.#plan.buffers[id]!;
    const block = (): number => {
      let b = this.#blocks.get(id);
      if (b?.live) throw new Error(`internal: buffer ${id} was handed to a new value while its value is still read`);
      if (!b) this.#blocks.set(id, (b = { ptr: this.#alloc(buffer.bytes), live: false }));
      b.live = true;
      return b.ptr;
    };
    const release = (): void => {
      const b = this.#blocks.get(id)!;
      b.live = false;
      if (buffer.values[buffer.values.length - 1] !== n) return;
      this.#blocks.delete(id);
      this.kernels.free(b.ptr);
    };
    return this.keep(allocValue(this.kernels, n.dtype, shape, block, release));
  }

  /** A block of its own for a value of `dtype` and `shape`, freed by its drop or at end(). */
  temp(dtype: DType, shape: readonly number[]): HeapValue {
    return this.keep(allocValue(this.kernels, dtype, shape, this.#alloc));
  }

  /** Records `v`'s block (if it has one of its own) for end() to free. */
  keep(v: HeapValue): HeapValue {
    if (v.alloc) this.#allocations.add(v.alloc);
    return v;
  }

  /** `d`'s values in a block of this run. */
  copyIn(d: Dense): HeapValue {
    const v = this.temp(d.dtype, d.shape);
    setElements(v.alloc!.data, d.data);
    return v;
  }

  /** A source's values where they lie in the heap: its cached copy, made now if it has none. */
  resident(n: Node): HeapValue {
    return atAddress(this.#sources.residentAddress(n, this.#pinned), n.dtype, n.shape);
  }

  /**
   * A bound value in the heap (an argument, or a compiled function's
   * constant): where it lies, a source's cached copy, else its values copied
   * into a block of this run.
   */
  bound(n: Node, b: Bound): HeapValue {
    if (b.at && b.at.heap === this.#space) return atAddress(b.at.ptr, n.dtype, n.shape);
    if (b.source) return atAddress(this.#sources.residentAddress(b.source, this.#pinned, b.value.data), n.dtype, n.shape);
    return this.copyIn({ dtype: n.dtype, shape: n.shape, data: b.value.data });
  }

  /** Whether a mutable array's blocks lie in this run's heap (else it is read and written through copies). */
  inHeap(storage: StorageRef): boolean {
    return storage.heap === this.#space;
  }

  /** A mutable array's version: read where it lies, or copied in from another heap for this run. */
  stored(storage: StorageRef, version: number, dtype: DType, shape: readonly number[]): HeapValue {
    return this.inHeap(storage) ? atAddress(storage.address(version), dtype, shape) : this.copyIn({ dtype, shape, data: storage.view(version) });
  }

  /** Drops the values no later step reads. */
  release(step: Step): void {
    for (const n of step.release) {
      const v = this.values.get(n);
      if (v) dropValue(v);
      this.values.delete(n);
    }
  }

  /**
   * Passes the block holding exactly `n`'s values to the caller: the run no
   * longer frees it. Undefined when the value is a window onto memory the run
   * does not own alone (a source, a view, a mutable array's block), or the
   * block went to the caller already.
   */
  take(n: Node): number | undefined {
    const v = this.values.get(n);
    const a = v?.alloc;
    if (!v || !a || a.refs <= 0 || v.ptr !== a.ptr || !isContiguous(v)) return undefined;
    // No reference left: neither a drop nor end() frees it; a plan buffer's block is forgotten too.
    a.refs = 0;
    for (const [id, b] of this.#blocks) if (b.ptr === a.ptr) this.#blocks.delete(id);
    return a.ptr;
  }

  /** Frees every block still held and unpins the sources; safe to call twice. */
  end(): void {
    if (this.#done) return;
    this.#done = true;
    for (const a of this.#allocations) {
      if (a.refs === 0) continue;
      a.refs = 0;
      if (!a.release) this.kernels.free(a.ptr);
    }
    for (const b of this.#blocks.values()) this.kernels.free(b.ptr);
    this.#blocks.clear();
    this.#sources.unpin(this.#pinned);
  }
}

/** The window of a mutable array's block that a store writes (the array owns the block, not the run). */
function targetValue(st: StoreTarget): HeapValue {
  const bytes = dtypeInfo(st.node.dtype).bytes;
  return { dtype: st.node.dtype, shape: st.node.shape, ptr: st.storage.address(st.version) + st.offset * bytes, strides: st.strides };
}

export { RunMemory, targetValue };
