// NumPy's unique, isin, intersect1d, union1d and setdiff1d. Their results'
// lengths are facts about the data, so, as nonzero does, each reads its
// operands' values when it is called (their pending graphs run then, as
// executeSync() would) and returns arrays whose values are known.
//
// Equality is NumPy's: -0 equals +0, NaN equals nothing (unique merges NaNs
// with equalNan, its default, as NumPy 2 does). Orders are sort's: NaN last,
// stable, so the first of equal elements is the first in the input.
import { dtypeInfo, isBigInt, isFloat } from '../ir/dtypes.js';
import { promoteTypes } from '../ir/promotion.js';
import type { DType, TypedArray } from '../ir/dtypes.js';
import { cast, source } from '../ir/build-elementwise.js';
import { castValue } from '../ir/cast-value.js';
import * as view from '../ir/build-view.js';
import type { Node } from '../ir/node.js';
import { checkOptionKeys } from '../ir/options.js';
import { normalizeAxis, sizeOf } from '../ir/shape.js';
import type { Dense } from '../core/dense.js';
import { stableOrder } from '../reference/sort.js';
import { wrapNode } from './deferred-array.js';
import type { DeferredArray } from './deferred-array.js';
import { denseNow } from './selection.js';
import { groupNumbers } from './number-groups.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';

interface UniqueOptions {
  /** Also return where each unique value first occurs (int32 positions in x flattened, or along axis). */
  readonly returnIndex?: boolean;
  /** Also return, for each element, the position of its value among the unique ones (x's shape; 1-d with axis). */
  readonly returnInverse?: boolean;
  /** Also return how many times each unique value occurs. */
  readonly returnCounts?: boolean;
  /** Unique slices along this axis (rows, for 0) instead of unique elements of x flattened. */
  readonly axis?: number | null;
  /** NaNs count as one value (NumPy 2's default); false keeps each NaN. Not used with axis, where NaN equals nothing. */
  readonly equalNan?: boolean;
}

/** Positions as int32: an array's length is below 2^31. */
const positions = (values: ArrayLike<number>, shape: readonly number[] = [values.length]): DeferredArray =>
  wrapNode(source(values instanceof Int32Array ? values : Int32Array.from(values), shape, 'int32'));

const valuesArray = (dtype: DType, data: TypedArray, shape: readonly number[]): DeferredArray => wrapNode(source(data, shape, dtype));

/** a and b equal as NumPy's == sees them (-0 == +0, NaN equal to nothing), or NaN equal to NaN with `nan`. */
const same = (a: number | bigint, b: number | bigint, nan: boolean): boolean => a === b || (nan && a !== a && b !== b);

/**
 * NumPy's unique: the sorted unique values of x flattened (or its unique
 * slices along `axis`); with any of returnIndex, returnInverse and
 * returnCounts, an array in NumPy's order: [values, index?, inverse?, counts?].
 */
function unique(x: Operand, options?: UniqueOptions): DeferredArray | DeferredArray[] {
  const o = checkOptionKeys<UniqueOptions>('unique', options, ['returnIndex', 'returnInverse', 'returnCounts', 'axis', 'equalNan']);
  const node = anyNode(x, 'unique');
  // NumPy: a 1-d array along its axis is its elements, NaNs merged with equalNan (after the axis is checked).
  if (o.axis !== undefined && o.axis !== null) normalizeAxis(o.axis, node.shape.length, 'unique: axis');
  const flat = o.axis === undefined || o.axis === null || node.shape.length === 1;
  const r = flat ? uniqueFlat(node, o.equalNan ?? true, { index: o.returnIndex === true, inverse: o.returnInverse === true, counts: o.returnCounts === true }) : uniqueAlong(node, o.axis!);
  if (!o.returnIndex && !o.returnInverse && !o.returnCounts) return r.values;
  return [r.values, ...(o.returnIndex ? [r.index] : []), ...(o.returnInverse ? [r.inverse] : []), ...(o.returnCounts ? [r.counts] : [])];
}

interface Uniques {
  readonly values: DeferredArray;
  readonly index: DeferredArray;
  readonly inverse: DeferredArray;
  readonly counts: DeferredArray;
}

/** Groups of equal elements in `order` (a stable sort): each group's first position in the order, and one past the last. */
function groupsOf(order: Int32Array, equal: (i: number, j: number) => boolean): number[] {
  const starts: number[] = [];
  for (let k = 0; k < order.length; k++) if (k === 0 || !equal(order[k - 1]!, order[k]!)) starts.push(k);
  starts.push(order.length);
  return starts;
}

