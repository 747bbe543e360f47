// One-sided Jacobi rotations over row-major float64 matrices in the heap: the
// inner loops of the reference evaluator's SVD (Hestenes) in deferred-array's
// reference/svd.ts, operation for operation, so the bits are the same. The
// reference turns columns, which lie a row apart in memory; here every
// turned column is a row (the caller keeps W and V transposed), so a
// rotation runs in lanes over contiguous memory. No fused multiply-add: each
// lane rounds its product and its sum as the scalar code does.
import { ModuleBuilder } from '../encode/module-builder.js';
import type { FunctionBuilder, Local } from '../encode/function-builder.js';
import { WASM32_MAX_PAGES } from '../heap/constants.js';
import { ZERO, at, forUp } from './emit-loops.js';

/**
 * rotate_rows(x, y, len, c, s): for k < len, x[k], y[k] = c x[k] - s y[k],
 * s x[k] + c y[k] (rows at byte addresses x and y), four lanes at a time,
 * then two, then one.
 */
function emitRotateRows(m: ModuleBuilder): number {
  const [index, f] = m.func('rotate_rows', ['i32', 'i32', 'i32', 'f64', 'f64'], [], false);
  const [x, y, len, c, s] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4)];
  const [k, end] = [f.local('i32'), f.local('i32')];
  const [cv, sv] = [f.local('v128'), f.local('v128')];
  const xv = [f.local('v128'), f.local('v128')];
  const yv = [f.local('v128'), f.local('v128')];
  const [xs, ys] = [f.local('f64'), f.local('f64')];
  const elementOf = (row: Local): void => { f.op('local.get', row).op('local.get', k).op('i32.const', 3).op('i32.shl').op('i32.add'); };
  f.op('local.get', c).op('f64x2.splat').op('local.set', cv);
  f.op('local.get', s).op('f64x2.splat').op('local.set', sv);
  f.op('i32.const', 0).op('local.set', k);
  for (const vectors of [2, 1]) {
    f.op('local.get', len).op('i32.const', -2 * vectors).op('i32.and').op('local.set', end);
    f.block().loop();
    f.op('local.get', k).op('local.get', end).op('i32.ge_u').op('br_if', 1);
    for (let u = 0; u < vectors; u++) {
      elementOf(x);
      f.mem('v128.load', { offset: 16 * u }).op('local.set', xv[u]!);
      elementOf(y);
      f.mem('v128.load', { offset: 16 * u }).op('local.set', yv[u]!);
    }
    for (let u = 0; u < vectors; u++) {
      elementOf(x);
      f.op('local.get', cv).op('local.get', xv[u]!).op('f64x2.mul').op('local.get', sv).op('local.get', yv[u]!).op('f64x2.mul').op('f64x2.sub');
      f.mem('v128.store', { offset: 16 * u });
      elementOf(y);
      f.op('local.get', sv).op('local.get', xv[u]!).op('f64x2.mul').op('local.get', cv).op('local.get', yv[u]!).op('f64x2.mul').op('f64x2.add');
      f.mem('v128.store', { offset: 16 * u });
    }
    f.op('local.get', k).op('i32.const', 2 * vectors).op('i32.add').op('local.set', k).op('br', 0);
    f.end().end();
  }
  f.op('local.get', k).op('local.get', len).op('i32.lt_u');
  f.if();
  elementOf(x);
  f.mem('f64.load').op('local.set', xs);
  elementOf(y);
  f.mem('f64.load').op('local.set', ys);
  elementOf(x);
  f.op('local.get', c).op('local.get', xs).op('f64.mul').op('local.get', s).op('local.get', ys).op('f64.mul').op('f64.sub').mem('f64.store');
  elementOf(y);
  f.op('local.get', s).op('local.get', xs).op('f64.mul').op('local.get', c).op('local.get', ys).op('f64.mul').op('f64.add').mem('f64.store');
  f.end();
  return index;
}

/**
 * Leaves on the stack t = sign(x || 1) / (|x| + sqrt(x x + 1)) for the f64 in
 * local x, then sets c = 1 / sqrt(t t + 1) and s = t c: the reference's
 * rotation from its cotangent (Math.sign(x || 1) is -1 only for x < 0).
 */
