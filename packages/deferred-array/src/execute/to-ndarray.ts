// Hands computed values to the caller as @stdlib/ndarray arrays (zero copy,
// but for bool, which stdlib keeps in its own BooleanArray). stdlib has no
// int64 or uint64 dtype: those are 'generic' ndarrays over the BigInt64Array
// or BigUint64Array itself (get() gives bigints), which wrap() reads back as
// int64 or uint64.
import type { Dense } from '../core/dense.js';
import { contiguousStrides } from '../ir/shape.js';
import { isBigInt } from '../ir/dtypes.js';
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
  // stdlib spells the strides of a 0-d array [0].
  const strides = shape.length === 0 ? [0] : contiguousStrides(shape);
  return new (stdNdarray().ndarray)(isBigInt(x.dtype) ? 'generic' : x.dtype, x.data, shape, strides, 0, 'row-major');
}

export { toNdarray };
