// Loops, operands and row addressing the hand-written routine modules emit
// alike.
import type { FunctionBuilder, Local } from '../encode/function-builder.js';

/** An i32 operand: a local, or a constant (a Local is a number too, hence the box). */
type Operand = Local | { readonly constant: number };
const ZERO: Operand = { constant: 0 };

function push(f: FunctionBuilder, x: Operand): void {
  if (typeof x === 'object') f.op('i32.const', x.constant);
  else f.op('local.get', x);
}

/** Emits `for (v = from; v < to; v++) body()` (unsigned); `body` sits inside a block and a loop of its own. */
function forUp(f: FunctionBuilder, v: Local, from: Operand, to: Local, body: () => void): void {
  push(f, from);
  f.op('local.set', v);
  f.block().loop();
  f.op('local.get', v).op('local.get', to).op('i32.ge_u').op('br_if', 1);
  body();
  f.op('local.get', v).op('i32.const', 1).op('i32.add').op('local.set', v).op('br', 0);
  f.end().end();
}

/** Pushes the byte address of element k of the f64 row at byte address `row`. */
function element(f: FunctionBuilder, row: Local, k: Local): void {
  f.op('local.get', row).op('local.get', k).op('i32.const', 3).op('i32.shl').op('i32.add');
}

/** Pushes the byte address of row r of the matrix at w (rows ld elements apart). */
function rowOf(f: FunctionBuilder, w: Local, ld: Local, r: Operand): void {
  f.op('local.get', w);
  push(f, r);
  f.op('local.get', ld).op('i32.mul').op('i32.const', 3).op('i32.shl').op('i32.add');
}

/** Pushes the byte address `base + (row * n + col) * 8`. */
function at(f: FunctionBuilder, base: Local, row: Local, n: Local, col: Operand): void {
  f.op('local.get', base).op('local.get', row).op('local.get', n).op('i32.mul');
  push(f, col);
  f.op('i32.add').op('i32.const', 3).op('i32.shl').op('i32.add');
}

/**
 * Emits `for (k = from; k < to; k++)` as two lanes at a time, then the odd
 * one: `body('v')` works on elements k, k+1 (f64x2), `body('s')` on k (f64).
 */
function lanes(f: FunctionBuilder, k: Local, from: Operand, to: Local, body: (kind: 'v' | 's') => void): void {
  push(f, from);
  f.op('local.set', k);
  f.block().loop();
  f.op('local.get', k).op('i32.const', 2).op('i32.add').op('local.get', to).op('i32.gt_u').op('br_if', 1);
  body('v');
  f.op('local.get', k).op('i32.const', 2).op('i32.add').op('local.set', k).op('br', 0);
  f.end().end();
  f.op('local.get', k).op('local.get', to).op('i32.lt_u');
  f.if();
  body('s');
  f.end();
}

/**
 * As lanes(), four elements an iteration first (`body('v', 0)` on k, k+1 and
 * `body('v', 16)` on k+2, k+3: offset in bytes), then what is left as lanes() does.
 */
function lanes4(f: FunctionBuilder, k: Local, from: Operand, to: Local, body: (kind: 'v' | 's', offset: number) => void): void {
  push(f, from);
  f.op('local.set', k);
  f.block().loop();
  f.op('local.get', k).op('i32.const', 4).op('i32.add').op('local.get', to).op('i32.gt_u').op('br_if', 1);
  body('v', 0);
  body('v', 16);
  f.op('local.get', k).op('i32.const', 4).op('i32.add').op('local.set', k).op('br', 0);
  f.end().end();
  lanes(f, k, k, to, (kind) => body(kind, 0));
}

export { forUp, push, ZERO, element, rowOf, at, lanes, lanes4 };
export type { Operand };
