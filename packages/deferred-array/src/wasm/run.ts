// One run of a plan on the WebAssembly backend: the values computed so far,
// the heap blocks they hold, the cached sources they read (pinned until the
// run ends) and the flags raised. The backend drives it step by step, on the
// calling thread or awaiting the pool between kernels; several runs may be in
// progress at once (overlapping execute() calls), each with its own state.
import type { CompiledModule, Heap as KernelHeap, HeapLike, Launch, LaunchResult, RoutineJob, RoutineSequence } from 'kernels-wasm';
import { scanLooksBack } from 'kernels-wasm';
import type { FamilyNode, Node, NodeOf, StorageRef } from '../ir/node.js';
import { sizeOf } from '../ir/shape.js';
import { dtypeInfo, setElement, setElements } from '../ir/dtypes.js';
import type { DType } from '../ir/dtypes.js';
import type { FusedGroup, Plan, Step, StoreTarget } from '../plan/plan.js';
import type { Bindings, Bound, OutWindow } from '../execute/backend.js';
import type { Dense } from '../core/dense.js';
import { evaluateNode } from '../reference/evaluate.js';
import { newFlags } from '../core/flags.js';
import type { RunFlags } from '../core/flags.js';
import { scanStarts } from './combine.js';
import { addLaunchFlags, kernelLabel, writeReduction } from './kernel-results.js';
import {
  allocValue, atAddress, randomValue, composeView, dropValue, isContiguous, reshapeValue, toDense,
} from './heap-value.js';
import type { Alloc, Allocation, HeapValue } from './heap-value.js';
import { sourcesOf } from '../core/source-cache.js';
import type { CacheEntry, SourceCache } from '../core/source-cache.js';
import { scatter } from '../core/dense.js';
import type { WasmHeap } from './heap.js';
import { buildContraction, buildCopy, launchOf, scanTotals } from './kernel-builder.js';
import type { BuiltKernel } from './kernel-builder.js';
import { compiledKernel, elementwiseKernel } from './group-kernels.js';
import type { Compile } from './group-kernels.js';
import { buildGather, gatherError, gatherLabel, gathers } from './gather-kernel.js';
import { routineFor, routineLaunchFor } from './routine-steps.js';
import type { StepHeap } from './step-heap.js';

/** A routine launch's finish and skip: its step's value is recorded once the last has run. */
const nothing = (): void => {};

/** An iota's launch words: kernels read an int32 random array as the counter itself, so no key or stream is used. */
const COUNTER_WORDS = { key: [0, 0], stream: [0, 0] } as const;

/** A launch of a routine module's kernel (kernels-wasm's sorting or count kernel), its launch block written: on the pool or here. */
interface RoutineLaunch {
  readonly routine: RoutineJob;
  readonly label: string;
}

/**
 * A routine's launch, and what to do once it has run: nothing, for the
 * launches of a routine step (#routineLaunches records the step's value once
 * its last launch has run, and a dry walk makes none).
 */
interface PendingRoutine extends RoutineLaunch {
  finish(r: LaunchResult): void;
  skip(): void;
}

/** A kernel ready to launch, and what to do with its result. */
interface PendingKernel {
  readonly compiled: CompiledModule;
  readonly launch: Launch;
  /** Names the kernel in errors: its ops and iteration space. */
  readonly label: string;
  /** Records the launch's outputs and reductions as the run's values. */
  finish(r: LaunchResult): void;
  /** Records its outputs and reductions unlaunched (a dry run: their blocks hold nothing). */
  skip(): void;
  /**
   * A launch to make first, whose result the kernel needs before its own:
   * a scan's piece totals, where lines span several pieces.
   */
  readonly prelude?: { readonly kernel: KernelLaunch; done(r: LaunchResult): void };
}

/** What a launcher needs of a pending kernel: the module, its launch and its label. */
type KernelLaunch = Pick<PendingKernel, 'compiled' | 'launch' | 'label'>;

