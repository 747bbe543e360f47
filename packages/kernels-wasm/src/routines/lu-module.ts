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
import { ZERO, at, element, forUp, lanes, push } from './emit-loops.js';
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

/** Vectors (of two lanes) a row strip of the trailing update holds in registers. */
const STRIP = 4;

/** The locals updateRow works with. */
interface RowLocals {
  readonly j: Local;
  readonly q: Local;
  readonly s: Local;
  readonly srcRow: Local;
  readonly mulAt: Local;
  readonly mulEnd: Local;
  readonly zeroFree: Local;
  readonly scale: readonly [Local, Local];
  readonly acc: readonly Local[];
}

/** What updateRow subtracts from a row: `steps` multiples of source rows, `stride` bytes apart. */
interface RowUpdate {
  /** The row's address (element 0). */
  readonly dst: Local;
  /** The address of the first step's multiplier (f64s, one per step, in order). */
  readonly mul: Local;
  readonly steps: Local;
  /** The address of the first step's source row (element 0), and the bytes from one to the next. */
  readonly src: Local;
  readonly stride: Local;
  /** The columns updated: [from, len). */
  readonly from: Operand;
  readonly len: Local;
}

/**
 * Sets `zeroFree` to 1 if none of the `steps` multipliers at `mul` is zero
 * (of either sign), else 0: two at a time, then the odd one.
 */
function noZeroMultiplier(f: FunctionBuilder, u: RowUpdate, l: RowLocals): void {
  const { q, zeroFree, scale } = l;
  f.v128f64(0).op('local.set', scale[0]);
  lanes(f, q, ZERO, u.steps, (kind) => {
    f.op('local.get', scale[0]);
    f.op('local.get', u.mul).op('local.get', q).op('i32.const', 3).op('i32.shl').op('i32.add');
    if (kind === 'v') f.mem('v128.load');
    else f.mem('f64.load').op('f64x2.splat');
    f.v128f64(0).op('f64x2.eq').op('v128.or').op('local.set', scale[0]);
  });
  f.op('local.get', scale[0]).op('v128.any_true').op('i32.eqz').op('local.set', zeroFree);
}

/**
 * dst[j] -= mul[q] * src_q[j] for q = 0, 1, ... in order, each j in
 * [from, len), skipping a step whose multiplier is zero, as the scalar code
 * does row after row. Strips of STRIP vectors (then one vector, then one
 * element) stay in registers while every step updates them: loaded and
 * stored once, not once a step. Where no multiplier is zero (the common
 * case) the steps go two at a time with no test, the source row's address
 * carried from one step to the next: the same operations in the same order.
 */
