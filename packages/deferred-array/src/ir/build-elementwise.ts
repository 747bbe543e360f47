// Builds elementwise, cast and leaf nodes: shapes broadcast now, dtypes resolve now.
import { dtypeInfo } from './dtypes.js';
import type { DType, TypedArray } from './dtypes.js';
import { makeNode } from './node.js';
import type { HeapLease, Node } from './node.js';
import type { BinaryOp, TernaryOp, UnaryOp } from './op-table.js';
import { SCALAR_SHAPE, broadcastShapes, sizeOf, vectorShape } from './shape.js';
import type { Shape } from './shape.js';
import { resolveElementwise } from './type-rules.js';

/** A value converted into dtype `d` exactly as storing it in that dtype's array would. */
function castValue(value: number, d: DType): number {
  switch (d) {
    case 'float64': return value;
    case 'float32': return Math.fround(value);
    case 'bool': return value !== 0 ? 1 : 0; // NaN is truthy, as in NumPy
    default: {
      const buf = new (dtypeInfo(d).ctor)(1);
      buf[0] = value;
      return buf[0]!;
    }
  }
}

/**
 * A leaf over `data`, which the node owns from now on. It stays in ordinary
 * JS memory, which the garbage collector manages; a backend that needs it
 * elsewhere (the WebAssembly heap) keeps its own copy as a cache.
 */
/** A leaf holding `data`; `lease` when the data is heap memory the graph reads in place rather than owns. */
function source(data: TypedArray, shape: Shape, dtype: DType, lease?: HeapLease): Node {
  if (data.length !== sizeOf(shape)) {
    throw new RangeError(`source data holds ${data.length} elements but shape (${shape.join(', ')}) needs ${sizeOf(shape)}`);
  }
  return makeNode('source', [], shape.length === 1 ? vectorShape(shape[0]!) : shape, dtype, lease ? { data, lease } : { data });
}

function scalar(value: number, dtype: DType): Node {
  return makeNode('scalar', [], SCALAR_SHAPE, dtype, { value: castValue(value, dtype) });
}

function elementwise(op: UnaryOp | BinaryOp | TernaryOp, inputs: readonly Node[]): Node {
  // Sized up front: an empty list grown by push reserves room for 17.
  const shapes = new Array<Shape>(inputs.length);
  const dtypes = new Array<DType>(inputs.length);
  for (let i = 0; i < inputs.length; i++) {
    shapes[i] = inputs[i]!.shape;
    dtypes[i] = inputs[i]!.dtype;
  }
  const shape = broadcastShapes(shapes, `operands of ${op}`);
  const { out } = resolveElementwise(op, dtypes);
  return makeNode(op, inputs, shape, out);
}

function cast(x: Node, dtype: DType): Node {
  if (x.dtype === dtype) return x;
  return makeNode('astype', [x], x.shape, dtype, { label: dtype });
}

export { castValue, source, scalar, elementwise, cast };
