// Where a view of a mutable array lies in its block: a strided window
// (shape, element strides, offset) over the array's row-major elements. Views
// compose into one window, so `x.get('1:').T.get(0)` writes exactly the
// elements it reads; a window through which one element would be written
// twice (a broadcast) is read-only, as in NumPy.
import type { TypedArray } from '../ir/dtypes.js';
import type { ViewMap } from '../ir/node.js';
import { contiguousStrides, sameShape, sizeOf } from '../ir/shape.js';
import type { Shape } from '../ir/shape.js';

interface Window {
  readonly shape: Shape;
  readonly strides: readonly number[];
  readonly offset: number;
}

const wholeWindow = (shape: Shape): Window => ({ shape: [...shape], strides: contiguousStrides(shape), offset: 0 });

/** The window of a view (ViewMap onto its input) of the window `w`. */
function viewWindow(w: Window, view: ViewMap, shape: Shape): Window {
  const { axes, steps, starts } = view;
  if (!axes || !steps || !starts) throw new Error('internal: view without per-axis mapping');
  if (sizeOf(shape) === 0) return { shape: [...shape], strides: shape.map(() => 0), offset: w.offset };
  const offset = starts.reduce((o, s, a) => o + s * w.strides[a]!, w.offset);
  return { shape: [...shape], strides: axes.map((a, i) => (a < 0 ? 0 : steps[i]! * w.strides[a]!)), offset };
}

/** Row-major and gap-free (axes of length 1 may have any stride). */
function isContiguousWindow(w: Window): boolean {
  const c = contiguousStrides(w.shape);
  return w.shape.every((d, i) => d <= 1 || w.strides[i] === c[i]);
}

/** The window of a reshape of `w`: one only when w is contiguous (else NumPy copies, and so do we). */
function reshapeWindow(w: Window, shape: Shape): Window | undefined {
  return isContiguousWindow(w) ? { shape: [...shape], strides: contiguousStrides(shape), offset: w.offset } : undefined;
}

/** Whether writing through `w` would write some element twice. */
const isReadOnly = (w: Window): boolean => sizeOf(w.shape) > 0 && w.shape.some((d, i) => d > 1 && w.strides[i] === 0);

/** Whether `w` is all of an array of shape `base`, in order. */
const isWhole = (w: Window, base: Shape): boolean => sameShape(w.shape, base) && w.offset === 0 && isContiguousWindow(w);

/**
 * The window as a box of `base` (per axis a start and a length, step 1, axes
 * in order), or undefined for any other window (steps, transposes).
 */
function boxOf(w: Window, base: Shape): { start: number[]; length: number[] } | undefined {
  const cs = contiguousStrides(base);
  const start = base.map(() => 0);
  const length = base.map(() => 1);
  let rest = w.offset;
  for (let a = 0; a < base.length; a++) {
    start[a] = base[a]! <= 1 ? 0 : Math.floor(rest / cs[a]!);
    rest -= start[a]! * cs[a]!;
  }
  let axis = 0;
  for (let i = 0; i < w.shape.length; i++) {
    const d = w.shape[i]!;
    if (d === 1) continue;
    while (axis < base.length && cs[axis] !== w.strides[i]) axis++;
    if (axis === base.length) return undefined;
    length[axis] = d;
    axis++;
  }
  if (base.some((d, a) => start[a]! + length[a]! > d) || sizeOf(length) !== sizeOf(w.shape)) return undefined;
  return { start, length };
}

/**
 * Copies every element of `src` outside window `w` into `dst` (both blocks
 * of an array of shape `base`): a slice assignment writes the window into a
 * new block, which must hold the old values everywhere else. A box costs
 * only its complement; other windows copy everything (the window is
 * overwritten right after).
 */
function copyOutside(src: TypedArray, dst: TypedArray, base: Shape, w: Window): void {
  const box = sizeOf(w.shape) === 0 ? undefined : boxOf(w, base);
  if (!box || base.length === 0) {
    if (sizeOf(w.shape) === 0 || !box) dst.set(src);
    return;
  }
  const nd = base.length;
  const row = base[nd - 1]!;
  const rows = sizeOf(base) / Math.max(row, 1);
  const lo = box.start[nd - 1]!;
  const hi = lo + box.length[nd - 1]!;
  const idx = new Array<number>(nd - 1).fill(0);
  const copy = (from: number, to: number): void => {
    if (to - from > 16) dst.set(src.subarray(from, to), from);
    else for (let i = from; i < to; i++) dst[i] = src[i]!;
  };
  for (let r = 0; r < rows; r++) {
    const at = r * row;
    const inside = idx.every((v, a) => v >= box.start[a]! && v < box.start[a]! + box.length[a]!);
    if (!inside) copy(at, at + row);
    else {
      copy(at, at + lo);
      copy(at + hi, at + row);
    }
    for (let a = nd - 2; a >= 0; a--) {
      if (++idx[a]! < base[a]!) break;
      idx[a] = 0;
    }
  }
}

export { wholeWindow, viewWindow, reshapeWindow, isReadOnly, isWhole, boxOf, copyOutside };
export type { Window };
