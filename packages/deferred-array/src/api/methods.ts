// Method forms on DeferredArray (a.add(b), x.sum({ axis: 0 }), x.T, ...),
// installed from the op table so that every op and alias has one.
import type { DType } from '../ir/dtypes.js';
import type { ReduceOptions } from '../ir/build-reduce.js';
import type { IndexArg } from '../ir/indexing.js';
import { BINARY_OPS, OPS, REDUCE_OPS, UNARY_OPS } from '../ir/op-table.js';
import type { AliasOf, BinaryOp, ReduceOp, UnaryOp } from '../ir/op-table.js';
import { DeferredArray } from './deferred-array.js';
import * as shaping from './shaping.js';
import * as selection from './selection.js';
import * as scans from './scans.js';
import type { ScanOptions } from './scans.js';
import type { TakeOptions } from './selection.js';
import * as rearranging from './rearranging.js';
import * as statistics from './statistics.js';
import type { VarianceOptions } from './statistics.js';
import { binary, ternary, unary } from './ufunc.js';
import { writeInPlace } from './in-place.js';
import type { Operand, UfuncOptions } from './ufunc.js';

type UnaryMethods = { [K in UnaryOp | AliasOf<UnaryOp>]: (options?: UfuncOptions) => DeferredArray };
type BinaryMethods = { [K in BinaryOp | AliasOf<BinaryOp>]: (other: Operand, options?: UfuncOptions) => DeferredArray };
type ReduceMethods = { [K in ReduceOp]: (options?: ReduceOptions) => DeferredArray };

/** NumPy's ndarray statistics methods (the nan-forms are functions only, as in NumPy). */
interface StatisticsMethods {
  /** Variance, { axis, keepdims, ddof }. */
  var(options?: VarianceOptions): DeferredArray;
  std(options?: VarianceOptions): DeferredArray;
  /** max - min. */
  ptp(options?: ReduceOptions): DeferredArray;
  /** Running sum and product along { axis } (x flattened without one). */
  cumsum(options?: ScanOptions): DeferredArray;
  cumprod(options?: ScanOptions): DeferredArray;
}

interface ShapeMethods {
  reshape(shape: number | readonly number[]): DeferredArray;
  transpose(axes?: readonly number[]): DeferredArray;
  /** The transpose (axes reversed). */
  readonly T: DeferredArray;
  /** NumPy basic indexing: x.get('1:-1, ::2'), x.get(0, new Slice(null, null, -1)). */
  get(...index: IndexArg[]): DeferredArray;
  /**
   * x[mask] (a bool array of x's shape or its leading axes: the true elements, as one axis; reads mask's values now),
   * or x[indices] (an integer array: take along the first axis).
   */
  get(index: DeferredArray): DeferredArray;
  squeeze(axis?: number | readonly number[]): DeferredArray;
  expandDims(axis: number | readonly number[]): DeferredArray;
  broadcastTo(shape: readonly number[]): DeferredArray;
  astype(dtype: DType): DeferredArray;
  clip(lo: Operand, hi: Operand, options?: UfuncOptions): DeferredArray;
  matmul(other: Operand): DeferredArray;
  dot(other: Operand): DeferredArray;
  outer(other: Operand): DeferredArray;
  /** NumPy's ndarray.take, repeat, compress and nonzero (see da.take, ...). */
  take(indices: Operand, options?: TakeOptions): DeferredArray;
  repeat(repeats: number | readonly number[] | DeferredArray, options?: { axis?: number | null }): DeferredArray;
  compress(condition: Operand, options?: { axis?: number | null }): DeferredArray;
  nonzero(): DeferredArray[];
}

/**
 * PyOP2: in-place writes, enqueued in the execution trace; nothing runs until
 * forced. Each returns the array itself, which now stands for the values it
 * will hold; expressions built earlier keep the values they were built from.
 */
