// LU factorisation with partial pivoting, and the solve from it, over
// row-major float64 matrices in the heap: the reference evaluator's
// algorithm (deferred-array's reference/decompositions.ts) operation for
// operation, so the bits are the same, with the row updates two lanes at a
// time. The trailing matrix takes a panel's updates in register tiles of four
// rows by four columns (a source vector loaded once for four rows), which
// made the factorisation of 512 x 512 about 1.4x faster than rows one by
// one. A lane's multiply and subtract round as the scalar ones do (no fused
// multiply-add), and the reference's skips are kept: a zero multiplier
// leaves its row alone (an Inf or NaN in the pivot row does not spread),
// and a zero pivot marks the matrix singular and moves on.
import { ModuleBuilder } from '../encode/module-builder.js';
import type { FunctionBuilder, Local } from '../encode/function-builder.js';
import { WASM32_MAX_PAGES } from '../heap/constants.js';
import { ZERO, at, element, forUp, lanes } from './emit-loops.js';
import { TILE_ROWS, TILE_VECTORS, callUpdateRow, emitUpdateRow, emitUpdateRows } from './lu-updates.js';
import type { Operand } from './emit-loops.js';

/**
 * Emits, over elements [j0, len) of two rows at byte addresses dst and src
 * (locals), two lanes at a time then the odd one: dst[j] = op(dst[j], src[j]).
 * `lane(kind)` pushes the operation's other operands and applies it, given
 * the two loaded values on the stack ('v' for f64x2, 's' for f64).
 */
function rowLoop(f: FunctionBuilder, dst: Local, src: Local | undefined, j: Local, j0: Operand, len: Local, lane: (kind: 'v' | 's') => void): void {
  lanes(f, j, j0, len, (kind) => {
    const load = kind === 'v' ? 'v128.load' : 'f64.load';
    element(f, dst, j);
    element(f, dst, j);
    f.mem(load);
    if (src !== undefined) {
      element(f, src, j);
      f.mem(load);
    }
    lane(kind);
    f.mem(kind === 'v' ? 'v128.store' : 'f64.store');
  });
}

/** dst[j] -= s * src[j] for j in [j0, len): the lanes multiply, then subtract, as the scalar code does. */
function subtractScaled(f: FunctionBuilder, dst: Local, src: Local, s: Local, j: Local, j0: Operand, len: Local): void {
  rowLoop(f, dst, src, j, j0, len, (kind) => {
    if (kind === 'v') f.op('local.get', s).op('f64x2.splat').op('f64x2.mul').op('f64x2.sub');
    else f.op('local.get', s).op('f64.mul').op('f64.sub');
  });
}

/** Swaps rows r1 and r2 (byte addresses, locals) over `len` elements. */
function swapRows(f: FunctionBuilder, r1: Local, r2: Local, j: Local, len: Local, t: Local): void {
  forUp(f, j, ZERO, len, () => {
    f.op('local.get', r1).op('local.get', j).op('i32.const', 3).op('i32.shl').op('i32.add').mem('f64.load').op('local.set', t);
    f.op('local.get', r1).op('local.get', j).op('i32.const', 3).op('i32.shl').op('i32.add');
    f.op('local.get', r2).op('local.get', j).op('i32.const', 3).op('i32.shl').op('i32.add').mem('f64.load');
    f.mem('f64.store');
    f.op('local.get', r2).op('local.get', j).op('i32.const', 3).op('i32.shl').op('i32.add').op('local.get', t).mem('f64.store');
  });
}

/**
 * Pivot steps per panel. Each step's updates of the columns right of its
 * panel wait until the panel is factored, then every row of the trailing
 * matrix takes the panel's updates in a strip of registers: loaded once,
 * updated by each step in order, stored once, where the unblocked order
 * loads and stores the whole trailing matrix at every step. Each element
 * still takes the same updates in the same order, so the bits are the
 * unblocked algorithm's.
 */
