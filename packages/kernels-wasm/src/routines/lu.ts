// LU factorisation and solves in the heap (lu-module.ts): the calls the
// backend makes, one matrix at a time, on the calling thread.
import { LU_SCRATCH, buildLuModule } from './lu-module.js';
import { routinesOn } from './instances.js';

interface LuFactors {
  /** A zero pivot was met: the matrix is singular to working precision. */
  readonly singular: boolean;
  /** The parity of the row swaps: +1 or -1. */
  readonly sign: 1 | -1;
}

/**
 * Factors the n x n row-major float64 matrix at byte address `a` of `memory`
 * in place (L below the diagonal with its unit diagonal implied, U on and
 * above), the pivot row of each step written as an int32 at `piv`;
 * `scratch`: LU_SCRATCH bytes of the caller's.
 */
function luFactor(memory: WebAssembly.Memory, a: number, n: number, piv: number, scratch: number): LuFactors {
  const flags = routinesOn(memory, 'lu', buildLuModule)['lu']!(a, n, piv, scratch);
  return { singular: (flags & 1) !== 0, sign: flags & 2 ? -1 : 1 };
}

/** Solves A X = B in place over the n x k float64 matrix at `x` (holding B), from luFactor's factors of A at `a` and `piv`. */
function luSolve(memory: WebAssembly.Memory, a: number, n: number, piv: number, x: number, k: number): void {
  routinesOn(memory, 'lu', buildLuModule)['lu_solve']!(a, n, piv, x, k);
}

export { luFactor, luSolve, LU_SCRATCH };
export type { LuFactors };
