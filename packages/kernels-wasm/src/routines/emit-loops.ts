// Loops and operands the hand-written routine modules (radix-module.ts,
// lu-module.ts) emit alike.
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

export { forUp, push, ZERO };
export type { Operand };
