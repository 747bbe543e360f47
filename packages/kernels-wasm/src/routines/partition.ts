// Partitioning lines in the heap (NumPy's partition and argpartition): the
// elements at the kth sorted positions are found by selection (select.ts,
// quickselect over the sorting module's keys), then the line is placed in
// two passes, one counting against those elements and one writing: each kth
// element where a stable sort puts it, every other one in the part between
// kth positions that holds its sorted position, in its order along the line.
// That order is fixed by the line alone (NumPy leaves it unspecified), so the
// result is the same whatever finds the kth elements.
import type { HeapLike } from '../lower/launch.js';
import { routinesOn } from './instances.js';
import { scratchOn } from './scratch.js';
import { buildSortModule } from './radix-module.js';
import { CHUNK, INSERTION, WIDE_DIGITS, countsBytes } from './radix-layout.js';
import { keyBits, kindOf } from './radix-keys.js';
import type { SortKind } from './radix-keys.js';

/** What partitionLines writes for each line: its values, or their positions (int32) along it. */
type PartitionOutput = 'values' | 'positions';

/**
 * Partitions `lines` lines of `n` elements of `kind` (line l contiguous at
 * `src + l * n * bytes`) at the sorted positions `kth` (each in [0, n),
 * ascending, each once), writing line l's values (with their bits) or
 * positions (int32) at `dst + l * n * (bytes or 4)`: the element a stable
 * sort puts at each kth position there, and each other element in the part
 * between kth positions holding its stable sorted position, the elements of
 * a part in their order along the line. `dst` must not overlap `src`. The
 * kth keys are found by quickselect on a copy of the line's keys; a line
 * that defeats it (more than `partitions` partitions for one position, by
 * default 4 ceil(log2(n + 1)) + 16) has its keys sorted instead.
 */
function partitionLines(heap: HeapLike, name: SortKind, src: number, dst: number, n: number, lines: number, kth: readonly number[], output: PartitionOutput, partitions?: number): void {
  kth.forEach((k, j) => {
    if (!Number.isInteger(k) || k < 0 || k >= n || (j > 0 && k <= kth[j - 1]!)) {
      throw new RangeError(`partitionLines: kth must be ascending positions in 0..${n - 1}, each once; got ${kth.join(', ')}`);
    }
  });
  if (n === 0 || lines === 0 || kth.length === 0) return;
  const k = kindOf(name);
  const width = keyBits(k);
  const kb = width / 8;
  const m = kth.length;
  const r = routinesOn(heap.memory, 'sort', buildSortModule);
  const toKeys = r[`keys_${name}`]!;
  const select = r[`select${width}`]!;
  const classify = r[`classify${width}`]!;
  const budget = partitions ?? 4 * Math.ceil(Math.log2(n + 1)) + 16;
  const scratch = scratchOn(heap);
  try {
    const keys = scratch.alloc(n * kb);
    const work = scratch.alloc(n * kb);
    const res = scratch.alloc(16);
    const pivots = scratch.alloc(m * kb);
    const cls = scratch.alloc(n * 4);
    // Four counts a class (classify-module.ts), summed after.
    const counts = scratch.alloc((2 * m + 1) * 16);
    const where = scratch.alloc(n * 4);
    let sorting: { tmp: number; counts: number } | undefined;
    const place = new Placement(kth);
    for (let l = 0; l < lines; l++) {
      const from = src + l * n * k.bytes;
      new Int32Array(heap.memory.buffer, res, 3).fill(0);
      for (let i = 0; i < n; i += CHUNK) toKeys(from, keys, i, Math.min(n, i + CHUNK), res);
      new Uint8Array(heap.memory.buffer).copyWithin(work, keys, keys + n * kb);
      let lo = 0;
      let selected = true;
      for (const p of kth) {
        if (!select(work, lo, n, p, budget)) {
          selected = false;
          break;
        }
        lo = p + 1;
      }
      let chosen = work;
      if (!selected) {
        // Sorted keys hold every kth key where the selection would have put it.
        sorting ??= { tmp: scratch.alloc(n * kb), counts: scratch.alloc(countsBytes(width)) };
        new Uint8Array(heap.memory.buffer).copyWithin(work, keys, keys + n * kb);
        if (n <= INSERTION) r[`insertion${width}`]!(work, n);
        else if (r[`radix${width}_${n >= WIDE_DIGITS ? 11 : 8}`]!(work, sorting.tmp, n, sorting.counts) === 1) chosen = sorting.tmp;
      }
      const d = distinctPivots(heap.memory, width, chosen, kth, pivots, place);
      new Int32Array(heap.memory.buffer, counts, 4 * (2 * d + 1)).fill(0);
      for (let i = 0; i < n; i += CHUNK) classify(keys + i * kb, Math.min(n, i + CHUNK) - i, pivots, d, cls + 4 * i, counts);
      // Views made after the routines, which may have grown the memory.
      const buffer = heap.memory.buffer;
      const placed = new Int32Array(buffer, where, n);
      const fours = new Int32Array(buffer, counts, 4 * (2 * d + 1));
      const classes = Int32Array.from({ length: 2 * d + 1 }, (_, c) => fours[4 * c]! + fours[4 * c + 1]! + fours[4 * c + 2]! + fours[4 * c + 3]!);
      place.places(new Int32Array(buffer, cls, n), classes, placed);
      if (output === 'values') {
        move(buffer, k.bytes, from, dst + l * n * k.bytes, placed);
      } else {
        const out = new Int32Array(buffer, dst + l * n * 4, n);
        for (let i = 0; i < n; i++) out[placed[i]!] = i;
      }
    }
  } finally {
    scratch.release();
  }
}

