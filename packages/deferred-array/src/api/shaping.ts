// Function forms of views, joins, casts, reductions and linear algebra.
import { checkDType } from '../ir/dtypes.js';
import { checkOptionKeys } from '../ir/options.js';
import { ShapeError } from '../ir/errors.js';
import { normalizeAxis } from '../ir/shape.js';
import type { DType } from '../ir/dtypes.js';
import { cast } from '../ir/build-elementwise.js';
import { dot as dotNode, matmul as matmulNode, outer as outerNode } from '../ir/build-linalg.js';
import { reduce } from '../ir/build-reduce.js';
import type { ReduceOptions } from '../ir/build-reduce.js';
import * as view from '../ir/build-view.js';
import type { IndexArg } from '../ir/indexing.js';
import type { ReduceOp } from '../ir/op-table.js';
import { DeferredArray, liveView, nodeOf, wrapNode } from './deferred-array.js';
import type { Node } from '../ir/node.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';
import { describe } from './operand.js';

const node = (x: Operand, fn: string, position = 0) => anyNode(x, fn, position);

/** A view of `x`: live (it follows in-place writes, as a NumPy view does) when x is a mutable array or a view of one. */
function viewOf(x: Operand, fn: string, build: (n: Node) => Node): DeferredArray {
  if (x instanceof DeferredArray) return liveView(x, build);
  return wrapNode(build(node(x, fn)));
}

function reshape(x: Operand, shape: number | readonly number[]): DeferredArray {
  return viewOf(x, 'reshape', (n) => view.reshape(n, shape));
}

function transpose(x: Operand, axes?: readonly number[]): DeferredArray {
  return viewOf(x, 'transpose', (n) => view.transpose(n, axes));
}

/** NumPy's newaxis in an index string: None, or newaxis with or without np. in front. */
const NEW_AXIS = /^\s*(None|(np\.)?newaxis)\s*$/;

/**
 * An index string with NumPy's None (newaxis) in it, as the string without
 * them and the axes of the result where a length-1 axis goes; undefined for
 * any other index.
 */
function newAxes(index: readonly IndexArg[], ndim: number): { readonly rest: string; readonly axes: number[] } | undefined {
  if (index.length !== 1 || typeof index[0] !== 'string') return undefined;
  const parts = index[0].split(',');
  if (!parts.some((p) => NEW_AXIS.test(p))) return undefined;
  const kept = parts.filter((p) => !NEW_AXIS.test(p));
  // '...' stands for the axes the other entries leave; an integer drops its axis, a slice keeps it.
  const named = kept.filter((p) => p.trim() !== '...' && p.trim() !== '').length;
  const axes: number[] = [];
  let out = 0;
  for (const p of parts) {
    const t = p.trim();
    if (NEW_AXIS.test(p)) axes.push(out++);
    else if (t === '...') out += Math.max(0, ndim - named);
    else if (t.includes(':')) out++;
  }
  return { rest: kept.join(','), axes };
}

function get(x: Operand, ...index: IndexArg[]): DeferredArray {
  return viewOf(x, 'get', (n) => {
    // None adds an axis of length 1, as NumPy's newaxis does: the rest of the index, then those axes.
    const na = newAxes(index, n.shape.length);
    if (!na) return view.slice(n, index);
    const sliced = view.slice(n, [na.rest]);
    return na.axes.length === 0 ? sliced : view.expandDims(sliced, na.axes);
  });
}

function broadcastTo(x: Operand, shape: readonly number[]): DeferredArray {
  return viewOf(x, 'broadcastTo', (n) => view.broadcastTo(n, shape));
}

function squeeze(x: Operand, axis?: number | readonly number[]): DeferredArray {
  return viewOf(x, 'squeeze', (n) => view.squeeze(n, axis));
}

function expandDims(x: Operand, axis: number | readonly number[]): DeferredArray {
  return viewOf(x, 'expandDims', (n) => view.expandDims(n, axis));
}

