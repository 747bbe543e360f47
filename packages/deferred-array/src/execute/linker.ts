// execute(): plans the requested arrays, runs the plan on the configured
// backend, applies the error policy, and shapes the NEP result.
import { DeferredArrayError, ExecutionError, HeapError, WorkerError, fromSerialized } from '../ir/errors.js';
import { topoOrder } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import { planCount, planExecution } from '../plan/pipeline.js';
import { cachedPlan, lookupPlan } from './plan-cache.js';
import { planTraffic } from '../plan/print-plan.js';
import { resolveConds } from '../plan/resolve-conds.js';
import type { Target } from '../plan/pipeline.js';
import { WasmBackend } from '../wasm/backend.js';
import { compileCount, compileMs } from 'kernels-wasm';
import type { WorkerFailure } from 'kernels-wasm';
import type { Plan } from '../plan/plan.js';
import { ReferenceBackend } from '../reference/backend.js';
import type { RunFlags } from '../reference/flags.js';
import { emitWarning } from '../util/platform.js';
import type { Backend, Bindings, OutWindow, RunResult } from './backend.js';
import { getConfig } from './config.js';
import type { ErrorAction } from './config.js';
import { deliver } from '../results/deliver.js';
import type { Record, Single } from '../results/deliver.js';
import { directTargets, holdHeap } from '../results/in-place.js';
import { bindOut } from '../results/out.js';
import type { OutBinding, OutTarget } from '../results/out.js';
import { COPIES } from '../results/request.js';
import type { ResultRequest } from '../results/request.js';
import { viewStats } from '../results/views.js';
import { formatBytes } from 'kernels-wasm';
import { checkNotForcing, prepareForce, serialised, writtenOverCount } from '../trace/force.js';
import { stagePlanStats } from '../trace/stage-plans.js';
import { storedIn } from '../trace/trace.js';
import type { Read } from '../trace/trace.js';

const reference = new ReferenceBackend();
const wasm = new WasmBackend();

function currentBackend(): Backend {
  return getConfig().backend === 'wasm' ? wasm : reference;
}

/** What the planner may produce for the current backend. */
const currentTarget = (): Target => (currentBackend() === wasm ? 'kernels' : 'nodes');

function apply(action: ErrorAction, count: number, message: string): void {
  if (count === 0 || action === 'ignore') return;
  if (action === 'raise') throw new ExecutionError(message);
  emitWarning(message);
}

function applyPolicy(flags: RunFlags): void {
  const { errors } = getConfig();
  const where = [...flags.where].join(', ');
  apply(errors.divide, flags.divideByZero,
    `integer division by zero in ${where} (${flags.divideByZero} element(s), each set to 0); ` +
    `configure({ errors: { divide: 'ignore' } }) to silence, or 'raise' to fail`);
  apply(errors.invalid, flags.invalidCast,
    `invalid value in ${where}: ${flags.invalidCast} NaN, infinite or out-of-range float(s) cast to an integer dtype ` +
    `(saturated, NaN to 0); configure({ errors: { invalid: 'ignore' } }) to silence, or 'raise' to fail`);
}

/**
 * Applies the error policy and hands the results out as the request asks:
 * one per root, or the record when outputs are marked.
 */
function finish(many: boolean, plan: Plan, run: RunResult, request: ResultRequest, outs?: OutBinding, direct?: ReadonlyMap<Node, OutTarget>): Single | Single[] | Record {
  try {
    applyPolicy(run.flags);
    return deliver(many, plan, run, { ...request, outs, direct });
  } catch (e) {
    throw asPackageError(e);
  } finally {
    run.release();
  }
}

/**
 * kernels-wasm's heap and pool errors as this package's HeapError and
 * WorkerError (same message, the original as cause); an error of this
 * package's own thrown in a worker (a data error in a host function) is
 * rebuilt as its class, as if it had been thrown here.
 */
function asPackageError(e: unknown): unknown {
  if (!(e instanceof Error) || e instanceof DeferredArrayError) return e;
  const code = (e as { code?: unknown }).code;
  if (code === 'HEAP') return new HeapError(e.message + viewsNote(), { cause: e });
  if (code !== 'WORKER') return e;
  // What the worker threw, if it threw rather than died.
  const thrown = (e as WorkerFailure).thrown ?? { name: 'WorkerFailure', message: e.message };
  return fromSerialized(thrown, { message: e.message, cause: e });
}

/** What a heap error adds when view results hold heap memory. */
function viewsNote(): string {
  const { views, viewBytes } = viewStats();
  if (views === 0) return '';
  return ` ${views} view result(s) not yet released hold ${formatBytes(viewBytes)} of it: release them ` +
    '(da.release(r), r[Symbol.dispose]() or `using`), or make them inside da.scope()/da.scopeSync(), which releases them at its end.';
}

