// Which elements of a pinned temporary a block reads. The body reads the
// temporary at flat index sum(idx[d] * s[d]) (s >= 0: a row-major array
// broadcast into the space, its axes possibly reordered), and a block is a
// run of consecutive elements of the space in C order. The block's range is
// the least and greatest such index over the run, found by splitting the run
// at its first axis into a first row, whole middle rows and a last row; the
// temporary is computed over [lo, hi) of its own flat order, which holds every
// element the block reads (and, where a run wraps a broadcast axis, some it
// does not: they are valid elements, computed and not read).
import { at } from '../internal-error.js';

/** One axis of the space, as blockRange reads it. */
interface RangeAxis {
  readonly size: number;
  readonly stride: number;
  /** The index along this axis of the run's first and last elements. */
  readonly first: number;
  readonly last: number;
  /** The greatest index over whole rows from this axis on, and from the next axis on. */
  readonly full: number;
  readonly rest: number;
}

/** The C-order multi-index of element `flat` of `shape`. */
function unravel(shape: readonly number[], flat: number): number[] {
  const idx = new Array<number>(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    const size = at(shape, d, 'axis');
    idx[d] = flat % size;
    flat = Math.floor(flat / size);
  }
  return idx;
}

/** [lo, hi) of sum(idx[d] * s[d]) over the elements a .. b - 1 (C order) of `shape`; b > a. */
function blockRange(shape: readonly number[], s: readonly number[], a: number, b: number): [number, number] {
  const n = shape.length;
  const first = unravel(shape, a);
  const last = unravel(shape, b - 1);
  const axes = new Array<RangeAxis>(n);
  let rest = 0;
  for (let d = n - 1; d >= 0; d--) {
    const size = at(shape, d, 'axis');
    const stride = at(s, d, 'stride');
    const full = rest + (size - 1) * stride;
    axes[d] = { size, stride, first: at(first, d, 'axis'), last: at(last, d, 'axis'), full, rest };
    rest = full;
  }
  // The elements from axis d on that are at least first[d..] (when `low`) and at most last[d..] (when `high`).
  const span = (d: number, low: boolean, high: boolean): [number, number] => {
    if (d === n) return [0, 0];
    const x = at(axes, d, 'axis');
    if (!low && !high) return [0, x.full];
    const lo = low ? x.first : 0;
    const hi = high ? x.last : x.size - 1;
    if (lo === hi) {
      const [p, q] = span(d + 1, low, high);
      return [p + lo * x.stride, q + lo * x.stride];
    }
    const [x0, y0] = span(d + 1, low, false);
    const [x1, y1] = span(d + 1, false, high);
    let min = Math.min(x0 + lo * x.stride, x1 + hi * x.stride);
    let max = Math.max(y0 + lo * x.stride, y1 + hi * x.stride);
    if (hi - lo >= 2) {
      min = Math.min(min, (lo + 1) * x.stride);
      max = Math.max(max, (hi - 1) * x.stride + x.rest);
    }
    return [min, max];
  };
  const [lo, hi] = span(0, true, true);
  return [lo, hi + 1];
}

export { blockRange };
