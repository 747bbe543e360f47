// Where a view of a mutable array lies in its block: a strided window
// (shape, element strides, offset) over the array's row-major elements. Views
// compose into one window, so `x.get('1:').T.get(0)` writes exactly the
// elements it reads; a window through which one element would be written
// twice (a broadcast) is read-only, as in NumPy.
import { setElements } from '../ir/dtypes.js';
import type { TypedArray } from '../ir/dtypes.js';
import type { ViewMap } from '../ir/node.js';
import { contiguousStrides, isRowMajor, sizeOf } from '../ir/shape.js';
import type { Shape } from '../ir/shape.js';
import { at } from '../util/lookup.js';

interface Window {
  readonly shape: Shape;
  readonly strides: readonly number[];
  readonly offset: number;
}

/** Whole windows by shape: every handle over a fresh array has one, and frozen shapes (nearly all) are shared by many nodes. */
const wholeWindows = new WeakMap<Shape, Window>();

function wholeWindow(shape: Shape): Window {
  // Looked up first: a shape found is frozen, and the check is a call into V8's runtime.
  const known = wholeWindows.get(shape);
  if (known) return known;
  if (!Object.isFrozen(shape)) return { shape: [...shape], strides: contiguousStrides(shape), offset: 0 };
  const w = Object.freeze({ shape, strides: Object.freeze(contiguousStrides(shape)), offset: 0 });
  wholeWindows.set(shape, w);
  return w;
}

/** The window of a view (ViewMap onto its input) of the window `w`. */
function viewWindow(w: Window, view: ViewMap, shape: Shape): Window {
  const { axes, steps, starts } = view;
  if (!axes || !steps || !starts) throw new Error('internal: view without per-axis mapping');
  if (sizeOf(shape) === 0) return { shape: [...shape], strides: shape.map(() => 0), offset: w.offset };
  const stride = (a: number): number => at(w.strides, a, 'window stride');
  const offset = starts.reduce((o, s, a) => o + s * stride(a), w.offset);
  return { shape: [...shape], strides: axes.map((a, i) => (a < 0 ? 0 : at(steps, i, 'view step') * stride(a))), offset };
}

/** Row-major and gap-free (axes of length 1 may have any stride). */
function isContiguousWindow(w: Window): boolean {
  return isRowMajor(w.shape, w.strides);
}

/** The window of a reshape of `w`: one only when w is contiguous (else NumPy copies, and so do we). */
function reshapeWindow(w: Window, shape: Shape): Window | undefined {
  return isContiguousWindow(w) ? { shape: [...shape], strides: contiguousStrides(shape), offset: w.offset } : undefined;
}

/** Whether writing through `w` would write some element twice. */
const isReadOnly = (w: Window): boolean => sizeOf(w.shape) > 0 && w.shape.some((d, i) => d > 1 && w.strides[i] === 0);

/** Whether `w` is all of an array of shape `base`, in row-major order (under any shape: a reshape of the whole array is whole). */
const isWhole = (w: Window, base: Shape): boolean => sizeOf(w.shape) === sizeOf(base) && w.offset === 0 && isContiguousWindow(w);

/**
 * The window's contiguous runs as (count, first address, row step): present
 * when its rows of length shape[last] lie one after another in address order
 * without overlapping (positive strides, each at least the span of the axes
 * inside it, the last 1), as a slice with unit inner step of any array is.
 */
function rowsOf(w: Window): { runLength: number; starts: number[] } | undefined {
  const nd = w.shape.length;
  const runLength = w.shape[nd - 1];
  if (runLength === undefined || w.strides[nd - 1] !== 1) return undefined;
  let span = runLength;
  for (let a = nd - 2; a >= 0; a--) {
    const d = at(w.shape, a, 'window axis');
    if (d <= 1) continue;
    const stride = at(w.strides, a, 'window stride');
    if (stride < span) return undefined;
    span = stride * (d - 1) + span;
  }
  const outer = w.shape.slice(0, -1);
  const starts: number[] = [];
  const idx = outer.map(() => 0);
  for (let r = 0; r < sizeOf(outer); r++) {
    starts.push(idx.reduce((o, v, a) => o + v * w.strides[a]!, w.offset));
    for (let a = outer.length - 1; a >= 0; a--) {
      if (++idx[a]! < outer[a]!) break;
      idx[a] = 0;
    }
  }
  return { runLength, starts };
}

/**
 * Copies every element of `src` outside window `w` into `dst` (two blocks of
 * one array): a slice assignment writes the window into a new block, which
 * must hold the old values everywhere else. A window of long contiguous rows
 * (a slice like [1:-1, 1:-1]) costs only the gaps between them; any other is
 * copied whole, to be overwritten right after.
 */
function copyOutside(src: TypedArray, dst: TypedArray, w: Window): void {
  const rows = sizeOf(w.shape) === 0 ? undefined : rowsOf(w);
  if (!rows || rows.runLength < 16) {
    setElements(dst, src);
    return;
  }
  const copy = (from: number, to: number): void => {
    if (to - from > 16) setElements(dst, src.subarray(from, to), from);
    else for (let i = from; i < to; i++) dst[i] = src[i]!;
  };
  let at = 0;
  for (const start of rows.starts) {
    copy(at, start);
    at = start + rows.runLength;
  }
  copy(at, src.length);
}

export { wholeWindow, viewWindow, reshapeWindow, isReadOnly, isWhole, copyOutside };
export type { Window };
