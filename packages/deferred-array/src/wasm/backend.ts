// The WebAssembly backend: fused groups run as generated SIMD kernels over
// its runtime's heap (matmul and dot with their elementwise
// epilogue among them); joins are copy kernels into bands of the result; views are
// windows onto heap memory; argmin/argmax and narrow integer products are lowered to
// kernels by the planner; what no kernel serves runs through the reference evaluator
// on the same data. executeSync() runs every kernel on the calling
// thread; execute() sends kernels with enough work to the worker pool. Both
// run the same kernels over the same blocks, so their results are identical.
import { INSTANCE_CACHE, KernelCache, MODULE_CACHE, WorkerFailure, blockSize, detectSupport, instanceCount, instantiate, launch, launchFixedOnPool, launchOnPool, launchWork, runFixed } from 'kernels-wasm';
import type { HeapLike, Join, KernelPool, KernelSpec, LaunchResult } from 'kernels-wasm';
import type { Backend, BackendHost, BackendSettings, BackendStats, Bindings, OutWindow, RunResult } from '../execute/backend.js';
import { DeferredArrayError, HeapError, fromSerialized } from '../ir/errors.js';
import { formatValue } from '../ir/format.js';
import type { Node } from '../ir/node.js';
import { setElements } from '../ir/dtypes.js';
import type { TypedArray } from '../ir/dtypes.js';
import type { Plan } from '../plan/plan.js';
import type { RunFlags } from '../core/flags.js';
import type { HeapStats } from '../core/heap.js';
import { describeKernels } from './describe-kernels.js';
import { privateHeap } from './heap.js';
import type { WasmHeap } from './heap.js';
import * as host from './host-functions.js';
import { WorkerPool, noSharedHeap } from './pool.js';
import { LeanRun } from './lean-run.js';
import { routinesFor } from './routine-steps.js';
import { kernelOn, leanPlanOf } from './lean-plan.js';
import type { LeanKernel, LeanPlan } from './lean-plan.js';
import { WasmRun } from './run.js';
import type { KernelLaunch, Launcher, RoutineLaunch } from './run.js';

/**
 * The most bytes a run into an out or a fresh array takes on the calling
 * thread's private heap (privateHeap): past a few MiB its copies are bound
 * by memory, not by how V8 copies them.
 */
const PRIVATE_RUN_BYTES = 4 << 20;

/**
 * The most work units a thread's share of a launch may hold for the calling
 * thread to join it: about 0.25 ms of sin, 0.5 ms of streaming on the
 * 2-core machine.
 */
const JOIN_SHARE = 1 << 21;

/**
 * Whether the calling thread takes part in a pooled launch of `work` units
 * over `blocks` blocks, in a worker's place: when its share (the work over
 * the threads that can have a block) is short. There it saves a wake-up of
 * its own and one worker's (tens of µs, a tenth of a 2^17-element sin) and
 * the pool pays from a quarter of the size or less (benchmarks/dist/threshold.js);
 * a longer launch leaves its event loop free. Never on a pool of one
 * worker, nor (launchOnPool sees to it) a launch of one block: the calling
 * thread would run either alone.
 */
function joins(work: number, blocks: number, threads: number): boolean {
  return threads > 1 && work / Math.min(blocks, threads) < JOIN_SHARE;
}

/** Runs a kernel to the end on the calling thread. */
function launchInline(k: KernelLaunch, heap: HeapLike): LaunchResult {
  return launch(k.compiled, heap, instantiate(k.compiled, heap.memory, host), k.launch, host);
}

/** What a routine's launch hands back: it reduces nothing and raises no flag (its errors are thrown). */
const ROUTINE_RESULT: LaunchResult = { partials: new Float64Array(0), blocks: 0, pieces: 0, pieceIndex: () => 0, flags: { divide: 0, invalid: 0, index: 0 } };

/** A kernel's or a routine's launch, run to the end on the calling thread. */
function runHere(k: KernelLaunch | RoutineLaunch, heap: HeapLike): LaunchResult {
  if (!('routine' in k)) return launchInline(k, heap);
  k.routine.runHere();
  return ROUTINE_RESULT;
}

/** Before a runtime starts the backend: nothing runs on the pool. */
const UNSTARTED: BackendSettings = { threads: 1, inlineThreshold: Infinity };

/**
 * kernels-wasm's heap and pool errors as this package's HeapError and
 * WorkerError (same message, the original as cause); an error of this
 * package's own thrown in a worker (a data error in a host function) is
 * rebuilt as its class, as if it had been thrown here.
 */
