// Householder reflections over a row-major float64 matrix in the heap: the
// reference evaluator's QR (deferred-array's reference/decompositions.ts)
// applies H = I - tau v v^T to each column c as two loops over the rows,
//   dot = sum_i v[i] a[i, c] (from +0, in row order);  dot *= tau;
//   a[i, c] -= dot * v[i],
// and the same loops here run on eight columns at a time in four f64x2
// accumulators, each lane making its column's scalar operations in their
// order (no fused multiply-add), so the bits are the reference's. A strip of
// eight columns takes a run of reflectors one after another while it stays
// in cache: each column still meets them in the reference's order.
import { ModuleBuilder } from '../encode/module-builder.js';
import type { Local } from '../encode/function-builder.js';
import { WASM32_MAX_PAGES } from '../heap/constants.js';
import { forUp } from './emit-loops.js';

/** Columns per strip, as f64x2 vectors; then strips of one vector, then single columns. */
const STRIP_VECTORS = 4;

/**
 * reflect_strip_W(a, n, m, col, v, vstride, taus, first, count, dir): columns
 * [col, col + W) of the m x n matrix at a take reflectors j = first,
 * first + dir, ... (count of them) in that order. Reflector j's vector lies
 * at v + j * vstride bytes (f64s indexed by row; rows j to m are read) and
 * its tau at taus + 8j; it touches rows j to m. A tau of zero is no
 * reflection and is skipped (the reference reflects nothing there).
 */
function emitStrip(m: ModuleBuilder, vectors: number): number {
  const scalar = vectors === 0;
  const [index, f] = m.func(`reflect_strip_${scalar ? 1 : 2 * vectors}`, ['i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32'], [], false);
  const [a, n, rows, col, v, vstride, taus, first, count, dir] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((k) => f.param(k)) as [Local, Local, Local, Local, Local, Local, Local, Local, Local, Local];
  const i32 = (): Local => f.local('i32');
  const [t, j, i, at, vj, rowBytes] = [i32(), i32(), i32(), i32(), i32(), i32()];
  const [tau, vi] = [f.local('f64'), f.local('f64')];
  const acc = Array.from({ length: Math.max(1, vectors) }, () => f.local(scalar ? 'f64' : 'v128'));
  const load = scalar ? 'f64.load' : 'v128.load';
  const store = scalar ? 'f64.store' : 'v128.store';
  const [mul, add, sub] = scalar ? ['f64.mul', 'f64.add', 'f64.sub'] : ['f64x2.mul', 'f64x2.add', 'f64x2.sub'];
  const widen = (x: Local): void => {
    f.op('local.get', x);
    if (!scalar) f.op('f64x2.splat');
  };
  /** `at` = the address of row i's element `col`, then `vi` = v_j[i]; i runs from j to m. */
  const rowsFromJ = (body: () => void): void => {
    f.op('local.get', a).op('local.get', j).op('local.get', n).op('i32.mul').op('local.get', col).op('i32.add')
      .op('i32.const', 3).op('i32.shl').op('i32.add').op('local.set', at);
    forUp(f, i, j, rows, () => {
      f.op('local.get', vj).op('local.get', i).op('i32.const', 3).op('i32.shl').op('i32.add').mem('f64.load').op('local.set', vi);
      body();
      f.op('local.get', at).op('local.get', rowBytes).op('i32.add').op('local.set', at);
    });
  };
  f.op('local.get', n).op('i32.const', 3).op('i32.shl').op('local.set', rowBytes);
  forUp(f, t, { constant: 0 }, count, () => {
    f.block();
    f.op('local.get', first).op('local.get', t).op('local.get', dir).op('i32.mul').op('i32.add').op('local.set', j);
    f.op('local.get', taus).op('local.get', j).op('i32.const', 3).op('i32.shl').op('i32.add').mem('f64.load');
    f.op('local.tee', tau).op('f64.const', 0).op('f64.eq').op('br_if', 0);
    f.op('local.get', v).op('local.get', j).op('local.get', vstride).op('i32.mul').op('i32.add').op('local.set', vj);
    for (const x of acc) {
      f.op('f64.const', 0);
      if (!scalar) f.op('f64x2.splat');
      f.op('local.set', x);
    }
    // dot += v[i] * a[i, c], row after row.
    rowsFromJ(() => {
      acc.forEach((x, c) => {
        f.op('local.get', x);
        widen(vi);
        f.op('local.get', at).mem(load, { offset: c * 16 }).op(mul).op(add).op('local.set', x);
      });
    });
    for (const x of acc) {
      f.op('local.get', x);
      widen(tau);
      f.op(mul).op('local.set', x);
    }
    // a[i, c] -= dot * v[i].
    rowsFromJ(() => {
      acc.forEach((x, c) => {
        f.op('local.get', at);
        f.op('local.get', at).mem(load, { offset: c * 16 });
        f.op('local.get', x);
        widen(vi);
        f.op(mul).op(sub).mem(store, { offset: c * 16 });
      });
    });
    f.end();
  });
  return index;
}

/**
 * reflect(a, n, m, c0, c1, v, vstride, taus, first, count, dir): columns
 * [c0, c1) of the m x n matrix at a take reflectors first, first + dir, ...
 * (count of them; see emitStrip), strip by strip. One call per strip, so that
 * V8 moves the strip's code to its optimised tier between calls.
 */
function emitReflect(m: ModuleBuilder, strips: ReadonlyMap<number, number>): void {
  const [, f] = m.func('reflect', ['i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32', 'i32'], []);
  const [a, n, rows, c0, c1, v, vstride, taus, first, count, dir] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((k) => f.param(k)) as [Local, Local, Local, Local, Local, Local, Local, Local, Local, Local, Local];
  const col = f.local('i32');
  f.op('local.get', c0).op('local.set', col);
  for (const [width, fn] of strips) {
    f.block().loop();
    f.op('local.get', col).op('i32.const', width).op('i32.add').op('local.get', c1).op('i32.gt_u').op('br_if', 1);
    for (const x of [a, n, rows, col, v, vstride, taus, first, count, dir]) f.op('local.get', x);
    f.op('call', fn);
    f.op('local.get', col).op('i32.const', width).op('i32.add').op('local.set', col).op('br', 0);
    f.end().end();
  }
}

/** The Householder module's bytes, importing `env.memory` (shared or not, as the heap's memory is). */
function buildHouseholderModule(shared: boolean): Uint8Array<ArrayBuffer> {
  const m = new ModuleBuilder().importMemory({ module: 'env', name: 'memory', initial: 1, maximum: WASM32_MAX_PAGES, shared });
  const strips = new Map([[2 * STRIP_VECTORS, emitStrip(m, STRIP_VECTORS)], [2, emitStrip(m, 1)], [1, emitStrip(m, 0)]]);
  emitReflect(m, strips);
  return m.toBytes();
}

export { buildHouseholderModule };
