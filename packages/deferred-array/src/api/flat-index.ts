// NumPy's unravel_index and ravel_multi_index: between flat positions and
// coordinates in an array of a given shape, in C (row-major, the default) or
// Fortran order. Their indices are read
// when they are called, as masks and set()'s indices are, so that an index
// out of range is NumPy's error, raised there.
import { isInteger } from '../ir/dtypes.js';
import type { TakeMode } from '../ir/node.js';
import { ShapeError } from '../ir/errors.js';
import { checkOptionKeys } from '../ir/options.js';
import { source } from '../ir/build-elementwise.js';
import { resolveTake } from '../ir/build-gather.js';
import { broadcastShapes, formatShape } from '../ir/shape.js';
import { wrapNode } from './deferred-array.js';
import type { DeferredArray } from './deferred-array.js';
import { describe } from './operand.js';
import { valuesNow } from './selection.js';
import { broadcastTo } from './shaping.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';

function lengths(fn: string, dims: unknown): number[] {
  if (!Array.isArray(dims) || dims.some((d) => typeof d !== 'number' || !Number.isInteger(d) || d < 0)) {
    throw new TypeError(`${fn}: the shape must be a list of non-negative integers; got ${describe(dims)}`);
  }
  return dims as number[];
}

/** NumPy's `order`: which axis varies fastest along the flat positions, the last ('C') or the first ('F'). */
type FlatOrder = 'C' | 'F';

function orderOf(fn: string, order: unknown): FlatOrder {
  if (order === undefined || order === 'C' || order === 'F') return order ?? 'C';
  throw new TypeError(`${fn}: option order must be 'C' (the last axis varies fastest) or 'F' (the first); got ${describe(order)}`);
}

/** The axes from the one that varies fastest along the flat positions to the slowest. */
const fastestFirst = (nd: number, order: FlatOrder): number[] => {
  const axes = [...Array(nd).keys()];
  return order === 'C' ? axes.reverse() : axes;
};

/** An integer array's values, read now, and its shape. */
function integersNow(fn: string, x: Operand, position: number): { values: ArrayLike<number>; shape: readonly number[] } {
  const n = anyNode(x, fn, position);
  if (!isInteger(n.dtype)) throw new TypeError(`${fn}: indices must be integers; got ${n.dtype}`);
  return { values: valuesNow(fn, n), shape: n.shape };
}

/**
 * NumPy's unravel_index: the coordinates in an array of shape `dims` of each
 * flat position in `indices`, one int32 array per axis, positions counted in
 * `order` ('C', the default, or 'F').
 */
function unravelIndex(indices: Operand, dims: readonly number[], options?: { order?: FlatOrder }): DeferredArray[] {
  const o = checkOptionKeys<{ order: FlatOrder }>('unravelIndex', options, ['order']);
  const shape = lengths('unravelIndex', dims);
  const axes = fastestFirst(shape.length, orderOf('unravelIndex', o.order));
  const size = shape.reduce((p, d) => p * d, 1);
  const { values, shape: outShape } = integersNow('unravelIndex', indices, 0);
  const coords = shape.map(() => new Int32Array(values.length));
  for (let i = 0; i < values.length; i++) {
    let p = values[i]!;
    if (p < 0 || p >= size) throw new RangeError(`unravelIndex: index ${p} is out of bounds for an array of size ${size} (shape ${formatShape(shape)})`);
    for (const a of axes) {
      coords[a]![i] = p % shape[a]!;
      p = Math.floor(p / shape[a]!);
    }
  }
  return coords.map((c) => wrapNode(source(c, outShape, 'int32')));
}

type RavelMode = TakeMode;

/**
 * NumPy's ravel_multi_index: the flat position in an array of shape `dims`
 * of each coordinate tuple, from one integer array per axis (broadcast
 * together). `mode` says what an out-of-range coordinate does: 'raise' (the
 * default), 'wrap' or 'clip', one for all axes or one per axis; `order` as
 * unravelIndex's.
 */
function ravelMultiIndex(multiIndex: readonly Operand[], dims: readonly number[], options?: { mode?: RavelMode | readonly RavelMode[]; order?: FlatOrder }): DeferredArray {
  const o = checkOptionKeys<{ mode: RavelMode | readonly RavelMode[]; order: FlatOrder }>('ravelMultiIndex', options, ['mode', 'order']);
  const shape = lengths('ravelMultiIndex', dims);
  // Slowest first: each coordinate multiplies what came before by its axis's length.
  const axes = fastestFirst(shape.length, orderOf('ravelMultiIndex', o.order)).reverse();
  if (!Array.isArray(multiIndex) || multiIndex.length !== shape.length) {
    throw new ShapeError(`ravelMultiIndex: give one index array per axis of the shape (${shape.length}); got ${Array.isArray(multiIndex) ? multiIndex.length : describe(multiIndex)}`);
  }
  if (shape.some((d) => d === 0)) throw new RangeError(`ravelMultiIndex: the shape ${formatShape(shape)} has an axis of length 0, where no coordinate lies`);
  if (shape.reduce((p, d) => p * d, 1) > Number.MAX_SAFE_INTEGER) throw new RangeError(`ravelMultiIndex: the shape ${formatShape(shape)} has more elements than a position can count exactly (2^53)`);
  const modes = Array.isArray(o.mode) ? o.mode : shape.map(() => (o.mode ?? 'raise') as RavelMode);
  if (modes.length !== shape.length || modes.some((m) => m !== 'raise' && m !== 'wrap' && m !== 'clip')) {
    throw new TypeError(`ravelMultiIndex: option mode must be 'raise', 'wrap' or 'clip', or one of them per axis; got ${describe(o.mode)}`);
  }
  // The index arrays broadcast together, read now.
  const nodes = multiIndex.map((x, i) => anyNode(x, 'ravelMultiIndex', i));
  const joint = broadcastShapes(nodes.map((n) => n.shape), 'ravelMultiIndex');
  const read = nodes.map((n, i) => integersNow('ravelMultiIndex', broadcastTo(wrapNode(n), joint), i));
  const count = joint.reduce((p, d) => p * d, 1);
  // Positions past int32 are held exactly in float64 (NumPy's are int64).
  const size = shape.reduce((p, d) => p * d, 1);
  const flat = size <= 2 ** 31 ? new Int32Array(count) : new Float64Array(count);
  for (let k = 0; k < count; k++) {
    let p = 0;
    for (const a of axes) {
      let c = read[a]!.values[k]!;
      const d = shape[a]!;
      if (c < 0 || c >= d) {
        // take's rules for wrap and clip; raise takes no negative coordinate here, as NumPy's.
        if (modes[a] === 'raise') throw new RangeError(`ravelMultiIndex: index ${c} is out of bounds for axis ${a} with size ${d}`);
        c = resolveTake(c, d, modes[a]!)!;
      }
      p = p * d + c;
    }
    flat[k] = p;
  }
  return wrapNode(source(flat, joint, flat instanceof Int32Array ? 'int32' : 'float64'));
}

export { unravelIndex, ravelMultiIndex };
export type { RavelMode, FlatOrder };
