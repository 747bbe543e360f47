// Forcing: what an execute() (or flush()) must run of the trace before its
// own plan, as stages the linker runs one after another. Every stage writes
// new versions into staged blocks; the arrays move to them only when the
// whole force has succeeded (commit), so a failed force leaves every array it
// was to write as it was (design.md, atomicity).
import { NotSupportedError } from '../ir/errors.js';
import type { Node } from '../ir/node.js';
import { contiguousStrides } from '../ir/shape.js';
import { planExecution } from '../plan/pipeline.js';
import type { Target } from '../plan/pipeline.js';
import type { Plan, StoreTarget } from '../plan/plan.js';
import { buildStages } from './stages.js';
import type { Stage } from './stages.js';
import type { Storage } from './storage.js';
import { choose, pendingComputations, pendingReads, readsOf, retire } from './trace.js';
import type { Computation, Read } from './trace.js';
import { copyOutside } from './window.js';

class Force {
  readonly chosen: readonly Computation[];
  readonly stages: readonly Stage[];
  readonly #rootReads: readonly Read[];
  readonly #touched: ReadonlySet<Storage>;

  constructor(chosen: readonly Computation[], rootReads: readonly Read[]) {
    this.chosen = chosen;
    this.#rootReads = rootReads;
    // A version the computations left pending read must be stored even where the stage would only substitute it.
    const pendingLater = [...pendingReads(new Set(chosen))].flatMap(([storage, vs]) => [...vs].map((version) => ({ storage, version })));
    this.stages = buildStages(chosen, [...rootReads, ...pendingLater]);
    this.#touched = new Set(chosen.map((c) => c.storage));
    this.#checkHeld();
  }

  /** Stages blocks for stage `i`, copies what its slice assignments keep, and plans it. */
  stagePlan(i: number, target: Target): Plan {
    const stage = this.stages[i]!;
    const needed = this.#neededFrom(i);
    for (const w of stage.writes) {
      const { storage, version } = w.computation;
      storage.stage(version, needed.get(storage) ?? new Set());
    }
    const stores: StoreTarget[] = stage.writes.map(({ computation: c, node }) => {
      const { storage, version, window } = c;
      if (window) {
        copyOutside(storage.view(version - 1), storage.view(version), window);
        return { node, storage, version, strides: window.strides, offset: window.offset };
      }
      // A whole write is the same bytes in any shape: store the value under the reshape, which a kernel computes.
      let value = node;
      while (value.op === 'reshape') value = value.inputs[0]!;
      return { node: value, storage, version, strides: contiguousStrides(value.shape), offset: 0 };
    });
    return planExecution([], target, stores);
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

  /** Versions read by stage `i`, the stages after it and the request, per array. */
  #neededFrom(i: number): Map<Storage, Set<number>> {
    // What the computations left pending will read must survive this force too.
    const needed = pendingReads(new Set(this.chosen));
    for (const r of [...this.stages.slice(i).flatMap((s) => s.reads), ...this.#rootReads]) {
      const set = needed.get(r.storage);
      if (set) set.add(r.version);
      else needed.set(r.storage, new Set([r.version]));
    }
    return needed;
  }

  /** Every version read must be in memory now or be made by this force; else the old values are gone. */
  #checkHeld(): void {
    const made = new Set(this.chosen.map((c) => `${c.storage.id}:${c.version}`));
    for (const r of [...this.stages.flatMap((s) => s.reads), ...this.#rootReads]) {
      if (!made.has(`${r.storage.id}:${r.version}`) && !r.storage.holds(r.version)) r.storage.address(r.version);
    }
  }
}

/**
 * The force `roots` need (everything pending when `all`), or undefined when
 * the trace has nothing for them; throws StaleArrayError when they read a
 * version no longer held.
 */
function prepareForce(roots: readonly Node[], all = false): Force | undefined {
  const reads = readsOf(roots);
  const chosen = all ? [...pendingComputations()] : choose(reads);
  if (chosen.length > 0) return new Force(chosen, reads);
  for (const r of reads) if (!r.storage.holds(r.version)) r.storage.address(r.version);
  return undefined;
}

/** Whether `roots` read any mutable array (and so must wait for a force in progress). */
const readsStored = (roots: readonly Node[]): boolean => readsOf(roots).length > 0;

// Forces run one at a time: a force's stages await the pool, and another
// force meanwhile could choose the same computations or recycle a block it reads.
let tail: Promise<void> = Promise.resolve();
let running = 0;

/** Runs `body` once every earlier force has finished. */
function serialised<T>(body: () => Promise<T>): Promise<T> {
  const result = tail.then(async () => {
    running++;
    try {
      return await body();
    } finally {
      running--;
    }
  });
  tail = result.then(() => undefined, () => undefined);
  return result;
}

/** A synchronous run that needs the trace cannot wait for an asynchronous force in progress. */
function checkNotForcing(fn: string): void {
  if (running > 0) {
    throw new NotSupportedError(`${fn}: an execute() that reads or writes mutable arrays is still running; await it before ${fn}`);
  }
}

export { Force, prepareForce, readsStored, serialised, checkNotForcing };
