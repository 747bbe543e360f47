// Householder reflections and Jacobi rotations in the heap
// (householder-module.ts, jacobi-module.ts): the calls the backend's QR and
// SVD make, one matrix at a time, on the calling thread.
import { buildHouseholderModule } from './householder-module.js';
import { buildJacobiModule } from './jacobi-module.js';
import { routinesOn } from './instances.js';

/** Where reflect finds its reflectors: vectors `vstride` bytes apart from `v`, taus (f64s) at `taus`, applied first, first + dir, ... */
interface Reflectors {
  readonly v: number;
  readonly vstride: number;
  readonly taus: number;
  readonly first: number;
  readonly count: number;
  readonly dir: 1 | -1;
}

/**
 * Applies reflectors H_j = I - tau_j v_j v_j^T in turn to columns [c0, c1) of
 * the m x n row-major float64 matrix at byte address `a`: each touches rows
 * j to m (v_j is read there, indexed by row); a tau of zero is skipped.
 */
function reflect(memory: WebAssembly.Memory, a: number, n: number, m: number, c0: number, c1: number, r: Reflectors): void {
  if (c1 <= c0 || r.count <= 0) return;
  routinesOn(memory, 'householder', buildHouseholderModule)['reflect']!(a, n, m, c0, c1, r.v, r.vstride, r.taus, r.first, r.count, r.dir);
}

/**
 * One-sided Jacobi steps on columns (p, q), q = p + 1 .. n - 1, of W (m x n,
 * held transposed at `wt`), accumulated into V (held transposed at `vt`; 0
 * for none); true if any pair was turned.
 */
function hestenesRow(memory: WebAssembly.Memory, wt: number, vt: number, m: number, n: number, p: number, eps: number): boolean {
  return routinesOn(memory, 'jacobi', buildJacobiModule)['hestenes_row']!(wt, vt, m, n, p, eps) !== 0;
}

export { reflect, hestenesRow };
export type { Reflectors };