const PANEL = 32;
/** Columns of the trailing matrix updated together: the panel's rows over them (PANEL x COLUMN_BLOCK f64s) stay in cache. */
const COLUMN_BLOCK = 256;
/** Scratch lu() needs: the panel's multipliers of one row (f64s), then which of its steps met a zero pivot (i32s). */
const LU_SCRATCH = PANEL * 12;

/**
 * lu(a, n, piv, scratch) -> i32: factors the n x n matrix at a in place (L
 * below the diagonal, unit diagonal implied; U on and above), the row taken
 * as pivot at each step written to piv (i32s); scratch: LU_SCRATCH bytes.
 * Returns bit 0 set if a zero pivot was met, bit 1 set if the row swaps were
 * odd in number.
 */
function emitLu(m: ModuleBuilder, update: number, rows: number): void {
  const panel = emitPanel(m, update, rows);
  const [, f] = m.func('lu', ['i32', 'i32', 'i32', 'i32'], ['i32']);
  const [a, n, piv, scratch] = [f.param(0), f.param(1), f.param(2), f.param(3)];
  const [kb, flags] = [f.local('i32'), f.local('i32')];
  // One call a panel: V8 runs a function's first call in its baseline tier, the next ones in its optimised code once ready.
  f.op('i32.const', 0).op('local.set', kb);
  f.block().loop();
  f.op('local.get', kb).op('local.get', n).op('i32.ge_u').op('br_if', 1);
  f.op('local.get', a).op('local.get', n).op('local.get', piv).op('local.get', scratch).op('local.get', kb).op('local.get', flags).op('call', panel).op('local.set', flags);
  f.op('local.get', kb).op('i32.const', PANEL).op('i32.add').op('local.set', kb).op('br', 0);
  f.end().end();
  f.op('local.get', flags);
}

