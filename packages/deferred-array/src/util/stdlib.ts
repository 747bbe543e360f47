// @stdlib/ndarray's subpaths are CommonJS folders without an `exports` map, so
// ESM code cannot import them by path. The pieces this package uses are
// listed in stdlib-pieces.cjs, loaded through createRequire on first use (a
// pool worker that only needs the scalar host functions never loads them),
// and re-exported here as typed handles. In dist/ that file is one bundle of
// them, so the first result does not wait for hundreds of small modules.
import { keepShape } from './keep-shapes.js';
import { loadPieces } from './stdlib-pieces.js';

type AnyTyped = Float64Array | Float32Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array;

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

/** What stdlib-pieces.cjs exports. */
interface Pieces {
  readonly ndarray: NdarrayModule['ndarray'];
  readonly empty: NdarrayModule['empty'];
  readonly promotionRules: NdarrayModule['promotionRules'];
  readonly broadcastShapes: NdarrayModule['base']['broadcastShapes'];
  readonly reinterpretBoolean: NdarrayModule['base']['reinterpretBoolean'];
  readonly Slice: SliceModule['Slice'];
  readonly MultiSlice: SliceModule['MultiSlice'];
  readonly seq2multislice: SliceModule['base']['seq2multislice'];
  readonly normalizeMultiSlice: SliceModule['base']['normalizeMultiSlice'];
}

/** The stdlib pieces, loaded on first use (importing the package loads none of them). */
const modules: { loaded?: { readonly ndarray: NdarrayModule; readonly slice: SliceModule } } = {};

function load(): { readonly ndarray: NdarrayModule; readonly slice: SliceModule } {
  const p = loadPieces() as Pieces;
  // An ndarray kept for its shape (keep-shapes.ts): a loop of small calls keeps none of its results.
  keepShape('ndarray', () => new p.ndarray('float64', new Float64Array(1), [1], [1], 0, 'row-major'));
  return {
    ndarray: { ndarray: p.ndarray, empty: p.empty, promotionRules: p.promotionRules, base: { broadcastShapes: p.broadcastShapes, reinterpretBoolean: p.reinterpretBoolean } },
    slice: { Slice: p.Slice, MultiSlice: p.MultiSlice, base: { seq2multislice: p.seq2multislice, normalizeMultiSlice: p.normalizeMultiSlice } },
  };
}

const stdNdarray = (): NdarrayModule => (modules.loaded ??= load()).ndarray;
const stdSlice = (): SliceModule => (modules.loaded ??= load()).slice;

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
