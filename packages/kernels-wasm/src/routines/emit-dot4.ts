// The four-partial-sum dot product that the tridiagonal and Cholesky
// modules emit alike (deferred-array's reference/linalg-numerics.ts's dot4).
import type { FunctionBuilder, Local } from '../encode/function-builder.js';
import { element, push } from './emit-loops.js';
import type { Operand } from './emit-loops.js';

/** The locals emitDot4 works with. */
interface DotLocals {
  readonly k: Local;
  readonly end: Local;
  readonly lo: Local;
  readonly hi: Local;
}

const dotLocals = (f: FunctionBuilder): DotLocals => ({ k: f.local('i32'), end: f.local('i32'), lo: f.local('v128'), hi: f.local('v128') });

/**
 * Pushes the sum of x[k] y[k] for k in [from, to) (rows at byte addresses x
 * and y) in four partial sums, term k in sum (k - from) mod 4, each from +0,
 * then (s0 + s1) + (s2 + s3): reference/linalg-numerics.ts's dot4. Sums 0-1 are the
 * lanes of one vector, 2-3 of another. A tail of one to three terms is read
 * with zeros beside it: a partial sum starts at +0 and so is never -0, and
 * adding +0 leaves it as it is. `beside`, where given, emits work on the
 * same elements in the main loop, two at a time (elements k and k+1 at byte
 * offset 0, k+2 and k+3 at 16): the loop's latency-bound sums leave room for
 * it. The tail's one to three elements are the caller's, from l.k on.
 */
function emitDot4(f: FunctionBuilder, x: Local, y: Local, from: Operand, to: Local, l: DotLocals, beside?: (offset: number) => void): void {
  emitDots(f, [x], y, from, to, l, [[l.lo, l.hi]], beside);
}

/**
 * Pushes emitDot4's sums of x1[k] y[k] and then of x2[k] y[k], made in one
 * loop: two chains of adds that do not wait on each other.
 * Each sum's terms and order are emitDot4's, so are its bits.
 */
function emitDot4Pair(f: FunctionBuilder, x1: Local, x2: Local, y: Local, from: Operand, to: Local, l: DotLocals, second: readonly [Local, Local]): void {
  emitDots(f, [x1, x2], y, from, to, l, [[l.lo, l.hi], second]);
}

function emitDots(f: FunctionBuilder, xs: readonly Local[], y: Local, from: Operand, to: Local, l: DotLocals, sums: ReadonlyArray<readonly [Local, Local]>, beside?: (offset: number) => void): void {
  const { k, end } = l;
  const term = (x: Local, into: Local, load: 'v128.load' | 'v128.load64_zero', offset: number): void => {
    f.op('local.get', into);
    element(f, x, k);
    f.mem(load, { offset });
    element(f, y, k);
    f.mem(load, { offset });
    f.op('f64x2.mul').op('f64x2.add').op('local.set', into);
  };
  const each = (body: (x: Local, lo: Local, hi: Local) => void): void => xs.forEach((x, s) => body(x, sums[s]![0], sums[s]![1]));
  each((_x, lo, hi) => f.op('f64.const', 0).op('f64x2.splat').op('local.tee', lo).op('local.set', hi));
  push(f, from);
  f.op('local.set', k);
  f.op('local.get', to).op('local.get', k).op('i32.sub').op('i32.const', -4).op('i32.and').op('local.get', k).op('i32.add').op('local.set', end);
  f.block().loop();
  f.op('local.get', k).op('local.get', end).op('i32.ge_s').op('br_if', 1);
  each((x, lo, hi) => {
    term(x, lo, 'v128.load', 0);
    term(x, hi, 'v128.load', 16);
  });
  if (beside) {
    beside(0);
    beside(16);
  }
  f.op('local.get', k).op('i32.const', 4).op('i32.add').op('local.set', k).op('br', 0);
  f.end().end();
  // The tail: to - k terms, 0 to 3.
  f.op('local.get', to).op('local.get', k).op('i32.sub').op('local.set', end);
  f.op('local.get', end).op('i32.const', 1).op('i32.eq');
  f.if();
  each((x, lo) => term(x, lo, 'v128.load64_zero', 0));
  f.end();
  f.op('local.get', end).op('i32.const', 2).op('i32.ge_s');
  f.if();
  each((x, lo) => term(x, lo, 'v128.load', 0));
  f.end();
  f.op('local.get', end).op('i32.const', 3).op('i32.eq');
  f.if();
  each((x, _lo, hi) => term(x, hi, 'v128.load64_zero', 16));
  f.end();
  each((_x, lo, hi) => {
    f.op('local.get', lo).op('f64x2.extract_lane', 0).op('local.get', lo).op('f64x2.extract_lane', 1).op('f64.add');
    f.op('local.get', hi).op('f64x2.extract_lane', 0).op('local.get', hi).op('f64x2.extract_lane', 1).op('f64.add');
    f.op('f64.add');
  });
}

export { dotLocals, emitDot4, emitDot4Pair };
export type { DotLocals };
