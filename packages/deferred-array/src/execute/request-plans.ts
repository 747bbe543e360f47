// Requests planned once per structure (plan/template.ts): a loop that builds
// the same expression afresh each step, over new arrays and with new
// constants, plans it once. A hit binds the template's leaves to the
// request's arrays and constants; a miss makes the template and binds it the
// same way, so both run one plan and give the same bits.
import { allocDense } from '../core/dense.js';
import { setElement } from '../ir/dtypes.js';
import type { DType, Scalar } from '../ir/dtypes.js';
import type { Node } from '../ir/node.js';
import type { Target } from '../plan/pipeline.js';
import type { Plan } from '../plan/plan.js';
import { Templates, structureOf, templateGraph } from '../plan/template.js';
import { valueKey } from '../plan/merge-common.js';
import { at, lookup } from '../util/lookup.js';
import type { Bindings, Bound } from './backend.js';

/** A plan, and what its leaves are bound to for this request (none for a plan made of the request's own graph). */
interface Planned {
  readonly plan: Plan;
  readonly bound?: Bindings;
}

interface RequestTemplate {
  readonly plan: Plan;
  readonly leaves: readonly Node[];
}

/** Request templates kept, least recently used dropped first. */
const REQUEST_TEMPLATES = 256;

/** Makes a plan of `roots` (the runtime's planner, which counts them). */
type RequestPlanner = (roots: readonly Node[], target: Target) => Plan;

/** Constants' bindings kept in at most this many entries; past it the table starts over. */
const CONSTANTS = 1024;

/**
 * Constants' bindings by dtype and value, one table per runtime (its request
 * and stage plans share it): a loop's constants mostly repeat, and each would
 * be a typed array per call. Shared: nothing writes a bound value.
 */
class ConstantBindings {
  readonly #byDType = new Map<DType, Map<Scalar | string, Bound>>();
  #count = 0;

  of(dtype: DType, v: Scalar): Bound {
    let byValue = this.#byDType.get(dtype);
    if (!byValue) this.#byDType.set(dtype, (byValue = new Map()));
    const key = valueKey(v);
    let b = byValue.get(key);
    if (!b) {
      const value = allocDense(dtype, []);
      setElement(value.data, 0, v);
      if (this.#count >= CONSTANTS) {
        for (const m of this.#byDType.values()) m.clear();
        this.#count = 0;
      }
      byValue.set(key, (b = { value }));
      this.#count++;
    }
    return b;
  }
}

/**
 * What a leaf of a graph stands for, bound to its template's leaf: a
 * mutable array's version read where it lies, a source as a compiled
 * function's argument (its heap copy cached), a constant's value.
 */
function boundLeaf(n: Node, constants: ConstantBindings): Bound {
  switch (n.op) {
    case 'stored': {
      const { storage, version } = n.attrs;
      return { value: { dtype: n.dtype, shape: n.shape, data: storage.view(version) }, at: { heap: storage.heap, ptr: storage.address(version) } };
    }
    case 'source':
      return { value: { dtype: n.dtype, shape: n.shape, data: n.attrs.data }, source: n };
    case 'scalar':
      return constants.of(n.dtype, n.attrs.value);
    default:
      throw new Error(`internal: a ${n.op} node is not a template leaf`);
  }
}

/** Binds each of a template's leaves to what the request's leaf in its place stands for. */
function bindLeaves(templateLeaves: readonly Node[], leaves: readonly Node[], constants: ConstantBindings): Bindings {
  const bound = new Map<Node, Bound>();
  for (let i = 0; i < templateLeaves.length; i++) bound.set(templateLeaves[i]!, boundLeaf(at(leaves, i, 'request leaf'), constants));
  return bound;
}

class RequestPlans {
  readonly #templates = new Templates<RequestTemplate>(REQUEST_TEMPLATES);
  readonly #planner: RequestPlanner;
  readonly #constants: ConstantBindings;

  constructor(planner: RequestPlanner, constants: ConstantBindings) {
    this.#planner = planner;
    this.#constants = constants;
  }

  /**
   * The request's plan: its structure's template bound to its leaves, or, for
   * a graph the cache does not take, its own. `order`: its graph, inputs first,
   * where the caller has walked it already.
   */
  plan(roots: readonly Node[], target: Target, order?: readonly Node[]): Planned {
    const s = structureOf(roots, target, this.#templates.names, order);
    if (!s) return { plan: this.#planner(roots, target) };
    const template = this.#templates.get(s, () => {
      const { leaves, copyOf } = templateGraph(s);
      return { plan: this.#planner(roots.map((r) => lookup(copyOf, r, 'request root rebuilt')), target), leaves };
    });
    return { plan: template.plan, bound: bindLeaves(template.leaves, s.leaves, this.#constants) };
  }

  /** Templates held and requests that bound one rather than planning (for statistics and tests). */
  stats(): { templates: number; reused: number; limit: number } {
    return { ...this.#templates.stats(), limit: REQUEST_TEMPLATES };
  }
}

export { RequestPlans, ConstantBindings, bindLeaves, REQUEST_TEMPLATES };
export type { Planned, RequestPlanner };
