// The Cholesky factorisation of the reference evaluator (deferred-array's
// reference/decompositions.ts) over a row-major float64 matrix in the heap,
// column by column: each element's sum of products in four partial sums
// (emit-dot4.ts), as the reference makes it, so the bits are the same.
import { ModuleBuilder } from '../encode/module-builder.js';
import type { Local } from '../encode/function-builder.js';
import { WASM32_MAX_PAGES } from '../heap/constants.js';
import { ZERO, element, rowOf } from './emit-loops.js';
import { dotLocals, emitDot4, emitDot4Pair } from './emit-dot4.js';

/**
 * cholesky_column(l, ld, n, j) -> i32: column j of L, where l holds A's
 * lower triangle and L's columns before j (rows ld elements apart): d =
 * l[j][j] - dot4(l[j][k]^2, k < j); 0 if d <= 0 (not positive definite; a NaN
 * goes on), else l[j][j] = sqrt(d) and l[i][j] = (l[i][j] - dot4(l[i][k]
 * l[j][k], k < j)) / l[j][j] for i > j, two rows i a loop; returns 1.
 */
function emitColumn(m: ModuleBuilder): void {
  const [, f] = m.func('cholesky_column', ['i32', 'i32', 'i32', 'i32'], ['i32']);
  const [l, ld, n, j] = [f.param(0), f.param(1), f.param(2), f.param(3)];
  const [i, rowJ, rowI, rowI2, last] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const [d, s, dot1, dot2] = [f.local('f64'), f.local('f64'), f.local('f64'), f.local('f64')];
  const dl = dotLocals(f);
  const second = [f.local('v128'), f.local('v128')] as const;
  /** l[i][j] = (l[i][j] - the sum `dot` pushes) / l[j][j], for the row at `row`. */
  const store = (row: Local, dot: () => void): void => {
    element(f, row, j);
    element(f, row, j);
    f.mem('f64.load');
    dot();
    f.op('f64.sub').op('local.get', s).op('f64.div').mem('f64.store');
  };
  rowOf(f, l, ld, j);
  f.op('local.set', rowJ);
  element(f, rowJ, j);
  f.mem('f64.load');
  emitDot4(f, rowJ, rowJ, ZERO, j, dl);
  f.op('f64.sub').op('local.tee', d).op('f64.const', 0).op('f64.le');
  f.if().op('i32.const', 0).op('return').end();
  element(f, rowJ, j);
  f.op('local.get', d).op('f64.sqrt').op('local.tee', s).mem('f64.store');
  f.op('local.get', j).op('i32.const', 1).op('i32.add').op('local.set', i);
  // Rows two at a time: their sums are independent chains of adds, which one row alone leaves waiting.
  f.op('local.get', n).op('i32.const', 1).op('i32.sub').op('local.set', last);
  f.block().loop();
  f.op('local.get', i).op('local.get', last).op('i32.ge_s').op('br_if', 1);
  rowOf(f, l, ld, i);
  f.op('local.tee', rowI).op('local.get', ld).op('i32.const', 3).op('i32.shl').op('i32.add').op('local.set', rowI2);
  emitDot4Pair(f, rowI, rowI2, rowJ, ZERO, j, dl, second);
  f.op('local.set', dot2).op('local.set', dot1);
  store(rowI, () => f.op('local.get', dot1));
  store(rowI2, () => f.op('local.get', dot2));
  f.op('local.get', i).op('i32.const', 2).op('i32.add').op('local.set', i).op('br', 0);
  f.end().end();
  // The last row, when the rows below j are odd.
  f.op('local.get', i).op('local.get', n).op('i32.lt_s');
  f.if();
  rowOf(f, l, ld, i);
  f.op('local.set', rowI);
  store(rowI, () => emitDot4(f, rowI, rowJ, ZERO, j, dl));
  f.end();
  f.op('i32.const', 1);
}

/** The Cholesky module's bytes, importing `env.memory` (shared or not, as the heap's memory is). */
function buildCholeskyModule(shared: boolean): Uint8Array<ArrayBuffer> {
  const m = new ModuleBuilder().importMemory({ module: 'env', name: 'memory', initial: 1, maximum: WASM32_MAX_PAGES, shared });
  emitColumn(m);
  return m.toBytes();
}

export { buildCholeskyModule };
