// Forcing: what an execute() (or flush()) must run of the trace before its
// own plan, as stages the linker runs one after another. Every stage writes
// new versions into staged blocks; the arrays move to them only when the
// whole force has succeeded (commit), so a failed force leaves every array it
// was to write as it was (design.md, atomicity).
import { NotSupportedError } from '../ir/errors.js';
import { contiguousStrides } from '../ir/shape.js';
import type { Target } from '../plan/pipeline.js';
import type { StoreTarget } from '../plan/plan.js';
import type { BoundStage, StagePlans } from './stage-plans.js';
import { buildStages } from './stages.js';
import type { Stage } from './stages.js';
import type { Storage } from './storage.js';
import { choose, pendingComputations, pendingReads, retire } from './trace.js';
import type { Computation, Read } from './trace.js';
import { copyOutside } from './window.js';

class Force {
  readonly chosen: readonly Computation[];
  readonly stages: readonly Stage[];
  /** Versions written over the block of the one they replace (stats().writtenOver). */
  writtenOver = 0;
  readonly #touched: ReadonlySet<Storage>;

  constructor(chosen: readonly Computation[], rootReads: readonly Read[]) {
    this.chosen = chosen;
    // A version the computations left pending read must be stored even where the stage would only substitute it.
    const pendingLater = [...pendingReads(new Set(chosen))].flatMap(([storage, vs]) => [...vs].map((version) => ({ storage, version })));
    this.stages = buildStages(chosen, [...rootReads, ...pendingLater]);
    this.#touched = new Set(chosen.map((c) => c.storage));
    this.#checkHeld();
  }

  /**
   * Plans stage `i` (or binds its structure's plan), then stages the blocks
   * it writes: a version goes over one this force wrote before and only this
   * stage reads, where the plan allows it; else into a block of its own,
   * which a slice assignment first fills with what lies outside its window.
   */
  stagePlan(i: number, plans: StagePlans, target: Target): BoundStage {
    const stage = this.stages[i]!;
    const stores: StoreTarget[] = stage.writes.map(({ computation: c, node }) => {
      const { storage, version, window } = c;
      if (window) return { node, storage, version, strides: window.strides, offset: window.offset };
      // A whole write is the same bytes in any shape: store the value under the reshape, which a kernel computes.
      let value = node;
      while (value.op === 'reshape') value = value.inputs[0];
      return { node: value, storage, version, strides: contiguousStrides(value.shape), offset: 0 };
    });
    const bound = plans.plan(stores, target);
    stage.writes.forEach(({ computation: c }, k) => {
      const { storage, version, window } = c;
      // A slice assignment keeps the version before it outside its window: only that one's block will do.
      const over = bound.overwritable[k]!.some((r) => (!window || r.version === version - 1) &&
        !stage.later.get(storage)?.has(r.version) && storage.overwrite(r.version, version));
      if (over) {
        this.writtenOver++;
        return;
      }
      storage.stage(version, stage.keep.get(storage) ?? new Set());
      if (window) copyOutside(storage.view(version - 1), storage.view(version), window);
    });
    return bound;
  }

  commit(): void {
    const last = new Map<Storage, number>();
    for (const c of this.chosen) last.set(c.storage, c.version);
    retire(this.chosen);
    const keep = pendingReads();
    for (const [s, v] of last) s.commit(v, keep.get(s) ?? new Set());
  }

  rollback(): void {
    const keep = pendingReads();
    for (const s of this.#touched) s.rollback(keep.get(s) ?? new Set());
  }

  /** Every version read that is not still to be made must be in memory; else the old values are gone. */
  #checkHeld(): void {
    for (const [storage, versions] of this.stages[0]!.keep) {
      for (const v of versions) if (v <= storage.committed) storage.assertHeld(v);
    }
  }
}

/**
 * The force a request reading `reads` needs (everything pending when `all`),
 * or undefined when the trace has nothing for it; throws StaleArrayError when
 * it reads a version no longer held.
 */
function prepareForce(reads: readonly Read[], all = false): Force | undefined {
  const chosen = all ? [...pendingComputations()] : choose(reads);
  if (chosen.length > 0) return new Force(chosen, reads);
  for (const r of reads) r.storage.assertHeld(r.version);
  return undefined;
}

/**
 * Forces run one at a time, whichever runtime runs them: a force's stages
 * await the pool, and another force meanwhile could choose the same
 * computations or recycle a block it reads. The trace is the process's (the
 * arrays are), so the queue is too.
 */
class ForceQueue {
  #tail: Promise<void> = Promise.resolve();
  #running = 0;

  /** Runs `body` once every earlier force has finished. */
  serialised<T>(body: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(async () => {
      this.#running++;
      try {
        return await body();
      } finally {
        this.#running--;
      }
    });
    this.#tail = result.then(() => undefined, () => undefined);
    return result;
  }

  /** A synchronous run that needs the trace cannot wait for an asynchronous force in progress. */
  checkNotForcing(fn: string): void {
    if (this.#running > 0) {
      throw new NotSupportedError(`${fn}: an execute() that reads or writes mutable arrays is still running; await it before ${fn}`);
    }
  }
}

const forces = new ForceQueue();

export { Force, prepareForce, forces };
