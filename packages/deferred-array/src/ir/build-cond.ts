// Builds Theano's lazy conditional: cond(pred, then, else) with a 0-d bool
// predicate and branches of one shape and dtype, checked now.
import { DTypeError, ShapeError } from './errors.js';
import { makeNode } from './node.js';
import type { Node } from './node.js';
import { formatShape, sameShape } from './shape.js';

function cond(pred: Node, then: Node, otherwise: Node): Node {
  if (pred.shape.length !== 0) {
    throw new ShapeError(`cond: the predicate must be a 0-d array (one boolean); got shape ${formatShape(pred.shape)}; reduce it first, e.g. x.any() or x.all()`);
  }
  if (pred.dtype !== 'bool') {
    throw new DTypeError(`cond: the predicate must be bool; got ${pred.dtype}; compare it first, e.g. x.gt(0)`);
  }
  if (!sameShape(then.shape, otherwise.shape)) {
    throw new ShapeError(`cond: the branches must have one shape; got ${formatShape(then.shape)} and ${formatShape(otherwise.shape)} (use where() to select elementwise with broadcasting)`);
  }
  if (then.dtype !== otherwise.dtype) {
    throw new DTypeError(`cond: the branches must have one dtype; got ${then.dtype} and ${otherwise.dtype}; astype() one of them`);
  }
  return makeNode('cond', [pred, then, otherwise], then.shape, then.dtype);
}

export { cond };
