// Theano's lazy linker for cond: before a graph is planned, each cond it
// needs is decided by running its predicate, and replaced by the branch
// taken; the other branch is never planned, so none of its kernels,
// allocations or errors happen. Conds are decided outermost first (a cond
// inside an untaken branch is never looked at), so a chain of k nested conds
// runs k predicates and k branches, not 2^k.
import { inheritPin } from '../ir/marks.js';
import { isOp, topoOrder } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import { withInputs } from './rewrite.js';

/** Nodes reachable from `roots` without entering a cond's branches, inputs first. */
const reachableOutsideBranches = (roots: readonly Node[]): Node[] =>
  topoOrder(roots, (n) => (n.op === 'cond' ? [n.inputs[0]] : n.inputs));

/** `roots` with `c` replaced by `by` everywhere under them. */
function replace(roots: readonly Node[], c: Node, by: Node): Node[] {
  const to = new Map<Node, Node>([[c, by]]);
  for (const n of topoOrder(roots)) {
    if (to.has(n)) continue;
    const m = withInputs(n, n.inputs.map((i) => to.get(i) ?? i));
    if (m !== n) inheritPin(n, m);
    to.set(n, m);
  }
  return roots.map((r) => to.get(r) ?? r);
}

/**
 * The roots with every cond they need decided: yields each predicate (a 0-d
 * bool node free of undecided conds) and takes back its value.
 */
function* resolveConds(roots: readonly Node[]): Generator<Node, Node[], boolean> {
  let current = [...roots];
  for (;;) {
    // The first cond in this order has no undecided cond under its predicate.
    const next = reachableOutsideBranches(current).find((n) => isOp(n, 'cond'));
    if (!next) return current;
    const [pred, then, otherwise] = next.inputs;
    // A JS boolean predicate is a constant: nothing to run.
    const value = pred.op === 'scalar' ? pred.attrs.value !== 0 : yield pred;
    const taken = value ? then : otherwise;
    current = replace(current, next, taken);
  }
}

export { resolveConds };
