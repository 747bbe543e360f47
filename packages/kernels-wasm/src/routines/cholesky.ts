// The Cholesky factorisation's columns in the heap (cholesky-module.ts): the
// calls the backend's cholesky makes, one matrix at a time, on the calling
// thread.
import { buildCholeskyModule } from './cholesky-module.js';
import { routinesOn } from './instances.js';

/**
 * Column j of the Cholesky factor L in place (cholesky-module.ts): the n x n
 * float64 matrix at byte address l (rows ld elements apart) holds A's lower
 * triangle and L's columns before j. False if A is not positive definite.
 */
function choleskyColumn(memory: WebAssembly.Memory, l: number, ld: number, n: number, j: number): boolean {
  return routinesOn(memory, 'cholesky', buildCholeskyModule)['cholesky_column']!(l, ld, n, j) !== 0;
}

export { choleskyColumn };
