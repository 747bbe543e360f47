// Elementwise ops where an operand or the result is int64 or uint64, whose
// elements are bigints. An op computing in one of those types runs on bigints
// (scalar-math-64.ts); one computing in a float (sin of int64, int64 with
// float32, uint64 with a signed integer) converts its operands to numbers,
// rounding each once to the nearest double, and runs the float loop.
import type { Node } from '../ir/node.js';
import { OPS, isBinaryOp, isUnaryOp } from '../ir/op-table.js';
import { isBigInt, setElement } from '../ir/dtypes.js';
import type { DType, Scalar } from '../ir/dtypes.js';
import { castValue } from '../ir/cast-value.js';
import { resolveElementwise } from '../ir/type-rules.js';
import { allocDense, forEachStrided } from '../core/dense.js';
import type { Dense } from '../core/dense.js';
import type { RunFlags } from '../core/flags.js';
import { binaryImpl, fmax, fmin, unaryImpl } from './scalar-math.js';
import { binary64, truthy, unary64 } from './scalar-math-64.js';
import { cast64 } from './cast.js';
import { broadcastMap } from './elementwise.js';

/** An element read as the compute dtype `t` holds it: a bigint for int64 and uint64, a number otherwise. */
const reader = (t: DType): ((x: Scalar) => Scalar) => (isBigInt(t) ? (x) => (typeof x === 'bigint' ? x : BigInt(x)) : Number);

/** The elementwise node `node` over values some of which hold bigints. */
function evaluateElementwise64(node: Node, inputs: readonly Dense[], flags: RunFlags): Dense {
  const out = allocDense(node.dtype, node.shape);
  const o = out.data;
  const maps = inputs.map((x) => broadcastMap(x.shape, node.shape));
  const [a, b, c] = inputs.map((x) => x.data);
  const store = (i: number, v: Scalar): void => setElement(o, i, castValue(v, node.dtype));
  const op = node.op;
  if (OPS[op].family === 'cast') {
    const f = cast64(inputs[0]!.dtype, node.dtype, flags);
    forEachStrided(node.shape, maps, (i, ia) => { store(i, f(a![ia]!)); });
    return out;
  }
  if (op === 'where') {
    forEachStrided(node.shape, maps, (i, ic, ix, iy) => { store(i, truthyScalar(a![ic]!) ? b![ix]! : c![iy]!); });
    return out;
  }
  const { compute } = resolveElementwise(op, inputs.map((x) => x.dtype));
  const read = reader(compute);
  const big = isBigInt(compute);
  if (isUnaryOp(op)) {
    const f = (big ? unary64(op, compute, flags) : unaryImpl(op, compute, flags)) as (x: Scalar) => Scalar;
    forEachStrided(node.shape, maps, (i, ia) => { store(i, f(read(a![ia]!))); });
  } else if (isBinaryOp(op)) {
    const f = (big ? binary64(op, compute, flags) : binaryImpl(op, compute, flags)) as (x: Scalar, y: Scalar) => Scalar;
    forEachStrided(node.shape, maps, (i, ia, ib) => { store(i, f(read(a![ia]!), read(b![ib]!))); });
  } else if (op === 'clip') {
    // NumPy: minimum(maximum(x, lo), hi).
    const hi = (big ? binary64('minimum', compute, flags) : fmin) as (x: Scalar, y: Scalar) => Scalar;
    const lo = (big ? binary64('maximum', compute, flags) : fmax) as (x: Scalar, y: Scalar) => Scalar;
    forEachStrided(node.shape, maps, (i, ix, il, ih) => { store(i, hi(lo(read(a![ix]!), read(b![il]!)), read(c![ih]!))); });
  } else {
    throw new Error(`internal: ${node.op} is not elementwise`);
  }
  return out;
}

const truthyScalar = (x: Scalar): boolean => (typeof x === 'bigint' ? truthy(x) : x !== 0);

export { evaluateElementwise64 };
