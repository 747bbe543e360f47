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

/** A QL sweep: rotations of V's columns i and i+1 for i = m-1 down to l, rotation i's cosine and sine the f64s at byte address cs + 16 (m-1-i). */
interface QlSweep {
  readonly l: number;
  readonly m: number;
  readonly cs: number;
}

/** Bytes of the table qlRotations writes for `count` sweeps. */
const sweepTableBytes = (count: number): number => 16 * count;

/**
 * QL sweeps' rotations of V's columns, in order (EighWork.rotate, made for
 * several sweeps at once so that W is read once for all of them), through a
 * table written at byte address `table` (sweepTableBytes long).
 */
function qlRotations(t: TridiagonalWork, sweeps: readonly QlSweep[], table: number): void {
  const entries = new Int32Array(t.memory.buffer, table, 4 * sweeps.length);
  sweeps.forEach((s, k) => {
    entries[4 * k] = s.l;
    entries[4 * k + 1] = s.m;
    entries[4 * k + 2] = s.cs;
  });
  routines(t)['ql_rotations']!(t.w, t.ld, t.n, table, sweeps.length);
}

export { tredApply, tredUpdate, tredAccumulate, qlRotations, sweepTableBytes };
export type { TridiagonalWork, QlSweep };