function asPackageError(e: unknown): unknown {
  if (!(e instanceof Error) || e instanceof DeferredArrayError || !('code' in e)) return e;
  if (e.code === 'HEAP') return new HeapError(e.message, { cause: e });
  if (e.code !== 'WORKER') return e;
  // What the worker threw, if it threw rather than died.
  const thrown = (e instanceof WorkerFailure ? e.thrown : undefined) ?? { name: 'WorkerFailure', message: e.message };
  return fromSerialized(thrown, { message: e.message, cause: e });
}

class WasmBackend implements Backend {
  readonly name = 'wasm';
  readonly target = 'kernels';
  readonly #heap: WasmHeap;
  readonly #kernels = new KernelCache();
  readonly #compile = (spec: KernelSpec) => this.#kernels.compile(spec);
  readonly #pool: WorkerPool;
  #host: BackendHost = { settings: () => UNSTARTED };
  #runs = 0;
  #launches = 0;
  #pooled = 0;
  #joined = 0;
  #hostSteps = 0;

  /** Whether plans of one elementwise kernel take the lean run (lean-run.ts); tests turn it off to compare. */
  readonly #lean: boolean;
  /**
   * The latest lean run, kept for its shape (util/keep-shapes.ts): runs are made per call, and
   * with none alive a full collection would throw away the optimized code of the whole lean path.
   * Once released it holds no heap blocks and no values, and it lives no longer than this backend.
   */
  // eslint-disable-next-line no-unused-private-class-members -- held, never read: see above
  #lastLean: LeanRun | undefined;
  /** The calling thread's private heap (#spaceFor), made at its first use. */
  #private: WasmHeap | undefined;

  /** Runs over `heap`: its kernels, and its pool's workers, import that memory. */
  constructor(heap: WasmHeap, options: { readonly lean?: boolean } = {}) {
    this.#heap = heap;
    this.#pool = new WorkerPool(heap);
    this.#lean = options.lean ?? true;
  }

  unavailable(): string | undefined {
    const support = detectSupport();
    // Without shared memory it still runs, on the calling thread (pool.ts says so once).
    if (support.wasm && support.simd) return undefined;
    return `backend 'wasm' needs WebAssembly with SIMD, which this host lacks (${formatValue(support)})`;
  }

  start(host: BackendHost): void {
    this.#host = host;
  }

  async shutdown(): Promise<void> {
    await this.#pool.shutdown();
  }

  /** The pool's workers import the old memory: they take up the new one (instances on the calling thread are made per memory as they run). */
  async heapReplaced(): Promise<void> {
    await this.#pool.rebind();
  }

  mapError(e: unknown): unknown {
    return asPackageError(e);
  }

