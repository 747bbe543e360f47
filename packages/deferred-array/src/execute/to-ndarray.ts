// Hands computed values to the caller as @stdlib/ndarray arrays (zero copy,
// but for bool, which stdlib keeps in its own BooleanArray).
import type { Dense } from '../core/dense.js';
import { contiguousStrides } from '../ir/shape.js';
import { keepShape } from '../util/keep-shapes.js';
import { stdNdarray } from '../util/stdlib.js';
import type { StdNdarray } from '../util/stdlib.js';

function toNdarray(x: Dense): StdNdarray {
  const shape = [...x.shape];
  if (x.dtype === 'bool') {
    const out = stdNdarray().empty(shape, { dtype: 'bool' });
    const bytes = stdNdarray().base.reinterpretBoolean(out).data as Uint8Array;
    bytes.set(x.data as Uint8Array);
    return out;
  }
  // An ndarray kept for its shape (util/keep-shapes.ts): a loop of small calls keeps none of its results.
  keepShape('ndarray', () => new (stdNdarray().ndarray)('float64', new Float64Array(1), [1], [1], 0, 'row-major'));
  // stdlib spells the strides of a 0-d array [0].
  const strides = shape.length === 0 ? [0] : contiguousStrides(shape);
  return new (stdNdarray().ndarray)(x.dtype, x.data, shape, strides, 0, 'row-major');
}

export { toNdarray };
