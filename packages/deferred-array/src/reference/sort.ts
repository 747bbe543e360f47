// sort, argsort, select and searchsorted, in NumPy's order: ascending, NaN after
// everything (whatever its sign or payload), -0 and +0 equal, and stable, so
// equal elements keep their order (NumPy's kind='stable'; any kind NumPy
// offers may give this order). Sorted values keep their bits: a -0 stays -0
// and a NaN keeps its payload, each in its place among its equals.
//
// Values are sorted by the engine's TypedArray sort (numeric, -0 before +0,
// NaN last), then the runs of zeros and NaNs are written again from the line
// in their original order. Positions (argsort) come from a stable LSD radix
// sort over keys that order as NumPy compares: an element's bits made
// unsigned-ordered, -0 given +0's key and every NaN the largest.
import type { FamilyNode, PartitionAttrs, SelectAttrs } from '../ir/node.js';
import { kthPositions } from '../ir/build-sort.js';
import { axisLength } from '../ir/shape.js';
import { allocDense } from '../core/dense.js';
import type { Dense } from '../core/dense.js';
import { dtypeInfo, isFloat } from '../ir/dtypes.js';
import type { DType, NumberArray, TypedArray } from '../ir/dtypes.js';

/** Lines this short are ordered by insertion, where a radix sort's histograms would cost more than the line. */
const INSERTION = 48;

/** Calls `line(start)` for each line along `axis` of a row-major array of `shape`, its elements `inner` apart. */
function forEachLine(shape: readonly number[], axis: number, line: (start: number, inner: number) => void): void {
  const n = axisLength(shape, axis);
  const outer = shape.slice(0, axis).reduce((p, d) => p * d, 1);
  const inner = shape.slice(axis + 1).reduce((p, d) => p * d, 1);
  if (n === 0) return;
  for (let a = 0; a < outer; a++) for (let k = 0; k < inner; k++) line(a * n * inner + k, inner);
}

function sortDense(node: FamilyNode<'sort'>, x: Dense): Dense {
  if (node.op === 'select') return selectDense(node, x);
  if (node.op === 'partition' || node.op === 'argpartition') return partitionDense(node, x);
  const { axis } = node.attrs;
  const out = allocDense(node.dtype, node.shape);
  const n = axisLength(x.shape, axis);
  const line = new (dtypeInfo(x.dtype).ctor)(n);
  const positions = new Int32Array(n);
  const scratch = node.op === 'argsort' ? scratchOf(n) : undefined;
  forEachLine(x.shape, axis, (start, inner) => {
    gatherLine(x.data, start, inner, line);
    if (node.op === 'sort') {
      scatterLine(sortedValues(line, x.dtype), out.data, start, inner);
    } else {
      orderOf(line, x.dtype, positions, scratch!);
      scatterLine(positions, out.data, start, inner);
    }
  });
  return out;
}

/** select: each line sorted, then the elements at the positions asked for, in their order (bits kept). */
function selectDense(node: FamilyNode<'sort'>, x: Dense): Dense {
  const { axis } = node.attrs;
  const { positions } = node.attrs as SelectAttrs;
  const out = allocDense(node.dtype, node.shape);
  const n = axisLength(x.shape, axis);
  const k = positions.length;
  const ctor = dtypeInfo(x.dtype).ctor;
  const line = new ctor(n);
  const picked = new ctor(k);
  forEachLine(x.shape, axis, (start, inner) => {
    gatherLine(x.data, start, inner, line);
    const sorted = bitsOf(sortedValues(line, x.dtype)) as Float64Array;
    const to = bitsOf(picked) as Float64Array;
    positions.forEach((p, j) => { to[j] = sorted[p]!; });
    // The same line of the result: the outer index times k elements, the inner offset as it is.
    const outer = Math.floor(start / (n * inner));
    scatterLine(picked, out.data, outer * k * inner + (start % inner), inner);
  });
  return out;
}

