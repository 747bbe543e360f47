// How a run's values reach the caller. Each result (and marked output) leaves
// one of three ways:
// - into an out the caller gave (NumPy's out=), which execute() returns;
// - as a heap view, no copy (inside a scope, or with { view: true }): the
//   heap block the kernel wrote passes to the view, or the values are copied
//   into a block of their own where the run's block is not theirs alone;
// - as an ordinary array the collector owns (the default, the NEP's contract):
//   copied out of the heap.
// Everything that can fail (heap allocation) happens before any out is
// written, so a failure leaves the outs as they were.
import type { RunResult } from '../execute/backend.js';
import { dtypeInfo } from '../ir/dtypes.js';
import type { TypedArray } from '../ir/dtypes.js';
import type { Node } from '../ir/node.js';
import { sameShape, sizeOf } from '../ir/shape.js';
import type { Plan } from '../plan/plan.js';
import type { Dense } from '../core/dense.js';
import { sourcesOf } from '../core/source-cache.js';
import type { Heap } from '../core/heap.js';
import { toNdarray } from '../execute/to-ndarray.js';
import type { StdNdarray } from '../util/stdlib.js';
import { typedDType } from '../core/values.js';
import { writeOut } from './out.js';
import type { OutBinding, OutTarget } from './out.js';
import { makeView, release, viewEntryOf } from './views.js';
import type { ViewEntry, ViewOwner } from './views.js';

/** How the caller asked for the results of one request. */
interface Delivery {
  /** The runtime's heap: where the run's blocks lie and views are made. */
  readonly heap: Heap;
  /** Results without an out: heap views (true) or ordinary copies. */
  readonly view: boolean;
  /** The scope that releases the views; without one they are released by hand (or by the collector). */
  readonly owner?: ViewOwner & { readonly ended: boolean };
  readonly outs?: OutBinding;
  /** The outs the run was given to write directly. */
  readonly direct?: ReadonlyMap<Node, OutTarget>;
}

type Single = StdNdarray;
type Record = { [key: string]: StdNdarray | StdNdarray[] };

/** A block of its own in `heap` holding `value`, row-major. */
function toHeap(heap: Heap, value: Dense): number {
  return sourcesOf(heap).copyIn(value.data, sizeOf(value.shape) * dtypeInfo(value.dtype).bytes);
}

/** The ndarray last returned over each typed array out: a loop writing into one out gets one ndarray back, made once. */
const overOuts = new WeakMap<ArrayBufferView, StdNdarray>();

/** An ndarray over the caller's typed array out, at the result's shape. */
function overOut(given: TypedArray, shape: readonly number[]): StdNdarray {
  const dtype = typedDType(given)!;
  const last = overOuts.get(given);
  if (last && last.dtype === dtype && sameShape(last.shape, shape)) return last;
  const nd = toNdarray({ dtype, shape, data: given });
  overOuts.set(given, nd);
  return nd;
}

/** What execute() returns in an out's place: the caller's ndarray, or an ndarray over the caller's typed array. */
const returned = (t: OutTarget, node: Node): StdNdarray =>
  ArrayBuffer.isView(t.given) ? overOut(t.given, node.shape) : t.given;

/** Hands the plan's results and outputs out as `d` asks: one per result, or the NEP record when outputs are marked. */
function deliver(many: boolean, plan: Plan, run: RunResult, d: Delivery): Single | Single[] | Record {
  const made: ViewEntry[] = [];
  const writes: Array<readonly [Node, OutTarget]> = [];
  const handedOut = new Set<Dense['data']>();
  const views = d.view && !d.owner?.ended;
  const give = (node: Node, t: OutTarget | undefined): StdNdarray => {
    if (t) {
      writes.push([node, t]);
      return returned(t, node);
    }
    // stdlib's BooleanArray cannot view shared memory, so bool results are always copies.
    if (views && node.dtype !== 'bool') {
      const ptr = run.take?.(node) ?? toHeap(d.heap, run.value(node));
      const nd = makeView(d.heap, ptr, node.dtype, node.shape, d.owner);
      made.push(viewEntryOf(nd)!);
      return nd;
    }
    // Every copy owns its memory: a value the run did not make for the caller, or one already handed out, is copied.
    const v = run.value(node);
    const zeroCopy = run.owns(v.data) && !handedOut.has(v.data);
    handedOut.add(v.data);
    return toNdarray(zeroCopy ? v : { dtype: v.dtype, shape: v.shape, data: v.data.slice() });
  };
  try {
    const results = plan.results.map((n, i) => give(n, d.outs?.results[i]));
    const result = many ? results : results[0]!;
    let out: Single | Single[] | Record = result;
    if (plan.outputs.length > 0) {
      const record: Record = {};
      // Own data properties, defined rather than assigned: output('__proto__') must not set the
      // record's prototype, and a name like 'toString' shadows the inherited method as asked.
      const put = (key: string, value: Single | Single[]): void => {
        Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
      };
      for (const o of plan.outputs) put(o.key, give(o.node, d.outs?.outputs.get(o.key)));
      put('result', result);
      out = record;
    }
    // Nothing below can fail: the outs change only now.
    for (const [node, t] of writes) {
      if (d.direct?.get(node) === t && run.written.has(node)) continue;
      writeOut(run.value(node), t);
    }
    return out;
  } catch (e) {
    for (const v of made) release(v);
    throw e;
  }
}

export { deliver, overOut };
export type { Single, Record };
