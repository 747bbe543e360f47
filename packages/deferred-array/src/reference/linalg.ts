// matmul, dot and outer: plain triple loops accumulating in order over k, in
// the result dtype (integers wrap, bool is or-of-ands, float32 rounds each step);
// a dot of two float vectors is their products' sum, added as `sum` adds
// (isVectorDot), as the kernels compute it.
import { isBigInt, wrapTo } from '../ir/dtypes.js';
import type { NumberArray, TypedArray } from '../ir/dtypes.js';
import { wrapper } from './scalar-math-64.js';
import { intMultiply } from './scalar-math.js';
import type { DType } from '../ir/dtypes.js';
import type { Node } from '../ir/node.js';
import { axisLength, contiguousStrides, sizeOf } from '../ir/shape.js';
import { allocDense, gather } from '../core/dense.js';
import type { Dense } from '../core/dense.js';
import { broadcastMap } from './elementwise.js';
import { isVectorDot } from '../ir/build-linalg.js';
import { reduce } from '../ir/build-reduce.js';
import { source } from '../ir/build-elementwise.js';
import type { FamilyNode } from '../ir/node.js';
import { evaluateReduce } from './reduce.js';

/** A dot of two float vectors (isVectorDot): the products rounded to the dtype, summed as `sum` sums them. */
function vectorDot(node: Node, a0: Dense, b0: Dense): Dense {
  const t = node.dtype;
  const [a, b] = [castTo(a0, t).data as NumberArray, castTo(b0, t).data as NumberArray];
  const products = allocDense(t, [a.length]);
  const p = products.data as NumberArray;
  for (let k = 0; k < a.length; k++) p[k] = a[k]! * b[k]!; // a float32 array rounds as it stores
  const sum = evaluateReduce(reduce('sum', source(p as TypedArray, [a.length], t)) as FamilyNode<'reduce'>, products);
  return { ...sum, shape: node.shape };
}

type MulAdd = (acc: number, x: number, y: number) => number;

function mulAdd(t: DType): MulAdd {
  switch (t) {
    case 'float64': return (acc, x, y) => acc + x * y;
    case 'float32': return (acc, x, y) => Math.fround(acc + Math.fround(x * y));
    case 'bool': return (acc, x, y) => (acc | (x & y));
    default: {
      const times = product(t);
      const wrap = wrapTo(t);
      return (acc, x, y) => wrap(acc + times(x, y));
    }
  }
}

/** mulAdd's int64 and uint64 form, on bigints. */
function mulAdd64(t: DType): (acc: bigint, x: bigint, y: bigint) => bigint {
  const wrap = wrapper(t);
  return (acc, x, y) => wrap(acc + x * y);
}

/** out[p, q] = sum_k a[p, k] * b[k, q] for row-major a (P x K) and b (K x Q). */
function matmul2d(t: DType, a: TypedArray, aOff: number, b: TypedArray, bOff: number,
  out: TypedArray, oOff: number, P: number, K: number, Q: number): void {
  if (isBigInt(t)) {
    const [a64, b64, o64] = [a, b, out] as BigInt64Array[];
    const f = mulAdd64(t);
    for (let p = 0; p < P; p++) {
      for (let q = 0; q < Q; q++) {
        let acc = 0n;
        for (let k = 0; k < K; k++) acc = f(acc, a64![aOff + p * K + k]!, b64![bOff + k * Q + q]!);
        o64![oOff + p * Q + q] = acc;
      }
    }
    return;
  }
  const [an, bn, on] = [a, b, out] as NumberArray[];
  const f = mulAdd(t);
  for (let p = 0; p < P; p++) {
    for (let q = 0; q < Q; q++) {
      let acc = 0;
      for (let k = 0; k < K; k++) acc = f(acc, an![aOff + p * K + k]!, bn![bOff + k * Q + q]!);
      on![oOff + p * Q + q] = acc;
    }
  }
}

function castTo(x: Dense, t: DType): Dense {
  return x.dtype === t ? x : gather(x, x.shape, { strides: contiguousStrides(x.shape), offset: 0 }, t);
}

function evaluateMatmul(node: Node, a0: Dense, b0: Dense): Dense {
  if (isVectorDot(node)) return vectorDot(node, a0, b0);
  const t = node.dtype;
  const as = a0.shape.length === 1 ? [1, axisLength(a0.shape, 0)] : [...a0.shape];
  const bs = b0.shape.length === 1 ? [axisLength(b0.shape, 0), 1] : [...b0.shape];
  const P = axisLength(as, -2);
  const K = axisLength(as, -1);
  const Q = axisLength(bs, -1);
  const batch = node.shape.slice(0, node.shape.length - (a0.shape.length > 1 ? 1 : 0) - (b0.shape.length > 1 ? 1 : 0));
  const a = gather(a0, [...batch, P, K], broadcastMap(as, [...batch, P, K]), t);
  const b = gather(b0, [...batch, K, Q], broadcastMap(bs, [...batch, K, Q]), t);
  const out = allocDense(t, node.shape);
  const nb = sizeOf(batch);
  for (let i = 0; i < nb; i++) matmul2d(t, a.data, i * P * K, b.data, i * K * Q, out.data, i * P * Q, P, K, Q);
  return out;
}

function evaluateDot(node: Node, a0: Dense, b0: Dense): Dense {
  if (isVectorDot(node)) return vectorDot(node, a0, b0);
  const t = node.dtype;
  const a = castTo(a0, t);
  const K = axisLength(a.shape, -1);
  const P = sizeOf(a.shape.slice(0, -1));
  // Move b's contracted axis first so that b reads as a K x Q matrix.
  const kAxis = b0.shape.length === 1 ? 0 : b0.shape.length - 2;
  const rest = b0.shape.map((_, i) => i).filter((i) => i !== kAxis);
  const order = [kAxis, ...rest];
  const bStrides = contiguousStrides(b0.shape);
  const length = (i: number): number => axisLength(b0.shape, i);
  const b = gather(b0, order.map(length), { strides: order.map((i) => axisLength(bStrides, i)), offset: 0 }, t);
  const Q = sizeOf(rest.map(length));
  const out = allocDense(t, node.shape);
  matmul2d(t, a.data, 0, b.data, 0, out.data, 0, P, K, Q);
  return out;
}

/** outer(a, b)[i, j] = a[i] * b[j], one product rounded to the result dtype (NumPy: -1 x 0 is -0, not a sum's +0). */
function evaluateOuter(node: Node, a0: Dense, b0: Dense): Dense {
  const t = node.dtype;
  const a = castTo(a0, t).data;
  const b = castTo(b0, t).data;
  const out = allocDense(t, node.shape);
  const n = b.length;
  if (isBigInt(t)) {
    const wrap = wrapper(t);
    const [a64, b64, o64] = [a, b, out.data] as BigInt64Array[];
    for (let i = 0; i < a64!.length; i++) for (let j = 0; j < n; j++) o64![i * n + j] = wrap(a64![i]! * b64![j]!);
    return out;
  }
  const f = product(t);
  const [an, bn, on] = [a, b, out.data] as NumberArray[];
  for (const [i, x] of an!.entries()) for (const [j, y] of bn!.entries()) on![i * n + j] = f(x, y);
  return out;
}

function product(t: DType): (x: number, y: number) => number {
  switch (t) {
    case 'float64': return (x, y) => x * y;
    case 'float32': return (x, y) => Math.fround(x * y);
    case 'bool': return (x, y) => x & y;
    default: return intMultiply(t);
  }
}

export { evaluateMatmul, evaluateDot, evaluateOuter };
