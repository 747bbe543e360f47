// Partitioning lines in the heap (NumPy's partition and argpartition): the
// line's keys (the radix sort's, unsigned-ordered) give the keys at the kth
// sorted positions by radix selection or quickselect; a pass in WebAssembly
// classifies every key against them (classify-module.ts) and another moves
// each element to its place (place-module.ts); lines of SHORT_LINE or fewer
// are sorted instead and placed from their order. Either way each kth
// element goes where a stable sort puts it, every other one in the part
// between kth positions that holds its sorted position, in its order along
// the line. That order is fixed by the line alone (NumPy leaves it
// unspecified), so the result is the same whatever finds the kth keys.
import type { HeapLike } from '../lower/launch.js';
import { routinesOn } from './instances.js';
import type { Routines } from './instances.js';
import { scratchOn } from './scratch.js';
import { sortLines } from './radix-sort.js';
import { buildSortModule } from './radix-module.js';
import { CHUNK, INSERTION, TABLE, WIDE_DIGITS, countsBytes } from './radix-layout.js';
import { keyBits, kindOf } from './radix-keys.js';
import type { SortKind } from './radix-keys.js';

/** What partitionLines writes for each line: its values, or their positions (int32) along it. */
type PartitionOutput = 'values' | 'positions';

/** How partitionLines finds the kth keys: radix selection (a few passes a position), or quickselect on a copy of the keys. */
type KthFinder = 'radix' | 'quickselect';

interface PartitionOptions {
  /**
   * Unset: lines of SHORT_LINE or fewer sorted and placed from their order
   * (`partitions` then unused); radix selection for lines of RADIX_LINE
   * elements or more and at most RADIX_POSITIONS positions; else quickselect
   * (which sorts the keys for more than SELECT_POSITIONS positions). Set,
   * that way for every line.
   */
  readonly finder?: KthFinder;
  /** Quickselect's partitions for one position before the line's keys are sorted instead (4 ceil(log2(n + 1)) + 16 by default). */
  readonly partitions?: number;
}

/** Radix selection makes its passes once per position: more positions than this go to quickselect. */
const RADIX_POSITIONS = 4;
/** Quickselect runs over the rest of the line once per position: more positions than this sort the keys instead. */
const SELECT_POSITIONS = 8;
/** Lines shorter than this stay in cache for quickselect, whose branches cost less there than the radix passes. */
const RADIX_LINE = 1 << 12;
/** A digit's bucket of at most this many keys is gathered and sorted, not counted again. */
const FEW = 1024;
/**
 * Lines this short are sorted (a block of lines a call, sortLines) and
 * placed from their order in JavaScript: a selection's calls and tables a
 * line cost more than their sort (2^17 lines of 8: 348 ms against 34 ms for
 * the sort).
 */
const SHORT_LINE = 256;
/** Elements whose orders placeByOrder holds at once. */
const ORDER_BLOCK = 1 << 16;

/**
 * Partitions `lines` lines of `n` elements of `kind` (line l contiguous at
 * `src + l * n * bytes`) at the sorted positions `kth` (each in [0, n),
 * ascending, each once), writing line l's values (with their bits) or
 * positions (int32) at `dst + l * n * (bytes or 4)`: the element a stable
 * sort puts at each kth position there, and each other element in the part
 * between kth positions holding its stable sorted position, the elements of
 * a part in their order along the line. `dst` must not overlap `src`. The
 * keys at the kth positions are found by radix selection, or by quickselect
 * on a copy of the line's keys (a line that defeats it, more than
 * `partitions` partitions for one position, has its keys sorted instead);
 * lines of SHORT_LINE or fewer are sorted and placed from their order,
 * unless `options.finder` asks for a way.
 */
