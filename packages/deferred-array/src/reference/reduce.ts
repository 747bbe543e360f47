// Reductions. The reduced axes are gathered to the end so that each output
// element reduces one contiguous run, in row-major order of the reduced axes.
// Float sums use NumPy's pairwise summation (8 accumulators, blocks of 128),
// applied to the same pieces of the run as NumPy's iterator hands its inner
// loop (see `segmentLength`), so sums and means match NumPy bit for bit on a
// C-contiguous array for any axes.
import { isBigInt, setElement } from '../ir/dtypes.js';
import type { DType, NumberArray, Scalar } from '../ir/dtypes.js';
import type { FamilyNode } from '../ir/node.js';
import { at } from '../util/lookup.js';
import type { ReduceOp } from '../ir/op-table.js';
import { contiguousStrides, sizeOf } from '../ir/shape.js';
import { resolveReduce } from '../ir/type-rules.js';
import { allocDense, gather } from '../core/dense.js';
import type { Dense } from '../core/dense.js';
import { fmax, fmin, truthy } from './scalar-math.js';
import type { Unary } from './scalar-math.js';
import { truthy as truthy64, wrapper } from './scalar-math-64.js';

const PW_BLOCKSIZE = 128;

function pairwiseSum(a: NumberArray, start: number, n: number, r: Unary): number {
  if (n < 8) {
    let res = 0;
    for (const v of a.subarray(start, start + n)) res = r(res + v);
    return res;
  }
  if (n <= PW_BLOCKSIZE) {
    const acc = [0, 0, 0, 0, 0, 0, 0, 0].map((_, j) => a[start + j]!);
    let i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (let j = 0; j < 8; j++) acc[j] = r(acc[j]! + a[start + i + j]!);
    }
    let res = r(r(r(acc[0]! + acc[1]!) + r(acc[2]! + acc[3]!)) + r(r(acc[4]! + acc[5]!) + r(acc[6]! + acc[7]!)));
    for (const v of a.subarray(start + i, start + n)) res = r(res + v);
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return r(pairwiseSum(a, start, n2, r) + pairwiseSum(a, start + n2, n - n2, r));
}

/**
 * NumPy's iterator coalesces adjacent axes (size-1 axes aside) that are all
 * reduced or all kept. When the innermost block is reduced, its inner loop
 * adds the pairwise sum of each run of that block's length into the result;
 * when the innermost block is kept, it adds one element at a time. Returns
 * that length: the size of the innermost reduced block, or 1.
 */
function segmentLength(shape: readonly number[], axes: readonly number[]): number {
  const nonUnit = shape.map((_, i) => i).filter((i) => shape[i] !== 1);
  let length = 1;
  for (const axis of nonUnit.reverse()) {
    if (!axes.includes(axis)) break;
    length *= at(shape, axis, 'reduced axis');
  }
  return length;
}

type RunReducer = (a: NumberArray, start: number, n: number) => number;

