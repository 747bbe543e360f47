// Trace stages planned once per structure (plan/template.ts), as requests
// are. A time loop forces the same statements step after step, so its stages
// differ only in which versions of its arrays they read, the constants they
// take and which blocks they write. A stage's template is its graph over a
// leaf per value it reads, its writes aimed at stand-ins; every stage of that
// structure is the template bound.
import type { Bindings } from '../execute/backend.js';
import { bindLeaves } from '../execute/request-plans.js';
import type { ConstantBindings } from '../execute/request-plans.js';
import { expectOp } from '../ir/node.js';
import type { Node, StorageRef } from '../ir/node.js';
import { lookup } from '../util/lookup.js';
import { hashCode } from '../plan/codes.js';
import type { Names } from '../plan/codes.js';
import { Templates, structureOf, templateGraph } from '../plan/template.js';
import type { Structure } from '../plan/template.js';
import type { Target } from '../plan/pipeline.js';
import type { Plan, StoreTarget } from '../plan/plan.js';
import { mayOverwrite } from './overwrite.js';
import type { Storage } from './storage.js';
import type { Read } from './trace.js';

interface Template {
  readonly plan: Plan;
  /** Its leaves, one per distinct value the stage reads, in the key's order. */
  readonly leaves: readonly Node[];
  /** Per store, the leaves (by index) of its own array whose blocks its kernel may write over (overwrite.ts). */
  readonly overwrites: ReadonlyArray<readonly number[]>;
}

/** A stage's plan and what its placeholders stand for in this force. */
interface BoundStage {
  readonly plan: Plan;
  readonly bound: Bindings;
  /** Per store, the versions of its array the stage reads whose blocks the plan lets it write over. */
  readonly overwritable: ReadonlyArray<readonly Read[]>;
}

/** Templates kept, least recently used dropped first: a program forcing more distinct stages in turn plans some again. */
const TEMPLATES = 64;

/** Makes a plan of `results` and `stores` (the runtime's planner, which counts them). */
type StagePlanner = (results: readonly Node[], target: Target, stores: readonly StoreTarget[]) => Plan;

/**
 * The stage's structure: its graph's, with where each store writes; undefined
 * for a graph the cache does not take (see structureOf).
 */
function structure(stores: readonly StoreTarget[], target: Target, names: Names): Structure | undefined {
  const s = structureOf(stores.map((st) => st.node), target, names);
  if (!s) return undefined;
  // Arrays written but not read are numbered after those read.
  const written = new Map<StorageRef, number>();
  const storageIndex = (r: StorageRef): number => {
    let i = s.storages.get(r) ?? written.get(r);
    if (i === undefined) written.set(r, (i = s.storages.size + written.size));
    return i;
  };
  const code = [...s.code, stores.length];
  // Few stores a stage: each found by a search of the order (the code names nodes by their place there).
  for (const st of stores) code.push(s.order.indexOf(st.node), storageIndex(st.storage), st.offset, st.strides.length, ...st.strides);
  return { ...s, code, hash: hashCode(code) };
}

/** A heap no backend runs over: a template is planned, never run. */
const STAND_IN = Object.freeze({});

/** Stands in for the array a template's store writes; a bound stage names the real one. */
const standIn = (k: number): StorageRef => ({
  id: -1 - k,
  name: `stage target ${k}`,
  heap: STAND_IN,
  address: () => {
    throw new Error('internal: a stage template was run unbound');
  },
  view: () => {
    throw new Error('internal: a stage template was run unbound');
  },
});

/** Plans the stage's graph over a leaf per value it reads, its stores aimed at stand-ins. */
function makeTemplate(planner: StagePlanner, stores: readonly StoreTarget[], s: Structure, target: Target): Template {
  const { leaves, copyOf } = templateGraph(s);
  const plan = planner([], target, stores.map((st, k) => ({ ...st, node: lookup(copyOf, st.node, 'stage store rebuilt'), storage: standIn(k), version: 0 })));
  const overwrites = stores.map((st, k) => (target !== 'kernels' ? [] : s.leaves.flatMap((n, j) =>
    (n.op === 'stored' && n.attrs.storage === st.storage && mayOverwrite(plan, k, leaves[j]!) ? [j] : []))));
  return { plan, leaves, overwrites };
}

/** A runtime's stage templates, and how many stage plans it bound rather than made. */
class StagePlans {
  readonly #templates = new Templates<Template>(TEMPLATES);
  readonly #planner: StagePlanner;
  readonly #constants: ConstantBindings;

  constructor(planner: StagePlanner, constants: ConstantBindings) {
    this.#planner = planner;
    this.#constants = constants;
  }

  /**
   * The plan of a trace stage writing `stores`: its structure's template, bound
   * to this stage. The versions it reads are bound now: call it before staging
   * the blocks its stores write, since a store may take the block of one of them.
   */
  plan(stores: readonly StoreTarget[], target: Target): BoundStage {
    const s = structure(stores, target, this.#templates.names);
    if (!s) return { plan: this.#planner([], target, stores), bound: new Map(), overwritable: stores.map(() => []) };
    const template = this.#templates.get(s, () => makeTemplate(this.#planner, stores, s, target));
    return bindTemplate(template, stores, s, this.#constants);
  }

  /** Templates held and stage plans reused (for statistics and tests). */
  stats(): { templates: number; reused: number } {
    return this.#templates.stats();
  }
}

/** The template bound to one stage: its stores aimed at the real arrays, its leaves at what the stage reads. */
function bindTemplate(template: Template, stores: readonly StoreTarget[], s: Structure, constants: ConstantBindings): BoundStage {
  const plan: Plan = { ...template.plan, stores: template.plan.stores.map((st, k) => ({ ...st, storage: stores[k]!.storage, version: stores[k]!.version })) };
  const bound = bindLeaves(template.leaves, s.leaves, constants);
  const overwritable = template.overwrites.map((js) => js.map((j) => {
    const { storage, version } = expectOp(s.leaves[j]!, 'stored').attrs;
    return { storage: storage as Storage, version };
  }));
  return { plan, bound, overwritable };
}

export { StagePlans, TEMPLATES };
export type { BoundStage, StagePlanner };
