// Sorting lines in the heap with the sorting module (radix-module.ts): each
// line's keys made, sorted with their positions or alone, and the values or
// positions written where asked. The module is compiled once per process and
// instantiated once per memory; scratch comes from the caller's heap for the
// call and goes back after it.
import type { HeapLike } from '../lower/launch.js';
import { routinesOn } from './instances.js';
import { scratchOn } from './scratch.js';
import { buildSortModule } from './radix-module.js';
import { CHUNK, INSERTION, WIDE_DIGITS, countsBytes } from './radix-layout.js';
import { keyBits, kindOf } from './radix-keys.js';
import type { SortKind } from './radix-keys.js';


/** What sortLines writes for each line: its values in order, or the positions (int32) that put it in order. */
type SortOutput = 'values' | 'positions';

/**
 * Sorts `lines` lines of `n` elements of `kind`, each contiguous, line l at
 * `src + l * n * bytes`, writing line l's sorted values (in `kind`) or its
 * positions (int32) at `dst + l * n * (bytes or 4)`. The order is NumPy's
 * (ascending; NaN last; -0 equal to +0) and stable; values keep their bits
 * (each -0, each NaN payload) in that order. `dst` must not overlap `src`.
 */
function sortLines(heap: HeapLike, name: SortKind, src: number, dst: number, n: number, lines: number, output: SortOutput): void {
  if (n === 0 || lines === 0) return;
  const k = kindOf(name);
  const width = keyBits(k);
  const kb = width / 8;
  const r = routinesOn(heap.memory, 'sort', buildSortModule);
  const positions = output === 'positions';
  const scratch = scratchOn(heap);
  const alloc = scratch.alloc;
  try {
    const keys = alloc(n * kb);
    const tmp = alloc(n * kb);
    const counts = alloc(countsBytes(width));
    const res = alloc(16);
    const tmpIdx = positions ? alloc(n * 4) : 0;
    const radix = r[`radix${width}_${n >= WIDE_DIGITS ? 11 : 8}${positions ? '_idx' : ''}`]!;
    const insertion = r[`insertion${width}${positions ? '_idx' : ''}`]!;
    const toKeys = r[`keys_${name}`]!;
    const fromKeys = r[`values_${name}`]!;
    const fix = k.float ? r[`fix_${name}`]! : undefined;
    const outBytes = positions ? 4 : k.bytes;
    const bytes = new Uint8Array(heap.memory.buffer);
    const counted = new Int32Array(heap.memory.buffer, res, 3);
    for (let l = 0; l < lines; l++) {
      const from = src + l * n * k.bytes;
      const to = dst + l * n * outBytes;
      counted.fill(0);
      for (let i = 0; i < n; i += CHUNK) toKeys(from, keys, i, Math.min(n, i + CHUNK), res);
      let sorted = keys;
      if (positions) {
        if (n <= INSERTION) {
          insertion(keys, n, to);
        } else if (radix(keys, tmp, n, counts, to, tmpIdx) === 1) {
          bytes.copyWithin(to, tmpIdx, tmpIdx + n * 4);
        }
        continue;
      }
      if (n <= INSERTION) insertion(keys, n);
      else if (radix(keys, tmp, n, counts) === 1) sorted = tmp;
      // Floats: the zeros and NaNs come back as +0 and one NaN; their own bits are written after.
      for (let i = 0; i < n; i += CHUNK) fromKeys(sorted, to, i, Math.min(n, i + CHUNK));
      if (fix && counted[1]! + counted[2]! > 0) fix(from, to, n, res);
    }
  } finally {
    scratch.release();
  }
}

export { sortLines };
export type { SortKind, SortOutput };
