// The inner work of qr, eigh, svd and cholesky (reference/decomp.ts's
// DecompKernels) in kernels-wasm's Householder, tridiagonal, Jacobi and
// Cholesky routines, over float64 blocks of the heap: the reference's
// operations in its order, so the same bits. Each matrix is copied into its
// block, worked there and copied out: copies of O(mn) against work of
// O(mn^2) or more.
//
// QR is blocked: reflectors are formed a panel of PANEL columns at a time,
// each applied at once to the rest of its panel, and the panel's reflectors
// then to the columns right of it eight at a time, a strip staying in cache
// while it takes them all. Each column still takes the reflectors one after
// another in the reference's order.
import { choleskyColumn, hestenesRow, qlRotations, reflect, sweepTableBytes, tredAccumulate, tredApply, tredUpdate } from 'kernels-wasm/routines';
import type { QlSweep, Reflectors, TridiagonalWork } from 'kernels-wasm/routines';
import { householderColumn } from '../reference/decompositions.js';
import type { CholeskyFactor } from '../reference/decompositions.js';
import { symmetricEigen } from '../reference/eigh.js';
import type { EighSolver, EighWork } from '../reference/eigh.js';
import { EPS } from '../reference/linalg-numerics.js';
import type { SvdSweeps } from '../reference/svd.js';
import type { DecompKernels } from '../reference/decomp.js';

/** Columns whose reflectors are formed before the columns right of them take them. */
const PANEL = 32;

/** The float64 blocks the kernels work in (byte addresses), large enough for every matrix of the step. */
interface DecompBlocks {
  readonly memory: WebAssembly.Memory;
  /** m x n: QR's matrix, eigh's V transposed, the SVD's W transposed, Cholesky's L. */
  readonly a: number;
  /** QR's reflector vectors (k x m); eigh's rotations of SWEEPS QL sweeps (2n each) and their table; the SVD's V transposed (n x n). */
  readonly b: number;
  /** QR's taus (k); eigh's d (n). */
  readonly c: number;
  /** QR's Q (m x m at most); eigh's e (n). */
  readonly d: number;
}

/**
 * QL sweeps eigh holds back and applies together: a strip of W's columns
 * takes them all while it is in cache, where a sweep at a time reads the
 * whole of W again (2 MB at 512 x 512, beyond this machine's L2).
 */
const SWEEPS = 8;

/**
 * The row stride (elements) of a work block whose rows hold n: a multiple of
 * eight (a cache line) whose count of lines is odd. Rows a power of two
 * apart (n = 256, 512) map a column's elements to a few cache sets and
 * evict each other; QR's strips and eigh's column copies ran 2-3x slower so.
 */
function strideFor(n: number): number {
  const lines = Math.ceil(n / 8);
  return 8 * (lines % 2 === 0 ? lines + 1 : lines);
}

/** Element counts of the blocks for m x n matrices under `op` (`vectors`: svd's U and V asked for). */
function blockSizes(op: string, m: number, n: number, vectors: boolean): [number, number, number, number] {
  const k = Math.min(m, n);
  switch (op) {
    case 'qr': return [m * strideFor(n), k * m, k, m * strideFor(m)];
    case 'eigh': return [n * strideFor(n), SWEEPS * (2 * n + 2), n, n];
    case 'cholesky': return [n * strideFor(n), 0, 0, 0];
    default: return [m * n, vectors ? k * k : 0, 0, 0];
  }
}

const f64 = (memory: WebAssembly.Memory, ptr: number, length: number): Float64Array => new Float64Array(memory.buffer, ptr, length);

function transposed(x: Float64Array, rows: number, cols: number, into: Float64Array): void {
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) into[j * rows + i] = x[i * cols + j]!;
}

/** Copies rows x cols values between a packed matrix and a block whose rows lie `ld` apart. */
function intoRows(from: Float64Array, rows: number, cols: number, to: Float64Array, ld: number): void {
  for (let i = 0; i < rows; i++) to.set(from.subarray(i * cols, (i + 1) * cols), i * ld);
}
function fromRows(from: Float64Array, rows: number, cols: number, ld: number): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) out.set(from.subarray(i * ld, i * ld + cols), i * cols);
  return out;
}

/**
 * reference qrMatrix in the blocks: R formed a panel at a time, then Q from
 * the identity, the reflectors taken a panel at a time from the last.
 */