function partitionLines(heap: HeapLike, name: SortKind, src: number, dst: number, n: number, lines: number, kth: readonly number[], output: PartitionOutput, options: PartitionOptions = {}): void {
  if (kth.length === 0) throw new RangeError('partitionLines: kth must hold at least one position');
  kth.forEach((k, j) => {
    if (!Number.isInteger(k) || k < 0 || k >= n || (j > 0 && k <= kth[j - 1]!)) {
      throw new RangeError(`partitionLines: kth must be ascending positions in 0..${n - 1}, each once; got ${kth.join(', ')}`);
    }
  });
  if (n === 0 || lines === 0) return;
  if (n <= SHORT_LINE && options.finder === undefined) {
    placeByOrder(heap, name, src, dst, n, lines, kth, output);
    return;
  }
  const k = kindOf(name);
  const width = keyBits(k);
  const kb = width / 8;
  const m = kth.length;
  const r = routinesOn(heap.memory, 'sort', buildSortModule);
  const toKeys = r[`keys_${name}`]!;
  const classify = r[`classify${width}`]!;
  const finder = options.finder ?? (n >= RADIX_LINE && m <= RADIX_POSITIONS ? 'radix' : 'quickselect');
  const scratch = scratchOn(heap);
  try {
    const keys = scratch.alloc(n * kb);
    const res = scratch.alloc(16);
    const pivots = scratch.alloc(m * kb);
    const cls = scratch.alloc(n * 4);
    // Four counts a class (classify-module.ts), summed after.
    const counts = scratch.alloc((2 * m + 1) * 16);
    // The placing pass's tables (placeTables): at most 4m + 2m + 2 i32s.
    const state = scratch.alloc((6 * m + 2) * 4);
    const find = finder === 'radix'
      ? radixFinder(heap, r, width, scratch.alloc(2 * TABLE * 4), scratch.alloc((FEW + 1) * kb))
      : quickFinder(heap, r, width, n, options.partitions ?? 4 * Math.ceil(Math.log2(n + 1)) + 16, scratch.alloc);
    const place = r[output === 'values' ? `place${k.bytes}` : 'place_idx']!;
    const outBytes = output === 'values' ? k.bytes : 4;
    for (let l = 0; l < lines; l++) {
      const from = src + l * n * k.bytes;
      new Int32Array(heap.memory.buffer, res, 3).fill(0);
      for (let i = 0; i < n; i += CHUNK) toKeys(from, keys, i, Math.min(n, i + CHUNK), res);
      const first = distinctPivots(find(keys, n, kth), heap.memory, width, pivots);
      const d = first.length;
      new Int32Array(heap.memory.buffer, counts, 4 * (2 * d + 1)).fill(0);
      for (let i = 0; i < n; i += CHUNK) classify(keys + i * kb, Math.min(n, i + CHUNK) - i, pivots, d, cls + 4 * i, counts);
      const [fills, free, below, seen, part, kthAt] = placeTables(kth, first, heap.memory, state, counts);
      for (let i = 0; i < n; i += CHUNK) place(cls, i, Math.min(n, i + CHUNK), fills, free, below, seen, part, kthAt, m, from, dst + l * n * outBytes);
    }
  } finally {
    scratch.release();
  }
}

/**
 * Short lines: their stable orders from sortLines, then each line placed in
 * JavaScript from its ranks (the kth ranks, and the part every other rank
 * falls in, are the same for every line).
 */