let bytesMoved = 0;

/** The plan's run, its error policy applied (a stage of a force returns nothing, but may raise). */
function finishStage(run: RunResult): void {
  try {
    applyPolicy(run.flags);
  } finally {
    run.release();
  }
}

/** Each plan's traffic, worked out once: a compiled function runs one plan many times, a time loop one stage plan bound anew. */
const traffic = new WeakMap<Plan['steps'], number>();

function countTraffic(plan: Plan): void {
  let t = traffic.get(plan.steps);
  if (t === undefined) traffic.set(plan.steps, (t = planTraffic(plan)));
  bytesMoved += t;
}

/** The heap outs the backend may write directly, as windows. */
const windows = (direct?: ReadonlyMap<Node, OutTarget>): ReadonlyMap<Node, OutWindow> | undefined =>
  direct && direct.size > 0 ? new Map([...direct].map(([n, t]) => [n, { ptr: t.heap!.ptr, strides: t.strides }])) : undefined;

/** `r`, whose release also ends the hold on the heap memory the run used. */
const holding = (r: RunResult, unhold: () => void): RunResult => ({
  ...r,
  release: () => {
    try {
      r.release();
    } finally {
      unhold();
    }
  },
});

/**
 * Runs a plan on the calling thread, counting its traffic, holding the views
 * it reads and writes (see results/in-place.ts) and mapping kernels-wasm's errors to ours.
 */
function runPlan(plan: Plan, bound?: Bindings, outs?: OutBinding, direct?: ReadonlyMap<Node, OutTarget>): RunResult {
  countTraffic(plan);
  const unhold = holdHeap(plan, bound, outs);
  try {
    return holding(currentBackend().run(plan, bound, windows(direct)), unhold);
  } catch (e) {
    unhold();
    throw asPackageError(e);
  }
}

/** As runPlan, where the backend chooses. */
async function runPlanAsync(plan: Plan, bound?: Bindings, outs?: OutBinding, direct?: ReadonlyMap<Node, OutTarget>): Promise<RunResult> {
  countTraffic(plan);
  const unhold = holdHeap(plan, bound, outs);
  try {
    return holding(await currentBackend().runAsync(plan, bound, windows(direct)), unhold);
  } catch (e) {
    unhold();
    const mapped = asPackageError(e);
    // The one failure writing outs in place cannot undo (see directTargets).
    if (mapped instanceof WorkerError && direct && direct.size > 0) {
      throw new WorkerError(`${mapped.message}; ${[...direct.values()].map((t) => t.name).join(', ')} was being written in place and may be partly written`, { cause: mapped });
    }
    throw mapped;
  }
}

/** The request planned, its out bound and the outs its kernels may write directly. */
function planRequest(roots: readonly Node[], many: boolean, request: ResultRequest, reused: boolean): { plan: Plan; outs?: OutBinding; direct?: ReadonlyMap<Node, OutTarget> } {
  return bindRequest(reused ? cachedPlan(roots, currentTarget()) : planExecution(roots, currentTarget()), many, request);
}

/** `plan` with the request's outs bound to it. */
function bindRequest(plan: Plan, many: boolean, request: ResultRequest): { plan: Plan; outs?: OutBinding; direct?: ReadonlyMap<Node, OutTarget> } {
  if (request.out === undefined) return { plan };
  const outs = bindOut(request.out, plan, many);
  return { plan, outs, direct: directTargets(plan, outs, request.view) };
}

/** A compiled function's call: its plan (made once) over the arguments bound to its placeholders. */
function runBound(plan: Plan, bound: Bindings, many: boolean, request: ResultRequest = COPIES): Single | Single[] | Record {
  return finish(many, plan, runPlan(plan, bound), request);
}

async function runBoundAsync(plan: Plan, bound: Bindings, many: boolean, request: ResultRequest = COPIES): Promise<Single | Single[] | Record> {
  return finish(many, plan, await runPlanAsync(plan, bound), request);
}

/** Compiles the kernels of `plan` now, before its first run (Theano's make_thunk). */
function preparePlan(plan: Plan, bound: Bindings): void {
  try {
    currentBackend().prepare(plan, bound);
  } catch (e) {
    throw asPackageError(e);
  }
}

/** The array one root's run returned: itself, or its record's result when it marks outputs. */
function resultOf(r: Single | Single[] | Record | undefined): Single {
  return (r && !Array.isArray(r) && 'result' in r ? (r as Record)['result'] : r) as Single;
}

