// Builds view and shape nodes: transpose, indexing, broadcastTo, reshape,
// squeeze, expandDims, and the joins concat and stack. Nothing is copied here.
import { ShapeError } from './errors.js';
import { promoteTypes } from './promotion.js';
import { indexLabel, resolveIndex } from './indexing.js';
import type { IndexArg } from './indexing.js';
import { makeNode } from './node.js';
import type { Node, NodeOf } from './node.js';
import { axisLength, broadcastShapes, checkShape, contiguousStrides, formatShape, normalizeAxes, normalizeAxis, sameShape, sizeOf } from './shape.js';
import { formatValue } from './format.js';

function transpose(x: Node, axes?: readonly number[]): Node {
  const ndim = x.shape.length;
  let perm: number[];
  if (axes === undefined || axes === null) {
    perm = Array.from({ length: ndim }, (_, i) => ndim - 1 - i);
  } else {
    if (!Array.isArray(axes)) {
      throw new TypeError(`transpose: axes must be an array of integers (a permutation of the axes); got ${String(axes)}`);
    }
    if (axes.length !== ndim) {
      throw new ShapeError(`transpose: axes ${formatValue(axes)} must list each of the ${ndim} axes of shape ${formatShape(x.shape)} once`);
    }
    perm = axes.map((a) => normalizeAxis(a, ndim, 'transpose: axes entry'));
    if (new Set(perm).size !== ndim) throw new ShapeError(`transpose: axes ${formatValue(axes)} repeat an axis`);
  }
  if (perm.every((p, i) => p === i)) return x;
  const inStrides = contiguousStrides(x.shape);
  const shape = perm.map((p) => axisLength(x.shape, p));
  return makeNode('transpose', [x], shape, x.dtype, {
    axes: perm,
    view: { strides: perm.map((p) => axisLength(inStrides, p)), offset: 0, axes: perm, steps: perm.map(() => 1), starts: perm.map(() => 0) },
    label: perm.join(','),
  });
}

/** `keep`: make the node even where the index selects all of x (a compiled function's slice rebuilt at new sizes). */
function slice(x: Node, args: readonly IndexArg[], keep = false): Node {
  const index = resolveIndex(args, x.shape);
  const inStrides = contiguousStrides(x.shape);
  let offset = 0;
  const shape: number[] = [];
  const strides: number[] = [];
  const axes: number[] = [];
  const steps: number[] = [];
  const starts: number[] = [];
  index.forEach((e, axis) => {
    const stride = axisLength(inStrides, axis);
    if (e.kind === 'int') {
      offset += e.index * stride;
      starts.push(e.index);
    } else {
      offset += e.start * stride;
      shape.push(e.length);
      strides.push(e.step * stride);
      axes.push(axis);
      steps.push(e.step);
      starts.push(e.start);
    }
  });
  if (sizeOf(shape) === 0) {
    offset = 0;
    starts.fill(0);
  }
  if (!keep && sameShape(shape, x.shape) && strides.every((s, i) => s === inStrides[i]) && offset === 0) return x;
  return makeNode('slice', [x], shape, x.dtype, { view: { strides, offset, axes, steps, starts }, index: [...args], label: indexLabel(index) });
}

function broadcastTo(x: Node, target: unknown): Node {
  const shape = checkShape(target, 'broadcastTo: shape');
  const result = broadcastShapes([x.shape, shape], 'broadcastTo');
  if (!sameShape(result, shape) || x.shape.length > shape.length) {
    throw new ShapeError(`cannot broadcast an array of shape ${formatShape(x.shape)} to shape ${formatShape(shape)}`);
  }
  if (sameShape(x.shape, shape)) return x;
  const inStrides = contiguousStrides(x.shape);
  const lead = shape.length - x.shape.length;
  const broadcast = (i: number): boolean => i < lead || x.shape[i - lead] === 1;
  const strides = shape.map((_, i) => (broadcast(i) ? 0 : axisLength(inStrides, i - lead)));
  const axes = shape.map((_, i) => (broadcast(i) ? -1 : i - lead));
  const view = { strides, offset: 0, axes, steps: axes.map((a) => (a < 0 ? 0 : 1)), starts: x.shape.map(() => 0) };
  return makeNode('broadcastTo', [x], shape, x.dtype, { view, label: formatShape(shape) });
}

