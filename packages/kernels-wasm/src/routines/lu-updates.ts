// The row updates of the LU (lu-module.ts): update_row, which subtracts a
// run of multiples of source rows from one row, a strip of columns held in
// registers while every step updates it, and update_rows, the same for four
// rows at once (a source vector loaded once for the four). Each element
// takes its steps in order, multiply then subtract, so the bits are the
// plain loop's.
import type { ModuleBuilder } from '../encode/module-builder.js';
import type { FunctionBuilder, Local } from '../encode/function-builder.js';
import { ZERO, forUp, lanes, push } from './emit-loops.js';
import type { Operand } from './emit-loops.js';

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
  orZeroLanes(f, () => { f.op('local.get', u.mul); }, u.steps, q, scale[0]);
  f.op('local.get', scale[0]).op('v128.any_true').op('i32.eqz').op('local.set', zeroFree);
}

/** Sets in `acc` the lanes where one of the `steps` f64s at `base` (pushed by base()) is zero, of either sign. */
function orZeroLanes(f: FunctionBuilder, base: () => void, steps: Local, q: Local, acc: Local): void {
  lanes(f, q, ZERO, steps, (kind) => {
    f.op('local.get', acc);
    base();
    f.op('local.get', q).op('i32.const', 3).op('i32.shl').op('i32.add');
    if (kind === 'v') f.mem('v128.load');
    else f.mem('f64.load').op('f64x2.splat');
    f.v128f64(0).op('f64x2.eq').op('v128.or').op('local.set', acc);
  });
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
    orZeroLanes(f, () => { f.op('local.get', mul); if (row > 0) { offsetOf(row, mulStride); f.op('i32.add'); } }, steps, j, zeros);
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


export { TILE_ROWS, TILE_VECTORS, callUpdateRow, emitUpdateRow, emitUpdateRows };
export type { RowUpdate };