/** index, inverse and counts from the groups of a stable order. */
function describeGroups(order: Int32Array, starts: readonly number[]): { index: number[]; inverse: Int32Array; counts: number[] } {
  const groups = starts.length - 1;
  const index: number[] = [];
  const counts: number[] = [];
  const inverse = new Int32Array(order.length);
  for (let g = 0; g < groups; g++) {
    index.push(order[starts[g]!]!);
    counts.push(starts[g + 1]! - starts[g]!);
    for (let k = starts[g]!; k < starts[g + 1]!; k++) inverse[order[k]!] = g;
  }
  return { index, inverse, counts };
}

/** Which of unique's extra results are asked for: the others are not computed. */
interface Wanted {
  readonly index: boolean;
  readonly inverse: boolean;
  readonly counts: boolean;
}

/**
 * Unique elements by hashing, then a sort of the unique values alone: each
 * value's group found in a hash table (-0 and +0 one key; every NaN one key
 * with equalNan, else each its own group), its first position kept; the
 * groups then ordered by their values (stable, NaN last). With many repeats
 * the sort is short. Each element's group, and the counts, only where the
 * inverse or the counts are asked for.
 */
function uniqueFlat(node: Node, equalNan: boolean, wanted: Wanted): Uniques {
  const d = denseNow('unique', node);
  const v = d.data as ArrayLike<number | bigint>;
  const n = v.length;
  const first: number[] = [];
  const member = wanted.inverse || wanted.counts ? new Int32Array(n) : undefined;
  // One loop per element kind, so that each stays monomorphic (number keys, or bigint keys).
  if (isBigInt(d.dtype)) groupBy(v as ArrayLike<bigint>, new Map<bigint, number>(), member, first, true);
  else groupNumbers(v as ArrayLike<number>, member, first, equalNan);
  const ctor = d.data.constructor as new (n: number) => TypedArray;
  const representatives = new ctor(first.length);
  first.forEach((p, g) => { (representatives as Float64Array)[g] = v[p] as number; });
  // Groups ordered by value; the first of each group is its first occurrence (NumPy's returnIndex).
  const order = stableOrder(representatives, d.dtype);
  const values = new ctor(first.length);
  order.forEach((g, r) => { (values as Float64Array)[r] = (representatives as Float64Array)[g]!; });
  const none = positions([]);
  let inverse = none;
  let counts = none;
  if (member) {
    const rank = new Int32Array(first.length);
    order.forEach((g, r) => { rank[g] = r; });
    const count = new Int32Array(first.length);
    // Plain loops: Int32Array.from with a mapping function goes through the iterator protocol, element by element.
    for (let i = 0; i < n; i++) count[member[i]!]!++;
    if (wanted.inverse) {
      const inv = new Int32Array(n);
      for (let i = 0; i < n; i++) inv[i] = rank[member[i]!]!;
      // NumPy 2: the inverse has x's shape when no axis is given.
      inverse = positions(inv, node.shape);
    }
    counts = positions(Array.from(order, (g) => count[g]!));
  }
  return {
    values: valuesArray(d.dtype, values, [first.length]),
    index: wanted.index ? positions(Array.from(order, (g) => first[g]!)) : none,
    inverse,
    counts,
  };
}

/** Each element's group (member, where given), a new group at each first occurrence (first); NaNs one group with equalNan, else each its own. */
function groupBy<T extends number | bigint>(v: ArrayLike<T>, groupOf: Map<T, number>, member: Int32Array | undefined, first: number[], equalNan: boolean): void {
  for (let i = 0; i < v.length; i++) {
    const x = v[i]!;
    let g = groupOf.get(x);
    if (g === undefined || (x !== x && !equalNan)) {
      g = first.length;
      first.push(i);
      if (x === x || equalNan) groupOf.set(x, g);
    }
    if (member) member[i] = g;
  }
}