/**
 * NumPy's sliding_window_view: x with each axis in `axes` shortened to the
 * number of windows along it (length - window + 1), and the windows' own
 * axes appended in that order. A view: each window reads x's elements in
 * place (windows overlap, so it is read-only).
 */
function slidingWindow(x: Node, windowShape: readonly number[], axes: readonly number[]): Node {
  if (windowShape.length !== axes.length) {
    throw new ShapeError(`slidingWindowView: give one window length per axis; got ${windowShape.length} window length(s) and ${axes.length} axis/axes`);
  }
  const shape = [...x.shape];
  for (const [i, w] of windowShape.entries()) {
    if (!Number.isInteger(w) || w < 0) throw new TypeError(`slidingWindowView: window lengths must be non-negative integers; got ${formatValue(windowShape)}`);
    const a = axes[i]!;
    if (shape[a]! < w) throw new ShapeError(`slidingWindowView: a window of ${w} is longer than axis ${a} (${shape[a]}) of shape ${formatShape(x.shape)}`);
    shape[a] = shape[a]! - (w - 1);
  }
  const inStrides = contiguousStrides(x.shape);
  const outAxes = [...x.shape.keys(), ...axes];
  const view = { strides: outAxes.map((a) => axisLength(inStrides, a)), offset: 0, axes: outAxes, steps: outAxes.map(() => 1), starts: x.shape.map(() => 0) };
  const out = [...shape, ...windowShape];
  return makeNode('slidingWindow', [x], out, x.dtype, { view, window: [...windowShape], axes: [...axes], label: `windows ${formatShape(windowShape)}` });
}

function reshape(x: Node, target: unknown, label = 'reshape'): Node {
  const raw = typeof target === 'number' ? [target] : target;
  if (!Array.isArray(raw) || raw.some((d) => typeof d !== 'number' || !Number.isInteger(d) || d < -1)) {
    throw new TypeError(`${label}: shape must be an array of non-negative integers with at most one -1; got ${formatValue(target)}`);
  }
  const holes = raw.filter((d) => d === -1).length;
  if (holes > 1) throw new ShapeError(`${label}: only one dimension can be -1; got ${formatValue(raw)}`);
  const known = sizeOf(raw.filter((d) => d !== -1));
  const size = sizeOf(x.shape);
  let shape = raw as number[];
  if (holes === 1) {
    if (known === 0 || size % known !== 0) {
      throw new ShapeError(`${label}: cannot reshape an array of size ${size} (shape ${formatShape(x.shape)}) into shape ${formatShape(raw)}`);
    }
    shape = raw.map((d) => (d === -1 ? size / known : d));
  }
  if (sizeOf(shape) !== size) {
    throw new ShapeError(`${label}: cannot reshape an array of size ${size} (shape ${formatShape(x.shape)}) into shape ${formatShape(shape)} of size ${sizeOf(shape)}`);
  }
  if (sameShape(shape, x.shape)) return x;
  // Reshapes keep row-major order, so a reshape of a reshape is one reshape of the original (or the original itself).
  if (x.op === 'reshape') return reshape(x.inputs[0], raw, label);
  return makeNode('reshape', [x], shape, x.dtype, { request: [...raw], label: formatShape(shape) });
}

function squeeze(x: Node, axis?: number | readonly number[]): Node {
  const axes = axis === undefined || axis === null
    ? x.shape.flatMap((d, i) => (d === 1 ? [i] : []))
    : normalizeAxes(axis, x.shape.length, 'squeeze: axis');
  for (const a of axes) {
    if (x.shape[a] !== 1) throw new ShapeError(`squeeze: axis ${a} of shape ${formatShape(x.shape)} has size ${x.shape[a]}, not 1`);
  }
  return reshape(x, x.shape.filter((_, i) => !axes.includes(i)), 'squeeze');
}

