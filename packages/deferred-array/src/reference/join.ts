// concat (and stack, built as concat of expanded arrays).
import type { FamilyNode } from '../ir/node.js';
import { axisLength, contiguousStrides } from '../ir/shape.js';
import { allocDense, asBits, forEachStrided } from '../core/dense.js';
import type { Dense } from '../core/dense.js';
import { elementConverter } from '../ir/cast-value.js';

function concatDense(node: FamilyNode<'join'>, inputs: readonly Dense[]): Dense {
  const { axis } = node.attrs;
  const out = allocDense(node.dtype, node.shape);
  const outStrides = contiguousStrides(node.shape);
  let at = 0;
  for (const x of inputs) {
    // Write x into its band of the output: a strided window of the result.
    // Bits where the dtypes agree (asBits); converted through numbers where concat promotes.
    const same = x.dtype === node.dtype;
    const src = same ? asBits(x.data) : x.data;
    const dst = same ? asBits(out.data) : out.data;
    const convert = elementConverter(x.dtype, node.dtype);
    forEachStrided(x.shape, [{ strides: outStrides, offset: at * axisLength(outStrides, axis) }], (i, o) => {
      dst[o] = convert ? convert(src[i]!) : src[i]!;
    });
    at += axisLength(x.shape, axis);
  }
  return out;
}

export { concatDense };