function uniqueAlong(node: Node, axisGiven: number): Uniques {
  const axis = normalizeAxis(axisGiven, node.shape.length, 'unique: axis');
  // Slices along the axis as rows: the axis moved first, the rest flattened.
  const rest = node.shape.filter((_, a) => a !== axis);
  const moved = axis === 0 ? node : view.transpose(node, [axis, ...node.shape.keys()].filter((a, i) => i === 0 || a !== axis));
  const d = denseNow('unique', moved);
  const n = node.shape[axis]!;
  const width = sizeOf(rest);
  const v = d.data as ArrayLike<number | bigint>;
  const float = isFloat(d.dtype);
  // Rows compared element by element in sort's order (NaN last); equal rows keep their order.
  const compare = (i: number, j: number): number => {
    for (let k = 0; k < width; k++) {
      const a = v[i * width + k]!;
      const b = v[j * width + k]!;
      if (a === b) continue;
      if (float) {
        if (a !== a) return b !== b ? 0 : 1;
        if (b !== b) return -1;
      }
      return a < b ? -1 : 1;
    }
    return 0;
  };
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((i, j) => compare(i, j) || i - j);
  // NumPy compares the slices with ==: a NaN makes a slice equal to no other.
  const starts = groupsOf(order, (i, j) => {
    for (let k = 0; k < width; k++) if (!same(v[i * width + k]!, v[j * width + k]!, false)) return false;
    return true;
  });
  const { index, inverse, counts } = describeGroups(order, starts);
  const rows = new (d.data.constructor as new (n: number) => TypedArray)(index.length * width);
  index.forEach((p, g) => { rows.set(d.data.subarray(p * width, (p + 1) * width) as never, g * width); });
  let values: Node = source(rows, [index.length, ...rest], d.dtype);
  if (axis !== 0) values = view.transpose(values, [...Array(node.shape.length).keys()].map((a) => (a === axis ? 0 : a < axis ? a + 1 : a)));
  return { values: wrapNode(values), index: positions(index), inverse: positions(inverse), counts: positions(counts) };
}

interface IsinOptions {
  /** True where an element is not among the test elements. */
  readonly invert?: boolean;
}

/** Both operands' values flattened, in their common dtype (NumPy compares in it). */
function pairNow(fn: string, a: Operand, b: Operand): [Dense, Dense] {
  const an = anyNode(a, fn, 0);
  const bn = anyNode(b, fn, 1);
  const common = promoteTypes(an.dtype, bn.dtype);
  return [denseNow(fn, cast(an, common)), denseNow(fn, cast(bn, common))];
}

/**
 * How two dtypes' values compare, as NumPy's == compares them: integers
 * exactly (bigints where either is 64-bit, so int64 meets uint64 without
 * rounding), anything with a float in the common float dtype.
 */
function keyFor(a: DType, b: DType): (v: number | bigint) => number | bigint {
  if (!isFloat(a) && !isFloat(b)) return isBigInt(a) || isBigInt(b) ? (v) => BigInt(v) : (v) => Number(v);
  const common = promoteTypes(a, b);
  return (v) => castValue(v, common);
}

/** Both operands' values flattened in their own dtypes, with the key each value is compared by. */
function membersNow(fn: string, a: Operand, b: Operand): { a: Dense; b: Dense; key: (v: number | bigint) => number | bigint; shape: readonly number[] } {
  const an = anyNode(a, fn, 0);
  const bn = anyNode(b, fn, 1);
  return { a: denseNow(fn, an), b: denseNow(fn, bn), key: keyFor(an.dtype, bn.dtype), shape: an.shape };
}

/** A set of keys for membership as == sees it: -0 and +0 one key (a Set's SameValueZero), NaN left out (equal to nothing). */
function memberSet(d: Dense, key: (v: number | bigint) => number | bigint): Set<number | bigint> {
  const set = new Set<number | bigint>();
  const v = d.data as ArrayLike<number | bigint>;
  for (let i = 0; i < v.length; i++) {
    const k = key(v[i]!);
    if (k === k) set.add(k);
  }
  return set;
}

/** NumPy's isin: a bool array of element's shape, true where the element equals one of testElements. */
function isin(element: Operand, testElements: Operand, options?: IsinOptions): DeferredArray {
  const o = checkOptionKeys<IsinOptions>('isin', options, ['invert']);
  const { a: e, b: t, key, shape } = membersNow('isin', element, testElements);
  const set = memberSet(t, key);
  const v = e.data as ArrayLike<number | bigint>;
  const out = new Uint8Array(v.length);
  const hit = o.invert ? 0 : 1;
  for (let i = 0; i < v.length; i++) out[i] = set.has(key(v[i]!)) ? hit : 1 - hit;
  return wrapNode(source(out, shape, 'bool'));
}

