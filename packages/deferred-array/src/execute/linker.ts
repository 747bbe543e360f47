// The linker: plans the requested arrays, runs the plan on the configured
// backend, applies the error policy, and shapes the NEP result. A Linker is
// a runtime's engine: it holds the registered backends, the heap they run
// over, the settings, the plan caches and the counters, and nothing of it is
// module state.
import { DeferredArrayError, HeapError, WorkerError } from '../ir/errors.js';
import { topoOrder } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import { viewStats } from '../results/views.js';
import { toNdarray } from './to-ndarray.js';
import { planExecution } from '../plan/pipeline.js';
import type { Target } from '../plan/pipeline.js';
import type { Plan, StoreTarget } from '../plan/plan.js';
import { planTraffic } from '../plan/print-plan.js';
import { resolveConds } from '../plan/resolve-conds.js';
import type { Heap } from '../core/heap.js';
import type { RunFlags } from '../core/flags.js';
import type { Backend, BackendSettings, BackendStats, Bindings, Constants, KernelStats, RunResult } from './backend.js';
import { configured, initialConfig } from './config.js';
import { HeapTrimmer } from './heap-trim.js';
import { Driver, FORCE, FORCED } from './driver.js';
import type { Drive, RunStep, Step } from './driver.js';
import { applyPolicy } from './error-policy.js';
import type { Config, ConfigureOptions } from './config.js';
import { PlanCache } from './plan-cache.js';
import { ConstantBindings, RequestPlans } from './request-plans.js';
import { deliver, overOut } from '../results/deliver.js';
import type { Record, Single } from '../results/deliver.js';
import { directTargets, holdHeap } from '../results/in-place.js';
import { bindOut, simpleOut } from '../results/out.js';
import type { OutBinding, OutTarget } from '../results/out.js';
import { COPIES } from '../results/request.js';
import type { ResultRequest } from '../results/request.js';
import { prepareForce } from '../trace/force.js';
import { StagePlans } from '../trace/stage-plans.js';
import { storedIn } from '../trace/trace.js';
import type { Read } from '../trace/trace.js';

type Outcome = Single | Single[] | Record;

/** `bound` with `constants` bound too. */
function withConstants(bound: Bindings, constants: Constants): Bindings {
  if (constants.length === 0) return bound;
  const all = new Map(bound);
  for (const [n, b] of constants) all.set(n, b);
  return all;
}

/**
 * How a delivery tries the short way: for a drive that runs everything on the
 * calling thread (executeSync: any size), for one that lets the backend choose
 * (execute: sizes the calling thread would run anyway), or not again.
 */
type ShortWay = 'sync' | 'async' | 'tried';

/** How a request is driven: on the calling thread, or awaited (the short way it tries follows). */
type Driven = Exclude<ShortWay, 'tried'>;

/** What a heap error adds when view results hold memory of `heap`. */
function viewsNote(heap: Heap): string {
  const { views, viewBytes } = viewStats(heap);
  if (views === 0) return '';
  return ` ${views} view result(s) not yet released hold ${heap.formatBytes(viewBytes)} of it: release them ` +
    '(da.release(r), r[Symbol.dispose]() or `using`), or make them inside da.scope()/da.scopeSync(), which releases them at its end.';
}

/** Each plan's traffic, worked out once: a compiled function runs one plan many times, a time loop one stage plan bound anew. */
const traffic = new WeakMap<Plan['steps'], number>();

function trafficOf(plan: Plan): number {
  let t = traffic.get(plan.steps);
  if (t === undefined) traffic.set(plan.steps, (t = planTraffic(plan)));
  return t;
}

/** The array one root's run returned: itself, or its record's result when it marks outputs. */
function resultOf(r: Outcome | undefined): Single {
  return (r && !Array.isArray(r) && 'result' in r ? (r as Record)['result'] : r) as Single;
}

/** A predicate's value from what running it returned. */
const truth = (r: Outcome | undefined): boolean => Boolean(resultOf(r).get());

