// Selecting elements of lines in the heap by their sorted position
// (select-module.ts, over the sorting module's keys): what a sort would put
// at each position, without sorting the line.
import type { HeapLike } from '../lower/launch.js';
import { routinesOn } from './instances.js';
import { scratchOn } from './scratch.js';
import { buildSortModule } from './radix-module.js';
import { CHUNK } from './radix-layout.js';
import { keyBits, kindOf } from './radix-keys.js';
import type { KeyKind, SortKind } from './radix-keys.js';
import { sortLines } from './radix-sort.js';


/**
 * For each of `lines` lines of `n` elements of `kind` (line l contiguous at
 * `src + l * n * bytes`), writes the elements that sortLines would put at
 * `positions` (each in [0, n); any order, repeats allowed) to `dst + (l *
 * positions.length + j) * bytes`, with the bits the sort gives them (the
 * zeros and NaNs equal in the order keep their own, in their order in the
 * line). Positions are found by quickselect; a line that defeats it (more
 * than `partitions` partitions for one position, by default 4 ceil(log2(n +
 * 1)) + 16) is sorted instead.
 */
function selectLines(heap: HeapLike, name: SortKind, src: number, dst: number, n: number, lines: number, positions: readonly number[], partitions?: number): void {
  const bad = positions.find((p) => !Number.isInteger(p) || p < 0 || p >= n);
  if (bad !== undefined) throw new RangeError(`selectLines: position ${bad} is not in 0..${n - 1} (lines of ${n} elements)`);
  if (n === 0 || lines === 0 || positions.length === 0) return;
  const k = kindOf(name);
  const width = keyBits(k);
  const kb = width / 8;
  const r = routinesOn(heap.memory, 'sort', buildSortModule);
  const toKeys = r[`keys_${name}`]!;
  const fromKeys = r[`values_${name}`]!;
  const select = r[`select${width}`]!;
  const order = [...new Set(positions)].sort((a, b) => a - b);
  // Partitions allowed before a line counts as one that defeats the median of three.
  const budget = partitions ?? 4 * Math.ceil(Math.log2(n + 1)) + 16;
  const scratch = scratchOn(heap);
  const alloc = scratch.alloc;
  try {
    const keys = alloc(n * kb);
    const res = alloc(16);
    let sorted: number | undefined;
    const bytes = (): Uint8Array => new Uint8Array(heap.memory.buffer);
    for (let l = 0; l < lines; l++) {
      // Views made again each line: the fallback's sort may grow the memory, which detaches an unshared one's views.
      const counted = new Int32Array(heap.memory.buffer, res, 3);
      const from = src + l * n * k.bytes;
      const to = dst + l * positions.length * k.bytes;
      counted.fill(0);
      for (let i = 0; i < n; i += CHUNK) toKeys(from, keys, i, Math.min(n, i + CHUNK), res);
      let lo = 0;
      let selected = true;
      for (const p of order) {
        if (!select(keys, lo, n, p, budget)) {
          selected = false;
          break;
        }
        lo = p + 1;
      }
      if (!selected) {
        sorted ??= alloc(n * k.bytes);
        sortLines(heap, name, from, sorted, n, 1, 'values');
        const b = bytes();
        positions.forEach((p, j) => b.copyWithin(to + j * k.bytes, sorted! + p * k.bytes, sorted! + (p + 1) * k.bytes));
        continue;
      }
      // Each selected key as its element: keys[p] read through a base that puts it at index j.
      positions.forEach((p, j) => fromKeys(keys + (p - j) * kb, to, j, j + 1));
      if (k.float) keepBits(heap, k, from, to, n, positions, counted);
    }
  } finally {
    scratch.release();
  }
}

/**
 * A float key gives +0 for every zero and one NaN for every NaN: the element
 * at sorted position p among equal zeros (or NaNs) is the r-th of them in the
 * line, r counted from the first zero's (NaN's) position, as the stable sort
 * puts them. `counted`: the line's negatives, zeros and NaNs.
 */
function keepBits(heap: HeapLike, k: KeyKind, from: number, to: number, n: number, positions: readonly number[], counted: Int32Array): void {
  const wide = k.bytes === 8;
  const line = wide ? new Float64Array(heap.memory.buffer, from, n) : new Float32Array(heap.memory.buffer, from, n);
  const out = wide ? new Float64Array(heap.memory.buffer, to, positions.length) : new Float32Array(heap.memory.buffer, to, positions.length);
  // What each output slot needs: the r-th zero, or the r-th NaN, of the line; found in one pass.
  const zeros: Array<[rank: number, slot: number]> = [];
  const nans: Array<[rank: number, slot: number]> = [];
  positions.forEach((p, j) => {
    const v = out[j]!;
    if (v !== v) nans.push([p - (n - counted[2]!), j]);
    else if (v === 0) zeros.push([p - counted[0]!, j]);
  });
  if (zeros.length + nans.length === 0) return;
  zeros.sort((a, b) => a[0] - b[0]);
  nans.sort((a, b) => a[0] - b[0]);
  const bytes = new Uint8Array(heap.memory.buffer);
  let [z, q, zi, qi] = [0, 0, 0, 0];
  for (let i = 0; i < n && (zi < zeros.length || qi < nans.length); i++) {
    const x = line[i]!;
    const wanted = x === 0 ? zeros : x !== x ? nans : undefined;
    if (!wanted) continue;
    const rank = wanted === zeros ? z++ : q++;
    let at = wanted === zeros ? zi : qi;
    for (; at < wanted.length && wanted[at]![0] === rank; at++) {
      const slot = wanted[at]![1];
      bytes.copyWithin(to + slot * k.bytes, from + i * k.bytes, from + (i + 1) * k.bytes);
    }
    if (wanted === zeros) zi = at;
    else qi = at;
  }
}

export { selectLines };
