// Trace stages planned once per structure. A time loop forces the same
// statements step after step, so its stages differ only in which versions of
// its arrays they read and which blocks they write. A stage is planned as a
// template: the same graph over placeholders standing for what it reads, its
// writes aimed at stand-ins. Every stage of that structure is then the
// template bound, as a compiled function's plan is bound per call: no pass
// runs again, and the kernels (kept per fused group) are only rebound to the
// new addresses.
import { LRUCache } from 'lru-cache';
import type { Bindings, Bound } from '../execute/backend.js';
import { inheritMark, inheritPin, pinOf } from '../ir/marks.js';
import { expectOp, makeNode, topoOrder } from '../ir/node.js';
import { withInputs } from '../plan/rewrite.js';
import type { Node, StorageRef } from '../ir/node.js';
import { lookup } from '../util/lookup.js';
import { attrsKey } from '../plan/merge-common.js';
import type { Target } from '../plan/pipeline.js';
import type { Plan, StoreTarget } from '../plan/plan.js';
import { mayOverwrite } from './overwrite.js';
import type { Storage } from './storage.js';
import type { Read } from './trace.js';

interface Template {
  readonly plan: Plan;
  /** The placeholders, one per distinct value the stage reads from memory, in the key's order. */
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

/** A stage's graph as the cache sees it. */
interface Structure {
  readonly key: string;
  /** The values it reads from memory, in the key's order: each distinct version of a mutable array once, and each source. */
  readonly leaves: readonly Node[];
  /** The graph's nodes, inputs first, and the leaf each leaf node is (equal versions made apart are one). */
  readonly order: readonly Node[];
  readonly leafAt: ReadonlyMap<Node, number>;
}

/** The stage's structure; undefined for a graph holding a placeholder (a compiled function's trace), which is not cached. */
function structure(stores: readonly StoreTarget[], target: Target): Structure | undefined {
  const index = new Map<Node, number>();
  const leafOf = new Map<string, number>();
  const leafAt = new Map<Node, number>();
  const leaves: Node[] = [];
  const storages = new Map<StorageRef, number>();
  const storageIndex = (s: StorageRef): number => {
    let i = storages.get(s);
    if (i === undefined) storages.set(s, (i = storages.size));
    return i;
  };
  const leaf = (key: string, n: Node): number => {
    let i = leafOf.get(key);
    if (i === undefined) {
      leafOf.set(key, (i = leaves.length));
      leaves.push(n);
    }
    leafAt.set(n, i);
    return i;
  };
  const parts: string[] = [target];
  const order = topoOrder(stores.map((st) => st.node));
  for (const n of order) {
    let part: string;
    if (n.op === 'stored') {
      const { storage } = n.attrs;
      part = `L${leaf(`${storage.id}:${n.attrs.version}`, n)}s${storageIndex(storage)}${pinOf(n) ?? ''}`;
    } else if (n.op === 'source') {
      part = `L${leaf(`n${n.id}`, n)}${pinOf(n) ?? ''}`;
    } else if (n.family === 'source') {
      return undefined;
    } else {
      part = `${n.op}${pinOf(n) ?? ''}|${attrsKey(n.attrs)}|${n.inputs.map((i) => index.get(i)).join(',')}`;
    }
    parts.push(`${part}|${n.dtype}|${n.shape.join(',')}`);
    index.set(n, index.size);
  }
  for (const st of stores) parts.push(`T${index.get(st.node)}s${storageIndex(st.storage)}|${st.strides.join(',')}|${st.offset}`);
  return { key: parts.join(';'), leaves, order, leafAt };
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

/** Plans the stage's graph over a placeholder per leaf, its stores aimed at stand-ins. */
function makeTemplate(planner: StagePlanner, stores: readonly StoreTarget[], s: Structure, target: Target): Template {
  const placeholders = s.leaves.map((n) => makeNode('placeholder', [], n.shape, n.dtype, { label: n.attrs.label ?? `source ${n.id}` }));
  const to = new Map<Node, Node>();
  for (const n of s.order) {
    const j = s.leafAt.get(n);
    const m = j !== undefined ? placeholders[j]! : withInputs(n, n.inputs.map((i) => lookup(to, i, 'stage node rebuilt')));
    inheritPin(n, m);
    inheritMark(n, m);
    to.set(n, m);
  }
  const plan = planner([], target, stores.map((st, k) => ({ ...st, node: to.get(st.node)!, storage: standIn(k), version: 0 })));
  const overwrites = stores.map((st, k) => (target !== 'kernels' ? [] : s.leaves.flatMap((n, j) =>
    (n.op === 'stored' && n.attrs.storage === st.storage && mayOverwrite(plan, k, placeholders[j]!) ? [j] : []))));
  return { plan, leaves: placeholders, overwrites };
}

/** What a stage reads, bound to its template's placeholder: a version read where it lies, a source as a compiled function's argument. */
function boundLeaf(n: Node): Bound {
  if (n.op === 'stored') {
    const { storage, version } = n.attrs;
    return { value: { dtype: n.dtype, shape: n.shape, data: storage.view(version) }, at: { heap: storage.heap, ptr: storage.address(version) } };
  }
  return { value: { dtype: n.dtype, shape: n.shape, data: expectOp(n, 'source').attrs.data }, source: n };
}

/** A runtime's stage templates, and how many stage plans it bound rather than made. */
class StagePlans {
  readonly #templates = new LRUCache<string, Template>({ max: TEMPLATES });
  readonly #planner: StagePlanner;
  #hits = 0;

  constructor(planner: StagePlanner) {
    this.#planner = planner;
  }

  /**
   * The plan of a trace stage writing `stores`: its structure's template, bound
   * to this stage. The versions it reads are bound now: call it before staging
   * the blocks its stores write, since a store may take the block of one of them.
   */
  plan(stores: readonly StoreTarget[], target: Target): BoundStage {
    const s = structure(stores, target);
    if (!s) return { plan: this.#planner([], target, stores), bound: new Map(), overwritable: stores.map(() => []) };
    let template = this.#templates.get(s.key);
    if (template) {
      this.#hits++;
    } else {
      template = makeTemplate(this.#planner, stores, s, target);
      this.#templates.set(s.key, template);
    }
    return bindTemplate(template, stores, s);
  }

  /** Templates held and stage plans reused (for statistics and tests). */
  stats(): { templates: number; reused: number } {
    return { templates: this.#templates.size, reused: this.#hits };
  }
}

/** The template bound to one stage: its stores aimed at the real arrays, its placeholders at what the stage reads. */
function bindTemplate(template: Template, stores: readonly StoreTarget[], s: Structure): BoundStage {
  const plan: Plan = { ...template.plan, stores: template.plan.stores.map((st, k) => ({ ...st, storage: stores[k]!.storage, version: stores[k]!.version })) };
  const bound = new Map(template.leaves.map((p, i) => [p, boundLeaf(s.leaves[i]!)]));
  const overwritable = template.overwrites.map((js) => js.map((j) => {
    const { storage, version } = expectOp(s.leaves[j]!, 'stored').attrs;
    return { storage: storage as Storage, version };
  }));
  return { plan, bound, overwritable };
}

export { StagePlans, TEMPLATES };
export type { BoundStage, StagePlanner };
