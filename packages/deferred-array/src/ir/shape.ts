// Shapes: broadcasting, axes, sizes. All checks run when the graph is built.
import { ShapeError } from './errors.js';
import { stdNdarray } from '../util/stdlib.js';
import { formatValue } from './format.js';
import { InternalError } from '../util/lookup.js';

type Shape = readonly number[];

const fmt = (s: Shape): string => `(${s.map((d) => formatValue(d)).join(', ')}${s.length === 1 ? ',' : ''})`;

function sizeOf(shape: Shape): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

/** The length of `axis` (negative: counted from the end), an axis the caller knows `shape` has. */
function axisLength(shape: Shape, axis: number): number {
  const d = shape.at(axis);
  if (d === undefined) throw new InternalError(`axis ${axis} of a ${shape.length}-d shape`);
  return d;
}

/** The shape of every 0-d node: one frozen array, shared (as nodes share frozen shapes). */
const SCALAR_SHAPE: Shape = Object.freeze([]);

/** Frozen 1-d shapes by length, shared: arrays wrapped afresh each call keep hitting the caches keyed by a shape object. */
const vectorShapes = new Map<number, Shape>();
const VECTOR_SHAPES = 4096;

function vectorShape(n: number): Shape {
  let s = vectorShapes.get(n);
  if (!s) {
    if (vectorShapes.size >= VECTOR_SHAPES) vectorShapes.clear();
    vectorShapes.set(n, (s = Object.freeze([n])));
  }
  return s;
}

function sameShape(a: Shape, b: Shape): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** NumPy broadcasting of several shapes; the error names the clashing shapes and axis. */
function broadcastShapes(shapes: readonly Shape[], what = 'operands'): Shape {
  // Most operands share one shape, or are scalars beside it: that shape itself (nodes share frozen shapes).
  let widest: Shape = shapes[0] ?? SCALAR_SHAPE;
  for (const s of shapes) if (s.length > widest.length) widest = s;
  let same = true;
  for (const s of shapes) same &&= s === widest || s.length === 0 || sameShape(s, widest);
  if (same) return widest;
  const out = stdNdarray().base.broadcastShapes(shapes.map((s) => [...s]));
  if (out !== null) return out;
  const ndim = Math.max(...shapes.map((s) => s.length));
  for (let ax = 0; ax < ndim; ax++) {
    let seen = 1;
    let first: Shape | undefined;
    for (const s of shapes) {
      const d = s[s.length - ndim + ax] ?? 1;
      if (d === 1) continue;
      if (seen !== 1 && d !== seen && first) {
        throw new ShapeError(
          `${what} could not be broadcast together: shapes ${fmt(first)} and ${fmt(s)} differ at axis ${ax} ` +
          `(counted from the left of the broadcast shape; ${seen} vs ${d}). Sizes must match or be 1; ` +
          `use reshape() or expandDims() to line the axes up.`,
        );
      }
      seen = d;
      first = s;
    }
  }
  throw new ShapeError(`${what} could not be broadcast together: shapes ${shapes.map(fmt).join(', ')}`);
}

/** Validates a user-given shape (non-negative safe integers). */
function checkShape(shape: unknown, argument = 'shape'): number[] {
  const arr = typeof shape === 'number' ? [shape] : shape;
  if (!Array.isArray(arr)) {
    throw new TypeError(`${argument} must be an array of non-negative integers; got ${formatValue(shape)}`);
  }
  for (const d of arr) {
    if (typeof d !== 'number' || !Number.isInteger(d) || d < 0) {
      throw new RangeError(`${argument} must hold non-negative integers; got ${formatValue(arr)}`);
    }
  }
  if (sizeOf(arr) > 2 ** 32) {
    throw new RangeError(`${argument} ${fmt(arr)} has ${sizeOf(arr)} elements; the wasm32 heap caps arrays at 4 GiB`);
  }
  return [...arr] as number[];
}

/** Normalises one axis against `ndim`, accepting negatives as NumPy does. */
function normalizeAxis(axis: unknown, ndim: number, argument = 'axis'): number {
  if (typeof axis !== 'number' || !Number.isInteger(axis)) {
    throw new TypeError(`${argument} must be an integer; got ${String(axis)}`);
  }
  if (axis < -ndim || axis >= ndim) {
    throw new ShapeError(`${argument} ${axis} is out of bounds for an array of dimension ${ndim} (valid: ${-ndim}..${ndim - 1})`);
  }
  return axis < 0 ? axis + ndim : axis;
}

/** Normalises an axis option: undefined/null means every axis; duplicates are errors. */
function normalizeAxes(axis: unknown, ndim: number, argument = 'axis'): number[] {
  if (axis === undefined || axis === null) return Array.from({ length: ndim }, (_, i) => i);
  const list = Array.isArray(axis) ? axis : [axis];
  const out = list.map((a) => normalizeAxis(a, ndim, argument));
  if (new Set(out).size !== out.length) throw new ShapeError(`${argument} ${formatValue(axis)} repeats an axis`);
  return out.sort((a, b) => a - b);
}

/** C-order (row-major) element strides of a contiguous array. */
function contiguousStrides(shape: Shape): number[] {
  const strides = new Array<number>(shape.length);
  let acc = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides[i] = acc;
    acc *= shape[i]!;
  }
  return strides;
}

/** Whether `strides` walk `shape` row-major without gaps (axes of length 0 or 1 may have any stride). */
function isRowMajor(shape: Shape, strides: readonly number[]): boolean {
  const c = contiguousStrides(shape);
  return shape.every((d, i) => d <= 1 || strides[i] === c[i]);
}

export { SCALAR_SHAPE, vectorShape, axisLength, broadcastShapes, checkShape, normalizeAxis, normalizeAxes, sizeOf, sameShape, contiguousStrides, isRowMajor, fmt as formatShape };
export type { Shape };
