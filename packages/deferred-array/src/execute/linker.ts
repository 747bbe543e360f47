// execute(): plans the requested arrays, runs the plan on the configured
// backend, applies the error policy, and shapes the NEP result.
import { DeferredArrayError, ExecutionError, HeapError, fromSerialized } from '../ir/errors.js';
import { topoOrder } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import { planCount, planExecution } from '../plan/pipeline.js';
import { planTraffic } from '../plan/print-plan.js';
import { resolveConds } from '../plan/resolve-conds.js';
import type { Target } from '../plan/pipeline.js';
import { WasmBackend } from '../wasm/backend.js';
import { compileCount, compileMs } from 'kernels-wasm';
import type { WorkerFailure } from 'kernels-wasm';
import type { Plan } from '../plan/plan.js';
import { ReferenceBackend } from '../reference/backend.js';
import type { RunFlags } from '../reference/flags.js';
import type { Dense } from '../reference/dense.js';
import { emitWarning } from '../util/platform.js';
import type { StdNdarray } from '../util/stdlib.js';
import type { Backend, Bindings, RunResult } from './backend.js';
import { getConfig } from './config.js';
import type { ErrorAction } from './config.js';
import { toNdarray } from './to-ndarray.js';
import { checkNotForcing, prepareForce, serialised } from '../trace/force.js';
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

type Single = StdNdarray;
type Record = { [key: string]: StdNdarray | StdNdarray[] };

/** Applies the error policy and shapes the NEP result: one ndarray per root, or the record when outputs are marked. */
function finish(many: boolean, plan: Plan, run: RunResult): Single | Single[] | Record {
  const { values, flags } = run;
  // Every returned array owns its memory: a value the run did not make for
  // the caller (a source's storage), or one already handed out, is copied.
  const handedOut = new Set<Dense['data']>();
  const give = (node: Node) => {
    const v = values.get(node)!;
    const zeroCopy = run.owns(v.data) && !handedOut.has(v.data);
    const fresh = zeroCopy ? v : { ...v, data: v.data.slice() };
    handedOut.add(v.data);
    return toNdarray(fresh);
  };
  try {
    applyPolicy(flags);
    // plan.results are the roots after the planner merged common subexpressions.
    const results = plan.results.map(give);
    const result = many ? results : results[0]!;
    if (plan.outputs.length === 0) return result;
    const record: Record = {};
    for (const o of plan.outputs) record[o.key] = give(o.node);
    record['result'] = result;
    return record;
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
  if (code === 'HEAP') return new HeapError(e.message, { cause: e });
  if (code !== 'WORKER') return e;
  // What the worker threw, if it threw rather than died.
  const thrown = (e as WorkerFailure).thrown ?? { name: 'WorkerFailure', message: e.message };
  return fromSerialized(thrown, { message: e.message, cause: e });
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

/** Each plan's traffic, worked out once: a compiled function runs one plan many times. */
const traffic = new WeakMap<Plan, number>();

function countTraffic(plan: Plan): void {
  let t = traffic.get(plan);
  if (t === undefined) traffic.set(plan, (t = planTraffic(plan)));
  bytesMoved += t;
}

/** Runs a plan on the calling thread, counting its traffic and mapping kernels-wasm's errors to ours. */
function runPlan(plan: Plan, bound?: Bindings): RunResult {
  countTraffic(plan);
  try {
    return currentBackend().run(plan, bound);
  } catch (e) {
    throw asPackageError(e);
  }
}

/** As runPlan, where the backend chooses. */
function runPlanAsync(plan: Plan, bound?: Bindings): Promise<RunResult> {
  countTraffic(plan);
  return currentBackend().runAsync(plan, bound).catch((e: unknown) => {
    throw asPackageError(e);
  });
}

/** A compiled function's call: its plan (made once) over the arguments bound to its placeholders. */
function runBound(plan: Plan, bound: Bindings, many: boolean): Single | Single[] | Record {
  return finish(many, plan, runPlan(plan, bound));
}

async function runBoundAsync(plan: Plan, bound: Bindings, many: boolean): Promise<Single | Single[] | Record> {
  return finish(many, plan, await runPlanAsync(plan, bound));
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
 * Runs `roots` on the calling thread, after deciding the conds they hold
 * (predicates first, then only the branches taken) and after the pending
 * in-place computations they need (all of them when `all`); with no roots, only those.
 */
function runNodes(roots: readonly Node[], many: boolean, all = false): Single | Single[] | Record | undefined {
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
    force?.stages.forEach((_, i) => finishStage(runPlan(force.stagePlan(i, currentTarget()))));
    let result: Single | Single[] | Record | undefined;
    if (roots.length > 0) {
      const plan = planExecution(roots, currentTarget());
      result = finish(many, plan, runPlan(plan));
    }
    force?.commit();
    return result;
  } catch (e) {
    force?.rollback();
    throw e;
  }
}

/** As runNodes, where the backend chooses; forces that touch mutable arrays run one at a time. */
async function runNodesAsync(roots: readonly Node[], many: boolean, all = false): Promise<Single | Single[] | Record | undefined> {
  let { conds, reads } = survey(roots);
  if (conds) {
    const decide = resolveConds(roots);
    let next = decide.next();
    while (!next.done) next = decide.next(truth(await runNodesAsync([next.value], false)));
    roots = next.value;
    reads = survey(roots).reads;
  }
  const request = async (): Promise<Single | Single[] | Record | undefined> => {
    if (roots.length === 0) return undefined;
    const plan = planExecution(roots, currentTarget());
    return finish(many, plan, await runPlanAsync(plan));
  };
  if (!all && reads.length === 0) return request();
  return serialised(async () => {
    const force = prepareForce(reads, all);
    try {
      for (let i = 0; i < (force?.stages.length ?? 0); i++) finishStage(await runPlanAsync(force!.stagePlan(i, currentTarget())));
      const result = await request();
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
  kernelsCompiled: compileCount(),
  bytesMoved,
  compileMs: compileMs(),
});

export { runNodes, runNodesAsync, resultOf, runBound, runBoundAsync, preparePlan, backendStats, currentBackend, currentTarget };
export type { Record as OutputRecord };