function joinOptions(fn: string, options: unknown): number | null {
  if (options === undefined) return 0;
  if (typeof options !== 'object' || options === null) throw new TypeError(`${fn}: options must be an object like { axis }; got ${describe(options)}`);
  for (const key of Object.keys(options)) if (key !== 'axis') throw new TypeError(`${fn}: unknown option '${key}' (expected axis)`);
  const axis = (options as { axis?: unknown }).axis;
  if (axis === undefined) return 0;
  if (axis === null) return null;
  if (typeof axis !== 'number' || !Number.isInteger(axis)) throw new TypeError(`${fn}: option axis must be an integer or null; got ${String(axis)}`);
  return axis;
}

function arrays(fn: string, xs: unknown): DeferredArray[] {
  if (!Array.isArray(xs)) throw new TypeError(`${fn}: expected an array of arrays as first argument; got ${describe(xs)}`);
  return xs.map((x, i) => wrapNode(node(x as Operand, fn, i)));
}

function concat(xs: readonly Operand[], options?: { axis?: number | null }): DeferredArray {
  return wrapNode(view.concat(arrays('concat', xs).map((x) => nodeOf(x)), joinOptions('concat', options)));
}

function stack(xs: readonly Operand[], options?: { axis?: number }): DeferredArray {
  const axis = joinOptions('stack', options);
  if (axis === null) throw new TypeError('stack: option axis must be an integer');
  return wrapNode(view.stack(arrays('stack', xs).map((x) => nodeOf(x)), axis));
}

/**
 * NumPy's sliding_window_view: every window of lengths `windowShape` along
 * `axis` (one axis or several, an axis possibly repeated; by default every
 * axis, one length each), as a read-only view of x: shape x.shape with each
 * windowed axis shortened to its number of windows, then the windows' axes.
 */
function slidingWindowView(x: Operand, windowShape: number | readonly number[], options?: { readonly axis?: number | readonly number[] | null }): DeferredArray {
  const o = checkOptionKeys<{ axis: number | readonly number[] | null }>('slidingWindowView', options, ['axis']);
  const lengths = typeof windowShape === 'number' ? [windowShape] : [...windowShape];
  return viewOf(x, 'slidingWindowView', (n) => {
    const nd = n.shape.length;
    if ((o.axis === undefined || o.axis === null) && lengths.length !== nd) {
      throw new ShapeError(`slidingWindowView: with no axis, give a window length for each of the ${nd} axes; got ${lengths.length}`);
    }
    const given = o.axis === undefined || o.axis === null ? [...Array(nd).keys()] : typeof o.axis === 'number' ? [o.axis] : [...o.axis];
    return view.slidingWindow(n, lengths, given.map((a) => normalizeAxis(a, nd, 'slidingWindowView: axis')));
  });
}

function astype(x: Operand, dtype: DType): DeferredArray {
  return wrapNode(cast(node(x, 'astype'), checkDType(dtype, 'astype: dtype')));
}

const reduction = (op: ReduceOp) => (x: Operand, options?: ReduceOptions): DeferredArray =>
  wrapNode(reduce(op, node(x, op), options));

const sum = reduction('sum');
const prod = reduction('prod');
const min = reduction('min');
const max = reduction('max');
const mean = reduction('mean');
const any = reduction('any');
const all = reduction('all');
const argmin = reduction('argmin');
const argmax = reduction('argmax');

function matmul(a: Operand, b: Operand): DeferredArray {
  return wrapNode(matmulNode(node(a, 'matmul', 0), node(b, 'matmul', 1)));
}

function dot(a: Operand, b: Operand): DeferredArray {
  return wrapNode(dotNode(node(a, 'dot', 0), node(b, 'dot', 1)));
}

function outer(a: Operand, b: Operand): DeferredArray {
  return wrapNode(outerNode(node(a, 'outer', 0), node(b, 'outer', 1)));
}

export {
  reshape, transpose, get, broadcastTo, slidingWindowView, squeeze, expandDims, concat, stack, astype,
  sum, prod, min, max, mean, any, all, argmin, argmax, matmul, dot, outer, viewOf,
};