  describe(plan: Plan): readonly string[] {
    return describeKernels(plan, this.#compile);
  }

  run(plan: Plan, bound?: Bindings, outs?: ReadonlyMap<Node, OutWindow>): RunResult {
    noSharedHeap();
    const lean = !this.#lean || (outs && outs.size > 0) ? null : leanPlanOf(plan, this.#compile);
    if (lean) return this.#runLean(lean, bound);
    const run = new WasmRun(this.#heap, this.#compile, plan, bound, outs);
    const steps = this.#steps(plan, run);
    try {
      for (let next = steps.next(); ; next = steps.next(runHere(next.value, run.heap))) {
        if (next.done) return next.value;
      }
    } catch (e) {
      this.#fail(run);
      throw e;
    }
  }

  async runAsync(plan: Plan, bound?: Bindings, outs?: ReadonlyMap<Node, OutWindow>): Promise<RunResult> {
    const lean = !this.#lean || (outs && outs.size > 0) ? null : leanPlanOf(plan, this.#compile);
    // A kernel that would run on the calling thread anyway runs as executeSync() runs it.
    if (lean && lean.work < this.#host.settings().inlineThreshold) return this.#runLean(lean, bound);
    // A lean plan of one kernel goes to the pool as it is; one of several, the general way (which frees what each has read).
    if (lean?.kernels.length === 1) {
      this.#runs++;
      this.#launches++;
      const k = lean.kernels[0]!;
      return (this.#lastLean = new LeanRun(lean, this.#heap)).runAsync(bound, (block, ptrs) => this.#launchLean(k, block, ptrs));
    }
    // On a page, the routines load on first need; an async run waits for them rather than sort in the reference.
    const routines = routinesFor(plan);
    if (routines) await routines;
    const threadsFor = (elements: number): number => (this.#routinePooled(elements) ? this.#host.settings().threads : 1);
    const run = new WasmRun(this.#heap, this.#compile, plan, bound, outs, false, threadsFor);
    const steps = this.#steps(plan, run);
    try {
      for (let next = steps.next(); ; next = steps.next(await this.#launchAsync(next.value, run.heap))) {
        if (next.done) return next.value;
      }
    } catch (e) {
      this.#fail(run);
      throw e;
    }
  }

  /** The plan's steps in order; each kernel is handed to the driver, which launches it where it likes. */
  *#steps(plan: Plan, run: WasmRun): Generator<KernelLaunch | RoutineLaunch, RunResult, LaunchResult> {
    this.#runs++;
    for (const step of plan.steps) {
      if (step.kind === 'kernel') {
        const k = run.kernel(step.group, launchInline);
        if (k.prelude) k.prelude.done(yield k.prelude.kernel);
        k.finish(yield k);
      } else {
        for (const k of run.node(step.node, launchInline)) k.finish(yield k);
      }
      run.release(step);
    }
    run.writeStores(launchInline);
    return this.#result(run);
  }

  runInto(plan: Plan, bound: Bindings | undefined, into: TypedArray | undefined, check: (flags: RunFlags) => void, sync: boolean): TypedArray | undefined {
    const lean = this.#lean ? leanPlanOf(plan, this.#compile) : null;
    if (!lean || (!sync && lean.work >= this.#host.settings().inlineThreshold)) return undefined;
    // As run() says it once: an async run as small stays on the calling thread with or without shared memory.
    if (sync) noSharedHeap();
    // A large result goes to the out as the kernel makes it, where the plan can drain it (the copy reads
    // the caches, not the heap). Not to a fresh array: one made with new is zeroed first, where slice() is not.
    const run = this.#runLean(lean, bound, true, into, this.#spaceFor(lean, bound));
    try {
      check(run.flags);
      const { data } = run.value(plan.results[0]!);
      if (data === into) return into;
      if (!into) return run.owns(data) ? data : data.slice();
      setElements(into, data, 0);
      return into;
    } finally {
      run.release();
    }
  }

  /**
   * Theano's make_thunk: walks the plan as a run would, building and compiling
   * every kernel (copies included), and launches none. Blocks are allocated at
   * the sizes `bound` gives, and freed.
   */
  prepare(plan: Plan, bound: Bindings): void {
    // On a page, a compiled function's routines start loading now, so that its first executeSync() may find them.
    void routinesFor(plan);
    const run = new WasmRun(this.#heap, this.#compile, plan, bound, undefined, true);
    // Copies (a reshape's, a product operand's) ignore their launch's result.
    const dry: Launcher<LaunchResult> = () => undefined as unknown as LaunchResult;
    try {
      for (const step of plan.steps) {
        if (step.kind === 'kernel') run.kernel(step.group, dry).skip();
        else for (const k of run.node(step.node, dry)) k.skip();
        run.release(step);
      }
    } finally {
      run.end();
    }
  }

  privateHeap(): HeapStats | undefined {
    return this.#private?.made && this.#private.stats();
  }

  /** The private heap holds nothing between runs: its memory goes to the collector, and the next such run makes another. */
  idle(): void {
    this.#private = undefined;
  }

  stats(): BackendStats {
    return {
      runs: this.#runs,
      steps: this.#launches + this.#hostSteps,
      pooled: this.#pooled,
      joined: this.#joined,
      workerBlocks: this.#pool.workerBlocks(),
      kernels: {
        compiled: this.#kernels.compiled,
        compileMs: this.#kernels.compileMs,
        cached: this.#kernels.size,
        cacheLimit: MODULE_CACHE,
        // Kernels instantiated on the calling thread (on this heap, with this package's host functions).
        instances: this.#heap.made ? instanceCount(this.#heap.made.memory, host) : 0,
        instancesLimit: INSTANCE_CACHE,
      },
    };
  }

  /**
   * On the pool when the kernel has enough work to repay dispatching it, else
   * here; the calling thread joins a pooled launch whose share per thread is
   * short (see joins()), except with inlineThreshold 0, which keeps every
   * kernel of execute() off the calling thread.
   */
  async #launchAsync(k: KernelLaunch | RoutineLaunch, heap: HeapLike): Promise<LaunchResult> {
    if ('routine' in k) return this.#routineAsync(k, heap);
    const elements = k.launch.shape.reduce((a, b) => a * b, 1);
    const work = launchWork(k.compiled, elements, k.launch.contraction?.K);
    const { inlineThreshold, threads } = this.#host.settings();
    if (work < inlineThreshold) return launchInline(k, heap);
    return this.#pool.withPool(threads, async (pool) => {
      if (!pool) return launchInline(k, heap);
      return this.#pooledLaunch(pool, work, (join) => launchOnPool(pool, k.compiled, heap, k.launch, k.label, join));
    });
  }

  /**
   * A lean run's launch, its block written and its arrays placed: on the pool
   * (the calling thread joining as #launchAsync says), or here without one.
   */
  async #launchLean(lean: LeanKernel, block: number, ptrs: readonly number[]): Promise<LaunchResult> {
    const memory = this.#heap.kernels.memory;
    return this.#pool.withPool(this.#host.settings().threads, async (pool) => {
      if (!pool) return runFixed(lean.fixed, memory, kernelOn(lean, memory), block, ptrs, host);
      return this.#pooledLaunch(pool, lean.work, (join) => launchFixedOnPool(pool, lean.fixed, memory, block, ptrs, lean.label, join));
    });
  }

  /**
   * A kernel's launch of `work` units on `pool`, counted: `launch` is given the
   * calling thread's offer to join (joins() decides; none with inlineThreshold 0).
   */
  async #pooledLaunch(pool: KernelPool, work: number, launch: (join: Join | undefined) => Promise<LaunchResult>): Promise<LaunchResult> {
    this.#pooled++;
    let joined = false;
    const accept = (blocks: number): boolean => (joined = joins(work, blocks, pool.threads));
    const r = await launch(this.#host.settings().inlineThreshold > 0 ? { host, accept } : undefined);
    if (joined) this.#joined++;
    return r;
  }

  /**
   * A routine's launch on the pool, its blocks shared out over the workers
   * (the calling thread waits), where its elements reach the inline
   * threshold as a kernel's do; else, or without a pool, here.
   */
  async #routineAsync(k: RoutineLaunch, heap: HeapLike): Promise<LaunchResult> {
    if (!this.#routinePooled(k.routine.elements)) return runHere(k, heap);
    return this.#pool.withPool(this.#host.settings().threads, async (pool) => {
      if (!pool) return runHere(k, heap);
      this.#pooled++;
      await pool.run({ kernel: k.routine.module, argsPtr: k.routine.argsPtr, blocks: k.routine.blocks, label: k.label });
      return ROUTINE_RESULT;
    });
  }

  /**
   * Whether a routine launch over so many elements goes to the pool: where
   * they reach the inline threshold, as a kernel's work does, on a shared
   * heap. Routine steps make their launches for the pool's threads where it
   * does (WasmRun's threadsFor), so the two never disagree.
   */
  #routinePooled(elements: number): boolean {
    return this.#heap.shared && elements >= this.#host.settings().inlineThreshold;
  }

