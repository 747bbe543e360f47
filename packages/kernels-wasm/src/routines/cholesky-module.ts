// The Cholesky factorisation of the reference evaluator (deferred-array's
// reference/decompositions.ts) over a row-major float64 matrix in the heap,
// column by column: each element's sum of products in four partial sums
// (emit-dot4.ts), as the reference makes it, so the bits are the same.
import { ModuleBuilder } from '../encode/module-builder.js';
import { WASM32_MAX_PAGES } from '../heap/constants.js';
import { ZERO, element, forUp, rowOf } from './emit-loops.js';
import { dotLocals, emitDot4 } from './emit-dot4.js';

/**
 * cholesky_column(l, ld, n, j) -> i32: column j of L, where l holds A's
 * lower triangle and L's columns before j (rows ld elements apart): d =
 * l[j][j] - dot4(l[j][k]^2, k < j); 0 if d <= 0 (not positive definite; a NaN
 * goes on), else l[j][j] = sqrt(d) and l[i][j] = (l[i][j] - dot4(l[i][k]
 * l[j][k], k < j)) / l[j][j] for i > j; returns 1.
 */
function emitColumn(m: ModuleBuilder): void {
  const [, f] = m.func('cholesky_column', ['i32', 'i32', 'i32', 'i32'], ['i32']);
  const [l, ld, n, j] = [f.param(0), f.param(1), f.param(2), f.param(3)];
  const [i, rowJ, rowI, i0] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const [d, s] = [f.local('f64'), f.local('f64')];
  const dl = dotLocals(f);
  rowOf(f, l, ld, j);
  f.op('local.set', rowJ);
  element(f, rowJ, j);
  f.mem('f64.load');
  emitDot4(f, rowJ, rowJ, ZERO, j, dl);
  f.op('f64.sub').op('local.tee', d).op('f64.const', 0).op('f64.le');
  f.if().op('i32.const', 0).op('return').end();
  element(f, rowJ, j);
  f.op('local.get', d).op('f64.sqrt').op('local.tee', s).mem('f64.store');
  f.op('local.get', j).op('i32.const', 1).op('i32.add').op('local.set', i0);
  forUp(f, i, i0, n, () => {
    rowOf(f, l, ld, i);
    f.op('local.set', rowI);
    element(f, rowI, j);
    element(f, rowI, j);
    f.mem('f64.load');
    emitDot4(f, rowI, rowJ, ZERO, j, dl);
    f.op('f64.sub').op('local.get', s).op('f64.div').mem('f64.store');
  });
  f.op('i32.const', 1);
}

/** The Cholesky module's bytes, importing `env.memory` (shared or not, as the heap's memory is). */
function buildCholeskyModule(shared: boolean): Uint8Array<ArrayBuffer> {
  const m = new ModuleBuilder().importMemory({ module: 'env', name: 'memory', initial: 1, maximum: WASM32_MAX_PAGES, shared });
  emitColumn(m);
  return m.toBytes();
}

export { buildCholeskyModule };
