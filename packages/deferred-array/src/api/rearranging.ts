// NumPy's rearranging functions, built from views, joins and elementwise ops
// as numpy/lib/function_base.py and numpy/core/numeric.py build them:
// flip is a view (live, as NumPy's is); diff fuses its subtractions; roll is
// one join of two slices; tile and repeat are a broadcast view made
// contiguous (one copy kernel). Their shapes follow from the arguments, so
// every shape error is raised when the array is defined.
import { isInteger } from '../ir/dtypes.js';
import { ShapeError } from '../ir/errors.js';
import { checkOptionKeys } from '../ir/options.js';
import { normalizeAxes, normalizeAxis } from '../ir/shape.js';
import { noteShapeRead } from '../ir/symbols.js';
import { weakScalarDType } from '../ir/type-rules.js';
import type { Node } from '../ir/node.js';
import * as view from '../ir/build-view.js';
import { take as takeNode } from '../ir/build-gather.js';
import { DeferredArray, nodeOf, wrapNode } from './deferred-array.js';
import { full } from './creation.js';
import { UFUNCS } from './functions.js';
import { describe, integer } from './operand.js';
import { repeatIndices, valuesNow } from './selection.js';
import { viewOf } from './shaping.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';
import { at } from '../util/lookup.js';

type Axis = number | readonly number[] | null;

interface DiffOptions {
  /** How many times to difference (NumPy's n, default 1). */
  readonly n?: number;
  readonly axis?: number;
  /** Values put before / after `x` along `axis` first (a JS number stands for a 0-d array of x's dtype, NEP 50's weak scalar). */
  readonly prepend?: Operand;
  readonly append?: Operand;
}


function integers(fn: string, what: string, v: unknown, min = -Infinity): number[] {
  if (Array.isArray(v)) return v.map((e) => integer(fn, what, e, min));
  return [integer(fn, what, v, min)];
}

/** The index string that takes `entry(axis)` along each axis: ':' for whole axes. */
const index = (ndim: number, entry: (axis: number) => string): string =>
  Array.from({ length: ndim }, (_, a) => entry(a)).join(',');

/** NumPy's flip: reverses the order of elements along `axis` (every axis by default). A view. */
function flip(x: Operand, options?: { axis?: Axis }): DeferredArray {
  const o = checkOptionKeys<{ axis: Axis }>('flip', options, ['axis']);
  return viewOf(x, 'flip', (n) => {
    const ndim = n.shape.length;
    const axes = o.axis === undefined || o.axis === null ? normalizeAxes(undefined, ndim) : normalizeAxes(o.axis, ndim, 'flip: axis');
    if (ndim === 0) return n;
    return view.slice(n, [index(ndim, (a) => (axes.includes(a) ? '::-1' : ':'))]);
  });
}

/**
 * NumPy's roll: elements shifted along `axis` by `shift`, those past the end
 * coming back at the start. Without an axis the array is rolled flat and
 * reshaped back. `shift` and `axis` may be lists (broadcast against each other);
 * shifts of one axis add up.
 */
function roll(x: Operand, shift: number | readonly number[], options?: { axis?: Axis }): DeferredArray {
  const o = checkOptionKeys<{ axis: Axis }>('roll', options, ['axis']);
  const a = anyNode(x, 'roll');
  noteShapeRead();
  const shifts = integers('roll', 'shift', shift);
  if (o.axis === undefined || o.axis === null) {
    if (shifts.length !== 1) throw new ShapeError(`roll: without an axis, shift must be one integer; got ${describe(shift)}`);
    const flat = view.reshape(a, [-1], 'roll');
    return wrapNode(view.reshape(rollAlong(flat, shifts), a.shape, 'roll'));
  }
  const axes = integers('roll', 'axis', o.axis).map((ax) => normalizeAxis(ax, a.shape.length, 'roll: axis'));
  if (shifts.length !== axes.length && shifts.length !== 1 && axes.length !== 1) {
    throw new ShapeError(`roll: shift (${shifts.length} values) and axis (${axes.length} values) must have the same length, or one of them one`);
  }
  const total = a.shape.map(() => 0);
  for (let i = 0; i < Math.max(shifts.length, axes.length); i++) {
    const axis = at(axes, axes.length === 1 ? 0 : i, 'roll axis');
    total[axis] = at(total, axis, 'roll total') + at(shifts, shifts.length === 1 ? 0 : i, 'roll shift');
  }
  return wrapNode(rollAlong(a, total));
}

/** Each axis rolled by its shift: the tail slice joined before the head. */
function rollAlong(x: Node, shifts: readonly number[]): Node {
  let out = x;
  shifts.forEach((s, axis) => {
    const n = at(x.shape, axis, 'rolled axis');
    const k = n === 0 ? 0 : ((s % n) + n) % n;
    if (k === 0) return;
    const tail = view.slice(out, [index(x.shape.length, (a) => (a === axis ? `${n - k}:` : ':'))]);
    const head = view.slice(out, [index(x.shape.length, (a) => (a === axis ? `:${n - k}` : ':'))]);
    out = view.concat([tail, head], axis);
  });
  return out;
}

/**
 * NumPy's diff: out[i] = x[i+1] - x[i] along `axis` (the last by default),
 * `n` times; bool arrays give x[i+1] != x[i]. The subtractions fuse into one
 * kernel.
 */
