// The O(n^3) loops of the symmetric eigensolver (deferred-array's
// reference/eigh.ts: Householder reduction to tridiagonal form, then QL),
// over W = V transposed, a row-major float64 matrix in the heap whose rows
// lie `ld` elements apart: every loop the reference runs down a column of V
// runs along a row of W here, two lanes at a time where its elements are
// independent, one at a time where they sum in order. Each element takes the
// reference's operations in its order (no fused multiply-add), so the bits
// are the same.
import { ModuleBuilder } from '../encode/module-builder.js';
import type { FunctionBuilder, Local } from '../encode/function-builder.js';
import { WASM32_MAX_PAGES } from '../heap/constants.js';
import { ZERO, element, forUp, lanes, lanes4, rowOf } from './emit-loops.js';
import { dotLocals, emitDot4 } from './emit-dot4.js';

const OPS = {
  v: { load: 'v128.load', store: 'v128.store', mul: 'f64x2.mul', add: 'f64x2.add', sub: 'f64x2.sub', div: 'f64x2.div', splat: true },
  s: { load: 'f64.load', store: 'f64.store', mul: 'f64.mul', add: 'f64.add', sub: 'f64.sub', div: 'f64.div', splat: false },
} as const;

/** Pushes local x (an f64), splat to both lanes for kind 'v'. */
function scalarAs(f: FunctionBuilder, kind: 'v' | 's', x: Local): void {
  f.op('local.get', x);
  if (OPS[kind].splat) f.op('f64x2.splat');
}

/**
 * tred_apply(w, ld, d, e, i): for j < i in order: f = d[j]; V[j][i] = f
 * (W[i][j]); e[k] += V[k][j] f for k = j+1 .. i-1 (W's row j, in lanes);
 * e[j] = (e[j] + V[j][j] f) + dot4(V[k][j] d[k], k = j+1 .. i-1).
 */
function emitApply(m: ModuleBuilder): void {
  const [, f] = m.func('tred_apply', ['i32', 'i32', 'i32', 'i32', 'i32'], []);
  const [w, ld, d, e, i] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4)];
  const [j, k0, row, rowI] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const [fj, g, dot] = [f.local('f64'), f.local('f64'), f.local('f64')];
  const dl = dotLocals(f);
  rowOf(f, w, ld, i);
  f.op('local.set', rowI);
  forUp(f, j, ZERO, i, () => {
    element(f, d, j);
    f.mem('f64.load').op('local.set', fj);
    element(f, rowI, j);
    f.op('local.get', fj).mem('f64.store');
    rowOf(f, w, ld, j);
    f.op('local.set', row);
    element(f, e, j);
    f.mem('f64.load');
    element(f, row, j);
    f.mem('f64.load').op('local.get', fj).op('f64.mul').op('f64.add').op('local.set', g);
    f.op('local.get', j).op('i32.const', 1).op('i32.add').op('local.set', k0);
    // e[k] += V[k][j] f rides in the dot's loop, over the same elements of W's row j (read once).
    const addTo = (kind: 'v' | 's', offset = 0): void => {
      const o = OPS[kind];
      element(f, e, dl.k);
      element(f, e, dl.k);
      f.mem(o.load, { offset });
      element(f, row, dl.k);
      f.mem(o.load, { offset });
      scalarAs(f, kind, fj);
      f.op(o.mul).op(o.add).mem(o.store, { offset });
    };
    emitDot4(f, row, d, k0, i, dl, (offset) => addTo('v', offset));
    f.op('local.set', dot);
    lanes(f, dl.k, dl.k, i, (kind) => addTo(kind));
    element(f, e, j);
    f.op('local.get', g).op('local.get', dot).op('f64.add').mem('f64.store');
  });
}

/**
 * tred_update(w, ld, d, e, i): for j < i in order: V[k][j] -= (d[j] e[k] +
 * e[j] d[k]) for k = j .. i-1 (W's row j, in lanes); d[j] = V[i-1][j];
 * V[i][j] = 0.
 */