/** lu_panel(a, n, piv, scratch, kb, flags) -> flags: lu()'s steps kb to kb + PANEL, and their updates of the trailing matrix. */
function emitPanel(m: ModuleBuilder, update: number, rows: number): number {
  const [index, f] = m.func('lu_panel', ['i32', 'i32', 'i32', 'i32', 'i32', 'i32'], ['i32'], false);
  const [a, n, piv, scratch, kb, flags] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4), f.param(5)];
  const i32 = (): Local => f.local('i32');
  const f64 = (): Local => f.local('f64');
  const [k, i, j, p, rowK, rowI, k1, pe, q, steps] = [i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32()];
  const [best, v, d, s, t] = [f64(), f64(), f64(), f64(), f64()];
  const [stride, zeroPivot, jb, je, mul] = [i32(), i32(), i32(), i32(), i32()];
  const singularAt = (step: Local): void => {
    // Address of step's zero-pivot word: scratch + PANEL * 8 + (step - kb) * 4.
    f.op('local.get', scratch).op('local.get', step).op('local.get', kb).op('i32.sub').op('i32.const', 2).op('i32.shl').op('i32.add');
  };
  // pe = min(kb + PANEL, n)
  f.op('local.get', kb).op('i32.const', PANEL).op('i32.add').op('local.tee', pe).op('local.get', n)
    .op('local.get', pe).op('local.get', n).op('i32.lt_u').op('select').op('local.set', pe);
  f.op('local.get', pe).op('local.get', kb).op('i32.sub').op('local.set', steps);
  // The panel, unblocked: its columns take every update at once.
  forUp(f, k, kb, pe, () => {
    f.op('local.get', k).op('i32.const', 1).op('i32.add').op('local.set', k1);
    // The pivot: the largest magnitude in column k from row k down (the first of equals).
    f.op('local.get', k).op('local.set', p);
    at(f, a, k, n, k);
    f.mem('f64.load').op('f64.abs').op('local.set', best);
    forUp(f, i, k1, n, () => {
      at(f, a, i, n, k);
      f.mem('f64.load').op('f64.abs').op('local.tee', v).op('local.get', best).op('f64.gt');
      f.if().op('local.get', v).op('local.set', best).op('local.get', i).op('local.set', p).end();
    });
    f.op('local.get', piv).op('local.get', k).op('i32.const', 2).op('i32.shl').op('i32.add').op('local.get', p).mem('i32.store');
    at(f, a, k, n, ZERO);
    f.op('local.set', rowK);
    // Whole rows swap now: the columns right of the panel move with them, before their updates.
    f.op('local.get', p).op('local.get', k).op('i32.ne');
    f.if();
    f.op('local.get', flags).op('i32.const', 2).op('i32.xor').op('local.set', flags);
    at(f, a, p, n, ZERO);
    f.op('local.set', rowI);
    swapRows(f, rowK, rowI, j, n, t);
    f.end();
    singularAt(k);
    f.op('i32.const', 0).mem('i32.store', { offset: PANEL * 8 });
    f.block();
    at(f, a, k, n, k);
    f.mem('f64.load').op('local.tee', d).op('f64.const', 0).op('f64.eq');
    f.if();
    f.op('local.get', flags).op('i32.const', 1).op('i32.or').op('local.set', flags);
    singularAt(k);
    f.op('i32.const', 1).mem('i32.store', { offset: PANEL * 8 });
    f.op('br', 1).end();
    forUp(f, i, k1, n, () => {
      f.block();
      at(f, a, i, n, ZERO);
      f.op('local.set', rowI);
      // The multiplier, stored where L keeps it.
      f.op('local.get', rowI).op('local.get', k).op('i32.const', 3).op('i32.shl').op('i32.add');
      f.op('local.get', rowI).op('local.get', k).op('i32.const', 3).op('i32.shl').op('i32.add').mem('f64.load');
      f.op('local.get', d).op('f64.div').op('local.tee', s).mem('f64.store');
      f.op('local.get', s).op('f64.const', 0).op('f64.eq').op('br_if', 0);
      subtractScaled(f, rowI, rowK, s, j, k1, pe);
      f.end();
    });
    f.end();
  });
  f.block();
  f.op('local.get', pe).op('local.get', n).op('i32.ge_u').op('br_if', 0);
  /** row i's multiplier of step q (the panel's), as scratch holds it: 0 for a step that met a zero pivot. */
  const multiplier = (): void => {
    singularAt(q);
    f.mem('i32.load', { offset: PANEL * 8 });
    f.if('f64').op('f64.const', 0).else();
    at(f, a, i, n, q);
    f.mem('f64.load');
    f.end();
  };
  f.op('i32.const', 0).op('local.set', zeroPivot);
  forUp(f, q, kb, pe, () => {
    singularAt(q);
    f.mem('i32.load', { offset: PANEL * 8 }).op('local.get', zeroPivot).op('i32.or').op('local.set', zeroPivot);
  });
  /**
   * Sets mul to the address of row i's multipliers of the panel's steps: where L keeps them, or
   * gathered into scratch when a step of the panel met a zero pivot (its multipliers count as zero).
   */
  const rowMultipliers = (): void => {
    f.op('local.get', zeroPivot);
    f.if();
    forUp(f, q, kb, pe, () => {
      f.op('local.get', scratch).op('local.get', q).op('local.get', kb).op('i32.sub').op('i32.const', 3).op('i32.shl').op('i32.add');
      multiplier();
      f.mem('f64.store');
    });
    f.op('local.get', scratch).op('local.set', mul);
    f.else();
    f.op('local.get', rowI).op('local.get', kb).op('i32.const', 3).op('i32.shl').op('i32.add').op('local.set', mul);
    f.end();
  };
  at(f, a, kb, n, ZERO);
  f.op('local.set', rowK);
  f.op('local.get', n).op('i32.const', 3).op('i32.shl').op('local.set', stride);
  // The panel's rows right of it (U's next rows), each from the rows above it, in order.
  forUp(f, i, kb, pe, () => {
    at(f, a, i, n, ZERO);
    f.op('local.set', rowI);
    rowMultipliers();
    f.op('local.get', i).op('local.get', kb).op('i32.sub').op('local.set', q);
    callUpdateRow(f, update, { dst: rowI, mul, steps: q, src: rowK, stride, from: pe, len: n });
  });
  // The trailing rows, a block of columns at a time so that the panel's rows over the block stay
  // in the first-level cache while every trailing row takes their updates.
  f.op('local.get', pe).op('local.set', jb);
  f.block().loop();
  f.op('local.get', jb).op('local.get', n).op('i32.ge_u').op('br_if', 1);
  // je = min(jb + COLUMN_BLOCK, n)
  f.op('local.get', jb).op('i32.const', COLUMN_BLOCK).op('i32.add').op('local.tee', je).op('local.get', n)
    .op('local.get', je).op('local.get', n).op('i32.lt_u').op('select').op('local.set', je);
  f.op('local.get', pe).op('local.set', i);
  f.block().loop();
  f.op('local.get', i).op('local.get', n).op('i32.ge_u').op('br_if', 1);
  at(f, a, i, n, ZERO);
  f.op('local.set', rowI);
  f.op('local.get', zeroPivot).op('i32.eqz').op('local.get', i).op('i32.const', TILE_ROWS).op('i32.add').op('local.get', n).op('i32.le_u').op('i32.and');
  f.if();
  // TILE_ROWS rows at once, their multipliers where L keeps them.
  f.op('local.get', rowI).op('local.get', kb).op('i32.const', 3).op('i32.shl').op('i32.add').op('local.set', mul);
  for (const x of [rowI, mul, steps, rowK, stride, stride, jb, je]) f.op('local.get', x);
  f.op('call', rows);
  f.op('local.get', i).op('i32.const', TILE_ROWS).op('i32.add').op('local.set', i);
  f.else();
  rowMultipliers();
  callUpdateRow(f, update, { dst: rowI, mul, steps, src: rowK, stride, from: jb, len: je });
  f.op('local.get', i).op('i32.const', 1).op('i32.add').op('local.set', i);
  f.end();
  f.op('br', 0);
  f.end().end();
  f.op('local.get', je).op('local.set', jb).op('br', 0);
  f.end().end();
  f.end();
  f.op('local.get', flags);
  return index;
}