/**
 * partition and argpartition, from each line's stable order (the oracle for
 * the backends' selection): an element whose rank is a kth position goes
 * there; every other one to the next free place of the part between kth
 * positions that holds its rank, the line read in order.
 */
function partitionDense(node: FamilyNode<'sort'>, x: Dense): Dense {
  const { axis } = node.attrs;
  const n = axisLength(x.shape, axis);
  const kth = kthPositions(node.op, (node.attrs as PartitionAttrs).kth, n);
  const out = allocDense(node.dtype, node.shape);
  const line = new (dtypeInfo(x.dtype).ctor)(n);
  const placed = new Int32Array(n);
  const rank = new Int32Array(n);
  const values = new (dtypeInfo(x.dtype).ctor)(n);
  forEachLine(x.shape, axis, (start, inner) => {
    gatherLine(x.data, start, inner, line);
    const order = stableOrder(line, x.dtype);
    order.forEach((i, r) => { rank[i] = r; });
    // Part s lies between kth[s - 1] and kth[s]; its next free place.
    const free = [0, ...kth.map((k) => k + 1)];
    for (let i = 0; i < n; i++) {
      const r = rank[i]!;
      // s: how many kth lie below r (a binary search: kth may be as many as the line's elements).
      let s = 0;
      for (let hi = kth.length; s < hi;) {
        const mid = (s + hi) >> 1;
        if (kth[mid]! < r) s = mid + 1;
        else hi = mid;
      }
      placed[s < kth.length && kth[s] === r ? r : free[s]!++] = i;
    }
    if (node.op === 'argpartition') {
      scatterLine(placed, out.data, start, inner);
      return;
    }
    const bits = bitsOf(line) as Float64Array;
    const to = bitsOf(values) as Float64Array;
    for (let j = 0; j < n; j++) to[j] = bits[placed[j]!]!;
    scatterLine(values, out.data, start, inner);
  });
  return out;
}

/** Elements moved as bits: a float32 NaN read into a JS number and stored again could lose its payload's signalling bit. */
function bitsOf(a: TypedArray): TypedArray {
  return a instanceof Float32Array ? new Uint32Array(a.buffer, a.byteOffset, a.length) : a;
}

function gatherLine(src: TypedArray, start: number, inner: number, line: TypedArray): void {
  if (inner === 1) {
    line.set(src.subarray(start, start + line.length) as never);
    return;
  }
  const s = bitsOf(src) as Float64Array;
  const l = bitsOf(line) as Float64Array;
  for (let i = 0, at = start; i < l.length; i++, at += inner) l[i] = s[at]!;
}

function scatterLine(line: TypedArray, dst: TypedArray, start: number, inner: number): void {
  if (inner === 1) {
    dst.set(line as never, start);
    return;
  }
  const l = bitsOf(line) as Float64Array;
  const d = bitsOf(dst) as Float64Array;
  for (let i = 0, at = start; i < l.length; i++, at += inner) d[at] = l[i]!;
}

/** The line's values in NumPy's order (a new array; the line is left as it was). */
function sortedValues(line: TypedArray, dtype: DType): TypedArray {
  const sorted = line.slice();
  sorted.sort();
  if (!isFloat(dtype)) return sorted;
  // The engine orders -0 before +0 and may move NaNs anywhere among themselves: both runs are
  // written again with the line's zeros and NaNs in their original order (NumPy's stable order).
  const v = line as Float64Array | Float32Array;
  const s = sorted as Float64Array | Float32Array;
  let negatives = 0;
  let zeros = 0;
  let nans = 0;
  for (let i = 0; i < v.length; i++) {
    const e = v[i]!;
    if (e < 0) negatives++;
    else if (e === 0) zeros++;
    else if (e !== e) nans++;
  }
  if (zeros > 1 || nans > 0) {
    // Written as bits (a NaN's payload kept whole).
    const vb = bitsOf(v) as Float64Array;
    const sb = bitsOf(s) as Float64Array;
    let z = negatives;
    let q = v.length - nans;
    for (let i = 0; i < v.length; i++) {
      const e = v[i]!;
      if (e === 0) sb[z++] = vb[i]!;
      else if (e !== e) sb[q++] = vb[i]!;
    }
  }
  return s;
}