function placeByOrder(heap: HeapLike, name: SortKind, src: number, dst: number, n: number, lines: number, kth: readonly number[], output: PartitionOutput): void {
  const bytes = kindOf(name).bytes;
  const m = kth.length;
  // For each rank: the kth it is (its own place), or -1 - s for part s.
  const placeOfRank = new Int32Array(n);
  for (let r = 0, s = 0; r < n; r++) {
    while (s < m && kth[s]! < r) s++;
    placeOfRank[r] = s < m && kth[s] === r ? r : -1 - s;
  }
  const starts = Int32Array.from({ length: m + 1 }, (_, s) => (s === 0 ? 0 : kth[s - 1]! + 1));
  const free = new Int32Array(m + 1);
  const rank = new Int32Array(n);
  const placed = new Int32Array(n);
  // Orders a block of lines at a time: scratch of about 256 KiB, whatever the array's size.
  const block = Math.max(1, Math.floor(ORDER_BLOCK / n));
  const scratch = scratchOn(heap);
  try {
    const orders = scratch.alloc(Math.min(lines, block) * n * 4);
    // Elements move as 32-bit words (8-byte ones as two), 16-bit or 8-bit: their bits as they are.
    const words = bytes === 8 ? 2 : 1;
    const View = bytes >= 4 ? Int32Array : bytes === 2 ? Int16Array : Int8Array;
    let order = new Int32Array(0);
    let from = new View(0);
    let to: Int32Array | Int16Array | Int8Array = new Int32Array(0);
    for (let l = 0; l < lines; l++) {
      if (l % block === 0) {
        sortLines(heap, name, src + l * n * bytes, orders, n, Math.min(block, lines - l), 'positions');
        // Views made after the sort, which may have grown the memory.
        const buffer = heap.memory.buffer;
        order = new Int32Array(buffer, orders, Math.min(block, lines - l) * n);
        from = new View(buffer, src, lines * n * words);
        to = output === 'positions' ? new Int32Array(buffer, dst, lines * n) : new View(buffer, dst, lines * n * words);
      }
      const base = l * n;
      const at = (l % block) * n;
      for (let r = 0; r < n; r++) rank[order[at + r]!] = r;
      free.set(starts);
      for (let i = 0; i < n; i++) {
        const p = placeOfRank[rank[i]!]!;
        placed[i] = p >= 0 ? p : free[-1 - p]!++;
      }
      if (output === 'positions') {
        for (let i = 0; i < n; i++) to[base + placed[i]!] = i;
      } else if (words === 2) {
        for (let i = 0; i < n; i++) {
          const at = 2 * (base + placed[i]!);
          to[at] = from[2 * (base + i)]!;
          to[at + 1] = from[2 * (base + i) + 1]!;
        }
      } else {
        for (let i = 0; i < n; i++) to[base + placed[i]!] = from[base + i]!;
      }
    }
  } finally {
    scratch.release();
  }
}

type Key = number | bigint;
/** The keys a sort of the line's n keys at `keys` puts at each of the positions. */
type FindKeys = (keys: number, n: number, positions: readonly number[]) => Key[];

/**
 * Quickselect on a copy of the keys, position after position, each in the
 * part past the one before; the copy sorted instead where it fails, or where
 * the positions are more than SELECT_POSITIONS (a selection a position would
 * pass over the line's rest that many times).
 */
function quickFinder(heap: HeapLike, r: Routines, width: 32 | 64, n: number, budget: number, alloc: (bytes: number) => number): FindKeys {
  const kb = width / 8;
  const work = alloc(n * kb);
  const select = r[`select${width}`]!;
  let sorting: { tmp: number; counts: number } | undefined;
  return (keys, count, positions) => {
    new Uint8Array(heap.memory.buffer).copyWithin(work, keys, keys + count * kb);
    let selected = positions.length <= SELECT_POSITIONS;
    for (let j = 0, lo = 0; selected && j < positions.length; lo = positions[j++]! + 1) selected = select(work, lo, count, positions[j]!, budget) === 1;
    let chosen = work;
    if (!selected) {
      // Sorted keys hold every kth key where the selection would have put it.
      // work holds the line's keys, reordered or not: sorting them gives the same keys.
      sorting ??= { tmp: alloc(n * kb), counts: alloc(countsBytes(width)) };
      if (count <= INSERTION) r[`insertion${width}`]!(work, count);
      else if (r[`radix${width}_${count >= WIDE_DIGITS ? 11 : 8}`]!(work, sorting.tmp, count, sorting.counts) === 1) chosen = sorting.tmp;
    }
    const at = width === 64 ? new BigUint64Array(heap.memory.buffer, chosen, count) : new Uint32Array(heap.memory.buffer, chosen, count);
    return positions.map((p) => at[p]!);
  };
}

/**
 * Radix selection, position by position: the 11-bit digits from the top,
 * each counted over the keys that share the digits found so far
 * (prefix_count), the digit holding the position taken, until the keys left
 * are FEW or fewer (gathered and sorted) or every bit is found.
 */
