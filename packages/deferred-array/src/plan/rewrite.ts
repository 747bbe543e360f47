// Rebuilding the graph under a plan. Nodes are immutable, so a pass that
// replaces a node rebuilds every node above it over the new inputs, and moves
// the plan's results, outputs and pins onto the new graph.
import { inheritMark, markOf } from '../ir/marks.js';
import { reshape } from '../ir/build-view.js';
import { copyNode, dependsOn, topoOrder } from '../ir/node.js';
import { rebuildIota } from '../ir/rebuild.js';
import type { Node } from '../ir/node.js';
import { lookup } from '../util/lookup.js';
import { rootsOf } from './plan.js';
import type { Plan } from './plan.js';

/** `n` over `inputs`: n itself when they are its inputs already. */
function withInputs(n: Node, inputs: readonly Node[]): Node {
  if (inputs.every((x, i) => x === n.inputs[i])) return n;
  // A reshape of what is now a reshape is one reshape, as the builder makes it (a version written
  // through a reshape and substituted under another, in a trace stage), so rewritten graphs fuse as built ones do.
  // A marked reshape stays a node of its own, so its mark does not move onto another value.
  const [x] = inputs;
  const m = n.op === 'reshape' && x?.op === 'reshape' && !markOf(n) ? reshape(x, n.attrs.request) : copyNode(n, inputs);
  inheritMark(n, m);
  return m;
}

/**
 * Visits every node under the plan, inputs first; `visit` gets the node and
 * its inputs as already rewritten, and returns the node to use in its place.
 */
function rewriteGraph(plan: Plan, visit: (n: Node, inputs: readonly Node[]) => Node): Plan {
  const to = new Map<Node, Node>();
  let changed = false;
  // An iota follows the array it counts along, and names that array's rewritten node.
  for (const n of topoOrder(rootsOf(plan), dependsOn)) {
    const given = n.op === 'iota' ? rebuildIota(n, lookup(to, n.attrs.of, 'rewritten iota array')) : n;
    const m = visit(given, n.inputs.map((i) => lookup(to, i, 'rewritten input')));
    if (m !== n) changed = true;
    to.set(n, m);
  }
  if (!changed) return plan;
  const get = (n: Node): Node => lookup(to, n, 'rewritten root');
  return {
    ...plan,
    results: plan.results.map(get),
    outputs: plan.outputs.map((o) => ({ ...o, node: get(o.node) })),
    stores: plan.stores.map((st) => ({ ...st, node: get(st.node) })),
    pins: new Map([...plan.pins].map(([n, p]) => [get(n), p])),
  };
}

export { rewriteGraph, withInputs };
