// concat (and stack, built as concat of expanded arrays).
import type { Node } from '../ir/node.js';
import { contiguousStrides } from '../ir/shape.js';
import { allocDense, forEachStrided } from '../core/dense.js';
import type { Dense } from '../core/dense.js';

function concatDense(node: Node, inputs: readonly Dense[]): Dense {
  const axis = node.attrs.axis ?? 0;
  const out = allocDense(node.dtype, node.shape);
  const outStrides = contiguousStrides(node.shape);
  let at = 0;
  for (const x of inputs) {
    // Write x into its band of the output: a strided window of the result.
    const src = x.data;
    const dst = out.data;
    forEachStrided(x.shape, [{ strides: outStrides, offset: at * outStrides[axis]! }], (i, o) => {
      dst[o] = src[i]!;
    });
    at += x.shape[axis]!;
  }
  return out;
}

export { concatDense };
