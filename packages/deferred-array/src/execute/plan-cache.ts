// Plans of graphs executed again. Nodes never change, so a request over the
// same roots, for the same target, while no output() or pin() mark has been
// set since, gets the plan made the first time: a loop executing one
// DeferredArray plans once, as a compiled function does. Requests that read
// mutable arrays are planned afresh (their versions move with the trace).
import type { Node } from '../ir/node.js';
import { marksGeneration } from '../ir/marks.js';
import type { Target } from '../plan/pipeline.js';
import type { Plan } from '../plan/plan.js';

interface Entry {
  readonly roots: readonly Node[];
  readonly target: Target;
  readonly marks: number;
  readonly plan: Plan;
}

/** A few plans per first root (different companions, targets or marks); collected with the root. */
const PER_ROOT = 4;

/** Makes a plan (the runtime's planner, which counts them). */
type Planner = (roots: readonly Node[], target: Target) => Plan;

class PlanCache {
  readonly #cache = new WeakMap<Node, Entry[]>();
  readonly #plan: Planner;

  constructor(plan: Planner) {
    this.#plan = plan;
  }

  /**
   * The plan made before for these roots and target, if no mark has been set
   * since. Only requests without conds or mutable reads are ever stored, so a
   * hit also says the request needs neither.
   */
  lookup(roots: readonly Node[], target: Target): Plan | undefined {
    const first = roots[0];
    if (!first) return undefined;
    const marks = marksGeneration();
    return this.#cache.get(first)?.find((e) => e.target === target && e.marks === marks && e.roots.length === roots.length && e.roots.every((r, i) => r === roots[i]))?.plan;
  }

  /** Plans a request without conds or mutable reads, or reuses its plan. */
  plan(roots: readonly Node[], target: Target): Plan {
    const first = roots[0];
    const hit = this.lookup(roots, target);
    if (hit || !first) return hit ?? this.#plan(roots, target);
    const plan = this.#plan(roots, target);
    const marks = marksGeneration();
    const entries = this.#cache.get(first) ?? [];
    this.#cache.set(first, [{ roots: [...roots], target, marks, plan }, ...entries.filter((e) => e.marks === marks).slice(0, PER_ROOT - 1)]);
    return plan;
  }
}

export { PlanCache };
export type { Planner };
