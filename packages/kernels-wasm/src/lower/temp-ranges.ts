// Which elements of a pinned temporary a block reads. The body reads the
// temporary at flat index sum(idx[d] * s[d]) (s >= 0: a row-major array
// broadcast into the space, its axes possibly reordered), and a block is a
// run of consecutive elements of the space in C order. The block's range is
// the least and greatest such index over the run, found by splitting the run
// at its first axis into a first row, whole middle rows and a last row; the
// temporary is computed over [lo, hi) of its own flat order, which holds every
// element the block reads (and, where a run wraps a broadcast axis, some it
// does not: they are valid elements, computed and not read).

/** [lo, hi) of sum(idx[d] * s[d]) over the elements a .. b - 1 (C order) of `shape`; b > a. */
function blockRange(shape: readonly number[], s: readonly number[], a: number, b: number): [number, number] {
  const n = shape.length;
  const unravel = (flat: number): number[] => {
    const idx = new Array<number>(n);
    for (let d = n - 1; d >= 0; d--) { idx[d] = flat % shape[d]!; flat = Math.floor(flat / shape[d]!); }
    return idx;
  };
  const first = unravel(a);
  const last = unravel(b - 1);
  /** The greatest index over whole rows from axis d on. */
  const fullMax: number[] = new Array<number>(n + 1).fill(0);
  for (let d = n - 1; d >= 0; d--) fullMax[d] = fullMax[d + 1]! + (shape[d]! - 1) * s[d]!;
  // The elements from axis d on that are at least first[d..] (when `low`) and at most last[d..] (when `high`).
  const span = (d: number, low: boolean, high: boolean): [number, number] => {
    if (d === n) return [0, 0];
    if (!low && !high) return [0, fullMax[d]!];
    const lo = low ? first[d]! : 0;
    const hi = high ? last[d]! : shape[d]! - 1;
    if (lo === hi) {
      const [x, y] = span(d + 1, low, high);
      return [x + lo * s[d]!, y + lo * s[d]!];
    }
    const [x0, y0] = span(d + 1, low, false);
    const [x1, y1] = span(d + 1, false, high);
    let min = Math.min(x0 + lo * s[d]!, x1 + hi * s[d]!);
    let max = Math.max(y0 + lo * s[d]!, y1 + hi * s[d]!);
    if (hi - lo >= 2) {
      min = Math.min(min, (lo + 1) * s[d]!);
      max = Math.max(max, (hi - 1) * s[d]! + fullMax[d + 1]!);
    }
    return [min, max];
  };
  const [lo, hi] = span(0, true, true);
  return [lo, hi + 1];
}

export { blockRange };