// Keys: an element's order as one or two unsigned 32-bit words (hi, lo), compared hi first.

const f64Bits = new Float64Array(1);
const f64Words = new Uint32Array(f64Bits.buffer);
const f32Bits = new Float32Array(1);
const f32Word = new Uint32Array(f32Bits.buffer);

/** Fills hi (and lo, for 64-bit dtypes) with the line's keys; returns whether lo is used. */
function keysOf(line: TypedArray, dtype: DType, hi: Uint32Array, lo: Uint32Array): boolean {
  const n = line.length;
  switch (dtype) {
    case 'float64': {
      const v = line as Float64Array;
      for (let i = 0; i < n; i++) {
        const e = v[i]!;
        if (e !== e) {
          hi[i] = 0xffffffff;
          lo[i] = 0xffffffff;
          continue;
        }
        f64Bits[0] = e === 0 ? 0 : e;
        let h = f64Words[1]!;
        let l = f64Words[0]!;
        if (h & 0x80000000) {
          h = ~h >>> 0;
          l = ~l >>> 0;
        } else {
          h = (h | 0x80000000) >>> 0;
        }
        hi[i] = h;
        lo[i] = l;
      }
      return true;
    }
    case 'float32': {
      const v = line as Float32Array;
      for (let i = 0; i < n; i++) {
        const e = v[i]!;
        if (e !== e) {
          hi[i] = 0xffffffff;
          continue;
        }
        f32Bits[0] = e === 0 ? 0 : e;
        const h = f32Word[0]!;
        hi[i] = h & 0x80000000 ? ~h >>> 0 : (h | 0x80000000) >>> 0;
      }
      return false;
    }
    case 'int64': case 'uint64': {
      const words = new Uint32Array(line.buffer, line.byteOffset, 2 * n);
      const flip = dtype === 'int64' ? 0x80000000 : 0;
      for (let i = 0; i < n; i++) {
        lo[i] = words[2 * i]!;
        hi[i] = (words[2 * i + 1]! ^ flip) >>> 0;
      }
      return true;
    }
    case 'int32': case 'int16': case 'int8': {
      const v = line as NumberArray;
      for (let i = 0; i < n; i++) hi[i] = (v[i]! ^ 0x80000000) >>> 0;
      return false;
    }
    default: {
      const v = line as NumberArray;
      for (let i = 0; i < n; i++) hi[i] = v[i]!;
      return false;
    }
  }
}

/** Keys and their copies for the radix sort's passes: made once per node, used by each of its lines. */
interface Scratch {
  readonly hi: Uint32Array;
  readonly lo: Uint32Array;
  readonly hi2: Uint32Array;
  readonly lo2: Uint32Array;
  readonly idx2: Int32Array;
  /** The radix sort's digit counts, all eight passes. */
  readonly counts: Uint32Array;
}

const scratchOf = (n: number): Scratch => ({
  hi: new Uint32Array(n), lo: new Uint32Array(n), hi2: new Uint32Array(n), lo2: new Uint32Array(n), idx2: new Int32Array(n),
  counts: new Uint32Array(256 * 8),
});

/** Writes into `positions` the stable order of the line's elements in NumPy's order. */
function orderOf(line: TypedArray, dtype: DType, positions: Int32Array, s: Scratch): void {
  const n = line.length;
  const wide = keysOf(line, dtype, s.hi, s.lo);
  for (let i = 0; i < n; i++) positions[i] = i;
  if (n <= INSERTION) insertionOrder(s.hi, wide ? s.lo : undefined, positions);
  else radixOrder(s, wide, positions);
}