/**
 * lu_solve(a, n, piv, x, k): solves A X = B in place over x (n x k, holding
 * B), from lu()'s factors of A: the rows swapped as piv says, then the
 * forward substitution with L and the backward one with U, row by row, each
 * row's updates in the order the scalar code makes them.
 */
function emitLuSolve(m: ModuleBuilder, update: number, rows: number): void {
  const [, f] = m.func('lu_solve', ['i32', 'i32', 'i32', 'i32', 'i32'], []);
  const [a, n, piv, x, k] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4)];
  const i32 = (): Local => f.local('i32');
  const [i, j, p, rowI, rowR, mul, steps, src, stride, mulStride, rowC, mulC] = [i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32()];
  const [s, t] = [f.local('f64'), f.local('f64')];
  forUp(f, i, ZERO, n, () => {
    f.op('local.get', piv).op('local.get', i).op('i32.const', 2).op('i32.shl').op('i32.add').mem('i32.load').op('local.tee', p);
    f.op('local.get', i).op('i32.ne');
    f.if();
    at(f, x, i, k, ZERO);
    f.op('local.set', rowI);
    at(f, x, p, k, ZERO);
    f.op('local.set', rowR);
    swapRows(f, rowI, rowR, j, k, t);
    f.end();
  });
  f.op('local.get', k).op('i32.const', 3).op('i32.shl').op('local.set', stride);
  // Forward: row i less a[i, r] times row r, for r < i, in order. TILE_ROWS rows at a time take
  // the steps of the rows above them together; then each takes those of the rows of its group
  // above it, which are final by then.
  f.op('local.get', n).op('i32.const', 3).op('i32.shl').op('local.set', mulStride);
  f.op('i32.const', 0).op('local.set', i);
  f.block().loop();
  f.op('local.get', i).op('local.get', n).op('i32.ge_u').op('br_if', 1);
  at(f, x, i, k, ZERO);
  f.op('local.set', rowI);
  at(f, a, i, n, ZERO);
  f.op('local.set', mul);
  // (A tile is as wide as 2 * TILE_VECTORS columns: narrower solves go row by row.)
  f.op('local.get', i).op('i32.const', TILE_ROWS).op('i32.add').op('local.get', n).op('i32.le_u');
  f.op('local.get', k).op('i32.const', 2 * TILE_VECTORS).op('i32.ge_u').op('i32.and');
  f.if();
  for (const v of [rowI, mul, i, x, stride, mulStride]) f.op('local.get', v);
  f.op('i32.const', 0).op('local.get', k).op('call', rows);
  for (let c = 1; c < TILE_ROWS; c++) {
    // Row i + c from rows i .. i + c - 1.
    f.op('local.get', rowI).op('local.get', stride).op('i32.const', c).op('i32.mul').op('i32.add').op('local.set', rowC);
    f.op('local.get', mul).op('local.get', mulStride).op('i32.const', c).op('i32.mul').op('i32.add')
      .op('local.get', i).op('i32.const', 3).op('i32.shl').op('i32.add').op('local.set', mulC);
    f.op('i32.const', c).op('local.set', steps);
    callUpdateRow(f, update, { dst: rowC, mul: mulC, steps, src: rowI, stride, from: ZERO, len: k });
  }
  f.op('local.get', i).op('i32.const', TILE_ROWS).op('i32.add').op('local.set', i);
  f.else();
  callUpdateRow(f, update, { dst: rowI, mul, steps: i, src: x, stride, from: ZERO, len: k });
  f.op('local.get', i).op('i32.const', 1).op('i32.add').op('local.set', i);
  f.end();
  f.op('br', 0);
  f.end().end();
  // Backward, from the last row up: row i less a[i, r] times row r, for r > i, then over a[i, i].
  f.op('local.get', n).op('local.set', i);
  f.block().loop();
  f.op('local.get', i).op('i32.eqz').op('br_if', 1);
  f.op('local.get', i).op('i32.const', 1).op('i32.sub').op('local.set', i);
  at(f, x, i, k, ZERO);
  f.op('local.set', rowI);
  f.op('local.get', rowI).op('local.get', stride).op('i32.add').op('local.set', src);
  at(f, a, i, n, i);
  f.op('local.tee', mul).mem('f64.load').op('local.set', s);
  f.op('local.get', mul).op('i32.const', 8).op('i32.add').op('local.set', mul);
  f.op('local.get', n).op('local.get', i).op('i32.sub').op('i32.const', 1).op('i32.sub').op('local.set', steps);
  callUpdateRow(f, update, { dst: rowI, mul, steps, src, stride, from: ZERO, len: k });
  rowLoop(f, rowI, undefined, j, ZERO, k, (kind) => {
    if (kind === 'v') f.op('local.get', s).op('f64x2.splat').op('f64x2.div');
    else f.op('local.get', s).op('f64.div');
  });
  f.op('br', 0);
  f.end().end();
}

/** The LU module's bytes, importing `env.memory` (shared or not, as the heap's memory is). */
function buildLuModule(shared: boolean): Uint8Array<ArrayBuffer> {
  const m = new ModuleBuilder().importMemory({ module: 'env', name: 'memory', initial: 1, maximum: WASM32_MAX_PAGES, shared });
  const update = emitUpdateRow(m);
  const rows = emitUpdateRows(m, update);
  emitLu(m, update, rows);
  emitLuSolve(m, update, rows);
  return m.toBytes();
}

export { buildLuModule, LU_SCRATCH };
