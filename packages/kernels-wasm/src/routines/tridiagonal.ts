// The symmetric eigensolver's loops in the heap (tridiagonal-module.ts): the
// calls the backend's eigh makes, one matrix at a time, on the calling thread.
import { buildTridiagonalModule } from './tridiagonal-module.js';
import { routinesOn } from './instances.js';
import type { Routines } from './instances.js';

/**
 * Where the eigensolver works: W = V transposed (n x n float64 at byte
 * address w, rows ld elements apart), and d and e (n float64 each).
 */
interface TridiagonalWork {
  readonly memory: WebAssembly.Memory;
  readonly w: number;
  readonly ld: number;
  readonly n: number;
  readonly d: number;
  readonly e: number;
}

const routines = (t: TridiagonalWork): Routines => routinesOn(t.memory, 'tridiagonal', buildTridiagonalModule);

/** tred2's product with the remaining matrix for row i (reference/eigh.ts's EighWork.apply). */
function tredApply(t: TridiagonalWork, i: number): void {
  routines(t)['tred_apply']!(t.w, t.ld, t.d, t.e, i);
}

/** tred2's rank-2 update for row i (EighWork.update). */
function tredUpdate(t: TridiagonalWork, i: number): void {
  routines(t)['tred_update']!(t.w, t.ld, t.d, t.e, i);
}

/** tred2's accumulation of transformation i (EighWork.accumulate). */
function tredAccumulate(t: TridiagonalWork, i: number, h: number): void {
  routines(t)['tred_accumulate']!(t.w, t.ld, t.d, i, h);
}

/**
 * One QL sweep's rotations of V's columns i and i+1 for i = m-1 down to l,
 * rotation i's cosine and sine the f64s at byte address cs + 16 (m-1-i)
 * (EighWork.rotate).
 */
function qlRotations(t: TridiagonalWork, l: number, m: number, cs: number): void {
  routines(t)['ql_rotations']!(t.w, t.ld, t.n, l, m, cs);
}

export { tredApply, tredUpdate, tredAccumulate, qlRotations };
export type { TridiagonalWork };
