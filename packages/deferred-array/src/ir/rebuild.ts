// A compiled function's graph at other sizes: each node made again over its
// inputs at their new shapes, by the builder that made it (so every shape
// check runs again), keeping its op, dtype and place in the graph. A node
// that would come out as another op (a slice that now selects everything is
// kept as a slice) or whose new shape cannot be told from its inputs (a
// reshape to fixed lengths) is not instantiable: the caller then traces the
// function again at those sizes.
import { inheritMark, inheritPin } from './marks.js';
import { broadcastTo, concat, reshape, slice, transpose } from './build-view.js';
import { elementwise } from './build-elementwise.js';
import { reduce } from './build-reduce.js';
import { dot, matmul, outer } from './build-linalg.js';
import { cond } from './build-cond.js';
import { take } from './build-gather.js';
import { scan } from './build-scan.js';
import { makeNode } from './node.js';
import type { Node } from './node.js';
import { OPS } from './op-table.js';
import type { ReduceOp, ScanOp, UnaryOp } from './op-table.js';
import { formatShape, sameShape } from './shape.js';

/** Thrown when a graph cannot be carried to new sizes node by node. */
class NotInstantiable extends Error {}

/**
 * A reshape's new shape: a reshape that only adds or drops axes of length 1
 * (expandDims, squeeze, stack) does the same to the new input; one asked for
 * with a -1 is resolved again; any other keeps its lengths only if its input did.
 */
function reshapeTarget(n: Node, x: Node): readonly number[] {
  const before = n.inputs[0]!.shape;
  const kept = before.flatMap((d, i) => (d === 1 ? [] : [i]));
  const outKept = n.shape.filter((d) => d !== 1);
  if (kept.length === outKept.length && kept.every((i, k) => before[i] === outKept[k])) {
    let k = 0;
    return n.shape.map((d) => (d === 1 ? 1 : x.shape[kept[k++]!]!));
  }
  if (n.attrs.request?.includes(-1)) return n.attrs.request;
  if (sameShape(before, x.shape)) return n.shape;
  throw new NotInstantiable(`reshape to ${n.attrs.label ?? ''} has fixed lengths`);
}

function build(n: Node, inputs: readonly Node[]): Node {
  const [x] = inputs as [Node];
  const a = n.attrs;
  switch (OPS[n.op].family) {
    case 'source': case 'scalar':
      return n;
    case 'unary': case 'binary': case 'ternary':
      return elementwise(n.op as UnaryOp, inputs);
    case 'cast':
      return makeNode(n.op, inputs, x.shape, n.dtype, a);
    case 'reduce': {
      const arg = n.op === 'argmin' || n.op === 'argmax';
      const axes = a.axes!;
      const axis = arg && axes.length === x.shape.length ? undefined : axes.length === 1 ? axes[0] : axes;
      return reduce(n.op as ReduceOp, x, { axis, keepdims: a.keepdims ?? false });
    }
    case 'view':
      if (n.op === 'transpose') return transpose(x, a.axes);
      if (n.op === 'slice') return slice(x, a.index!, true);
      return broadcastTo(x, n.shape);
    case 'reshape': {
      const shape = reshape(x, reshapeTarget(n, x), 'reshape').shape;
      return makeNode('reshape', [x], shape, n.dtype, { ...a, label: formatShape(shape) });
    }
    case 'join':
      return concat(inputs, a.axis);
    case 'gather':
      return take(x, inputs[1]!, a.axis!, a.mode);
    case 'scan':
      return scan(n.op as ScanOp, x, a.axis!);
    case 'linalg':
      return n.op === 'matmul' ? matmul(x, inputs[1]!) : n.op === 'dot' ? dot(x, inputs[1]!) : outer(x, inputs[1]!);
    case 'cond':
      return cond(x, inputs[1]!, inputs[2]!);
  }
}

/** `n` over `inputs` (the same nodes at new shapes): same op, dtype and attributes, shape and views recomputed. */
function rebuildNode(n: Node, inputs: readonly Node[]): Node {
  if (inputs.every((x, i) => x === n.inputs[i])) return n;
  const m = build(n, inputs);
  if (m.op !== n.op || m.dtype !== n.dtype || m.inputs.some((x, i) => x !== inputs[i])) {
    throw new NotInstantiable(`${n.op} does not rebuild as itself`);
  }
  inheritMark(n, m);
  inheritPin(n, m);
  return m;
}

export { rebuildNode, NotInstantiable };