function radixFinder(heap: HeapLike, r: Routines, width: 32 | 64, counts: number, few: number): FindKeys {
  const wide = width === 64;
  const count = r[`prefix_count${width}`]!;
  const gather = r[`prefix_gather${width}`]!;
  const digit = (b: number, shift: number): Key => (wide ? BigInt(b) << BigInt(shift) : (b << shift) >>> 0);
  const or = (a: Key, b: Key): Key => (wide ? (a as bigint) | (b as bigint) : ((a as number) | (b as number)) >>> 0);
  // WebAssembly's i32 and i64 parameters take the key words as signed.
  const signed = (x: Key): Key => (wide ? BigInt.asIntN(64, x as bigint) : (x as number) | 0);
  return (keys, n, positions) => positions.map((position) => {
    let rank = position;
    let mask: Key = wide ? 0n : 0;
    let prefix: Key = wide ? 0n : 0;
    for (let shift = width - 11; ; shift = Math.max(0, shift - 11)) {
      new Int32Array(heap.memory.buffer, counts, 2 * TABLE).fill(0);
      const [m, p] = [signed(mask) as number, signed(prefix) as number];
      for (let i = 0; i < n; i += CHUNK) count(keys, i, Math.min(n, i + CHUNK), counts, shift, m, p);
      const t = new Int32Array(heap.memory.buffer, counts, 2 * TABLE);
      let b = 0;
      let c = t[0]! + t[TABLE]!;
      while (rank >= c) {
        rank -= c;
        b++;
        c = t[b]! + t[TABLE + b]!;
      }
      mask = or(mask, digit(TABLE - 1, shift));
      prefix = or(prefix, digit(b, shift));
      if (shift === 0) return prefix;
      if (c <= FEW) {
        const [gm, gp] = [signed(mask) as number, signed(prefix) as number];
        let got = 0;
        for (let i = 0; i < n; i += CHUNK) got = gather(keys, i, Math.min(n, i + CHUNK), gm, gp, few, got) as number;
        const left = wide ? new BigUint64Array(heap.memory.buffer, few, got) : new Uint32Array(heap.memory.buffer, few, got);
        return left.sort()[rank]!;
      }
    }
  });
}

/**
 * Writes the distinct keys among those found at the kth positions
 * (ascending) to `pivots`, and returns, for each, the first kth index
 * holding it.
 */
function distinctPivots(found: readonly Key[], memory: WebAssembly.Memory, width: 32 | 64, pivots: number): number[] {
  const first: number[] = [];
  const to = width === 64 ? new BigUint64Array(memory.buffer, pivots, found.length) : new Uint32Array(memory.buffer, pivots, found.length);
  found.forEach((key, j) => {
    if (first.length === 0 || key !== to[first.length - 1]) to[first.push(j) - 1] = key as never;
  });
  return first;
}

/**
 * The placing pass's i32 tables (place-module.ts), written from byte address
 * `state` on from the classes' counts (four copies a class at `counts`);
 * returns their byte addresses: fills (d + 1: the part each
 * class between pivots fills), free (m + 1: each part's next free place;
 * part s lies between kth[s - 1] and kth[s]), below (d: the elements below
 * each pivot, all of them), seen (d: the equal ones placed so far), part (d:
 * the part the next equal one falls in) and kth (m).
 */
function placeTables(kth: readonly number[], first: readonly number[], memory: WebAssembly.Memory, at: number, counts: number): [number, number, number, number, number, number] {
  const m = kth.length;
  const d = first.length;
  const offsets = [0, d + 1, d + m + 2, 2 * d + m + 2, 3 * d + m + 2, 4 * d + m + 2] as const;
  const [fills, free, below, seen, part, kthAt] = offsets;
  // Views made here, after the routines that may have grown the memory.
  const state = new Int32Array(memory.buffer, at, 4 * d + 2 * m + 2);
  const fours = new Int32Array(memory.buffer, counts, 4 * (2 * d + 1));
  const count = (c: number): number => fours[4 * c]! + fours[4 * c + 1]! + fours[4 * c + 2]! + fours[4 * c + 3]!;
  for (let j = 0, sum = 0; j < d; j++) {
    sum += count(2 * j);
    state[below + j] = sum;
    sum += count(2 * j + 1);
    state[seen + j] = 0;
    state[part + j] = first[j]!;
    state[fills + j] = first[j]!;
  }
  state[fills + d] = m;
  for (let s = 0; s <= m; s++) state[free + s] = s === 0 ? 0 : kth[s - 1]! + 1;
  for (let s = 0; s < m; s++) state[kthAt + s] = kth[s]!;
  return offsets.map((o) => at + 4 * o) as [number, number, number, number, number, number];
}

export { partitionLines };
export type { PartitionOutput, PartitionOptions, KthFinder };
