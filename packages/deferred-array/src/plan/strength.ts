// Strength reduction, only where the result is bit for bit the same: a
// float division by a constant power of two becomes a multiplication by its
// reciprocal (both round the same exact value x * 2^-k once; a division
// costs several times a multiplication, and blocks vectorised pipelining).
// x / 180 keeps its division: 1/180 is not exact.
import { isFloat } from '../ir/dtypes.js';
import type { DType } from '../ir/dtypes.js';
import { scalar } from '../ir/build-elementwise.js';
import { inheritMark, inheritPin } from '../ir/marks.js';
import { makeNode } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import type { Plan } from './plan.js';
import { rewriteGraph, withInputs } from './rewrite.js';

/** 1/c when c is a power of two (or its negative) whose reciprocal `dtype` holds exactly; else undefined. */
function exactReciprocal(c: number, dtype: DType): number | undefined {
  if (!isFloat(dtype) || c === 0 || !Number.isFinite(c)) return undefined;
  const a = Math.abs(c);
  if (2 ** Math.round(Math.log2(a)) !== a) return undefined;
  // The reciprocal of a power of two is one too, exact unless it overflows (c = 2^-1074) or, in
  // float32, falls outside float32's range.
  const r = 1 / c;
  if (!Number.isFinite(r) || (dtype === 'float32' && Math.fround(r) !== r)) return undefined;
  return r;
}

const reduceStrength = (plan: Plan): Plan => rewriteGraph(plan, (n, inputs) => {
  const m = withInputs(n, inputs);
  if (m.op !== 'divide') return m;
  const [x, d] = m.inputs as [Node, Node];
  // Both operands already of the result's type: no cast to reproduce.
  if (d.op !== 'scalar' || x.dtype !== m.dtype || d.dtype !== m.dtype) return m;
  const r = exactReciprocal(d.attrs.value as number, m.dtype);
  if (r === undefined) return m;
  const product = makeNode('multiply', [x, scalar(r, m.dtype)], m.shape, m.dtype, {});
  // An output() or pin() on the quotient holds for the product.
  inheritMark(m, product);
  inheritPin(m, product);
  return product;
});

export { reduceStrength };
