// The driver: a request (linker.ts) is written once, as a generator of
// steps (a plan to run, the bounds of a force), and driven two ways: on the
// calling thread (executeSync), or awaited where a plan runs on the
// backend's terms (execute). The driver answers each run step with the
// backend's run, holding the views the run reads and writes until it is
// released; forces that touch mutable arrays run one at a time.
import type { Node } from '../ir/node.js';
import type { Plan } from '../plan/plan.js';
import { HOLDS_NOTHING, holdHeap } from '../results/in-place.js';
import type { OutBinding, OutTarget } from '../results/out.js';
import { forces } from '../trace/force.js';
import type { Backend, Bindings, OutWindow, RunResult } from './backend.js';
import type { HeapTrimmer } from './heap-trim.js';

/** A plan to run, with what it is bound to; the driver answers with its run. */
interface RunStep {
  readonly kind: 'run';
  readonly plan: Plan;
  readonly bound?: Bindings;
  readonly outs?: OutBinding;
  readonly direct?: ReadonlyMap<Node, OutTarget>;
}

/**
 * What a request asks of its driver: a plan run, or the bounds of a force
 * (which touches mutable arrays: forces run one at a time, and a synchronous
 * run may not start while an asynchronous force is running).
 */
type Step = RunStep | { readonly kind: 'force' } | { readonly kind: 'forced' };

/** A request as a step list: run on the calling thread, or awaited only where a plan runs on the backend's terms. */
type Drive<T> = Generator<Step, T, RunResult | undefined>;

const FORCE: Step = { kind: 'force' };
const FORCED: Step = { kind: 'forced' };

/** The heap outs the backend may write directly, as windows. */
const windows = (direct?: ReadonlyMap<Node, OutTarget>): ReadonlyMap<Node, OutWindow> | undefined =>
  direct && direct.size > 0 ? new Map([...direct].flatMap(([n, t]) => (t.heap ? [[n, { ptr: t.heap.ptr, strides: t.strides }]] : []))) : undefined;

/** `r`, whose release also ends the hold on the heap memory the run used. */
function holding(r: RunResult, unhold: () => void): RunResult {
  if (unhold === HOLDS_NOTHING) return r;
  return {
    flags: r.flags,
    written: r.written,
    value: (n) => r.value(n),
    owns: (data) => r.owns(data),
    ...(r.take ? { take: (n: Node) => r.take!(n) } : {}),
    release: () => {
      try {
        r.release();
      } finally {
        unhold();
      }
    },
  };
}

/** Holds the views a run reads and writes (see results/in-place.ts) until its release. */
const holdHeapFor = (step: RunStep): (() => void) => holdHeap(step.plan, step.bound, step.outs);

/** What a driver needs of its linker. */
interface DriverHost {
  /** The backend in force now (read per step: configure() may change it between steps of an async request). */
  backend(): Backend;
  readonly trimmer: HeapTrimmer;
  /** A run that threw, as the package's error. */
  failed(e: unknown, step: RunStep): unknown;
}

class Driver {
  readonly #host: DriverHost;

  constructor(host: DriverHost) {
    this.#host = host;
  }

  sync<T>(g: Drive<T>): T {
    try {
      let next = g.next();
      while (!next.done) next = this.#answerSync(g, next.value);
      return next.value;
    } finally {
      this.#host.trimmer.ran();
    }
  }

  async async<T>(g: Drive<T>): Promise<T> {
    this.#host.trimmer.begin();
    try {
      let next = g.next();
      while (!next.done) {
        next = next.value.kind === 'force' ? await forces.serialised(() => this.#forceAsync(g)) : await this.#answerAsync(g, next.value);
      }
      return next.value;
    } finally {
      this.#host.trimmer.end();
    }
  }

  #answerSync<T>(g: Drive<T>, step: Step): IteratorResult<Step, T> {
    if (step.kind === 'force') forces.checkNotForcing('executeSync');
    if (step.kind !== 'run') return g.next(undefined);
    let run: RunResult;
    let unhold = (): void => {};
    try {
      unhold = holdHeapFor(step);
      run = holding(this.#host.backend().run(step.plan, step.bound, windows(step.direct)), unhold);
    } catch (e) {
      unhold();
      return g.throw(this.#host.failed(e, step));
    }
    return g.next(run);
  }

  /** A force's steps, once every earlier force has finished; returns the step after its end. */
  async #forceAsync<T>(g: Drive<T>): Promise<IteratorResult<Step, T>> {
    let next = g.next();
    while (!next.done && next.value.kind !== 'forced') next = await this.#answerAsync(g, next.value);
    return next.done ? next : g.next();
  }

  async #answerAsync<T>(g: Drive<T>, step: Step): Promise<IteratorResult<Step, T>> {
    if (step.kind !== 'run') return g.next(undefined);
    let run: RunResult;
    try {
      run = await this.#runAsync(step);
    } catch (e) {
      return g.throw(this.#host.failed(e, step));
    }
    return g.next(run);
  }

  /** The step's plan run where the backend likes, holding the views it reads and writes until the run is released. */
  async #runAsync(step: RunStep): Promise<RunResult> {
    let unhold = (): void => {};
    try {
      unhold = holdHeapFor(step);
      return holding(await this.#host.backend().runAsync(step.plan, step.bound, windows(step.direct)), unhold);
    } catch (e) {
      unhold();
      throw e;
    }
  }
}

export { Driver, FORCE, FORCED };
export type { RunStep, Step, Drive };
