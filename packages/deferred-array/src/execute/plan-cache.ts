// Plans of graphs executed again. Nodes never change, so a request over the
// same roots, for the same target, while no output() or pin() mark has been
// set since, gets the plan and bindings it had before, without even reading
// its structure: a loop executing one DeferredArray finds its plan at once
// from its third execute (the first two bind its structure's template).
// Requests that read mutable arrays are bound afresh (their versions move
// with the trace).
import type { Node } from '../ir/node.js';
import { marksGeneration } from '../ir/marks.js';
import type { Target } from '../plan/pipeline.js';
import type { Planned } from './request-plans.js';

interface Entry {
  readonly roots: readonly Node[];
  readonly target: Target;
  readonly marks: number;
  readonly planned: Planned;
}

/** A few plans per first root (different companions, targets or marks); collected with the root. */
const PER_ROOT = 4;

/** Plans a request (`order`: its graph, inputs first), or binds its structure's plan (the runtime's request plans). */
type Planner = (roots: readonly Node[], target: Target, order: readonly Node[]) => Planned;

class PlanCache {
  readonly #cache = new WeakMap<Node, Entry[]>();
  /**
   * Roots requested once: their plans are kept at their second request. A
   * WeakMap entry whose key is young (a graph built afresh and executed
   * once, the usual loop) has its value kept alive by every scavenge of
   * V8's young generation until a full collection; with a plan's bindings
   * and roots as values that copied about 750 KB per scavenge, 3-5 ms each,
   * a third of a small call's time. A set holds no value.
   */
  readonly #seen = new WeakSet<Node>();
  readonly #plan: Planner;

  constructor(plan: Planner) {
    this.#plan = plan;
  }

  /**
   * The plan made before for these roots and target, if no mark has been set
   * since. Only requests without conds or mutable reads are ever stored, so a
   * hit also says the request needs neither.
   */
  lookup(roots: readonly Node[], target: Target): Planned | undefined {
    const first = roots[0];
    if (!first) return undefined;
    const marks = marksGeneration();
    return this.#cache.get(first)?.find((e) => e.target === target && e.marks === marks && e.roots.length === roots.length && e.roots.every((r, i) => r === roots[i]))?.planned;
  }

  /** Plans a request without conds or mutable reads (`order`: its graph, inputs first), or reuses its plan. */
  plan(roots: readonly Node[], target: Target, order: readonly Node[]): Planned {
    const first = roots[0];
    const hit = this.lookup(roots, target);
    if (hit || !first) return hit ?? this.#plan(roots, target, order);
    const planned = this.#plan(roots, target, order);
    if (!this.#seen.has(first)) {
      this.#seen.add(first);
      return planned;
    }
    const marks = marksGeneration();
    const entries = this.#cache.get(first) ?? [];
    this.#cache.set(first, [{ roots: [...roots], target, marks, planned }, ...entries.filter((e) => e.marks === marks).slice(0, PER_ROOT - 1)]);
    return planned;
  }
}

export { PlanCache };
export type { Planner };