function rotationFrom(f: FunctionBuilder, x: Local, t: Local, c: Local, s: Local): void {
  f.op('f64.const', -1).op('f64.const', 1).op('local.get', x).op('f64.const', 0).op('f64.lt').op('select');
  f.op('local.get', x).op('f64.abs');
  f.op('local.get', x).op('local.get', x).op('f64.mul').op('f64.const', 1).op('f64.add').op('f64.sqrt');
  f.op('f64.add').op('f64.div').op('local.set', t);
  f.op('f64.const', 1).op('local.get', t).op('local.get', t).op('f64.mul').op('f64.const', 1).op('f64.add').op('f64.sqrt').op('f64.div').op('local.set', c);
  f.op('local.get', t).op('local.get', c).op('f64.mul').op('local.set', s);
}

/**
 * hestenes_pair(wt, vt, m, n, p, q, eps) -> i32: the one-sided Jacobi step
 * on columns p and q of W (m x n, held transposed: rows p and q of wt),
 * accumulated into V (held transposed in vt, n x n; vt 0: no V). Returns 1 if it
 * rotated, 0 if the columns were orthogonal to working precision. The three
 * sums over the columns run in four partial sums each, as the reference
 * makes them, so that no add waits on the one before.
 */
function emitHestenesPair(m: ModuleBuilder, rotate: number): number {
  const [index, f] = m.func('hestenes_pair', ['i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'f64'], ['i32'], false);
  const [wt, vt, rows, n, p, q, eps] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4), f.param(5), f.param(6)];
  const [rowP, rowQ, i] = [f.local('i32'), f.local('i32'), f.local('i32')];
  const f64 = (): Local => f.local('f64');
  const [alpha, beta, gamma, zeta, t, c, s] = [f64(), f64(), f64(), f64(), f64(), f64(), f64()];
  at(f, wt, p, rows, ZERO);
  f.op('local.set', rowP);
  at(f, wt, q, rows, ZERO);
  f.op('local.set', rowQ);
  // Four partial sums of each, element i in sum i mod 4 (lanes 0-1 of one vector, 2-3 of another),
  // then (s0 + s1) + (s2 + s3), as the reference sums them. A tail of one to three elements is
  // read with zeros beside it: a partial sum starts at +0 and so is never -0, and adding +0 to
  // it leaves it as it is.
  const [x01, x23, y01, y23] = [f.local('v128'), f.local('v128'), f.local('v128'), f.local('v128')];
  const sums = Array.from({ length: 6 }, () => f.local('v128'));
  const [a01, a23, b01, b23, g01, g23] = sums as [Local, Local, Local, Local, Local, Local];
  const [end, left] = [f.local('i32'), f.local('i32')];
  for (const v of sums) f.op('f64.const', 0).op('f64x2.splat').op('local.set', v);
  const zero = (): void => { f.op('f64.const', 0).op('f64x2.splat'); };
  const accumulate = (): void => {
    for (const [acc, x, y] of [[a01, x01, x01], [a23, x23, x23], [b01, y01, y01], [b23, y23, y23], [g01, x01, y01], [g23, x23, y23]] as const) {
      f.op('local.get', acc).op('local.get', x).op('local.get', y).op('f64x2.mul').op('f64x2.add').op('local.set', acc);
    }
  };
  const element = (row: Local): void => { f.op('local.get', row).op('local.get', i).op('i32.const', 3).op('i32.shl').op('i32.add'); };
  f.op('local.get', rows).op('i32.const', -4).op('i32.and').op('local.set', end);
  f.op('i32.const', 0).op('local.set', i);
  f.block().loop();
  f.op('local.get', i).op('local.get', end).op('i32.ge_u').op('br_if', 1);
  element(rowP); f.mem('v128.load').op('local.set', x01);
  element(rowP); f.mem('v128.load', { offset: 16 }).op('local.set', x23);
  element(rowQ); f.mem('v128.load').op('local.set', y01);
  element(rowQ); f.mem('v128.load', { offset: 16 }).op('local.set', y23);
  accumulate();
  f.op('local.get', i).op('i32.const', 4).op('i32.add').op('local.set', i).op('br', 0);
  f.end().end();
  // The tail: `left` = rows - end elements, 0 to 3.
  f.op('local.get', rows).op('local.get', end).op('i32.sub').op('local.tee', left);
  f.if();
  for (const [row, lo, hi] of [[rowP, x01, x23], [rowQ, y01, y23]] as const) {
    // lo: one element and a zero, or two; hi: a zero pair, or the third element and a zero.
    f.op('local.get', left).op('i32.const', 1).op('i32.eq');
    f.if('v128');
    element(row); f.mem('v128.load64_zero');
    f.else();
    element(row); f.mem('v128.load');
    f.end().op('local.set', lo);
    f.op('local.get', left).op('i32.const', 3).op('i32.eq');
    f.if('v128');
    element(row); f.mem('v128.load64_zero', { offset: 16 });
    f.else();
    zero();
    f.end().op('local.set', hi);
  }
  accumulate();
  f.end();
  const fold = (lo: Local, hi: Local, into: Local): void => {
    f.op('local.get', lo).op('f64x2.extract_lane', 0).op('local.get', lo).op('f64x2.extract_lane', 1).op('f64.add');
    f.op('local.get', hi).op('f64x2.extract_lane', 0).op('local.get', hi).op('f64x2.extract_lane', 1).op('f64.add');
    f.op('f64.add').op('local.set', into);
  };
  fold(a01, a23, alpha);
  fold(b01, b23, beta);
  fold(g01, g23, gamma);
  // gamma === 0 || |gamma| <= eps sqrt(alpha) sqrt(beta): nothing to turn.
  f.op('local.get', gamma).op('f64.const', 0).op('f64.eq');
  f.op('local.get', gamma).op('f64.abs').op('local.get', eps).op('local.get', alpha).op('f64.sqrt').op('f64.mul')
    .op('local.get', beta).op('f64.sqrt').op('f64.mul').op('f64.le').op('i32.or');
  f.if().op('i32.const', 0).op('return').end();
  // zeta = (beta - alpha) / (2 gamma)
  f.op('local.get', beta).op('local.get', alpha).op('f64.sub').op('f64.const', 2).op('local.get', gamma).op('f64.mul').op('f64.div').op('local.set', zeta);
  rotationFrom(f, zeta, t, c, s);
  f.op('local.get', rowP).op('local.get', rowQ).op('local.get', rows).op('local.get', c).op('local.get', s).op('call', rotate);
  // V too, unless vt is 0 (only the singular values asked for).
  f.op('local.get', vt);
  f.if();
  at(f, vt, p, n, ZERO);
  at(f, vt, q, n, ZERO);
  f.op('local.get', n).op('local.get', c).op('local.get', s).op('call', rotate);
  f.end();
  f.op('i32.const', 1);
  return index;
}