/** What a request needs before its plan: conds to decide, and the mutable arrays' versions it reads. */
function survey(roots: readonly Node[]): { order: readonly Node[]; conds: boolean; reads: Read[] } {
  const order = topoOrder(roots);
  // A loop, not some(): an arrow made per call is a new function, which V8 optimizes again for each.
  let conds = false;
  for (let i = 0; i < order.length && !conds; i++) conds = order[i]!.op === 'cond';
  return { order, conds, reads: storedIn(order) };
}

/** The counters a linker keeps beside its backends'. */
interface LinkerCounters {
  plans: number;
  bytesMoved: number;
  writtenOver: number;
}

/** Sums what compiling backends report of their kernel caches. */
function kernelTotals(all: readonly (KernelStats | undefined)[]): KernelStats {
  const ks = all.flatMap((k) => (k ? [k] : []));
  const sum = (f: (k: KernelStats) => number): number => ks.reduce((a, k) => a + f(k), 0);
  const max = (f: (k: KernelStats) => number): number => ks.reduce((a, k) => Math.max(a, f(k)), 0);
  return {
    compiled: sum((k) => k.compiled), compileMs: sum((k) => k.compileMs), cached: sum((k) => k.cached),
    cacheLimit: max((k) => k.cacheLimit), instances: max((k) => k.instances), instancesLimit: max((k) => k.instancesLimit),
  };
}

class Linker {
  /** Where its backends' runs keep their values and its view results lie. */
  readonly heap: Heap;
  readonly #backends = new Map<string, Backend>();
  #config: Config | undefined;
  readonly #counters: LinkerCounters = { plans: 0, bytesMoved: 0, writtenOver: 0 };
  /** Constants' bindings, which request and stage plans share. */
  readonly #constants = new ConstantBindings();
  readonly #requests = new RequestPlans((roots, target) => this.plan(roots, target), this.#constants);
  readonly #plans = new PlanCache((roots, target, order) => this.#requests.plan(roots, target, order));
  readonly #stagePlans = new StagePlans((results, target, stores) => this.plan(results, target, stores), this.#constants);
  readonly #trimmer: HeapTrimmer;
  readonly #driver: Driver;
  /** The error policy in force applied to a run's flags (made once: a closure per call is an allocation per call). */
  readonly #applyPolicy = (flags: RunFlags): void => applyPolicy(flags, this.config.errors);