/** Runs a kernel somewhere (inline or on the pool) and hands back its launch result. */
type Launcher<R> = (k: KernelLaunch, heap: HeapLike) => R;

class WasmRun {
  readonly flags: RunFlags = newFlags();
  /**
   * Threads a routine launch over this many elements may be shared out over
   * (the pool's in execute() where the launch will go to it, else 1): what a
   * routine's scratch is made for, and whether a long line sorts by passes.
   */
  readonly #threadsFor: (elements: number) => number;
  /** Launches made (kernels and copies) and steps evaluated through the reference, for statistics. */
  launches = 0;
  hostSteps = 0;
  readonly #values = new Map<Node, HeapValue>();
  readonly #allocations = new Set<Allocation>();
  /** Routine steps whose launches are not all finished: end() gives their blocks back (a run that failed on the way). */
  readonly #jobs = new Set<RoutineSequence>();
  /** Cached sources this run reads: not evicted to make room while it runs. */
  readonly #pinned = new Set<CacheEntry>();
  readonly #space: WasmHeap;
  /** The heap's kernels-wasm allocator, and its cache of source copies. */
  readonly #kernelHeap: KernelHeap;
  readonly #sources: SourceCache;
  readonly #alloc: Alloc;
  readonly #plan: Plan;
  readonly #bound: Bindings;
  /** Heap outs the kernels store results into directly. */
  readonly #outs: ReadonlyMap<Node, OutWindow>;
  /** The outs written so far. */
  readonly written = new Set<Node>();
  /** Heap blocks of the plan's buffers, while a value in them is live or a later one is to come. */
  readonly #blocks = new Map<number, { readonly ptr: number; live: boolean }>();
  /** The heap as launches see it: blocks and partials come from the same evicting allocator. */
  readonly heap: HeapLike;
  #done = false;
  readonly #compile: Compile;

  /** A walk that launches nothing (the backend's prepare()): host steps only take their blocks. */
  readonly #dry: boolean;

  /**
   * `heap`: the runtime's; `compile`: the backend's kernel cache; `bound`: the
   * placeholders' values; `outs`: heap windows results go to directly; `dry`:
   * a walk that builds kernels and runs nothing; `threadsFor`: the threads a
   * routine launch over so many elements may run on at once.
   */
  constructor(heap: WasmHeap, compile: Compile, plan: Plan, bound: Bindings = new Map(), outs: ReadonlyMap<Node, OutWindow> = new Map(), dry = false,
    threadsFor: (elements: number) => number = () => 1) {
    this.#dry = dry;
    this.#threadsFor = threadsFor;
    this.#space = heap;
    const kernelHeap = (this.#kernelHeap = heap.kernels);
    this.#sources = sourcesOf(heap);
    this.#alloc = (bytes) => this.#sources.allocEvicting(bytes);
    this.heap = { memory: kernelHeap.memory, alloc: this.#alloc, free: (ptr) => kernelHeap.free(ptr) };
    this.#compile = compile;
    this.#plan = plan;
    this.#bound = bound;
    this.#outs = outs;
  }

  /** Where a kernel stores `n`: its heap out, or its buffer's block. */
  #output(n: Node): HeapValue {
    const w = this.#outs.get(n);
    return w ? { dtype: n.dtype, shape: n.shape, ptr: w.ptr, strides: w.strides } : this.#place(n);
  }

  /**
   * Where `n`'s value goes: its buffer's block (allocated at the buffer's first
   * value, at the size of its largest), handed on to the buffer's next value
   * once this one is dropped, freed after its last.
   */
  #place(n: Node, shape: readonly number[] = n.shape): HeapValue {
    const id = this.#plan.bufferOf.get(n);
    if (id === undefined) {
      // A trace stage's write that the planner gave no buffer: the kernel stores it in its target block.
      const target = this.#plan.stores.find((st) => st.node === n);
      return target && this.#inHeap(target.storage) ? targetValue(target) : this.#keep(allocValue(this.#kernelHeap, n.dtype, shape, this.#alloc));
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
      this.#kernelHeap.free(b.ptr);
    };
    return this.#keep(allocValue(this.#kernelHeap, n.dtype, shape, block, release));
  }