/** The sorted unique values of d (NaNs merged, as NumPy's unique), with where each first occurs. */
function uniqueOf(d: Dense): { values: Array<number | bigint>; first: number[] } {
  const v = d.data as ArrayLike<number | bigint>;
  const order = stableOrder(d.data, d.dtype);
  const starts = groupsOf(order, (i, j) => same(v[i]!, v[j]!, true));
  const first = starts.slice(0, -1).map((k) => order[k]!);
  return { values: first.map((p) => v[p]!), first };
}

/** Values of one dtype as its typed array (bigints for int64 and uint64). */
const arrayData = (dtype: DType, values: ReadonlyArray<number | bigint>): TypedArray =>
  (dtypeInfo(dtype).ctor as unknown as { from(v: ReadonlyArray<number | bigint>): TypedArray }).from(values);

const arrayOf = (dtype: DType, values: ReadonlyArray<number | bigint>): DeferredArray => valuesArray(dtype, arrayData(dtype, values), [values.length]);

interface IntersectOptions {
  /** Both inputs hold no repeated values: they are not made unique first. */
  readonly assumeUnique?: boolean;
  /** Also return where each common value first occurs in a and in b (int32): [values, aIndices, bIndices]. */
  readonly returnIndices?: boolean;
}

/** NumPy's intersect1d: the sorted values found in both a and b (flattened). */
function intersect1d(a: Operand, b: Operand, options?: IntersectOptions): DeferredArray | DeferredArray[] {
  const o = checkOptionKeys<IntersectOptions>('intersect1d', options, ['assumeUnique', 'returnIndices']);
  const [ad, bd] = pairNow('intersect1d', a, b);
  const ua = o.assumeUnique ? { values: Array.from(ad.data as ArrayLike<number | bigint>), first: [...Array(ad.data.length).keys()] } : uniqueOf(ad);
  const ub = o.assumeUnique ? { values: Array.from(bd.data as ArrayLike<number | bigint>), first: [...Array(bd.data.length).keys()] } : uniqueOf(bd);
  const inB = new Map<number | bigint, number>();
  ub.values.forEach((v, i) => { if (v === v && !inB.has(v)) inB.set(v, ub.first[i]!); });
  const picked: Array<{ v: number | bigint; ai: number; bi: number }> = [];
  ua.values.forEach((v, i) => { const bi = inB.get(v); if (bi !== undefined && v === v) picked.push({ v, ai: ua.first[i]!, bi }); });
  if (o.assumeUnique) {
    const sorted = stableOrder(arrayData(ad.dtype, picked.map((p) => p.v)), ad.dtype);
    const inOrder = Array.from(sorted, (k) => picked[k]!);
    picked.splice(0, picked.length, ...inOrder);
  }
  const values = arrayOf(ad.dtype, picked.map((p) => p.v));
  return o.returnIndices ? [values, positions(picked.map((p) => p.ai)), positions(picked.map((p) => p.bi))] : values;
}


/** NumPy's union1d: the sorted unique values found in a or b (flattened). */
function union1d(a: Operand, b: Operand): DeferredArray {
  const [ad, bd] = pairNow('union1d', a, b);
  const both = arrayData(ad.dtype, [...Array.from(ad.data as ArrayLike<number | bigint>), ...Array.from(bd.data as ArrayLike<number | bigint>)]);
  return arrayOf(ad.dtype, uniqueOf({ dtype: ad.dtype, shape: [both.length], data: both }).values);
}

interface SetdiffOptions {
  /** a holds no repeated values: its elements are kept in their order rather than made unique and sorted. */
  readonly assumeUnique?: boolean;
}

/** NumPy's setdiff1d: the sorted unique values of a (flattened) not found in b, in a's dtype. */
function setdiff1d(a: Operand, b: Operand, options?: SetdiffOptions): DeferredArray {
  const o = checkOptionKeys<SetdiffOptions>('setdiff1d', options, ['assumeUnique']);
  // a made unique in its own dtype (its values kept exact), each compared with b's as == compares them.
  const { a: ad, b: bd, key } = membersNow('setdiff1d', a, b);
  const set = memberSet(bd, key);
  const kept = (o.assumeUnique ? Array.from(ad.data as ArrayLike<number | bigint>) : uniqueOf(ad).values).filter((v) => !set.has(key(v)));
  return arrayOf(ad.dtype, kept);
}

export { unique, isin, intersect1d, union1d, setdiff1d };
export type { UniqueOptions, IsinOptions, IntersectOptions, SetdiffOptions };