interface InPlaceMethods {
  /** x[...] = v: v broadcast to x's shape and cast to its dtype (unsafely, as NumPy's assignment does). */
  assign(v: Operand): DeferredArray;
  /** x += v (NumPy's 'same_kind' casting: an int32 array cannot take a float result). */
  iadd(v: Operand): DeferredArray;
  isub(v: Operand): DeferredArray;
  imul(v: Operand): DeferredArray;
  /** x /= v (true division, so only float arrays). */
  idiv(v: Operand): DeferredArray;
  /** x[index] = v, the index as in get(); the value comes last: x.set('1:-1, ::2', v). */
  set(...indexThenValue: [...IndexArg[], Operand]): DeferredArray;
  /**
   * x[mask] = v: a scalar v is a fused where(); an array v fills the true positions in order (reads mask's values now).
   * x[indices] = v with an integer array: rows along the first axis, the last write winning where an index repeats (reads the indices now).
   */
  set(mask: DeferredArray, value: Operand): DeferredArray;
}

declare module './deferred-array.js' {
  interface DeferredArray extends UnaryMethods, BinaryMethods, ReduceMethods, StatisticsMethods, ShapeMethods, InPlaceMethods {}
}

type Method = (this: DeferredArray, ...args: never[]) => unknown;

function install(name: string, fn: Method): void {
  Object.defineProperty(DeferredArray.prototype, name, { value: fn, writable: true, configurable: true, enumerable: false });
}

for (const op of UNARY_OPS) {
  const fn: Method = function (options?: UfuncOptions) { return unary(op, this, options); };
  for (const name of [op, ...OPS[op].aliases]) install(name, fn);
}
for (const op of BINARY_OPS) {
  const fn: Method = function (other: Operand, options?: UfuncOptions) { return binary(op, this, other, options); };
  for (const name of [op, ...OPS[op].aliases]) install(name, fn);
}
for (const op of REDUCE_OPS) {
  const f = shaping[op];
  install(op, function (options?: ReduceOptions) { return f(this, options); });
}

install('var', function (options?: VarianceOptions) { return statistics.variance(this, options); });
install('std', function (options?: VarianceOptions) { return statistics.std(this, options); });
install('cumsum', function (options?: ScanOptions) { return scans.cumsum(this, options); });
install('cumprod', function (options?: ScanOptions) { return scans.cumprod(this, options); });
install('ptp', function (options?: ReduceOptions) { return statistics.ptp(this, options); });
install('reshape', function (shape: number | readonly number[]) { return shaping.reshape(this, shape); });
install('transpose', function (axes?: readonly number[]) { return shaping.transpose(this, axes); });
install('get', function (...index: Array<IndexArg | DeferredArray>) { return selection.get(this, ...index); });
install('squeeze', function (axis?: number | readonly number[]) { return shaping.squeeze(this, axis); });
install('expandDims', function (axis: number | readonly number[]) { return shaping.expandDims(this, axis); });
install('broadcastTo', function (shape: readonly number[]) { return shaping.broadcastTo(this, shape); });
install('astype', function (dtype: DType) { return shaping.astype(this, dtype); });
install('clip', function (lo: Operand, hi: Operand, options?: UfuncOptions) { return ternary('clip', this, lo, hi, options); });
install('take', function (indices: Operand, options?: TakeOptions) { return selection.take(this, indices, options); });
install('repeat', function (repeats: number | readonly number[] | DeferredArray, options?: { axis?: number | null }) { return rearranging.repeat(this, repeats, options); });
install('compress', function (condition: Operand, options?: { axis?: number | null }) { return selection.compress(condition, this, options); });
install('nonzero', function () { return selection.nonzero(this); });
install('matmul', function (other: Operand) { return shaping.matmul(this, other); });
install('dot', function (other: Operand) { return shaping.dot(this, other); });
install('outer', function (other: Operand) { return shaping.outer(this, other); });
for (const op of ['assign', 'iadd', 'isub', 'imul', 'idiv'] as const) {
  install(op, function (v: Operand) { return writeInPlace(this, op, v); });
}
install('set', function (...args: unknown[]) {
  if (args.length < 2) throw new TypeError("set(index, value): give the index as get() takes it, then the value, e.g. x.set('1:-1', 0)");
  if (args.length === 2 && args[0] instanceof DeferredArray) return selection.setMask(this, args[0], args[1] as Operand);
  return writeInPlace(this, 'set', args[args.length - 1] as Operand, args.slice(0, -1) as IndexArg[]);
});
Object.defineProperty(DeferredArray.prototype, 'T', {
  get(this: DeferredArray) { return shaping.transpose(this); },
  configurable: true,
  enumerable: false,
});

export type { UnaryMethods, BinaryMethods, ReduceMethods, StatisticsMethods, ShapeMethods, InPlaceMethods };
