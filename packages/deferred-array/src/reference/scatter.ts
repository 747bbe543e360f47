// addAt (NumPy's add.at): a copy of the target with each named row added to,
// one mention after another, so repeated indices accumulate in their order.
// Each sum is computed in add's dtype for the target and the values, then
// cast to the target's dtype (NumPy casts add.at's result unsafely).
import type { FamilyNode } from '../ir/node.js';
import type { RunFlags } from '../core/flags.js';
import { isBigInt } from '../ir/dtypes.js';
import type { Scalar } from '../ir/dtypes.js';
import { castValue } from '../ir/cast-value.js';
import { resolveElementwise } from '../ir/type-rules.js';
import { sizeOf } from '../ir/shape.js';
import { ExecutionError } from '../ir/errors.js';
import type { Dense } from '../core/dense.js';
import { binaryImpl } from './scalar-math.js';
import { binary64 } from './scalar-math-64.js';

function addAtDense(node: FamilyNode<'scatter'>, x: Dense, indices: Dense, values: Dense, flags: RunFlags): Dense {
  const out: Dense = { dtype: x.dtype, shape: x.shape, data: x.data.slice() };
  const rows = x.shape[0]!;
  const inner = sizeOf(x.shape.slice(1));
  const compute = resolveElementwise('add', [x.dtype, values.dtype]).out;
  const add = (isBigInt(compute) ? binary64('add', compute, flags) : binaryImpl('add', compute, flags)) as (a: Scalar, b: Scalar) => Scalar;
  const o = out.data as unknown as Scalar[];
  const v = values.data as unknown as ArrayLike<Scalar>;
  const idx = indices.data as unknown as ArrayLike<number | bigint>;
  for (let k = 0; k < idx.length; k++) {
    const i = Number(idx[k]);
    if (i < -rows || i >= rows) throw new ExecutionError(`${node.op}: index ${i} is out of bounds for axis 0 with size ${rows}`);
    const base = (i < 0 ? i + rows : i) * inner;
    for (let j = 0; j < inner; j++) {
      o[base + j] = castValue(add(castValue(o[base + j]!, compute), castValue(v[k * inner + j]!, compute)), x.dtype);
    }
  }
  return out;
}

export { addAtDense };
