// add.at in the heap (scatter-module.ts): the calls the backend makes, on
// the calling thread.
import type { HeapLike } from '../lower/launch.js';
import { SPREAD, buildScatterModule } from './scatter-module.js';
import type { AddAtType } from './scatter-module.js';
import { routinesOn } from './instances.js';
import { scratchOn } from './scratch.js';

/** The position of the first of `m` int32 indices at `idx` outside [-rows, rows), or -1 if none is. */
function firstIndexOutside(memory: WebAssembly.Memory, idx: number, m: number, rows: number): number {
  return routinesOn(memory, 'scatter', buildScatterModule)['check_indices']!(idx, m, rows);
}

/**
 * NumPy's add.at, in place at `out` (rows x inner elements of `type`): for
 * k = 0..m-1 in order, row idx[k] (int32; negative from the end; checked
 * first with firstIndexOutside) plus row k of the values at `vals`
 * (`vstride` elements from one row to the next, or -1: one value for all),
 * added in `type` (integers wrap; for unsigned ones, the signed type of
 * their width gives the same bits).
 */
function addAt(memory: WebAssembly.Memory, type: AddAtType, out: number, rows: number, inner: number, idx: number, m: number, vals: number, vstride: number): void {
  routinesOn(memory, 'scatter', buildScatterModule)[`add_at_${type}`]!(out, rows, inner, idx, m, vals, vstride);
}

const BYTES: Record<AddAtType, number> = { f64: 8, f32: 4, i64: 8, i32: 4, i16: 2, i8: 1 };

/**
 * Targets of at most this many rows are spread (copies of SPREAD x rows
 * elements, zeroed and summed once): a bincount's counts, a histogram's.
 */
const SPREAD_ROWS = 1 << 16;

/**
 * addAt after firstIndexOutside: returns the position of the first index
 * outside [-rows, rows), having written nothing, or -1 once the adds are
 * done. `onChecked` runs once the indices are known good, before out is
 * written (the caller puts the target there). Integer rows of one element
 * with many more indices than rows are spread over copies in scratch taken
 * from `heap` (spread_count and spread_merge in scatter-module.ts), which
 * counted 2^23 indices into 1,000 bins in about half the time, the check
 * made as each index is read; the sums wrap, so the bits are addAt's.
 */
function checkedAddAt(
  heap: HeapLike, type: AddAtType, out: number, rows: number, inner: number, idx: number, m: number, vals: number, vstride: number, onChecked: () => void,
): number {
  const { memory } = heap;
  if (type !== 'f64' && type !== 'f32' && inner === 1 && (vstride === 1 || vstride === -1) && rows <= SPREAD_ROWS && m >= 4 * SPREAD * rows) {
    const r = routinesOn(memory, 'scatter', buildScatterModule);
    const scratch = scratchOn(heap);
    try {
      const copies = scratch.alloc(SPREAD * rows * BYTES[type]);
      const bad = r[`spread_count_${type}`]!(rows, idx, m, vals, vstride, copies) as number;
      if (bad < 0) {
        onChecked();
        r[`spread_merge_${type}`]!(out, rows, copies);
      }
      return bad;
    } finally {
      scratch.release();
    }
  }
  const bad = firstIndexOutside(memory, idx, m, rows);
  if (bad < 0) {
    onChecked();
    addAt(memory, type, out, rows, inner, idx, m, vals, vstride);
  }
  return bad;
}

export { addAt, checkedAddAt, firstIndexOutside };
export type { AddAtType };