  /** A lean plan's run (lean-run.ts), on the calling thread, its blocks in `space`. */
  #runLean(lean: LeanPlan, bound?: Bindings, untaken = false, into?: TypedArray, space = this.#heap): RunResult {
    this.#runs++;
    this.#launches += lean.kernels.length;
    return (this.#lastLean = new LeanRun(lean, space)).run(bound, untaken, into);
  }

  /**
   * Where a lean run whose result is copied out takes its blocks: the
   * private heap where the heap is shared, every argument an ordinary array
   * copied in for this call anyway (not a source whose copy the heap keeps,
   * nor a block of the heap), and the run small; else the heap.
   */
  #spaceFor(lean: LeanPlan, bound: Bindings | undefined): WasmHeap {
    const p = lean.privately;
    if (!p || !this.#heap.shared) return this.#heap;
    let bytes = p.bytes;
    for (const node of p.placeholders) {
      const b = bound?.get(node);
      if (!b || b.source || b.at) return this.#heap;
      bytes += blockSize(b.value.data.byteLength);
    }
    return bytes <= PRIVATE_RUN_BYTES ? (this.#private ??= privateHeap(PRIVATE_RUN_BYTES)) : this.#heap;
  }

  #result(run: WasmRun): RunResult {
    // Values stay in the heap until the caller has them: copied out, taken as views, or written into outs.
    this.#count(run);
    return {
      flags: run.flags,
      value: (n) => run.valueOf(n),
      owns: (data) => !this.#heap.isHeapBuffer(data.buffer),
      take: (n) => run.take(n),
      written: run.written,
      release: () => run.end(),
    };
  }

  #count(run: WasmRun): void {
    this.#launches += run.launches;
    this.#hostSteps += run.hostSteps;
  }

  #fail(run: WasmRun): void {
    this.#count(run);
    run.end();
  }
}

export { WasmBackend };