/** A predicate's value from what running it returned. */
const truth = (r: Single | Single[] | Record | undefined): boolean => Boolean(resultOf(r).get());

/** What a request needs before its plan: conds to decide, and the mutable arrays' versions it reads. */
function survey(roots: readonly Node[]): { conds: boolean; reads: Read[] } {
  const order = topoOrder(roots);
  return { conds: order.some((n) => n.op === 'cond'), reads: storedIn(order) };
}

/**
 * `roots` with every cond they hold decided now, on the calling thread
 * (each predicate run in program order, as executeSync() would): for a value
 * that goes where conds are not planned, an in-place write's.
 */
function decideConds(roots: readonly Node[]): Node[] {
  if (!survey(roots).conds) return [...roots];
  const decide = resolveConds(roots);
  let next = decide.next();
  while (!next.done) next = decide.next(truth(runNodes([next.value], false)));
  return next.value;
}

/**
 * Runs `roots` on the calling thread, after deciding the conds they hold
 * (predicates first, then only the branches taken) and after the pending
 * in-place computations they need (all of them when `all`); with no roots, only those.
 */
function runNodes(roots: readonly Node[], many: boolean, all = false, request: ResultRequest = COPIES): Single | Single[] | Record | undefined {
  // An array executed again: its plan says it has no conds and reads nothing mutable, so no survey.
  const again = all ? undefined : lookupPlan(roots, currentTarget());
  if (again) {
    const { plan, outs, direct } = bindRequest(again, many, request);
    return finish(many, plan, runPlan(plan, undefined, outs, direct), request, outs, direct);
  }
  let { conds, reads } = survey(roots);
  if (conds) {
    const decide = resolveConds(roots);
    let next = decide.next();
    while (!next.done) next = decide.next(truth(runNodes([next.value], false)));
    roots = next.value;
    reads = survey(roots).reads;
  }
  if (all || reads.length > 0) checkNotForcing('executeSync');
  const force = prepareForce(reads, all);
  try {
    force?.stages.forEach((_, i) => {
      const stage = force.stagePlan(i, currentTarget());
      finishStage(runPlan(stage.plan, stage.bound));
    });
    let result: Single | Single[] | Record | undefined;
    if (roots.length > 0) {
      const { plan, outs, direct } = planRequest(roots, many, request, !conds && reads.length === 0);
      result = finish(many, plan, runPlan(plan, undefined, outs, direct), request, outs, direct);
    }
    force?.commit();
    return result;
  } catch (e) {
    force?.rollback();
    throw e;
  }
}

/** As runNodes, where the backend chooses; forces that touch mutable arrays run one at a time. */
async function runNodesAsync(roots: readonly Node[], many: boolean, all = false, request: ResultRequest = COPIES): Promise<Single | Single[] | Record | undefined> {
  const again = all ? undefined : lookupPlan(roots, currentTarget());
  if (again) {
    const { plan, outs, direct } = bindRequest(again, many, request);
    return finish(many, plan, await runPlanAsync(plan, undefined, outs, direct), request, outs, direct);
  }
  let { conds, reads } = survey(roots);
  if (conds) {
    const decide = resolveConds(roots);
    let next = decide.next();
    while (!next.done) next = decide.next(truth(await runNodesAsync([next.value], false)));
    roots = next.value;
    reads = survey(roots).reads;
  }
  const runRequest = async (): Promise<Single | Single[] | Record | undefined> => {
    if (roots.length === 0) return undefined;
    const { plan, outs, direct } = planRequest(roots, many, request, !conds && reads.length === 0);
    return finish(many, plan, await runPlanAsync(plan, undefined, outs, direct), request, outs, direct);
  };
  if (!all && reads.length === 0) return runRequest();
  return serialised(async () => {
    const force = prepareForce(reads, all);
    try {
      for (let i = 0; i < (force?.stages.length ?? 0); i++) {
        const stage = force!.stagePlan(i, currentTarget());
        finishStage(await runPlanAsync(stage.plan, stage.bound));
      }
      const result = await runRequest();
      force?.commit();
      return result;
    } catch (e) {
      force?.rollback();
      throw e;
    }
  });
}

const backendStats = () => ({
  backend: currentBackend().name,
  ...currentBackend().stats(),
  plans: planCount(),
  stagePlansReused: stagePlanStats().reused,
  writtenOver: writtenOverCount(),
  kernelsCompiled: compileCount(),
  bytesMoved,
  compileMs: compileMs(),
});

export { runNodes, runNodesAsync, resultOf, runBound, runBoundAsync, preparePlan, backendStats, currentBackend, currentTarget, decideConds };
export type { Record as OutputRecord };