function emitUpdate(m: ModuleBuilder): void {
  const [, f] = m.func('tred_update', ['i32', 'i32', 'i32', 'i32', 'i32'], []);
  const [w, ld, d, e, i] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4)];
  const [j, k, row, last] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const [fj, gj] = [f.local('f64'), f.local('f64')];
  const [fv, gv] = [f.local('v128'), f.local('v128')];
  f.op('local.get', i).op('i32.const', 1).op('i32.sub').op('local.set', last);
  forUp(f, j, ZERO, i, () => {
    element(f, d, j);
    f.mem('f64.load').op('local.set', fj);
    element(f, e, j);
    f.mem('f64.load').op('local.set', gj);
    rowOf(f, w, ld, j);
    f.op('local.set', row);
    f.op('local.get', fj).op('f64x2.splat').op('local.set', fv);
    f.op('local.get', gj).op('f64x2.splat').op('local.set', gv);
    lanes4(f, k, j, i, (kind, offset) => {
      const o = OPS[kind];
      element(f, row, k);
      element(f, row, k);
      f.mem(o.load, { offset });
      f.op('local.get', kind === 'v' ? fv : fj);
      element(f, e, k);
      f.mem(o.load, { offset }).op(o.mul);
      f.op('local.get', kind === 'v' ? gv : gj);
      element(f, d, k);
      f.mem(o.load, { offset }).op(o.mul).op(o.add).op(o.sub).mem(o.store, { offset });
    });
    element(f, d, j);
    element(f, row, last);
    f.mem('f64.load').mem('f64.store');
    element(f, row, i);
    f.op('f64.const', 0).mem('f64.store');
  });
}

/**
 * tred_accumulate(w, ld, d, i, h): d[k] = V[k][i+1] / h for k <= i (W's row
 * i+1, in lanes); then for j <= i in order: g = dot4(V[k][i+1] V[k][j], k =
 * 0 .. i); V[k][j] -= g d[k] for k <= i (in lanes). Column j+1's g is summed
 * in the loop that updates column j (it reads nothing that loop writes), so
 * the update rides beside the latency-bound sum.
 */
function emitAccumulate(m: ModuleBuilder): void {
  const [, f] = m.func('tred_accumulate', ['i32', 'i32', 'i32', 'i32', 'f64'], []);
  const [w, ld, d, i, h] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4)];
  const [j, k, row, following, next, end] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const g = f.local('f64');
  const dl = dotLocals(f);
  f.op('local.get', i).op('i32.const', 1).op('i32.add').op('local.set', end);
  rowOf(f, w, ld, end);
  f.op('local.set', next);
  lanes(f, k, ZERO, end, (kind) => {
    const o = OPS[kind];
    element(f, d, k);
    element(f, next, k);
    f.mem(o.load);
    scalarAs(f, kind, h);
    f.op(o.div).mem(o.store);
  });
  /** V[k][j] -= g d[k] for the element(s) at `at` (+ offset bytes). */
  const update = (kind: 'v' | 's', at: Local, offset = 0): void => {
    const o = OPS[kind];
    element(f, row, at);
    element(f, row, at);
    f.mem(o.load, { offset });
    scalarAs(f, kind, g);
    element(f, d, at);
    f.mem(o.load, { offset }).op(o.mul).op(o.sub).mem(o.store, { offset });
  };
  rowOf(f, w, ld, ZERO);
  f.op('local.set', row);
  emitDot4(f, next, row, ZERO, end, dl);
  f.op('local.set', g);
  forUp(f, j, ZERO, end, () => {
    f.op('local.get', row).op('local.get', ld).op('i32.const', 3).op('i32.shl').op('i32.add').op('local.set', following);
    f.op('local.get', j).op('local.get', i).op('i32.lt_u');
    f.if('f64');
    emitDot4(f, next, following, ZERO, end, dl, (offset) => update('v', dl.k, offset));
    lanes(f, k, dl.k, end, (kind) => update(kind, k));
    f.else();
    lanes(f, k, ZERO, end, (kind) => update(kind, k));
    f.op('f64.const', 0);
    f.end();
    f.op('local.set', g);
    f.op('local.get', following).op('local.set', row);
  });
}

/**
 * Vectors of columns a strip of ql_rotations holds in registers: six carried
 * rows and their rotations fit x64's sixteen vector registers, and sweep
 * 15% faster than four at 512 x 512 (more independent work a rotation).
 */
const STRIP = 6;

/**
 * ql_rotations(w, ld, n, sweeps, count): `count` QL sweeps, in order, from
 * the table at byte address `sweeps` (16 bytes a sweep: i32 l, i32 m, i32
 * the byte address of its rotations). A sweep rotates V's columns i and i+1
 * for i = m-1 down to l (W's rows i and i+1), rotation i's cosine and sine
 * the f64s at cs + 16 (m-1-i): y = W[i+1][k]; W[i+1][k] = s W[i][k] + c y;
 * W[i][k] = c W[i][k] - s y. A strip of columns takes every sweep before the
 * next strip, so W is read from memory once for all of them, and within a
 * sweep row i's new values stay in registers as the next rotation's y: one
 * load and one store a row. Each element still meets the rotations in order,
 * with the same operations.
 */