function updateRow(f: FunctionBuilder, u: RowUpdate, l: RowLocals): void {
  const { j, q, s, srcRow, mulAt, mulEnd, zeroFree, scale, acc } = l;
  const element = (base: Local): void => { f.op('local.get', base).op('local.get', j).op('i32.const', 3).op('i32.shl').op('i32.add'); };
  /** acc[c] -= scale * srcRow[j + 2c .. ] for each vector c of the strip. */
  const step = (count: number, scalar: boolean, by: Local): void => {
    for (let c = 0; c < count; c++) {
      f.op('local.get', acc[c]!);
      element(srcRow);
      if (scalar) f.mem('f64.load').op('f64x2.splat');
      else f.mem('v128.load', { offset: c * 16 });
      f.op('local.get', by).op('f64x2.mul').op('f64x2.sub').op('local.set', acc[c]!);
    }
  };
  const checkedSteps = (count: number, scalar: boolean): void => {
    forUp(f, q, ZERO, u.steps, () => {
      f.block();
      f.op('local.get', u.mul).op('local.get', q).op('i32.const', 3).op('i32.shl').op('i32.add').mem('f64.load');
      f.op('local.tee', s).op('f64.const', 0).op('f64.eq').op('br_if', 0);
      f.op('local.get', s).op('f64x2.splat').op('local.set', scale[0]);
      f.op('local.get', u.src).op('local.get', q).op('local.get', u.stride).op('i32.mul').op('i32.add').op('local.set', srcRow);
      step(count, scalar, scale[0]);
      f.end();
    });
  };
  const nextRow = (): void => { f.op('local.get', srcRow).op('local.get', u.stride).op('i32.add').op('local.set', srcRow); };
  const uncheckedSteps = (count: number): void => {
    f.op('local.get', u.src).op('local.set', srcRow);
    f.op('local.get', u.mul).op('local.set', mulAt);
    f.block().loop();
    f.op('local.get', mulAt).op('i32.const', 16).op('i32.add').op('local.get', mulEnd).op('i32.gt_u').op('br_if', 1);
    f.op('local.get', mulAt).mem('f64.load').op('f64x2.splat').op('local.set', scale[0]);
    f.op('local.get', mulAt).mem('f64.load', { offset: 8 }).op('f64x2.splat').op('local.set', scale[1]);
    step(count, false, scale[0]);
    nextRow();
    step(count, false, scale[1]);
    nextRow();
    f.op('local.get', mulAt).op('i32.const', 16).op('i32.add').op('local.set', mulAt).op('br', 0);
    f.end().end();
    f.op('local.get', mulAt).op('local.get', mulEnd).op('i32.lt_u');
    f.if();
    f.op('local.get', mulAt).mem('f64.load').op('f64x2.splat').op('local.set', scale[0]);
    step(count, false, scale[0]);
    f.end();
  };
  const strip = (vectors: number): void => {
    const scalar = vectors === 0;
    const count = Math.max(1, vectors);
    for (let c = 0; c < count; c++) {
      element(u.dst);
      if (scalar) f.mem('f64.load').op('f64x2.splat');
      else f.mem('v128.load', { offset: c * 16 });
      f.op('local.set', acc[c]!);
    }
    if (scalar) {
      checkedSteps(count, true);
    } else {
      f.op('local.get', zeroFree);
      f.if();
      uncheckedSteps(count);
      f.else();
      checkedSteps(count, false);
      f.end();
    }
    for (let c = 0; c < count; c++) {
      element(u.dst);
      f.op('local.get', acc[c]!);
      if (scalar) f.op('f64x2.extract_lane', 0).mem('f64.store');
      else f.mem('v128.store', { offset: c * 16 });
    }
    f.op('local.get', j).op('i32.const', scalar ? 1 : 2 * vectors).op('i32.add').op('local.set', j);
  };
  noZeroMultiplier(f, u, l);
  f.op('local.get', u.mul).op('local.get', u.steps).op('i32.const', 3).op('i32.shl').op('i32.add').op('local.set', mulEnd);
  push(f, u.from);
  f.op('local.set', j);
  for (const vectors of [STRIP, 1, 0]) {
    f.block().loop();
    f.op('local.get', j).op('i32.const', vectors === 0 ? 1 : 2 * vectors).op('i32.add').op('local.get', u.len).op('i32.gt_u').op('br_if', 1);
    strip(vectors);
    f.op('br', 0);
    f.end().end();
  }
}

/**
 * update_row(dst, mul, steps, src, stride, from, len): updateRow as a function
 * of its own, called once a row: V8 moves a function to its optimised code
 * between calls, so a long factorisation or solve leaves the baseline tier
 * after a few rows rather than never.
 */
function emitUpdateRow(m: ModuleBuilder): number {
  const [index, f] = m.func('update_row', ['i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32'], [], false);
  const [dst, mul, steps, src, stride, from, len] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4), f.param(5), f.param(6)];
  updateRow(f, { dst, mul, steps, src, stride, from, len }, rowLocals(f));
  return index;
}

/** Rows of the trailing matrix update_rows updates together, and the vectors of each it holds. */
const TILE_ROWS = 4;
const TILE_VECTORS = 2;

/**
 * update_rows(dst, mul, steps, src, stride, mulStride, from, len):
 * update_row for the TILE_ROWS rows at dst, dst + stride, ..., each row's
 * multipliers `mulStride` bytes after the previous row's. Where none of their multipliers is zero, a tile
 * of TILE_ROWS x TILE_VECTORS vectors stays in registers while every step
 * updates it: a source vector is loaded once for all the rows, and each
 * element still takes its steps in order (the bits are update_row's). The
 * columns left over, and rows with a zero multiplier, go to update_row.
 */