function qrIn(blocks: DecompBlocks): NonNullable<DecompKernels['qr']> {
  const { memory } = blocks;
  return (a, m, n, complete, wantQ = true) => {
    const k = Math.min(m, n);
    const ld = strideFor(n);
    const r = f64(memory, blocks.a, m * ld);
    const v = f64(memory, blocks.b, k * m).fill(0);
    const taus = f64(memory, blocks.c, k);
    intoRows(a, m, n, r, ld);
    const by = (first: number, count: number, dir: 1 | -1): Reflectors => ({ v: blocks.b, vstride: m * 8, taus: blocks.c, first, count, dir });
    for (let panel = 0; panel < k; panel += PANEL) {
      const end = Math.min(panel + PANEL, k);
      for (let j = panel; j < end; j++) {
        taus[j] = householderColumn(r, ld, m, j, v.subarray(j * m, (j + 1) * m));
        reflect(memory, blocks.a, ld, m, j + 1, end, by(j, 1, 1));
      }
      reflect(memory, blocks.a, ld, m, end, n, by(panel, end - panel, 1));
    }
    const cols = complete ? m : k;
    const rOut = fromRows(r, complete ? m : k, n, ld);
    if (!wantQ) return { q: new Float64Array(0), r: rOut, cols };
    const ldq = strideFor(cols);
    const q = f64(memory, blocks.d, m * ldq).fill(0);
    for (let i = 0; i < Math.min(m, cols); i++) q[i * ldq + i] = 1;
    // H_k-1 first, down to H_0: a panel of them at a time, so that a strip meets the panel's vectors in cache.
    for (let last = k; last > 0; last -= PANEL) {
      const count = Math.min(PANEL, last);
      reflect(memory, blocks.d, ldq, m, 0, cols, by(last - 1, count, -1));
    }
    return { q: fromRows(q, m, cols, ldq), r: rOut, cols };
  };
}

/** reference/eigh.ts's symmetricEigen with its loops in kernels, over W = V transposed (rows padded), d and e in the blocks. */
function eighIn(blocks: DecompBlocks): EighSolver {
  const { memory } = blocks;
  return (s, n, vectors) => {
    const ld = strideFor(n);
    const t: TridiagonalWork = { memory, w: blocks.a, ld, n, d: blocks.c, e: blocks.d };
    const w = f64(memory, blocks.a, n * ld);
    const d = f64(memory, blocks.c, n).fill(0);
    const e = f64(memory, blocks.d, n).fill(0);
    // Sweeps' rotations wait in block b (a table, then 2n f64s a sweep) until SWEEPS of them are there or W is read.
    const table = blocks.b;
    const rotations = f64(memory, table + sweepTableBytes(SWEEPS), SWEEPS * 2 * n);
    const pending: QlSweep[] = [];
    const flush = (): void => {
      if (pending.length === 0) return;
      qlRotations(t, pending, table);
      pending.length = 0;
    };
    // s is symmetric: W = s^T = s.
    intoRows(s, n, n, w, ld);
    const work: EighWork = {
      d, e,
      get: (r, c) => { flush(); return w[c * ld + r]!; },
      set: (r, c, x) => { flush(); w[c * ld + r] = x; },
      apply: (i) => tredApply(t, i),
      update: (i) => tredUpdate(t, i),
      accumulate: (i, h) => tredAccumulate(t, i, h),
      rotate: (l, m, cs) => {
        const k = pending.length;
        rotations.set(cs.subarray(0, 2 * (m - l)), k * 2 * n);
        pending.push({ l, m, cs: rotations.byteOffset + k * 16 * n });
        if (pending.length === SWEEPS) flush();
      },
      swap: (i, k) => {
        flush();
        const row = w.slice(i * ld, i * ld + n);
        w.copyWithin(i * ld, k * ld, k * ld + n);
        w.set(row, k * ld);
      },
    };
    symmetricEigen(work, n, vectors);
    flush();
    const v = new Float64Array(vectors ? n * n : 0);
    if (vectors) transposed(fromRows(w, n, n, ld), n, n, v);
    return { d: d.slice(), v };
  };
}

/** reference hestenesSweeps in the blocks: W and V transposed (V left out where the reference leaves it). */
function svdSweepsIn(blocks: DecompBlocks): SvdSweeps {
  const { memory } = blocks;
  return (w, v, m, n) => {
    const wt = f64(memory, blocks.a, m * n);
    const vt = f64(memory, blocks.b, n * n);
    transposed(w, m, n, wt);
    if (v) transposed(v, n, n, vt);
    for (let sweep = 0; sweep < 100; sweep++) {
      let rotated = false;
      for (let p = 0; p < n - 1; p++) if (hestenesRow(memory, blocks.a, v ? blocks.b : 0, m, n, p, EPS)) rotated = true;
      if (!rotated) break;
    }
    transposed(wt, n, m, w);
    if (v) transposed(vt, n, n, v);
  };
}

/** reference choleskyLower in the block, its rows padded, a column a call. */
function choleskyIn(blocks: DecompBlocks): CholeskyFactor {
  const { memory } = blocks;
  return (l, n) => {
    const ld = strideFor(n);
    const w = f64(memory, blocks.a, n * ld);
    intoRows(l, n, n, w, ld);
    for (let j = 0; j < n; j++) if (!choleskyColumn(memory, blocks.a, ld, n, j)) return false;
    l.set(fromRows(w, n, n, ld));
    return true;
  };
}

/** The kernels for qr, eigh, svd or cholesky, working in `blocks`. */
function decompKernels(blocks: DecompBlocks): DecompKernels {
  return { qr: qrIn(blocks), eigh: eighIn(blocks), svdSweeps: svdSweepsIn(blocks), cholesky: choleskyIn(blocks) };
}

export { decompKernels, blockSizes };
export type { DecompBlocks };