function emitQlRotations(m: ModuleBuilder): void {
  const [, f] = m.func('ql_rotations', ['i32', 'i32', 'i32', 'i32', 'i32'], []);
  const [w, ld, n, sweeps, count] = [f.param(0), f.param(1), f.param(2), f.param(3), f.param(4)];
  const [k0, i, at, row, rowBytes] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const [l, last, entry, end] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const [cv, sv] = [f.local('v128'), f.local('v128')];
  const carry = Array.from({ length: STRIP }, () => f.local('v128'));
  const x = Array.from({ length: STRIP }, () => f.local('v128'));
  f.op('local.get', ld).op('i32.const', 3).op('i32.shl').op('local.set', rowBytes);
  f.op('local.get', sweeps).op('local.get', count).op('i32.const', 4).op('i32.shl').op('i32.add').op('local.set', end);
  f.op('i32.const', 0).op('local.set', k0);
  /** One sweep, the table's at `entry`, over columns [k0, k0 + width) in `vectors` vectors (0: one column, in scalar lanes). */
  const sweep = (vectors: number): void => {
    const scalar = vectors === 0;
    const width = Math.max(1, vectors);
    const load = (c: number): void => { if (scalar) f.mem('f64.load').op('f64x2.splat'); else f.mem('v128.load', { offset: 16 * c }); };
    const store = (c: number): void => { if (scalar) f.op('f64x2.extract_lane', 0).mem('f64.store'); else f.mem('v128.store', { offset: 16 * c }); };
    f.op('local.get', entry).mem('i32.load').op('local.set', l);
    f.op('local.get', entry).mem('i32.load', { offset: 4 }).op('local.set', last);
    f.op('local.get', entry).mem('i32.load', { offset: 8 }).op('local.set', at);
    rowOf(f, w, ld, last);
    f.op('local.get', k0).op('i32.const', 3).op('i32.shl').op('i32.add').op('local.set', row);
    for (let c = 0; c < width; c++) { f.op('local.get', row); load(c); f.op('local.set', carry[c]!); }
    f.op('local.get', last).op('local.set', i);
    f.block().loop();
    f.op('local.get', i).op('local.get', l).op('i32.le_s').op('br_if', 1);
    f.op('local.get', i).op('i32.const', 1).op('i32.sub').op('local.set', i);
    f.op('local.get', at).mem('f64.load').op('f64x2.splat').op('local.set', cv);
    f.op('local.get', at).mem('f64.load', { offset: 8 }).op('f64x2.splat').op('local.set', sv);
    for (let c = 0; c < width; c++) {
      f.op('local.get', row).op('local.get', rowBytes).op('i32.sub');
      load(c);
      f.op('local.set', x[c]!);
      // Row i + 1: s x + c y.
      f.op('local.get', row);
      f.op('local.get', sv).op('local.get', x[c]!).op('f64x2.mul').op('local.get', cv).op('local.get', carry[c]!).op('f64x2.mul').op('f64x2.add');
      store(c);
      // Row i, carried: c x - s y.
      f.op('local.get', cv).op('local.get', x[c]!).op('f64x2.mul').op('local.get', sv).op('local.get', carry[c]!).op('f64x2.mul').op('f64x2.sub').op('local.set', carry[c]!);
    }
    f.op('local.get', row).op('local.get', rowBytes).op('i32.sub').op('local.set', row);
    f.op('local.get', at).op('i32.const', 16).op('i32.add').op('local.set', at).op('br', 0);
    f.end().end();
    for (let c = 0; c < width; c++) { f.op('local.get', row).op('local.get', carry[c]!); store(c); }
  };
  for (const vectors of [STRIP, 1, 0]) {
    const step = vectors === 0 ? 1 : 2 * vectors;
    f.block().loop();
    f.op('local.get', k0).op('i32.const', step).op('i32.add').op('local.get', n).op('i32.gt_s').op('br_if', 1);
    f.op('local.get', sweeps).op('local.set', entry);
    f.block().loop();
    f.op('local.get', entry).op('local.get', end).op('i32.ge_u').op('br_if', 1);
    sweep(vectors);
    f.op('local.get', entry).op('i32.const', 16).op('i32.add').op('local.set', entry).op('br', 0);
    f.end().end();
    f.op('local.get', k0).op('i32.const', step).op('i32.add').op('local.set', k0);
    f.op('br', 0);
    f.end().end();
  }
}

/** The tridiagonal module's bytes, importing `env.memory` (shared or not, as the heap's memory is). */
function buildTridiagonalModule(shared: boolean): Uint8Array<ArrayBuffer> {
  const m = new ModuleBuilder().importMemory({ module: 'env', name: 'memory', initial: 1, maximum: WASM32_MAX_PAGES, shared });
  emitApply(m);
  emitUpdate(m);
  emitAccumulate(m);
  emitQlRotations(m);
  return m.toBytes();
}

export { buildTridiagonalModule };
