// A random array, like an iota (the positions along an axis), has no memory:
// kernels compute its elements where they read them. This pass gives every
// other reader an array: a random array or iota (or a view or reshape of one)
// that is a result, an output, a store, pinned, or an operand of something
// other than an elementwise op or a reduction the fuser puts in kernels
// becomes a copy (astype to its own dtype, an elementwise kernel that writes
// it once).
import { makeNode } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import { isElementwise, isFusedReduction, isFusedScan, isWindow, rootsOf } from './plan.js';
import type { Plan } from './plan.js';
import { rewriteGraph, withInputs } from './rewrite.js';

/** What kernels read where they run: the fuser's own tests, so argmin (a host step) gets a copy. */
const readsInKernel = (n: Node): boolean => isElementwise(n) || isFusedReduction(n) || isFusedScan(n);

function copyRandomReads(plan: Plan): Plan {
  const virtual = new Set<Node>();
  const roots = new Set(rootsOf(plan));
  const copies = new Map<Node, Node>();
  const copyOf = (n: Node): Node => {
    let c = copies.get(n);
    if (!c) copies.set(n, (c = makeNode('astype', [n], n.shape, n.dtype, { label: `${n.dtype} (random values stored)` })));
    return c;
  };
  return rewriteGraph(plan, (n, inputs) => {
    const reads = readsInKernel(n) || isWindow(n) ? inputs : inputs.map((x) => (virtual.has(x) ? copyOf(x) : x));
    const m = withInputs(n, reads);
    if (m.op === 'random' || m.op === 'iota' || (isWindow(m) && virtual.has(m.inputs[0]))) {
      if (roots.has(n) || plan.pins.has(n)) return copyOf(m);
      virtual.add(m);
    }
    return m;
  });
}

export { copyRandomReads };