  constructor(heap: Heap) {
    this.heap = heap;
    this.#trimmer = new HeapTrimmer({
      heap,
      idleMs: () => this.config.trimAfterIdleMs,
      replaced: async () => { await Promise.all([...this.#backends.values()].map((b) => b.heapReplaced())); },
      idle: () => { for (const b of this.#backends.values()) b.idle?.(); },
    });
    this.#driver = new Driver({ backend: () => this.backend, trimmer: this.#trimmer, failed: (e, step) => this.#failed(e, step) });
  }

  /** Adds a backend configure({ backend }) can select by its name, and starts it. */
  register(backend: Backend): void {
    if (this.#backends.has(backend.name)) throw new Error(`internal: a backend named '${backend.name}' is registered already`);
    this.#backends.set(backend.name, backend);
    // The config in force is the settings (a Config is a BackendSettings): read per launch, so nothing is copied.
    backend.start({ settings: (): BackendSettings => this.config });
  }

  /** The settings in force (from the environment until configure() changes them). */
  get config(): Config {
    this.#config ??= initialConfig(this.#backends);
    return this.#config;
  }

  configure(options: ConfigureOptions = {}): Config {
    this.#config = configured(this.config, options, this.#backends);
    return this.#config;
  }

  get backend(): Backend {
    const b = this.#backends.get(this.config.backend);
    if (!b) throw new Error(`internal: backend '${this.config.backend}' is not registered`);
    return b;
  }

  /** What the planner may produce for the current backend. */
  get target(): Target {
    return this.backend.target;
  }

  /** Plans `results` (and a trace stage's `stores`), counting it. */
  plan(results: readonly Node[], target: Target = this.target, stores: readonly StoreTarget[] = []): Plan {
    this.#counters.plans++;
    return planExecution(results, target, stores);
  }

  /** Runs `roots` on the calling thread, after deciding their conds and the pending in-place computations they need (all when `all`). */
  runNodes(roots: readonly Node[], many: boolean, all = false, request: ResultRequest = COPIES): Outcome | undefined {
    return this.#driver.sync(this.#request(roots, many, all, request, 'sync'));
  }

  /** As runNodes, where the backend chooses; forces that touch mutable arrays run one at a time. */
  runNodesAsync(roots: readonly Node[], many: boolean, all = false, request: ResultRequest = COPIES): Promise<Outcome | undefined> {
    return this.#driver.async(this.#request(roots, many, all, request, 'async'));
  }

  /**
   * A compiled function's call: its plan (made once) over the arguments bound
   * to its placeholders. `constants` are bound for the general way only: the
   * short way writes the plan's own values into the launch block.
   */
  runBound(plan: Plan, bound: Bindings, many: boolean, request: ResultRequest = COPIES, constants: Constants = []): Outcome {
    // The short way tried before a driver is made: a compiled call's whole cost is a few µs.
    return this.#short(plan, many, request, bound, true) ?? this.#driver.sync(this.#deliver(plan, many, request, withConstants(bound, constants), 'tried'));
  }

  /**
   * The usual request the short way (Backend.runInto): one result, not bool,
   * into an ordinary typed array of its dtype and size or into a fresh array,
   * where the backend has a short way for the plan and would run it on the
   * calling thread (execute() too; `sync`: a caller that runs everything
   * there). What #deliver's general steps do for such a request, without
   * them; undefined, having run nothing, for any other.
   */
  #short(plan: Plan, many: boolean, request: ResultRequest, bound: Bindings | undefined, sync = false): Single | undefined {
    const { backend } = this;
    const out = simpleOut(plan, many, request);
    if (!backend.runInto || out === undefined) return undefined;
    const into = out ?? undefined;
    const node = plan.results[0]!;
    const unhold = holdHeap(plan, bound);
    // Counted as a run once the backend took the plan, whether or not the run then failed.
    let ran = true;
    try {
      const data = backend.runInto(plan, bound, into, this.#applyPolicy, sync);
      ran = data !== undefined;
      if (!data) return undefined;
      return into ? overOut(into, node.shape) : toNdarray({ dtype: node.dtype, shape: node.shape, data });
    } catch (e) {
      throw this.#mapError(e);
    } finally {
      unhold();
      if (ran) {
        this.#counters.bytesMoved += trafficOf(plan);
        this.#trimmer.ran();
      }
    }
  }

  /**
   * A compiled call run now the short way (its arguments read in place,
   * its kernel on the calling thread), or undefined, having run nothing,
   * where the short way does not take it.
   */
  runShort(plan: Plan, bound: Bindings, many: boolean, request: ResultRequest): Outcome | undefined {
    return this.#short(plan, many, request, bound);
  }

  /** As runBound, where the backend likes (the short way tried in #deliver, once arguments computed first are ready). */
  runBoundAsync(plan: Plan, bound: Bindings, many: boolean, request: ResultRequest = COPIES, constants: Constants = []): Promise<Outcome> {
    return this.#driver.async(this.#deliver(plan, many, request, withConstants(bound, constants), 'async'));
  }

  /**
   * `roots` with every cond they hold decided now, on the calling thread
   * (each predicate run in program order, as executeSync() would): for a value
   * that goes where conds are not planned, an in-place write's.
   */
  decideConds(roots: readonly Node[]): Node[] {
    return survey(roots).conds ? this.#driver.sync(this.#decide(roots, 'sync')) : [...roots];
  }

  /** Compiles the kernels of `plan` now, before its first run (Theano's make_thunk). */
  preparePlan(plan: Plan, bound: Bindings): void {
    try {
      this.backend.prepare(plan, bound);
    } catch (e) {
      throw this.#mapError(e);
    }
  }

  /** For explain({ kernels: true }): the current backend's kernels for `plan`, where it compiles any. */
  describeKernels(plan: Plan): readonly string[] {
    return this.backend.describe?.(plan) ?? [];
  }

  /**
   * Ends what the backends hold between runs (the worker pool) once their
   * running work is done, and gives the heap's memory back where nothing
   * holds it (heap-trim.ts).
   */
  async shutdown(): Promise<void> {
    await Promise.all([...this.#backends.values()].map((b) => b.shutdown()));
    await this.#trimmer.settled();
    await this.#trimmer.trim();
  }

  stats(): {
    backend: string; runs: number; steps: number; pooled: number; joined: number; plans: number; plansReused: number; stagePlansReused: number;
    writtenOver: number; kernelsCompiled: number; bytesMoved: number; compileMs: number; workerBlocks: number[];
  } {
    const current = this.backend;
    const each = new Map([...this.#backends.values()].map((b): [Backend, BackendStats] => [b, b.stats()]));
    const all = [...each.values()];
    const { runs, steps, pooled, joined } = each.get(current) ?? current.stats();
    const kernels = kernelTotals(all.map((s) => s.kernels));
    const { plans, writtenOver, bytesMoved } = this.#counters;
    return {
      backend: current.name, runs, steps, pooled, joined, plans, plansReused: this.#requests.stats().reused, stagePlansReused: this.#stagePlans.stats().reused, writtenOver,
      kernelsCompiled: kernels.compiled, bytesMoved, compileMs: kernels.compileMs, workerBlocks: all.flatMap((s) => [...s.workerBlocks]),
    };
  }

  /** What the runtime's caches hold, beside their limits. */
  cacheStats(): {
    kernels: number; kernelsLimit: number; kernelInstances: number; kernelInstancesLimit: number; plans: number; plansLimit: number; stagePlans: number;
  } {
    const k = kernelTotals([...this.#backends.values()].map((b) => b.stats().kernels));
    const requests = this.#requests.stats();
    return {
      kernels: k.cached, kernelsLimit: k.cacheLimit, kernelInstances: k.instances, kernelInstancesLimit: k.instancesLimit,
      plans: requests.templates, plansLimit: requests.limit, stagePlans: this.#stagePlans.stats().templates,
    };
  }

  /** A run that threw, as this package's error. */
  #failed(e: unknown, step: RunStep): unknown {
    const mapped = this.#mapError(e);
    // The one failure writing outs in place cannot undo (see directTargets).
    if (mapped instanceof WorkerError && step.direct && step.direct.size > 0) {
      return new WorkerError(`${mapped.message}; ${[...step.direct.values()].map((t) => t.name).join(', ')} was being written in place and may be partly written`, { cause: mapped });
    }
    return mapped;
  }

  /**
   * A backend's error as this package's: the current backend's mapping
   * first, then the others' (they share the runtime's heap); a heap
   * error says what view results hold of the heap.
   */
  #mapError(e: unknown): unknown {
    if (!(e instanceof Error) || e instanceof DeferredArrayError) return e;
    const current = this.backend;
    const order = [current, ...[...this.#backends.values()].filter((b) => b !== current)];
    const mapped = order.map((b) => b.mapError(e)).find((m) => m !== e) ?? e;
    return mapped instanceof HeapError ? new HeapError(mapped.message + viewsNote(this.heap), { cause: e }) : mapped;
  }

  /** A plan run as one step, its traffic counted. */
  *#run(step: Omit<RunStep, 'kind'>): Generator<Step, RunResult, RunResult | undefined> {
    this.#counters.bytesMoved += trafficOf(step.plan);
    const run = yield { kind: 'run', plan: step.plan, bound: step.bound, outs: step.outs, direct: step.direct };
    if (!run) throw new Error('internal: the driver gave no run for a plan');
    return run;
  }

  /**
   * Applies the error policy and hands the results out as the request asks:
   * one per root, or the record when outputs are marked.
   */
  #finish(many: boolean, plan: Plan, run: RunResult, request: ResultRequest, outs?: OutBinding, direct?: ReadonlyMap<Node, OutTarget>): Outcome {
    try {
      applyPolicy(run.flags, this.config.errors);
      // Fields named one by one: spreading the request (whose shape varies with its options) is a slow
      // generic clone in V8, microseconds a call.
      return deliver(many, plan, run, { heap: this.heap, view: request.view, owner: request.owner, outs, direct });
    } catch (e) {
      throw this.#mapError(e);
    } finally {
      run.release();
    }
  }

  /** The plan's run, its error policy applied (a stage of a force returns nothing, but may raise). */
  #finishStage(run: RunResult): void {
    try {
      applyPolicy(run.flags, this.config.errors);
    } finally {
      run.release();
    }
  }

  /** `plan` (its leaves bound to `bound`) with the request's outs bound to it. */
  #bindRequest(plan: Plan, many: boolean, request: ResultRequest, bound?: Bindings): Omit<RunStep, 'kind'> {
    if (request.out === undefined) return { plan, bound, outs: undefined, direct: undefined };
    const outs = bindOut(request.out, plan, many);
    return { plan, bound, outs, direct: directTargets(plan, outs, request.view, this.config.errors, this.heap, bound) };
  }

  /** Runs `plan` (made already, its leaves bound to `bound`) for the request and hands its results out. */
  *#deliver(plan: Plan, many: boolean, request: ResultRequest, bound: Bindings | undefined, way: ShortWay): Drive<Outcome> {
    const short = way === 'tried' ? undefined : this.#short(plan, many, request, bound, way === 'sync');
    if (short) return short;
    const step = this.#bindRequest(plan, many, request, bound);
    const run = yield* this.#run(step);
    return this.#finish(many, plan, run, request, step.outs, step.direct);
  }

  /** The one place conds are decided (`roots` hold some): each predicate run as a request of its own, in program order. */
  *#decide(roots: readonly Node[], way: Driven): Drive<Node[]> {
    const decide = resolveConds(roots);
    let next = decide.next();
    while (!next.done) next = decide.next(truth(yield* this.#request([next.value], false, false, COPIES, way)));
    return next.value;
  }

  /**
   * A request: the conds its roots hold decided (predicates first, then only
   * the branches taken), then the pending in-place computations it needs
   * (all of them when `all`) run as a force, then its own plan; with no
   * roots, only the force.
   */
  *#request(roots: readonly Node[], many: boolean, all: boolean, request: ResultRequest, way: Driven): Drive<Outcome | undefined> {
    // An array executed again: its plan says it has no conds and reads nothing mutable, so no survey.
    const again = all ? undefined : this.#plans.lookup(roots, this.target);
    if (again) return yield* this.#deliver(again.plan, many, request, again.bound, way);
    const first = survey(roots);
    const decided = first.conds ? yield* this.#decide(roots, way) : [...roots];
    // The graph walked once more only where deciding its conds changed it.
    const { order, reads } = first.conds ? survey(decided) : first;
    const reused = !first.conds && reads.length === 0;
    const main = (): Drive<Outcome | undefined> => this.#main(decided, order, many, request, reused, way);
    if (!all && reads.length === 0) return yield* main();
    yield FORCE;
    const result = yield* this.#force(reads, all, main);
    yield FORCED;
    return result;
  }

  /** The request's own plan (`order`: its graph, inputs first), run; none for a request with no roots. */
  *#main(roots: readonly Node[], order: readonly Node[], many: boolean, request: ResultRequest, reused: boolean, way: Driven): Drive<Outcome | undefined> {
    if (roots.length === 0) return undefined;
    const { plan, bound } = reused ? this.#plans.plan(roots, this.target, order) : this.#requests.plan(roots, this.target, order);
    return yield* this.#deliver(plan, many, request, bound, way);
  }

  /** The force the request needs, stage by stage, then `then`; every array it writes moves only if all of it succeeds. */
  *#force<T>(reads: readonly Read[], all: boolean, then: () => Drive<T>): Drive<T> {
    const force = prepareForce(reads, all);
    try {
      for (let i = 0; i < (force?.stages.length ?? 0); i++) {
        const stage = force?.stagePlan(i, this.#stagePlans, this.target);
        if (!stage) break;
        this.#finishStage(yield* this.#run(stage));
      }
      const result = yield* then();
      force?.commit();
      return result;
    } catch (e) {
      force?.rollback();
      throw e;
    } finally {
      this.#counters.writtenOver += force?.writtenOver ?? 0;
    }
  }
}

export { Linker, resultOf };
export type { Outcome, Record as OutputRecord };
