// One run of a plan on the WebAssembly backend: its steps, each a kernel to
// launch, a gather, a join's copies, a routine's launches or a step on this
// thread, the flags they raise and the launches they make; where the values
// lie and when their blocks are freed is run-memory.ts's. The backend drives
// it step by step, on the calling thread or awaiting the pool between
// kernels; several runs may be in progress at once (overlapping execute()
// calls), each with its own state.
import type { CompiledModule, HeapLike, Launch, LaunchResult, RoutineJob, RoutineSequence } from 'kernels-wasm';
import { scanLooksBack } from 'kernels-wasm';
import type { FamilyNode, Node, NodeOf } from '../ir/node.js';
import { sizeOf } from '../ir/shape.js';
import { dtypeInfo, setElement, setElements } from '../ir/dtypes.js';
import type { DType } from '../ir/dtypes.js';
import type { FusedGroup, Plan, Step } from '../plan/plan.js';
import type { Bindings, Bound, OutWindow } from '../execute/backend.js';
import type { Dense } from '../core/dense.js';
import { evaluateNode } from '../reference/evaluate.js';
import { newFlags } from '../core/flags.js';
import type { RunFlags } from '../core/flags.js';
import { scanStarts } from './combine.js';
import { addLaunchFlags, kernelLabel, writeReduction } from './kernel-results.js';
import { randomValue, composeView, dropValue, isContiguous, reshapeValue, toDense } from './heap-value.js';
import type { HeapValue } from './heap-value.js';
import { scatter } from '../core/dense.js';
import type { WasmHeap } from './heap.js';
import { buildContraction, buildCopy, launchOf, scanTotals } from './kernel-builder.js';
import type { BuiltKernel } from './kernel-builder.js';
import { compiledKernel, elementwiseKernel } from './group-kernels.js';
import type { Compile } from './group-kernels.js';
import { buildGather, gatherError, gatherLabel, gathers, raisedError } from './gather-kernel.js';
import { routineFor, routineLaunchFor } from './routine-steps.js';
import type { StepHeap } from './step-heap.js';
import { RunMemory, targetValue } from './run-memory.js';

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
  /** The run's values and the heap blocks that hold them. */
  readonly #mem: RunMemory;
  /** Routine steps whose launches are not all finished: end() gives their blocks back (a run that failed on the way). */
  readonly #jobs = new Set<RoutineSequence>();
  readonly #plan: Plan;
  readonly #bound: Bindings;
  /** The outs written so far. */
  readonly written = new Set<Node>();
  /** The heap as launches see it: blocks and partials come from the same evicting allocator. */
  readonly heap: HeapLike;
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
    this.#mem = new RunMemory(heap, plan, outs);
    this.heap = this.#mem.heap;
    this.#compile = compile;
    this.#plan = plan;
    this.#bound = bound;
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
    this.#mem.values.set(n, this.#mem.keep(this.#evaluate(n, launchInline)));
    return [];
  }

  /**
   * Prepares a kernel step: output blocks allocated, spec compiled. Operands
   * of a contraction that its kernel cannot read in place are copied here
   * first (on this thread) and freed once the kernel has run.
   */
  kernel(g: FusedGroup, launchInline: Launcher<LaunchResult>): PendingKernel {
    const mem = this.#mem;
    const inputs = g.inputs.map((n) => mem.value(n));
    const copies: HeapValue[] = [];
    const build = (outputs: readonly HeapValue[]): { built: BuiltKernel; compiled: CompiledModule } => (g.contraction
      ? compiledKernel(this.#compile, buildContraction(g, inputs, outputs, (v, dtype) => {
        const c = this.#copy(v, dtype, launchInline, `copy of a ${g.contraction!.op} operand`);
        copies.push(c);
        return c;
      }))
      : elementwiseKernel(this.#compile, g, inputs, outputs));
    let outputs = g.stores.map((n) => mem.output(n));
    let { built, compiled } = build(outputs);
    // A host function may throw mid-kernel, and an index out of bounds fails the run once the kernel has
    // run, so such a kernel never writes an out directly.
    if ((compiled.hostKeys.length > 0 || g.raising) && g.stores.some((n) => mem.hasOut(n))) {
      outputs = g.stores.map((n) => mem.place(n));
      ({ built, compiled } = build(outputs));
    }
    const direct = g.stores.filter((n, k) => mem.inOut(n, outputs[k]!));
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
        g.stores.forEach((n, k) => mem.values.set(n, outputs[k]!));
        for (const n of g.reductions) mem.values.set(n, mem.place(n));
      },
    };
  }

  /**
   * A take as a gather kernel, where one serves (gather-kernel.ts); undefined
   * where the reference evaluates it. An index 'raise' cannot place fails the
   * step as the reference would, naming the first such index.
   */
  #gather(take: NodeOf<'take'>): PendingKernel | undefined {
    const mem = this.#mem;
    const [x, indices] = take.inputs.map((i) => mem.value(i)) as [HeapValue, HeapValue];
    if (!gathers(x, indices, take.shape)) return undefined;
    const out = mem.place(take);
    const built = buildGather(take, x, indices, out);
    this.launches++;
    return {
      compiled: this.#compile(built.spec),
      launch: launchOf(built),
      label: gatherLabel(take),
      finish: (r) => {
        mem.values.set(take, out);
        if (r.flags.index > 0) throw gatherError(take, x.shape, toDense(indices, mem.kernels));
      },
      skip: () => { mem.values.set(take, out); },
    };
  }


  /**
   * concat (stack is concat of expanded arrays): each operand copied, cast to
   * the result's dtype where it differs, into its band of the result, by a
   * copy kernel each, launched where the driver likes (on the pool where the
   * copy is large).
   */
  #join(n: FamilyNode<'join'>): PendingKernel[] {
    const parts = n.inputs.map((i) => this.#mem.value(i));
    const out = this.#mem.place(n);
    // Read by later steps only, which run once every band is written.
    this.#mem.values.set(n, out);
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
    const copy = this.#mem.temp(dtype, v.shape);
    this.#copyInto(v, copy, launchInline, label);
    return copy;
  }

  /** Drops the values no later step reads. */
  release(step: Step): void {
    this.#mem.release(step);
  }

  /**
   * Writes each of a trace stage's stores into its target block, where its
   * kernel did not already (a value no kernel computed, a product, or a value
   * with two targets), by a copy kernel on this thread; into a block in
   * another heap, by a copy from this one.
   */
  writeStores(launchInline: Launcher<LaunchResult>): void {
    for (const st of this.#plan.stores) {
      const v = this.#mem.value(st.node);
      if (!this.#mem.inHeap(st.storage)) {
        scatter(toDense(v, this.#mem.kernels), st.storage.view(st.version), st);
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
    return toDense(this.#mem.value(n), this.#mem.kernels);
  }

  /**
   * Passes the block holding exactly `n`'s values to the caller: the run no
   * longer frees it; undefined where the run cannot (RunMemory.take).
   */
  take(n: Node): number | undefined {
    return this.#mem.take(n);
  }

  /** Frees every block still held (routine steps' too) and unpins the sources; safe to call twice. */
  end(): void {
    this.#mem.end();
    for (const j of this.#jobs) j.release();
    this.#jobs.clear();
  }

  /**
   * A step that runs as launches of a routine module's kernel
   * (routineLaunchFor), each made once the one before has run, the step's
   * value recorded after the last; or undefined.
   */
  #routineLaunches(n: Node, launchInline: Launcher<LaunchResult>): Iterable<PendingRoutine> | undefined {
    const s = routineLaunchFor(n, () => n.inputs.map((i) => this.#mem.value(i)), this.#stepHeap(launchInline), this.#threadsFor);
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
      this.#mem.values.set(n, this.#mem.keep(s.finish()));
    };
    return launches.call(this);
  }

  /** What the steps run by kernels-wasm's routines (routine-steps.ts) need of this run. */
  #stepHeap(launchInline: Launcher<LaunchResult>): StepHeap {
    return {
      heap: this.heap,
      copy: (v, dtype, label) => this.#copy(v, dtype, launchInline, label),
      copyInto: (from, to, label) => { this.#copyInto(from, to, launchInline, label); },
      place: (n, shape) => this.#mem.place(n, shape),
      temp: (dtype, shape) => this.#mem.temp(dtype, shape),
    };
  }

  #evaluate(n: Node, launchInline: Launcher<LaunchResult>): HeapValue {
    const mem = this.#mem;
    const input = (i: number): HeapValue => mem.value(n.inputs[i]!);
    switch (n.family) {
      case 'source':
        if (n.op === 'stored') return mem.stored(n.attrs.storage, n.attrs.version, n.dtype, n.shape);
        if (n.op === 'placeholder') return mem.bound(n, this.#boundOf(n));
        if (n.op === 'random') return randomValue(n.attrs.random, n.dtype, n.shape);
        if (n.op === 'iota') return randomValue(COUNTER_WORDS, n.dtype, n.shape);
        return mem.resident(n);
      case 'scalar': {
        const constant = this.#bound.get(n);
        if (constant) return mem.bound(n, constant);
        const v = mem.place(n, []);
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

  /** A placeholder's value in this run. */
  #boundOf(n: Node): Bound {
    const b = this.#bound.get(n);
    if (!b) throw new Error(`internal: placeholder ${n.attrs.label ?? n.id} has no value in this run`);
    return b;
  }

  /**
   * A step between kernels, on this thread: by one of kernels-wasm's routines
   * where one serves it (routine-steps.ts), else by the reference; in a dry
   * run only its block (the values it would read are not there, and a step
   * that checks them, a solve or a take, would fail).
   */
  #hostStep(n: Node, launchInline: Launcher<LaunchResult>): HeapValue {
    const mem = this.#mem;
    if (this.#dry) return mem.place(n);
    this.hostSteps++;
    const routine = routineFor(n);
    if (routine) return routine(n, n.inputs.map((i) => mem.value(i)), this.#stepHeap(launchInline));
    const dense = evaluateNode(n, n.inputs.map((i) => toDense(mem.value(i), mem.kernels)), this.flags);
    const v = mem.place(n, dense.shape);
    setElements(v.alloc!.data, dense.data);
    return v;
  }

  #finishKernel(g: FusedGroup, built: BuiltKernel, outputs: readonly HeapValue[], r: LaunchResult): void {
    if (r.flags.index > 0) throw raisedError(g.raising ?? [], (t) => toDense(this.#mem.value(t.inputs[1]), this.#mem.kernels));
    addLaunchFlags(this.flags, g, r);
    g.stores.forEach((n, k) => this.#mem.values.set(n, outputs[k]!));
    const layout = { ...built, slots: built.spec.slots };
    g.reductions.forEach((node, slot) => {
      const out = this.#mem.place(node);
      writeReduction(node, slot, layout, r, out.alloc!.data);
      this.#mem.values.set(node, out);
    });
  }
}

export { WasmRun };
export type { PendingKernel, PendingRoutine, KernelLaunch, Launcher, RoutineLaunch };
