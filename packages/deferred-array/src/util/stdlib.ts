// @stdlib/ndarray's subpaths are CommonJS folders without an `exports` map, so
// ESM code cannot import them by path; load the package roots through
// createRequire and re-export typed handles to the few helpers we use. They
// load on first use (about 0.7 s for @stdlib/ndarray), so a pool worker that
// only needs the scalar host functions never loads them.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type AnyTyped = Float64Array | Float32Array | Int32Array | Uint8Array;

/** The subset of a @stdlib/ndarray instance this package reads. */
interface StdNdarray {
  readonly dtype: string;
  readonly shape: number[];
  readonly strides: number[];
  readonly offset: number;
  readonly order: string;
  readonly data: unknown;
  readonly ndims: number;
  readonly length: number;
  get(...idx: number[]): unknown;
  iget(i: number): unknown;
}

interface StdSlice {
  readonly start: number | null;
  readonly stop: number | null;
  readonly step: number | null;
}

interface StdMultiSlice {
  readonly data: ReadonlyArray<StdSlice | number | null>;
}

interface SliceError {
  readonly code: string;
}

interface NdarrayModule {
  ndarray: new (dtype: string, buffer: unknown, shape: number[], strides: number[], offset: number, order: string) => StdNdarray;
  empty(shape: number[], options: { dtype: string }): StdNdarray;
  promotionRules(a: string, b: string): string | number | null;
  base: {
    broadcastShapes(shapes: number[][]): number[] | null;
    reinterpretBoolean(x: StdNdarray): StdNdarray;
  };
}

interface SliceModule {
  Slice: new (start?: number | null, stop?: number | null, step?: number | null) => StdSlice;
  MultiSlice: new (...args: Array<StdSlice | number | null>) => StdMultiSlice;
  base: {
    seq2multislice(str: string, shape: number[], strict: boolean): StdMultiSlice | SliceError;
    normalizeMultiSlice(s: StdMultiSlice, shape: number[], strict: boolean): StdMultiSlice | SliceError;
  };
}

let ndarrayModule: NdarrayModule | undefined;
let sliceModule: SliceModule | undefined;
const stdNdarray = (): NdarrayModule => (ndarrayModule ??= require('@stdlib/ndarray') as NdarrayModule);
const stdSlice = (): SliceModule => (sliceModule ??= require('@stdlib/slice') as SliceModule);

function isStdNdarray(x: unknown): x is StdNdarray {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  return typeof o['dtype'] === 'string' && Array.isArray(o['shape']) && Array.isArray(o['strides'])
    && typeof o['offset'] === 'number' && typeof o['get'] === 'function';
}

function isStdSlice(x: unknown): x is StdSlice {
  return x instanceof stdSlice().Slice;
}

function isStdMultiSlice(x: unknown): x is StdMultiSlice {
  return x instanceof stdSlice().MultiSlice;
}

export { stdNdarray, stdSlice, isStdNdarray, isStdSlice, isStdMultiSlice };
export type { StdNdarray, StdSlice, StdMultiSlice, SliceError, AnyTyped };