function emitUpdateRows(m: ModuleBuilder, update: number): number {
  const [index, f] = m.func('update_rows', ['i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32'], [], false);
  const [dst, mul, steps, src, stride, mulStride, from, len] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4), f.param(5), f.param(6), f.param(7)];
  const i32 = (): Local => f.local('i32');
  const [j, srcRow, mulAt, mulEnd, r, rowDst, rowMul, any] = [i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32()];
  const [v, s, zeros] = [[f.local('v128'), f.local('v128')], f.local('v128'), f.local('v128')];
  const acc = Array.from({ length: TILE_ROWS }, () => Array.from({ length: TILE_VECTORS }, () => f.local('v128')));
  const offsetOf = (row: number, by: Local = stride): void => { f.op('local.get', by).op('i32.const', row).op('i32.mul'); };
  // Whether any of the rows' multipliers is zero (of either sign).
  f.v128f64(0).op('local.set', zeros);
  for (let row = 0; row < TILE_ROWS; row++) {
    lanes(f, j, ZERO, steps, (kind) => {
      f.op('local.get', zeros);
      f.op('local.get', mul).op('local.get', j).op('i32.const', 3).op('i32.shl').op('i32.add');
      offsetOf(row, mulStride);
      f.op('i32.add');
      if (kind === 'v') f.mem('v128.load');
      else f.mem('f64.load').op('f64x2.splat');
      f.v128f64(0).op('f64x2.eq').op('v128.or').op('local.set', zeros);
    });
  }
  f.op('local.get', zeros).op('v128.any_true').op('local.set', any);
  push(f, from);
  f.op('local.set', j);
  f.block();
  f.op('local.get', any).op('br_if', 0);
  f.op('local.get', mul).op('local.get', steps).op('i32.const', 3).op('i32.shl').op('i32.add').op('local.set', mulEnd);
  const width = 2 * TILE_VECTORS;
  f.block().loop();
  f.op('local.get', j).op('i32.const', width).op('i32.add').op('local.get', len).op('i32.gt_u').op('br_if', 1);
  /** Pushes the address of column j of the row `row` rows below base. */
  const columnAt = (base: Local, row: number): void => {
    f.op('local.get', base).op('local.get', j).op('i32.const', 3).op('i32.shl').op('i32.add');
    if (row > 0) { offsetOf(row); f.op('i32.add'); }
  };
  for (let row = 0; row < TILE_ROWS; row++) {
    for (let c = 0; c < TILE_VECTORS; c++) {
      columnAt(dst, row);
      f.mem('v128.load', { offset: c * 16 }).op('local.set', acc[row]![c]!);
    }
  }
  f.op('local.get', src).op('local.set', srcRow);
  f.op('local.get', mul).op('local.set', mulAt);
  f.block().loop();
  f.op('local.get', mulAt).op('local.get', mulEnd).op('i32.ge_u').op('br_if', 1);
  for (let c = 0; c < TILE_VECTORS; c++) {
    columnAt(srcRow, 0);
    f.mem('v128.load', { offset: c * 16 }).op('local.set', v[c]!);
  }
  for (let row = 0; row < TILE_ROWS; row++) {
    f.op('local.get', mulAt);
    if (row > 0) { offsetOf(row, mulStride); f.op('i32.add'); }
    f.mem('f64.load').op('f64x2.splat').op('local.set', s);
    for (let c = 0; c < TILE_VECTORS; c++) {
      f.op('local.get', acc[row]![c]!).op('local.get', v[c]!).op('local.get', s).op('f64x2.mul').op('f64x2.sub').op('local.set', acc[row]![c]!);
    }
  }
  f.op('local.get', srcRow).op('local.get', stride).op('i32.add').op('local.set', srcRow);
  f.op('local.get', mulAt).op('i32.const', 8).op('i32.add').op('local.set', mulAt).op('br', 0);
  f.end().end();
  for (let row = 0; row < TILE_ROWS; row++) {
    for (let c = 0; c < TILE_VECTORS; c++) {
      columnAt(dst, row);
      f.op('local.get', acc[row]![c]!).mem('v128.store', { offset: c * 16 });
    }
  }
  f.op('local.get', j).op('i32.const', width).op('i32.add').op('local.set', j).op('br', 0);
  f.end().end();
  f.end();
  // What is left, row by row: the columns from j on (every column where a multiplier is zero).
  f.op('i32.const', 0).op('local.set', r);
  f.block().loop();
  f.op('local.get', r).op('i32.const', TILE_ROWS).op('i32.ge_u').op('br_if', 1);
  f.op('local.get', stride).op('local.get', r).op('i32.mul').op('local.tee', rowDst).op('local.get', dst).op('i32.add').op('local.set', rowDst);
  f.op('local.get', mulStride).op('local.get', r).op('i32.mul').op('local.get', mul).op('i32.add').op('local.set', rowMul);
  callUpdateRow(f, update, { dst: rowDst, mul: rowMul, steps, src, stride, from: j, len });
  f.op('local.get', r).op('i32.const', 1).op('i32.add').op('local.set', r).op('br', 0);
  f.end().end();
  return index;
}

/** Calls update_row with the update's operands. */
function callUpdateRow(f: FunctionBuilder, fn: number, u: RowUpdate): void {
  for (const x of [u.dst, u.mul, u.steps, u.src, u.stride, u.from, u.len]) push(f, x);
  f.op('call', fn);
}

/** The locals of updateRow, made in `f`. */
const rowLocals = (f: FunctionBuilder): RowLocals => ({
  j: f.local('i32'), q: f.local('i32'), s: f.local('f64'), srcRow: f.local('i32'),
  mulAt: f.local('i32'), mulEnd: f.local('i32'), zeroFree: f.local('i32'), scale: [f.local('v128'), f.local('v128')],
  acc: Array.from({ length: STRIP }, () => f.local('v128')),
});

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