/** Stable insertion sort of positions by key. */
function insertionOrder(hi: Uint32Array, lo: Uint32Array | undefined, positions: Int32Array): void {
  const before = (a: number, b: number): boolean => hi[a]! < hi[b]! || (lo !== undefined && hi[a] === hi[b] && lo[a]! < lo[b]!);
  for (let i = 1; i < positions.length; i++) {
    const p = positions[i]!;
    let j = i - 1;
    while (j >= 0 && before(p, positions[j]!)) {
      positions[j + 1] = positions[j]!;
      j--;
    }
    positions[j + 1] = p;
  }
}

const DIGIT = 8;
const BUCKETS = 1 << DIGIT;

/**
 * LSD radix sort of (key, position) by 8-bit digits, least significant first;
 * each pass stable, so the whole is. A digit every key shares is skipped.
 */
function radixOrder(s: Scratch, wide: boolean, positions: Int32Array): void {
  const n = positions.length;
  const words = wide ? 2 : 1;
  const passes = 4 * words;
  const counts = s.counts;
  counts.fill(0, 0, BUCKETS * passes);
  let { hi, lo, hi2, lo2 } = s;
  let idx = positions;
  let idx2 = s.idx2;
  for (let i = 0; i < n; i++) {
    const h = hi[i]!;
    for (let d = 0; d < 4; d++) counts[(words === 2 ? 4 + d : d) * BUCKETS + ((h >>> (8 * d)) & 0xff)]!++;
    if (wide) {
      const l = lo[i]!;
      for (let d = 0; d < 4; d++) counts[d * BUCKETS + ((l >>> (8 * d)) & 0xff)]!++;
    }
  }
  for (let p = 0; p < passes; p++) {
    const base = p * BUCKETS;
    let sum = 0;
    let shared = false;
    for (let b = 0; b < BUCKETS; b++) {
      const c = counts[base + b]!;
      if (c === n) shared = true;
      counts[base + b] = sum;
      sum += c;
    }
    if (shared) continue;
    // The pass's word: lo's four digits first (when wide), then hi's.
    const fromLo = wide && p < 4;
    const shift = 8 * (p % 4);
    const key = fromLo ? lo : hi;
    for (let i = 0; i < n; i++) {
      const at = counts[base + ((key[i]! >>> shift) & 0xff)]!++;
      hi2[at] = hi[i]!;
      if (wide) lo2[at] = lo[i]!;
      idx2[at] = idx[i]!;
    }
    [hi, hi2] = [hi2, hi];
    [lo, lo2] = [lo2, lo];
    [idx, idx2] = [idx2, idx];
  }
  if (idx !== positions) positions.set(idx);
}

/** The positions that sort `values` (one line) in NumPy's stable order. */
function stableOrder(values: TypedArray, dtype: DType): Int32Array {
  const positions = new Int32Array(values.length);
  orderOf(values, dtype, positions, scratchOf(values.length));
  return positions;
}

/** x before y in NumPy's sort order: x < y, or y is NaN and x is not (integers and bigints: x < y). */
const before = <T extends number | bigint>(x: T, y: T): boolean => x < y || (y !== y && x === x);

/**
 * Where x goes in the sorted `a` (NaN last): the first position whose
 * element is not before x (side left), or is after it (side right).
 */
function insertionPoint<T extends number | bigint>(a: ArrayLike<T>, x: T, right: boolean): number {
  let low = 0;
  let high = a.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (right ? !before(x, a[mid]!) : before(a[mid]!, x)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** searchsorted: each value's insertion point in the sorted 1-d array (both inputs of one dtype). */
function searchDense(node: FamilyNode<'search'>, sorted: Dense, values: Dense): Dense {
  const out = allocDense(node.dtype, node.shape);
  const a = sorted.data as ArrayLike<number>;
  const v = values.data as ArrayLike<number>;
  const r = out.data as Int32Array;
  const right = node.attrs.side === 'right';
  for (let i = 0; i < r.length; i++) r[i] = insertionPoint(a, v[i]!, right);
  return out;
}

export { sortDense, searchDense, stableOrder, insertionPoint };
