// A compiled function's graph at other sizes: each node made again over its
// inputs at their new shapes, by the builder that made it (so every shape
// check runs again), keeping its op, dtype and place in the graph. A node
// that would come out as another op (a slice that now selects everything is
// kept as a slice) or whose new shape cannot be told from its inputs (a
// reshape to fixed lengths) is not instantiable: the caller then traces the
// function again at those sizes.
import { inheritMarkAndPin } from './marks.js';
import { broadcastTo, concat, reshape, slice, slidingWindow, transpose } from './build-view.js';
import { elementwise } from './build-elementwise.js';
import { reduce } from './build-reduce.js';
import type { ReduceOptions } from './build-reduce.js';
import { dot, matmul, outer } from './build-linalg.js';
import { cond } from './build-cond.js';
import { take } from './build-gather.js';
import { scan } from './build-scan.js';
import { kthFits, partitionNode, searchNode, selectNode, sortNode } from './build-sort.js';
import { addAtNode } from './build-scatter.js';
import { decompNode } from './build-decomp.js';
import { makeNode } from './node.js';
import type { FamilyNode, Node, NodeOf, PartitionAttrs, SelectAttrs } from './node.js';
import { at } from '../util/lookup.js';
import { formatShape, sameShape } from './shape.js';

/** Thrown when a graph cannot be carried to new sizes node by node. */
class NotInstantiable extends Error {}

/**
 * A reshape's new shape: a reshape that only adds or drops axes of length 1
 * (expandDims, squeeze, stack) does the same to the new input; one asked for
 * with a -1 is resolved again; any other keeps its lengths only if its input did.
 */
function reshapeTarget(n: NodeOf<'reshape'>, x: Node): readonly number[] {
  const before = n.inputs[0].shape;
  const kept = before.flatMap((d, i) => (d === 1 ? [] : [i]));
  const outKept = n.shape.filter((d) => d !== 1);
  if (kept.length === outKept.length && kept.every((i, k) => before[i] === outKept[k])) {
    const lengths = kept.map((i) => at(x.shape, i, 'reshape input axis'));
    let k = 0;
    return n.shape.map((d) => (d === 1 ? 1 : at(lengths, k++, 'kept axis')));
  }
  if (n.attrs.request.includes(-1)) return n.attrs.request;
  if (sameShape(before, x.shape)) return n.shape;
  throw new NotInstantiable(`reshape to ${n.attrs.label ?? ''} has fixed lengths`);
}

/** The reduction options that made `n`, for its input now `x`. */
function reduceOptions(n: FamilyNode<'reduce'>, x: Node): ReduceOptions {
  const { axes, keepdims } = n.attrs;
  const arg = n.op === 'argmin' || n.op === 'argmax';
  return { axis: arg && axes.length === x.shape.length ? undefined : axes.length === 1 ? axes[0] : axes, keepdims };
}

function buildView(n: FamilyNode<'view'>, x: Node): Node {
  switch (n.op) {
    case 'transpose': return transpose(x, n.attrs.axes);
    case 'slice': return slice(x, n.attrs.index, true);
    case 'broadcastTo': return broadcastTo(x, n.shape);
    case 'slidingWindow': return slidingWindow(x, n.attrs.window, n.attrs.axes);
  }
}

function buildLinalg(n: FamilyNode<'linalg'>, a: Node, b: Node): Node {
  switch (n.op) {
    case 'matmul': return matmul(a, b);
    case 'dot': return dot(a, b);
    case 'outer': return outer(a, b);
  }
}

function build(n: Node, inputs: readonly Node[]): Node {
  const input = (i: number): Node => at(inputs, i, `${n.op} rebuilt`);
  switch (n.family) {
    case 'source': case 'scalar':
      return n;
    case 'unary': case 'binary': case 'ternary':
      return elementwise(n.op, inputs);
    case 'cast':
      return makeNode(n.op, [input(0)], input(0).shape, n.dtype, n.attrs);
    case 'reduce':
      return reduce(n.op, input(0), reduceOptions(n, input(0)));
    case 'view':
      return buildView(n, input(0));
    case 'reshape': {
      const shape = reshape(input(0), reshapeTarget(n, input(0)), 'reshape').shape;
      return makeNode('reshape', [input(0)], shape, n.dtype, { ...n.attrs, label: formatShape(shape) });
    }
    case 'join':
      return concat(inputs, n.attrs.axis);
    case 'gather':
      return take(input(0), input(1), n.attrs.axis, n.attrs.mode);
    case 'scan':
      return scan(n.op, input(0), n.attrs.axis);
    case 'sort':
      if (n.op === 'select') return selectNode(input(0), n.attrs.axis, (n.attrs as SelectAttrs).positions);
      if (n.op === 'partition' || n.op === 'argpartition') {
        const { kth } = n.attrs as PartitionAttrs;
        const length = input(0).shape[n.attrs.axis]!;
        // A kth past this length: the function traced here raises the API's error for it.
        if (!kth.every((k) => kthFits(k, length))) throw new NotInstantiable(`${n.op}'s kth ${kth.join(', ')} do not fit an axis of length ${length}`);
        return partitionNode(n.op, input(0), n.attrs.axis, kth);
      }
      return sortNode(n.op, input(0), n.attrs.axis);
    case 'search':
      return searchNode(input(0), input(1), n.attrs.side);
    case 'scatter':
      return addAtNode(input(0), input(1), input(2));
    case 'decomp':
      return decompNode(n.op, input(0), n.attrs, n.inputs[1] ? input(1) : undefined);
    case 'linalg':
      return buildLinalg(n, input(0), input(1));
    case 'cond':
      return cond(input(0), input(1), input(2));
  }
}

/** `n` over `inputs` (the same nodes at new shapes): same op, dtype and attributes, shape and views recomputed. */
function rebuildNode(n: Node, inputs: readonly Node[]): Node {
  if (inputs.every((x, i) => x === n.inputs[i])) return n;
  const m = build(n, inputs);
  if (m.op !== n.op || m.dtype !== n.dtype || m.inputs.some((x, i) => x !== inputs[i])) {
    throw new NotInstantiable(`${n.op} does not rebuild as itself`);
  }
  return inheritMarkAndPin(n, m);
}

/** An iota at new sizes: the positions along its axis of `of` as rebuilt (the same node where that keeps its length). */
function rebuildIota(n: NodeOf<'iota'>, of: Node): Node {
  const length = at(of.shape, n.attrs.axis, 'iota axis');
  if (of === n.attrs.of && length === n.shape[0]) return n;
  return makeNode('iota', [], [length], n.dtype, { ...n.attrs, of });
}

export { rebuildNode, rebuildIota, NotInstantiable };
