// Builds addAt nodes (NumPy's add.at): the target's rows along its first axis
// named by integer indices, each added to once per mention, in order, with
// the values broadcast to indices.shape + target.shape[1:]. The sum is
// computed in the dtype add gives the target and the values, then cast back
// to the target's dtype as NumPy's add.at casts it (unsafely: truncated or
// wrapped).
import { isInteger } from './dtypes.js';
import { DTypeError, ShapeError } from './errors.js';
import { broadcastTo } from './build-view.js';
import { makeNode } from './node.js';
import type { Node } from './node.js';
import { formatShape } from './shape.js';

function addAtNode(target: Node, indices: Node, values: Node): Node {
  if (target.shape.length === 0) throw new ShapeError('addAt: a 0-d array has no rows to add to; use x.iadd(v)');
  if (!isInteger(indices.dtype)) {
    throw new DTypeError(`addAt: indices must be integers; got ${indices.dtype}${indices.dtype === 'bool' ? ' (for a mask, write x.set(mask, x.get(mask).add(v)))' : ''}`);
  }
  checkKnown(target, indices);
  const shape = [...indices.shape, ...target.shape.slice(1)];
  let spread: Node;
  try {
    spread = broadcastTo(values, shape);
  } catch {
    throw new ShapeError(`addAt: values of shape ${formatShape(values.shape)} do not broadcast to the rows named, ${formatShape(shape)} (indices.shape + x.shape[1:])`);
  }
  return scatterAdd(target, indices, spread, 'add at');
}

/** The addAt node itself, its operands checked already: `values` has indices.shape + target.shape[1:]. */
function scatterAdd(target: Node, indices: Node, values: Node, label: string): Node {
  return makeNode('addAt', [target, indices, values], target.shape, target.dtype, { label });
}

/** Indices known now (constant data) are checked now, so that a bad one fails the call rather than every later read of x. */
function checkKnown(target: Node, indexNode: Node): void {
  const indices = indexNode.op === 'astype' ? indexNode.inputs[0] : indexNode;
  const given = indices.op === 'source' ? indices.attrs.data : indices.op === 'scalar' ? [indices.attrs.value] : undefined;
  if (given === undefined) return;
  const rows = target.shape[0]!;
  for (let k = 0; k < given.length; k++) {
    const i = Number(given[k]);
    if (i < -rows || i >= rows) throw new RangeError(`addAt: index ${i} is out of bounds for axis 0 with size ${rows}`);
  }
}

export { addAtNode, scatterAdd };
