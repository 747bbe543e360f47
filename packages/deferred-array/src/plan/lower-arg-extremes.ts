// argmax(x, axis) as kernels. Of a type up to 32 bits (bool too) it stays
// as it is: a row or column kernel reduces it in one pass, keeping each
// value's position beside it (kernels-wasm's arg-extremes.ts). Of int64 and
// uint64 it becomes two passes: m = max(x, axis) (given back a length-1
// axis), then the least position along the axis where x equals m,
// min(where(x == m, position, n)), the positions an iota that no memory
// holds. Ties give the first position, as NumPy. argmin alike with min. The
// reference evaluator keeps its own argmax.
import { cast, elementwise, scalar } from '../ir/build-elementwise.js';
import { reduce } from '../ir/build-reduce.js';
import { reshape } from '../ir/build-view.js';
import { isFloat } from '../ir/dtypes.js';
import { makeNode } from '../ir/node.js';
import type { Node, NodeOf } from '../ir/node.js';
import { isOnePassArg } from './plan.js';
import type { Plan } from './plan.js';
import { rewriteGraph, withInputs } from './rewrite.js';

/** Every integer up to this is a float32. */
const FLOAT32_EXACT = 2 ** 24;

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
  let hit = elementwise('equal', [x, extreme]);
  if (isFloat(x.dtype)) hit = elementwise('logicalOr', [hit, elementwise('logicalAnd', [elementwise('isnan', [x]), elementwise('isnan', [extreme])])]);
  // Positions are chosen among in the data's float type where it holds them exactly (below 2^53, or 2^24 in
  // float32), so the kernel keeps one lane type and vectorises. A plan carried to a longer axis (a compiled
  // function's) is made again there, with int32 positions.
  const t = x.dtype === 'float64' ? 'float64' : x.dtype === 'float32' && length <= FLOAT32_EXACT ? 'float32' : 'int32';
  const iota = makeNode('iota', [], [length], 'int32', { label: `positions along axis ${axis}`, of: x, axis, ...(t === 'float32' ? { longest: FLOAT32_EXACT } : {}) });
  const position = reshape(iota, along, n.op);
  // Some position always holds the extreme (or the first NaN), so where none does any value past the last will do;
  // one that does not depend on the length keeps the plan the same at other sizes (compiled functions).
  const none = scalar(t === 'int32' ? 2 ** 31 - 1 : Infinity, t);
  const first = reduce('min', elementwise('where', [hit, cast(position, t), none]), { axis, keepdims: true });
  return reshape(cast(first, 'int32'), n.shape, n.op);
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
