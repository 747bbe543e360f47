// The eager @stdlib code a user would otherwise write: one new array per op.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface Nd {
  readonly data: Float64Array;
}
type NdMap = (x: Nd, fn: (v: number) => number) => Nd;
type NdSum = (x: Nd) => { get(): number };
type NdArray = (buf: Float64Array, options: { shape: number[] }) => Nd;

/** BLAS level 2 and 3 from @stdlib (plain JS loops): y = alpha A x + beta y; C = alpha A B + beta C. */
type Dgemv = (order: 'row-major', trans: 'no-transpose', M: number, N: number, alpha: number, A: Float64Array, lda: number,
  x: Float64Array, strideX: number, beta: number, y: Float64Array, strideY: number) => Float64Array;
type Dgemm = (order: 'row-major', transA: 'no-transpose', transB: 'no-transpose', M: number, N: number, K: number, alpha: number,
  A: Float64Array, lda: number, B: Float64Array, ldb: number, beta: number, C: Float64Array, ldc: number) => Float64Array;

const map = require('@stdlib/ndarray/map') as NdMap;
const dgemv = require('@stdlib/blas/base/dgemv') as Dgemv;
const dgemm = require('@stdlib/blas/base/dgemm') as Dgemm;
const sum = require('@stdlib/blas/ext/sum') as NdSum;
const array = require('@stdlib/ndarray/array') as NdArray;

export { map, sum, array, dgemv, dgemm };
export type { Nd };
