// The eager @stdlib code a user would otherwise write: one new array per op.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface Nd {
  readonly data: Float64Array;
}
type NdMap = (x: Nd, fn: (v: number) => number) => Nd;
type NdSum = (x: Nd) => { get(): number };
type NdArray = (buf: Float64Array, options: { shape: number[] }) => Nd;

const map = require('@stdlib/ndarray/map') as NdMap;
const sum = require('@stdlib/blas/ext/sum') as NdSum;
const array = require('@stdlib/ndarray/array') as NdArray;

export { map, sum, array };
export type { Nd };
