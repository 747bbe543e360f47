// cumsum and cumprod: each line along the axis accumulated in element order,
// rounded to the result dtype at every step, as NumPy's accumulate does.
import type { FamilyNode } from '../ir/node.js';
import { axisLength } from '../ir/shape.js';
import { allocDense } from '../core/dense.js';
import type { Dense } from '../core/dense.js';
import { isBigInt } from '../ir/dtypes.js';
import type { NumberArray } from '../ir/dtypes.js';
import { wrapper } from './scalar-math-64.js';

function scanDense(node: FamilyNode<'scan'>, x: Dense): Dense {
  const { axis } = node.attrs;
  const n = axisLength(x.shape, axis);
  const outer = x.shape.slice(0, axis).reduce((p, d) => p * d, 1);
  const inner = x.shape.slice(axis + 1).reduce((p, d) => p * d, 1);
  const out = allocDense(node.dtype, node.shape);
  if (isBigInt(node.dtype)) return scan64(node, x, out, [outer, n, inner]);
  const src = x.data as NumberArray;
  const dst = out.data as NumberArray;
  // Integers and bools accumulate in float64 (their result dtype), where 0 * -5 would be -0.
  const r = node.dtype === 'float32' ? Math.fround : x.dtype === 'float64' ? (v: number) => v : (v: number) => v + 0;
  const product = node.op === 'cumprod';
  for (let a = 0; a < outer; a++) {
    for (let k = 0; k < inner; k++) {
      let acc = product ? 1 : 0;
      for (let i = 0, at = a * n * inner + k; i < n; i++, at += inner) {
        const v = src[at]!;
        acc = r(product ? acc * v : acc + v);
        dst[at] = acc;
      }
    }
  }
  return out;
}

/** A scan in int64 or uint64 (of a 64-bit integer array): wrapping, in element order. */
function scan64(node: FamilyNode<'scan'>, x: Dense, out: Dense, [outer, n, inner]: readonly number[]): Dense {
  const wrap = wrapper(node.dtype);
  const src = x.data as BigInt64Array | BigUint64Array;
  const dst = out.data as BigInt64Array | BigUint64Array;
  const product = node.op === 'cumprod';
  for (let a = 0; a < outer!; a++) {
    for (let k = 0; k < inner!; k++) {
      let acc = product ? 1n : 0n;
      for (let i = 0, at = a * n! * inner! + k; i < n!; i++, at += inner!) {
        acc = wrap(product ? acc * src[at]! : acc + src[at]!);
        dst[at] = acc;
      }
    }
  }
  return out;
}

export { scanDense };