function diff(x: Operand, options?: DiffOptions): DeferredArray {
  const o = checkOptionKeys<DiffOptions>('diff', options, ['n', 'axis', 'prepend', 'append']);
  let a = anyNode(x, 'diff');
  const times = integer('diff', 'option n', o.n ?? 1, 0);
  if (times === 0) return wrapNode(a);
  const ndim = a.shape.length;
  if (ndim === 0) throw new ShapeError('diff: the input must have at least one axis; got a 0-d array');
  noteShapeRead();
  const axis = normalizeAxis(o.axis ?? -1, ndim, 'diff: axis');
  const edge = (v: Operand, which: 'prepend' | 'append'): Node => {
    const shape = a.shape.map((d, i) => (i === axis ? 1 : d));
    if (typeof v === 'number' || typeof v === 'boolean') {
      return nodeOf(full(shape, v, { dtype: weakScalarDType('subtract', a.dtype, v) }));
    }
    const e = anyNode(v, `diff: ${which}`);
    return e.shape.length === 0 ? view.broadcastTo(e, shape) : e;
  };
  if (o.prepend !== undefined || o.append !== undefined) {
    const parts = [...(o.prepend !== undefined ? [edge(o.prepend, 'prepend')] : []), a, ...(o.append !== undefined ? [edge(o.append, 'append')] : [])];
    a = view.concat(parts, axis);
  }
  let out = wrapNode(a);
  const step = out.dtype === 'bool' ? UFUNCS.notEqual : UFUNCS.subtract;
  for (let k = 0; k < times; k++) {
    const upper = out.get(index(ndim, (i) => (i === axis ? '1:' : ':')));
    const lower = out.get(index(ndim, (i) => (i === axis ? ':-1' : ':')));
    out = step(upper, lower);
  }
  return out;
}

/** A broadcast of `x` (shape [..., s_i, ...]) to [..., r_i, s_i, ...] or [..., s_i, r_i, ...], made contiguous as [..., r_i * s_i, ...]. */
function spread(x: Node, reps: readonly number[], inner: boolean, fn: string): Node {
  const expanded = x.shape.flatMap((s) => (inner ? [s, 1] : [1, s]));
  const rep = (i: number): number => at(reps, i, `${fn} reps`);
  const target = x.shape.flatMap((s, i) => (inner ? [s, rep(i)] : [rep(i), s]));
  const b = view.broadcastTo(view.reshape(x, expanded, fn), target);
  return view.reshape(b, x.shape.map((s, i) => s * rep(i)), fn);
}

/**
 * NumPy's tile: `x` repeated `reps` times along each axis. With more reps than
 * axes, x gains leading axes of length 1; with fewer, the reps apply to the
 * last axes.
 */
function tile(x: Operand, reps: number | readonly number[]): DeferredArray {
  const a = anyNode(x, 'tile');
  noteShapeRead();
  const r = integers('tile', 'reps', reps, 0);
  const ndim = Math.max(a.shape.length, r.length);
  const c = view.reshape(a, [...new Array<number>(ndim - a.shape.length).fill(1), ...a.shape], 'tile');
  const full_ = [...new Array<number>(ndim - r.length).fill(1), ...r];
  return wrapNode(spread(c, full_, false, 'tile'));
}

/** The counts of an array given as repeats: integers, 0-d or 1-d, read now. */
function countsNow(repeats: DeferredArray): number[] {
  const n = nodeOf(repeats);
  if (!isInteger(n.dtype) || n.shape.length > 1) {
    throw new TypeError(`repeat: an array of repeats must hold integers in at most one axis; got ${n.dtype} of shape (${n.shape.join(', ')})`);
  }
  return Array.from(valuesNow('repeat', n));
}

/**
 * NumPy's repeat: each element repeated `repeats` times along `axis` (of the
 * flattened array without one). One count for all, or one per element along
 * the axis.
 */
function repeat(x: Operand, repeats: number | readonly number[] | DeferredArray, options?: { axis?: number | null }): DeferredArray {
  const o = checkOptionKeys<{ axis: number | null }>('repeat', options, ['axis']);
  let a = anyNode(x, 'repeat');
  noteShapeRead();
  if (o.axis === undefined || o.axis === null) a = view.reshape(a, [-1], 'repeat');
  const axis = normalizeAxis(o.axis ?? 0, a.shape.length, 'repeat: axis');
  // An array of counts is read now, as NumPy reads it: the result's length depends on its values.
  const counts = integers('repeat', 'repeats', repeats instanceof DeferredArray ? countsNow(repeats) : repeats, 0);
  const n = at(a.shape, axis, 'repeat axis');
  const [count] = counts;
  if (counts.length === 1 && count !== undefined) {
    return wrapNode(spread(a, a.shape.map((_, i) => (i === axis ? count : 1)), true, 'repeat'));
  }
  if (counts.length !== n) {
    throw new ShapeError(`repeat: repeats has ${counts.length} counts for an axis of length ${n}; give one count, or one per element`);
  }
  return wrapNode(takeNode(a, repeatIndices(counts), axis));
}

export { flip, roll, diff, tile, repeat };
export type { DiffOptions };