function reducer(op: ReduceOp, compute: DType, input: DType, segment: number): RunReducer {
  const r: Unary = compute === 'float32' ? Math.fround : (x) => x;
  const isFloatInput = input === 'float32' || input === 'float64';
  // NumPy starts a sum from the identity 0, so sum([-0.0]) is +0.0.
  const sum = (a: NumberArray, s: number, n: number): number => {
    let acc = 0;
    for (let i = 0; i < n; i += segment) acc = r(acc + pairwiseSum(a, s + i, Math.min(segment, n - i), r));
    return acc;
  };
  switch (op) {
    case 'sum': return sum;
    case 'mean': return (a, s, n) => r(sum(a, s, n) / n);
    case 'prod': return (a, s, n) => {
      let p = 1;
      for (const v of a.subarray(s, s + n)) p = r(p * v);
      // Integer products are carried in float64, which has a -0 that integers do not.
      return isFloatInput ? p : p + 0;
    };
    case 'max': case 'min': {
      const pick = isFloatInput ? (op === 'max' ? fmax : fmin) : op === 'max' ? Math.max : Math.min;
      return (a, s, n) => {
        const run = a.subarray(s, s + n);
        let m = run[0] ?? NaN;
        for (const v of run.subarray(1)) m = pick(m, v);
        return m;
      };
    }
    case 'any': return (a, s, n) => {
      return a.subarray(s, s + n).some(truthy) ? 1 : 0;
    };
    case 'all': return (a, s, n) => {
      return a.subarray(s, s + n).every(truthy) ? 1 : 0;
    };
    case 'argmax': case 'argmin': {
      const better = op === 'argmax' ? (x: number, y: number) => x > y : (x: number, y: number) => x < y;
      // The first NaN wins, as in NumPy.
      return (a, s, n) => {
        let best = NaN;
        let found = 0;
        for (const [i, v] of a.subarray(s, s + n).entries()) {
          if (v !== v) return i;
          if (i === 0 || better(v, best)) {
            best = v;
            found = i;
          }
        }
        return found;
      };
    }
  }
}

/**
 * A reduction computing in int64 or uint64: sums and products in element
 * order, wrapping as NumPy's do (any order gives the same bits); indices and
 * bools as numbers.
 */
function reducer64(op: ReduceOp, t: DType): (run: ArrayLike<bigint>) => Scalar {
  const wrap = wrapper(t);
  const fold = (run: ArrayLike<bigint>, first: bigint | undefined, f: (acc: bigint, v: bigint) => bigint): bigint => {
    let acc = first ?? run[0]!;
    for (let i = first === undefined ? 1 : 0; i < run.length; i++) acc = f(acc, run[i]!);
    return acc;
  };
  switch (op) {
    case 'sum': return (run) => fold(run, 0n, (acc, v) => wrap(acc + v));
    case 'prod': return (run) => fold(run, 1n, (acc, v) => wrap(acc * v));
    case 'max': return (run) => fold(run, undefined, (m, v) => (v > m ? v : m));
    case 'min': return (run) => fold(run, undefined, (m, v) => (v < m ? v : m));
    case 'any': return (run) => (Array.prototype.some.call(run, truthy64) ? 1 : 0);
    case 'all': return (run) => (Array.prototype.every.call(run, truthy64) ? 1 : 0);
    case 'argmax': case 'argmin': return (run) => {
      let found = 0;
      for (let i = 1; i < run.length; i++) if (op === 'argmax' ? run[i]! > run[found]! : run[i]! < run[found]!) found = i;
      return found;
    };
    case 'mean': throw new Error('internal: a mean computes in float64');
  }
}

function evaluateReduce(node: FamilyNode<'reduce'>, x: Dense): Dense {
  const { op } = node;
  const { axes } = node.attrs;
  const kept = x.shape.map((_, i) => i).filter((i) => !axes.includes(i));
  const order = [...kept, ...axes];
  const inStrides = contiguousStrides(x.shape);
  const { compute } = resolveReduce(op, x.dtype);
  const length = (a: number): number => at(x.shape, a, 'reduced input axis');
  const runs = gather(x, order.map(length), { strides: order.map((a) => at(inStrides, a, 'input stride')), offset: 0 }, compute);
  const runLength = sizeOf(axes.map(length));
  const out = allocDense(node.dtype, node.shape);
  if (isBigInt(compute)) {
    const f = reducer64(op, compute);
    const data = runs.data as BigInt64Array | BigUint64Array;
    for (let o = 0; o < out.data.length; o++) setElement(out.data, o, f(data.subarray(o * runLength, (o + 1) * runLength)));
    return out;
  }
  const f = reducer(op, compute, x.dtype, Math.max(1, segmentLength(x.shape, axes)));
  const data = runs.data as NumberArray;
  for (let o = 0; o < out.data.length; o++) setElement(out.data, o, f(data, o * runLength, runLength));
  return out;
}

export { evaluateReduce, pairwiseSum };