  /**
   * A node step: a take that a gather kernel serves is handed back to be
   * launched (anywhere, as a kernel step is); anything else (sources, views,
   * scalars, reshapes, ops without kernels) is evaluated here on this thread.
   */
  node(n: Node, launchInline: Launcher<LaunchResult>): Iterable<PendingKernel | PendingRoutine> {
    const k = n.op === 'take' ? this.#gather(n as NodeOf<'take'>) : undefined;
    if (k) return [k];
    if (n.family === 'join') return this.#join(n as FamilyNode<'join'>);
    const routine = this.#dry ? undefined : this.#routineLaunches(n, launchInline);
    if (routine) return routine;
    this.#values.set(n, this.#keep(this.#evaluate(n, launchInline)));
    return [];
  }

  /**
   * Prepares a kernel step: output blocks allocated, spec compiled. Operands
   * of a contraction that its kernel cannot read in place are copied here
   * first (on this thread) and freed once the kernel has run.
   */
  kernel(g: FusedGroup, launchInline: Launcher<LaunchResult>): PendingKernel {
    const inputs = g.inputs.map((n) => this.#values.get(n)!);
    const copies: HeapValue[] = [];
    const build = (outputs: readonly HeapValue[]): { built: BuiltKernel; compiled: CompiledModule } => (g.contraction
      ? compiledKernel(this.#compile, buildContraction(g, inputs, outputs, (v, dtype) => {
        const c = this.#copy(v, dtype, launchInline, `copy of a ${g.contraction!.op} operand`);
        copies.push(c);
        return c;
      }))
      : elementwiseKernel(this.#compile, g, inputs, outputs));
    let outputs = g.stores.map((n) => this.#output(n));
    let { built, compiled } = build(outputs);
    // A host function may throw mid-kernel, so a kernel calling one never writes an out directly.
    if (compiled.hostKeys.length > 0 && g.stores.some((n) => this.#outs.has(n))) {
      outputs = g.stores.map((n) => this.#place(n));
      ({ built, compiled } = build(outputs));
    }
    const direct = g.stores.filter((n, k) => this.#outs.get(n)?.ptr === outputs[k]!.ptr);
    this.launches++;
    const launch = launchOf(built);
    // Read only by pooled launches (for their errors), so built only then.
    const label = (): string => kernelLabel(g);
    // Lines longer than a block are cut into pieces: a first launch totals each piece, and
    // each piece of the scan then starts from the running value before it, unless the scan
    // kernel finds those values itself as it runs (kernels-wasm's look-back).
    let initial: Float64Array | undefined;
    const prelude = g.scans && built.blockSize !== undefined && built.segment > built.blockSize && !scanLooksBack(compiled, launch) ? {
      kernel: { compiled: this.#compile(scanTotals(built.spec)), launch, get label() { return `${label()}, piece totals`; } },
      done: (r: LaunchResult) => {
        this.launches++;
        initial = scanStarts(r, built.spec, sizeOf(built.shape) / built.segment, built.segment);
      },
    } : undefined;
    return {
      compiled,
      get launch() { return initial ? { ...launch, initial } : launch; },
      get label() { return label(); },
      ...(prelude ? { prelude } : {}),
      finish: (r) => {
        for (const c of copies) dropValue(c);
        this.#finishKernel(g, built, outputs, r);
        for (const n of direct) this.written.add(n);
      },
      skip: () => {
        for (const c of copies) dropValue(c);
        g.stores.forEach((n, k) => this.#values.set(n, outputs[k]!));
        for (const n of g.reductions) this.#values.set(n, this.#place(n));
      },
    };
  }

  /**
   * A take as a gather kernel, where one serves (gather-kernel.ts); undefined
   * where the reference evaluates it. An index 'raise' cannot place fails the
   * step as the reference would, naming the first such index.
   */
  #gather(take: NodeOf<'take'>): PendingKernel | undefined {
    const [x, indices] = take.inputs.map((i) => this.#values.get(i)!) as [HeapValue, HeapValue];
    if (!gathers(x, indices, take.shape)) return undefined;
    const out = this.#place(take);
    const built = buildGather(take, x, indices, out);
    this.launches++;
    return {
      compiled: this.#compile(built.spec),
      launch: launchOf(built),
      label: gatherLabel(take),
      finish: (r) => {
        this.#values.set(take, out);
        if (r.flags.index > 0) throw gatherError(take, x.shape, toDense(indices, this.#kernelHeap));
      },
      skip: () => { this.#values.set(take, out); },
    };
  }

  /**
   * concat (stack is concat of expanded arrays): each operand copied, cast to
   * the result's dtype where it differs, into its band of the result, by a
   * copy kernel each, launched where the driver likes (on the pool where the
   * copy is large).
   */
  #join(n: FamilyNode<'join'>): PendingKernel[] {
    const parts = n.inputs.map((i) => this.#values.get(i)!);
    const out = this.#keep(this.#place(n));
    // Read by later steps only, which run once every band is written.
    this.#values.set(n, out);
    const bytes = dtypeInfo(n.dtype).bytes;
    const axis = n.attrs.axis;
    let at = 0;
    const kernels: PendingKernel[] = [];
    for (const x of parts) {
      const band = { dtype: n.dtype, shape: x.shape, ptr: out.ptr + at * out.strides[axis]! * bytes, strides: out.strides };
      at += x.shape[axis]!;
      if (sizeOf(x.shape) === 0) continue;
      const kernel = this.#copyKernel(x, band, `${n.op} operand into [${n.shape.join(', ')}]`);
      kernels.push({ ...kernel, finish: () => {}, skip: () => {} });
    }
    return kernels;
  }

  /** The copy kernel of window `from` into window `to` (cast to its dtype). */
  #copyKernel(from: HeapValue, to: HeapValue, label: string): KernelLaunch {
    const built = buildCopy(from, to);
    this.launches++;
    return { compiled: this.#compile(built.spec), launch: { shape: built.shape, arrays: built.arrays }, label };
  }

  /** Copies window `from` into window `to` (cast to its dtype) by a copy kernel on this thread. */
  #copyInto(from: HeapValue, to: HeapValue, launchInline: Launcher<LaunchResult>, label: string): void {
    launchInline(this.#copyKernel(from, to, label), this.heap);
  }

  /** A contiguous copy of window `v` in `dtype`, made by a copy kernel on this thread. */
  #copy(v: HeapValue, dtype: DType, launchInline: Launcher<LaunchResult>, label: string): HeapValue {
    const copy = this.#keep(allocValue(this.#kernelHeap, dtype, v.shape, this.#alloc));
    this.#copyInto(v, copy, launchInline, label);
    return copy;
  }

  /** Drops the values no later step reads. */
  release(step: Step): void {
    for (const n of step.release) {
      const v = this.#values.get(n);
      if (v) dropValue(v);
      this.#values.delete(n);
    }
  }

  /**
   * Writes each of a trace stage's stores into its target block, where its
   * kernel did not already (a value no kernel computed, a product, or a value
   * with two targets), by a copy kernel on this thread; into a block in
   * another heap, by a copy from this one.
   */
  writeStores(launchInline: Launcher<LaunchResult>): void {
    for (const st of this.#plan.stores) {
      const v = this.#values.get(st.node)!;
      if (!this.#inHeap(st.storage)) {
        scatter(toDense(v, this.#kernelHeap), st.storage.view(st.version), st);
        continue;
      }
      const t = targetValue(st);
      if (v.ptr === t.ptr && v.strides.every((x, i) => x === t.strides[i] || v.shape[i]! <= 1)) continue;
      if (sizeOf(t.shape) === 0) continue;
      this.#copyInto(v, t, launchInline, `store into ${st.storage.name}`);
    }
  }

  /** A result's values, row-major: its own block where that is exactly it, else a copy. Valid until end(). */
  valueOf(n: Node): Dense {
    return toDense(this.#values.get(n)!, this.#kernelHeap);
  }

  /**
   * Passes the block holding exactly `n`'s values to the caller: the run no
   * longer frees it. Undefined when the value is a window onto memory the run
   * does not own alone (a source, a view, a mutable array's block), or the
   * block went to the caller already.
   */
  take(n: Node): number | undefined {
    const v = this.#values.get(n);
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
      if (!a.release) this.#kernelHeap.free(a.ptr);
    }
    for (const b of this.#blocks.values()) this.#kernelHeap.free(b.ptr);
    this.#blocks.clear();
    for (const j of this.#jobs) j.release();
    this.#jobs.clear();
    this.#sources.unpin(this.#pinned);
  }

  /** Whether a mutable array's blocks lie in this run's heap (else it is read and written through copies). */
  #inHeap(storage: StorageRef): boolean {
    return storage.heap === this.#space;
  }

  /** A mutable array's version: read where it lies, or copied in from another heap for this run. */
  #stored(storage: StorageRef, version: number, dtype: DType, shape: readonly number[]): HeapValue {
    return this.#inHeap(storage) ? atAddress(storage.address(version), dtype, shape) : this.#copyIn({ dtype, shape, data: storage.view(version) });
  }

  /** `d`'s values in a block of this run. */
  #copyIn(d: Dense): HeapValue {
    const v = this.#keep(allocValue(this.#kernelHeap, d.dtype, d.shape, this.#alloc));
    setElements(v.alloc!.data, d.data);
    return v;
  }

  /**
   * A step that runs as launches of a routine module's kernel
   * (routineLaunchFor), each made once the one before has run, the step's
   * value recorded after the last; or undefined.
   */
  #routineLaunches(n: Node, launchInline: Launcher<LaunchResult>): Iterable<PendingRoutine> | undefined {
    const s = routineLaunchFor(n, () => n.inputs.map((i) => this.#values.get(i)!), this.#stepHeap(launchInline), this.#threadsFor);
    if (!s) return undefined;
    this.#jobs.add(s.launches);
    const launches = function* (this: WasmRun): Generator<PendingRoutine> {
      let made = 0;
      for (let job = s.launches.next(); job; job = s.launches.next()) {
        this.launches++;
        const k = ++made;
        const { blocks } = job;
        // Named in errors only: the text is made when asked for.
        yield { routine: job, get label() { return `${n.op}${k > 1 ? `, launch ${k},` : ''} in ${blocks} blocks`; }, finish: nothing, skip: nothing };
      }
      this.#jobs.delete(s.launches);
      this.#values.set(n, this.#keep(s.finish()));
    };
    return launches.call(this);
  }

  /** What the steps run by kernels-wasm's routines (routine-steps.ts) need of this run. */
  #stepHeap(launchInline: Launcher<LaunchResult>): StepHeap {
    return {
      heap: this.heap,
      copy: (v, dtype, label) => this.#copy(v, dtype, launchInline, label),
      copyInto: (from, to, label) => { this.#copyInto(from, to, launchInline, label); },
      place: (n, shape) => this.#place(n, shape),
      temp: (dtype, shape) => this.#keep(allocValue(this.#kernelHeap, dtype, shape, this.#alloc)),
    };
  }

  #keep(v: HeapValue): HeapValue {
    if (v.alloc) this.#allocations.add(v.alloc);
    return v;
  }

  #evaluate(n: Node, launchInline: Launcher<LaunchResult>): HeapValue {
    const input = (i: number): HeapValue => this.#values.get(n.inputs[i]!)!;
    switch (n.family) {
      case 'source':
        if (n.op === 'stored') return this.#stored(n.attrs.storage, n.attrs.version, n.dtype, n.shape);
        if (n.op === 'placeholder') return this.#boundValue(n, this.#bound.get(n));
        if (n.op === 'random') return randomValue(n.attrs.random, n.dtype, n.shape);
        if (n.op === 'iota') return randomValue(COUNTER_WORDS, n.dtype, n.shape);
        return atAddress(this.#sources.residentAddress(n, this.#pinned), n.dtype, n.shape);
      case 'scalar': {
        const constant = this.#bound.get(n);
        if (constant) return this.#boundValue(n, constant);
        const v = this.#place(n, []);
        setElement(v.alloc!.data, 0, n.attrs.value);
        return v;
      }
      case 'view':
        return composeView(input(0), n.attrs.view, n.shape);
      case 'reshape': {
        const x = input(0);
        if (isContiguous(x)) return reshapeValue(x, n.shape);
        // A contiguous copy by a load/store kernel, then the reshape of it.
        const copy = this.#copy(x, x.dtype, launchInline, `copy for reshape to [${n.shape.join(', ')}]`);
        const r = reshapeValue(copy, n.shape);
        dropValue(copy);
        return r;
      }
      default:
        return this.#hostStep(n, launchInline);
    }
  }

  /**
   * A step between kernels, on this thread: by one of kernels-wasm's routines
   * where one serves it (routine-steps.ts), else by the reference; in a dry
   * run only its block (the values it would read are not there, and a step
   * that checks them, a solve or a take, would fail).
   */
  #hostStep(n: Node, launchInline: Launcher<LaunchResult>): HeapValue {
    if (this.#dry) return this.#place(n);
    this.hostSteps++;
    const routine = routineFor(n);
    if (routine) return routine(n, n.inputs.map((i) => this.#values.get(i)!), this.#stepHeap(launchInline));
    const dense = evaluateNode(n, n.inputs.map((i) => toDense(this.#values.get(i)!, this.#kernelHeap)), this.flags);
    const v = this.#place(n, dense.shape);
    setElements(v.alloc!.data, dense.data);
    return v;
  }

  /**
   * A bound value in the heap (an argument, or a compiled function's
   * constant): a source's cached copy, else its values copied into a block of this run.
   */
  #boundValue(n: Node, b: Bound | undefined): HeapValue {
    if (!b) throw new Error(`internal: placeholder ${n.attrs.label ?? n.id} has no value in this run`);
    if (b.at && b.at.heap === this.#space) return atAddress(b.at.ptr, n.dtype, n.shape);
    if (b.source) return atAddress(this.#sources.residentAddress(b.source, this.#pinned, b.value.data), n.dtype, n.shape);
    return this.#copyIn({ dtype: n.dtype, shape: n.shape, data: b.value.data });
  }

  #finishKernel(g: FusedGroup, built: BuiltKernel, outputs: readonly HeapValue[], r: LaunchResult): void {
    addLaunchFlags(this.flags, g, r);
    g.stores.forEach((n, k) => this.#values.set(n, outputs[k]!));
    const layout = { ...built, slots: built.spec.slots };
    g.reductions.forEach((node, slot) => {
      const out = this.#place(node);
      writeReduction(node, slot, layout, r, out.alloc!.data);
      this.#values.set(node, out);
    });
  }
}

/** The window of a mutable array's block that a store writes (the array owns the block, not the run). */
function targetValue(st: StoreTarget): HeapValue {
  const bytes = dtypeInfo(st.node.dtype).bytes;
  return { dtype: st.node.dtype, shape: st.node.shape, ptr: st.storage.address(st.version) + st.offset * bytes, strides: st.strides };
}

export { WasmRun };
export type { PendingKernel, PendingRoutine, KernelLaunch, Launcher, RoutineLaunch };
