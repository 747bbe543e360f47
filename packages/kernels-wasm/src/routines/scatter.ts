// add.at in the heap (scatter-module.ts): the calls the backend makes, on
// the calling thread.
import { buildScatterModule } from './scatter-module.js';
import type { AddAtType } from './scatter-module.js';
import { routinesOn } from './instances.js';

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

export { addAt, firstIndexOutside };
export type { AddAtType };