/** hestenes_row(wt, vt, m, n, p, eps) -> i32: hestenes_pair for q = p + 1 .. n - 1 in order; 1 if any rotated. */
function emitHestenesRow(m: ModuleBuilder, pair: number): void {
  const [, f] = m.func('hestenes_row', ['i32', 'i32', 'i32', 'i32', 'i32', 'f64'], ['i32']);
  const [wt, vt, rows, n, p, eps] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4), f.param(5)];
  const [q, from, rotated] = [f.local('i32'), f.local('i32'), f.local('i32')];
  f.op('local.get', p).op('i32.const', 1).op('i32.add').op('local.set', from);
  forUp(f, q, from, n, () => {
    for (const x of [wt, vt, rows, n, p, q]) f.op('local.get', x);
    f.op('local.get', eps).op('call', pair).op('local.get', rotated).op('i32.or').op('local.set', rotated);
  });
  f.op('local.get', rotated);
}

/** The Jacobi module's bytes, importing `env.memory` (shared or not, as the heap's memory is). */
function buildJacobiModule(shared: boolean): Uint8Array<ArrayBuffer> {
  const m = new ModuleBuilder().importMemory({ module: 'env', name: 'memory', initial: 1, maximum: WASM32_MAX_PAGES, shared });
  emitHestenesRow(m, emitHestenesPair(m, emitRotateRows(m)));
  return m.toBytes();
}

export { buildJacobiModule, emitRotateRows };