/**
 * Writes the distinct keys among those at the kth positions of the
 * selected (or sorted) keys to `pivots`, ascending, and tells `place` which
 * kth index first holds each; returns how many.
 */
function distinctPivots(memory: WebAssembly.Memory, width: 32 | 64, chosen: number, kth: readonly number[], pivots: number, place: Placement): number {
  const first: number[] = [];
  if (width === 64) {
    const from = new BigUint64Array(memory.buffer, chosen, kth[kth.length - 1]! + 1);
    const to = new BigUint64Array(memory.buffer, pivots, kth.length);
    kth.forEach((p, j) => {
      if (first.length === 0 || from[p]! !== to[first.length - 1]!) to[first.push(j) - 1] = from[p]!;
    });
  } else {
    const from = new Uint32Array(memory.buffer, chosen, kth[kth.length - 1]! + 1);
    const to = new Uint32Array(memory.buffer, pivots, kth.length);
    kth.forEach((p, j) => {
      if (first.length === 0 || from[p]! !== to[first.length - 1]!) to[first.push(j) - 1] = from[p]!;
    });
  }
  place.first = first;
  return first.length;
}

/** Moves element i of the line at `from` to place where[i] of the line at `to`, as bits (8-byte elements as two words). */
function move(buffer: ArrayBufferLike, bytes: number, from: number, to: number, where: Int32Array): void {
  const n = where.length;
  if (bytes === 8 || bytes === 4) {
    const s = new Int32Array(buffer, from, n * bytes / 4);
    const t = new Int32Array(buffer, to, n * bytes / 4);
    if (bytes === 4) {
      for (let i = 0; i < n; i++) t[where[i]!] = s[i]!;
    } else {
      for (let i = 0; i < n; i++) {
        const w = 2 * where[i]!;
        t[w] = s[2 * i]!;
        t[w + 1] = s[2 * i + 1]!;
      }
    }
  } else if (bytes === 2) {
    const s = new Int16Array(buffer, from, n);
    const t = new Int16Array(buffer, to, n);
    for (let i = 0; i < n; i++) t[where[i]!] = s[i]!;
  } else {
    const s = new Int8Array(buffer, from, n);
    const t = new Int8Array(buffer, to, n);
    for (let i = 0; i < n; i++) t[where[i]!] = s[i]!;
  }
}

/**
 * Where each element of a line goes, from its class (classify-module.ts):
 * 2j for one between distinct pivots j - 1 and j, which fills the part
 * holding that stretch of sorted positions; 2j + 1 for one equal to pivot
 * j, which takes the next of the sorted positions counted from the number
 * of elements below that pivot: a kth position, or a place in the part
 * holding it.
 */
class Placement {
  readonly #kth: readonly number[];
  /** For each distinct pivot, the first kth index holding it. */
  first: readonly number[] = [];

  constructor(kth: readonly number[]) {
    this.#kth = kth;
  }

  places(cls: Int32Array, counts: Int32Array, where: Int32Array): void {
    const kth = this.#kth;
    const first = this.first;
    const m = kth.length;
    const d = first.length;
    // Per distinct pivot: the elements below it (all of them), the equal ones placed so far, and the part the next falls in.
    const below = new Int32Array(d);
    for (let j = 0, sum = 0; j < d; j++) {
      sum += counts[2 * j]!;
      below[j] = sum;
      sum += counts[2 * j + 1]!;
    }
    const seen = new Int32Array(d);
    const part = Int32Array.from(first);
    // The part a class between pivots fills, and each part's next free place (part s lies between kth[s - 1] and kth[s]).
    const fills = Int32Array.from({ length: d + 1 }, (_, j) => (j < d ? first[j]! : m));
    const free = Int32Array.from({ length: m + 1 }, (_, s) => (s === 0 ? 0 : kth[s - 1]! + 1));
    const n = cls.length;
    for (let i = 0; i < n; i++) {
      const c = cls[i]!;
      const j = c >> 1;
      if ((c & 1) === 0) {
        where[i] = free[fills[j]!]!++;
        continue;
      }
      const rank = below[j]! + seen[j]!++;
      let s = part[j]!;
      while (s < m && kth[s]! < rank) s++;
      part[j] = s;
      where[i] = s < m && kth[s] === rank ? rank : free[s]!++;
    }
  }
}

export { partitionLines };
export type { PartitionOutput };
