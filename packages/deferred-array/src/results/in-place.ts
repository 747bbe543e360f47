// Heap memory a run touches that the run does not own: view results read in
// place (da.wrap(view)) and heap outs written in place. Each is checked to be
// live before the run and pinned until its results are handed out, so a
// release meanwhile frees it only afterwards. And the rule for writing a heap
// out directly from the kernel that computes it (zero copies) without giving
// up atomicity: only where nothing can fail once that kernel starts writing.
import type { Bindings } from '../execute/backend.js';
import type { ErrorPolicy } from '../execute/config.js';
import { leaseOf, topoOrder } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import { source } from '../ir/build-elementwise.js';
import { withInputs } from '../plan/rewrite.js';
import { countsElements, producedBy } from '../plan/plan.js';
import type { Plan } from '../plan/plan.js';
import { extent } from './out.js';
import type { OutBinding, OutTarget } from './out.js';
import { assertLeaseLive, assertLive, pin, unpin } from './views.js';
import type { ViewEntry, ViewLease } from './views.js';

/** The views each plan's own steps read: fixed with the plan, and for nearly every plan none. */
const stepLeases = new WeakMap<Plan, readonly ViewEntry[]>();

/** The views a plan's sources (and the values bound to its placeholders) read in place. */
function leasedBy(plan: Plan, bound?: Bindings): readonly ViewEntry[] {
  let own = stepLeases.get(plan);
  if (!own) {
    own = plan.steps.flatMap((s) => {
      const lease = s.kind === 'node' ? leaseOf(s.node) : undefined;
      return lease ? [(lease as ViewLease).entry] : [];
    });
    stepLeases.set(plan, own);
  }
  // Nearly every run reads no view: then the plan's own list (most often empty), no set or list made.
  let entries: Set<ViewEntry> | undefined;
  if (bound) {
    for (const b of bound.values()) {
      const lease = b.source && leaseOf(b.source);
      if (lease) (entries ??= new Set(own)).add((lease as ViewLease).entry);
    }
  }
  return entries ? [...entries] : own;
}

/** The outs written directly by a run that writes none. */
const NO_DIRECT: ReadonlyMap<Node, OutTarget> = new Map();

/** The unhold of a run that holds no view. */
const HOLDS_NOTHING = (): void => {};

/**
 * Checks that every view the run reads or writes is live (DisposedError
 * otherwise) and pins them; returns what unpins them.
 */
function holdHeap(plan: Plan, bound?: Bindings, outs?: OutBinding): () => void {
  const reads = leasedBy(plan, bound);
  for (const e of reads) assertLive(e, 'an array this execute() reads (made from a view result with da.wrap)');
  const writes: ViewEntry[] = [];
  if (outs) {
    for (const t of outs.results) if (t?.heap) writes.push(t.heap.entry);
    for (const t of outs.outputs.values()) if (t.heap) writes.push(t.heap.entry);
  }
  for (const e of writes) assertLive(e, 'an out of this execute()');
  if (reads.length === 0 && writes.length === 0) return HOLDS_NOTHING;
  const held = [...reads, ...writes];
  for (const e of held) pin(e);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    for (const e of held) unpin(e);
  };
}

/**
 * Whether some op of the plan can fail on the data under the error policy in
 * force. (Ops that throw, integer powers, are host calls: the backend keeps them from outs.)
 */
function mayRaise(plan: Plan, errors: ErrorPolicy): boolean {
  const nodes = [...plan.steps.flatMap(producedBy), ...[...plan.temps.values()].flatMap((t) => t.members)];
  return nodes.some((n) => countsElements(n) && (n.op === 'astype' ? errors.invalid : errors.divide) === 'raise');
}

/**
 * The heap outs the run's kernels may write directly. A kernel writing an
 * out has already changed it, so that is done only where the run cannot fail
 * after the write starts: the out is a value the plan's last kernel stores
 * (no reduction in it, so nothing is allocated after its launch), every other
 * result goes to an out or to ordinary memory (no heap allocation after it),
 * no op can raise under the error policy, and the out shares no memory with
 * what the run reads (NumPy's rule: as if the inputs were copied first). The
 * backend also declines it for a kernel calling host functions, which may
 * throw midway. Every other out (one in another runtime's heap among them)
 * is written after the run, from the run's own memory. A worker thread dying
 * mid-kernel (a trap or an exit: a bug or the host killing it, never the
 * data) is the one failure this cannot exclude.
 */
function directTargets(plan: Plan, outs: OutBinding, viewsAfter: boolean, errors: ErrorPolicy, heap: object, bound?: Bindings): ReadonlyMap<Node, OutTarget> {
  const last = plan.steps[plan.steps.length - 1];
  if (!last || last.kind !== 'kernel' || last.group.reductions.length > 0) return NO_DIRECT;
  // Only this heap's views are written by kernels: most outs are ordinary arrays, and need none of the checks below.
  let heapOut = false;
  for (const t of outs.results) heapOut ||= t?.heap?.entry.heap === heap;
  for (const t of outs.outputs.values()) heapOut ||= t.heap?.entry.heap === heap;
  if (!heapOut) return NO_DIRECT;
  const direct = new Map<Node, OutTarget>();
  const places = [...plan.results.map((n, i) => ({ n, t: outs.results[i] })), ...plan.outputs.map((o) => ({ n: o.node, t: outs.outputs.get(o.key) }))];
  if (viewsAfter && places.some((p) => !p.t)) return direct;
  if (mayRaise(plan, errors)) return direct;
  const read = leasedBy(plan, bound).filter((e) => e.heap === heap);
  const stored = new Set(last.group.stores);
  for (const { n, t } of places) {
    // Another heap's view is written after the run, by copy.
    if (!t?.heap || t.heap.entry.heap !== heap || !stored.has(n) || direct.has(n)) continue;
    // A heap out's byte offsets are heap addresses.
    const { from, to } = extent(t, n.shape);
    if (read.some((e) => from < e.ptr + e.bytes && e.ptr < to)) continue;
    direct.set(n, t);
  }
  return direct;
}

/**
 * `root` with every view it reads in place replaced by a copy of the view's
 * values now (DisposedError for a released one). For the trace: a pending
 * in-place write reading a view would fail every later force once the view
 * is released, and NumPy's assignment reads its operand at the call anyway.
 */
function copyViews(root: Node): Node {
  const order = topoOrder([root]);
  if (!order.some((n) => leaseOf(n))) return root;
  const to = new Map<Node, Node>();
  for (const n of order) {
    if (n.op === 'source' && n.attrs.lease) {
      assertLeaseLive(n.attrs.lease, 'the value written in place');
      to.set(n, source(n.attrs.data.slice(), n.shape, n.dtype));
    } else {
      to.set(n, withInputs(n, n.inputs.map((i) => to.get(i)!)));
    }
  }
  return to.get(root)!;
}

export { HOLDS_NOTHING, holdHeap, directTargets, copyViews };
