// A run of elements of an n-d array in C order, as the few boxes (a fixed
// index on the outer axes, a range on one, every index on the inner ones)
// that tile it in order: how a range of a chunked array is asked of a store
// that selects boxes (Zarr), each box's values following the one before.

/** Indices `fixed` on the first axes, [start, stop) on the next, all of every axis after. */
interface Box {
  readonly fixed: readonly number[];
  readonly start: number;
  readonly stop: number;
}

/** The boxes tiling elements [from, to) of an array of `shape`, C order, in order. */
function rangeBoxes(shape: readonly number[], from: number, to: number): Box[] {
  const boxes: Box[] = [];
  // `inner[a]`: elements in one index of axis a (the product of the lengths after it).
  const inner = shape.map((_, a) => shape.slice(a + 1).reduce((p, d) => p * d, 1));
  const split = (a: number, fixed: readonly number[], lo: number, hi: number): void => {
    if (lo >= hi) return;
    const size = inner[a]!;
    if (a === shape.length - 1 || (lo % size === 0 && hi % size === 0)) {
      boxes.push({ fixed, start: Math.floor(lo / size), stop: Math.ceil(hi / size) });
      return;
    }
    const first = Math.floor(lo / size);
    const last = Math.floor((hi - 1) / size);
    if (first === last) {
      split(a + 1, [...fixed, first], lo - first * size, hi - first * size);
      return;
    }
    // A part of the first index, the whole indices between, a part of the last.
    let whole = first;
    if (lo % size !== 0) {
      split(a + 1, [...fixed, first], lo - first * size, size);
      whole = first + 1;
    }
    const end = hi % size === 0 ? last + 1 : last;
    if (end > whole) boxes.push({ fixed, start: whole, stop: end });
    if (hi % size !== 0) split(a + 1, [...fixed, last], 0, hi - last * size);
  };
  if (shape.length > 0) split(0, [], from, to);
  return boxes;
}

export { rangeBoxes };
export type { Box };
