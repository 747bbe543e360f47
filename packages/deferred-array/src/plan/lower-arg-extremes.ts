// argmax(x, axis) as kernels. Of a type up to 32 bits (bool too) it stays
// as it is: a row or column kernel reduces it in one pass, keeping each
// value's position beside it (kernels-wasm's arg-extremes.ts). Of int64 and
// uint64 it becomes two passes: m = max(x, axis) (given back a length-1
// axis), then the least position along the axis where x equals m,
// min(where(x == m, position, n)), the positions an iota that no memory
// holds. Ties give the first position, as NumPy. argmin alike with min. The
// reference evaluator keeps its own argmax.
import { elementwise, scalar } from '../ir/build-elementwise.js';
import { reduce } from '../ir/build-reduce.js';
import { reshape } from '../ir/build-view.js';
import { makeNode } from '../ir/node.js';
import type { Node, NodeOf } from '../ir/node.js';
import { isOnePassArg } from './plan.js';
import type { Plan } from './plan.js';
import { rewriteGraph, withInputs } from './rewrite.js';

function lowerArgExtreme(n: NodeOf<'argmin' | 'argmax'>): Node {
  const [input] = n.inputs;
  // Over every axis, NumPy's flat index: the positions along the flattened array.
  const x = n.attrs.axes.length === input.shape.length && input.shape.length !== 1 ? reshape(input, [-1], n.op) : input;
  const axis = x === input ? n.attrs.axes[0]! : 0;
  const length = x.shape[axis]!;
  // The extreme as x.max({ axis }) builds it, so that mergeCommon (after this pass) makes one node of both where a
  // graph asks for the maximum and its position; then back to x's axes, its own of length 1.
  const along = x.shape.map((_, d) => (d === axis ? length : 1));
  const extreme = reshape(reduce(n.op === 'argmax' ? 'max' : 'min', x, { axis }), x.shape.map((d, k) => (k === axis ? 1 : d)), n.op);
  const hit = elementwise('equal', [x, extreme]);
  const iota = makeNode('iota', [], [length], 'int32', { label: `positions along axis ${axis}`, of: x, axis });
  const position = reshape(iota, along, n.op);
  // Some position always holds the extreme, so where none does any value past the last will do; one that does
  // not depend on the length keeps the plan the same at other sizes (compiled functions).
  const none = scalar(2 ** 31 - 1, 'int32');
  return reshape(reduce('min', elementwise('where', [hit, position, none]), { axis, keepdims: true }), n.shape, n.op);
}

/** Rewrites argmin and argmax over a non-empty axis into kernels' ops. */
function lowerArgExtremes(plan: Plan): Plan {
  // The same position asked for twice is lowered once (mergeCommon never merges the iotas, which are leaves).
  const lowered = new Map<string, Node>();
  return rewriteGraph(plan, (n, inputs) => {
    const m = withInputs(n, inputs);
    if ((m.op !== 'argmin' && m.op !== 'argmax') || m.inputs[0].shape.length === 0 || isOnePassArg(m)) return m;
    const key = `${m.op}|${m.inputs[0].id}|${m.attrs.axes.join(',')}|${m.attrs.keepdims ? 1 : 0}`;
    let r = lowered.get(key);
    if (!r) lowered.set(key, (r = lowerArgExtreme(m)));
    return r;
  });
}

export { lowerArgExtremes };