function expandDims(x: Node, axis: number | readonly number[]): Node {
  const list = Array.isArray(axis) ? axis : [axis];
  const ndim = x.shape.length + list.length;
  const axes = normalizeAxes(list, ndim, 'expandDims: axis');
  const shape: number[] = [];
  let src = 0;
  for (let i = 0; i < ndim; i++) shape.push(axes.includes(i) ? 1 : x.shape[src++]!);
  return reshape(x, shape, 'expandDims');
}

/** The first of the arrays joined, which there must be. */
function checkJoinable(what: string, xs: readonly Node[]): Node {
  const first: Node | undefined = Array.isArray(xs) ? xs[0] : undefined;
  if (!first) throw new TypeError(`${what} needs a non-empty array of arrays`);
  return first;
}

function concat(xs: readonly Node[], axis: number | null = 0): Node {
  const first = checkJoinable('concat', xs);
  if (axis === null) return concat(xs.map((x) => reshape(x, [-1], 'concat')), 0);
  if (first.shape.length === 0) throw new ShapeError('concat: zero-dimensional arrays cannot be concatenated; use stack');
  const ax = normalizeAxis(axis, first.shape.length, 'concat: axis');
  xs.forEach((x, i) => {
    const ok = x.shape.length === first.shape.length && x.shape.every((d, j) => j === ax || d === first.shape[j]);
    if (!ok) {
      throw new ShapeError(
        `concat: array ${i} has shape ${formatShape(x.shape)} but array 0 has ${formatShape(first.shape)}; ` +
        `all sizes must match except along axis ${ax}`,
      );
    }
  });
  if (xs.length === 1) return first;
  const shape = first.shape.map((d, j) => (j === ax ? xs.reduce((s, x) => s + axisLength(x.shape, j), 0) : d));
  const dtype = xs.map((x) => x.dtype).reduce(promoteTypes);
  return makeNode('concat', xs, shape, dtype, { axis: ax, label: `axis=${ax}` });
}

function stack(xs: readonly Node[], axis = 0): Node {
  const first = checkJoinable('stack', xs);
  xs.forEach((x, i) => {
    if (!sameShape(x.shape, first.shape)) {
      throw new ShapeError(`stack: array ${i} has shape ${formatShape(x.shape)} but array 0 has ${formatShape(first.shape)}; all shapes must be equal`);
    }
  });
  const ax = normalizeAxis(axis, first.shape.length + 1, 'stack: axis');
  return concat(xs.map((x) => expandDims(x, ax)), ax);
}

/**
 * The rows of axis 0 of its input that the slice `n` reads, [first, last]
 * (undefined when it reads no element): what a part of an array read from
 * storage must hold for it.
 */
function rowsRead(n: NodeOf<'slice'>): readonly [number, number] | undefined {
  const { view } = n.attrs;
  if (sizeOf(n.shape) === 0 || n.inputs[0].shape.length === 0) return undefined;
  const start = view.starts?.[0] ?? 0;
  const k = view.axes?.indexOf(0) ?? -1;
  if (k < 0) return [start, start];
  const end = start + (view.steps?.[0] ?? 1) * (n.shape[k]! - 1);
  return [Math.min(start, end), Math.max(start, end)];
}

/** The slice `n` again over `rows`, which holds its input's rows from `first` on (every other axis whole). */
function sliceOfRows(n: NodeOf<'slice'>, rows: Node, first: number): Node {
  const { view } = n.attrs;
  const rowLength = contiguousStrides(n.inputs[0].shape)[0]!;
  // An empty slice reads nothing: its start may lie past the rows read, so it is kept at 0.
  const starts = view.starts?.map((s, a) => (a === 0 ? Math.max(0, s - first) : s));
  return makeNode('slice', [rows], n.shape, n.dtype, {
    ...n.attrs, view: { ...view, offset: sizeOf(n.shape) === 0 ? 0 : view.offset - first * rowLength, ...(starts ? { starts } : {}) },
  });
}

export { transpose, slice, broadcastTo, slidingWindow, reshape, squeeze, expandDims, concat, stack, rowsRead, sliceOfRows };
