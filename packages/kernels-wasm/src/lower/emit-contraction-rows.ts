// The inner loops of a matrix-vector product's tile ('rows'), over one
// batch's run of rows of C: lanes along A's rows, each group of rows loaded a
// vector at a time along k and transposed in registers, so that lane l still
// adds its own row's products in k order (see emit-contraction.ts).
import type { FunctionBuilder, Local } from '../encode/index.js';
import { InternalError, at } from '../internal-error.js';
import { bump, loop, stepLoop } from './emit-loops.js';
import { ROW_GROUPS, address, multiples } from './emit-contraction-segments.js';
import type { Segment, Shape } from './emit-contraction-segments.js';

/** Byte lanes of i8x16.shuffle picking 32- or 64-bit lanes (0..3 of a, 4..7 of b for 32-bit). */
function pick(laneBytes: number, lanes: readonly number[]): number[] {
  return lanes.flatMap((l) => Array.from({ length: laneBytes }, (_, k) => l * laneBytes + k));
}

/**
 * Transposes L row vectors (row l holds A[row l, k .. k+L-1]) into L column
 * vectors (vector j holds A[rows 0..L-1, k + j]).
 */
function transpose(f: FunctionBuilder, sh: Shape, rows: readonly Local[], out: readonly Local[], tmp: readonly Local[]): void {
  /** into = the lanes `lanes` (of width `bytes`) of a and b, the locals at those indices. */
  const shuffle = (from: readonly Local[], a: number, b: number, bytes: number, lanes: number[], into: Local): void => {
    f.op('local.get', at(from, a, 'vector')).op('local.get', at(from, b, 'vector')).shuffle(pick(bytes, lanes)).op('local.set', into);
  };
  const [o0, o1, o2, o3] = out;
  if (o0 === undefined || o1 === undefined) throw new InternalError('transpose needs L output vectors');
  if (sh.L === 2) {
    shuffle(rows, 0, 1, 8, [0, 2], o0);
    shuffle(rows, 0, 1, 8, [1, 3], o1);
    return;
  }
  const [t0, t1, t2, t3] = tmp;
  if (o2 === undefined || o3 === undefined || t0 === undefined || t1 === undefined || t2 === undefined || t3 === undefined) {
    throw new InternalError('a 4 x 4 transpose needs four output and four scratch vectors');
  }
  // 4 x 4 of 32-bit lanes: interleave pairs of rows, then pairs of the 64-bit halves.
  shuffle(rows, 0, 1, 4, [0, 4, 1, 5], t0);
  shuffle(rows, 0, 1, 4, [2, 6, 3, 7], t1);
  shuffle(rows, 2, 3, 4, [0, 4, 1, 5], t2);
  shuffle(rows, 2, 3, 4, [2, 6, 3, 7], t3);
  shuffle(tmp, 0, 2, 8, [0, 2], o0);
  shuffle(tmp, 0, 2, 8, [1, 3], o1);
  shuffle(tmp, 1, 3, 8, [0, 2], o2);
  shuffle(tmp, 1, 3, 8, [1, 3], o3);
}

function emitRows(s: Segment): void {
  const { f, sh } = s;
  const most = ROW_GROUPS * sh.L;
  const [q, xq, cq, i] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const aOff = multiples(f, s.aRow, most);
  const cOff = multiples(f, s.cRow, most);
  const xOff = multiples(f, s.bRow, sh.L);
  f.op('i32.const', 0).op('local.set', q);
  loop(f, () => { f.op('local.get', q).op('local.get', s.Q).op('i32.ge_u'); }, () => {
    f.op('local.get', s.bBase).op('local.get', q).op('local.get', s.bCol).op('i32.mul').op('i32.add').op('local.set', xq);
    f.op('local.get', s.cBase).op('local.get', q).op('i32.const', sh.E).op('i32.mul').op('i32.add').op('local.set', cq);
    f.op('i32.const', 0).op('local.set', i);
    for (const groups of [ROW_GROUPS, 1]) {
      stepLoop(f, i, groups * sh.L, s.n, () => { emitRowGroups(s, groups, i, xq, cq, aOff, cOff, xOff); });
    }
    emitScalarRows(s, i, xq, cq);
    bump(f, q, 1);
  });
}

/** The locals of a group of rows: A's and x's pointers along k, the steps left, and the vectors. */
interface RowGroup {
  readonly s: Segment;
  readonly groups: number;
  readonly aK: Local; readonly xK: Local; readonly k: Local;
  /** One accumulator per group of L rows (lane l: row l of the group). */
  readonly acc: readonly Local[];
  readonly rowV: readonly Local[];
  readonly colV: readonly Local[];
  readonly tmp: readonly Local[];
  readonly xs: Local;
  readonly aOff: readonly Local[];
  readonly xOff: readonly Local[];
}

/** The offset of entry j in `offs`, none for entry 0. */
const offAt = (offs: readonly Local[], j: number): Local | undefined => (j === 0 ? undefined : at(offs, j, 'row offset'));

/** groups x L rows of column q of C, from row i. */
function emitRowGroups(s: Segment, groups: number, i: Local, xq: Local, cq: Local,
  aOff: readonly Local[], cOff: readonly Local[], xOff: readonly Local[]): void {
  const { f, sh } = s;
  const { L } = sh;
  const [aK, xK, k, cp] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  const g: RowGroup = {
    s, groups, aK, xK, k, aOff, xOff,
    acc: Array.from({ length: groups }, () => f.local('v128')),
    rowV: Array.from({ length: groups * L }, () => f.local('v128')),
    colV: Array.from({ length: groups * L }, () => f.local('v128')),
    tmp: Array.from({ length: 4 }, () => f.local('v128')),
    xs: f.local('v128'),
  };
  f.op('local.get', s.aBase).op('local.get', i).op('local.get', s.aRow).op('i32.mul').op('i32.add').op('local.set', aK);
  f.op('local.get', xq).op('local.set', xK);
  f.op('local.get', s.K).op('local.set', k);
  for (const a of g.acc) f.v128i32(0).op('local.set', a);
  emitTransposedSteps(g);
  emitLastSteps(g);
  f.op('local.get', cq).op('local.get', i).op('local.get', s.cRow).op('i32.mul').op('i32.add').op('local.set', cp);
  const laneStore = sh.t === 'f64' ? 'v128.store64_lane' : 'v128.store32_lane';
  g.acc.forEach((a, n) => {
    for (let l = 0; l < L; l++) {
      address(f, cp, offAt(cOff, n * L + l));
      f.op('local.get', a).mem(laneStore, { align: 0 }, l);
    }
  });
}

/** acc[n] += col * x, lane-wise. */
function addProducts(g: RowGroup, n: number, col: Local): void {
  const { f, sh } = g.s;
  const a = at(g.acc, n, 'accumulator');
  f.op('local.get', a).op('local.get', col).op('local.get', g.xs).op(`${sh.v}.mul`).op(`${sh.v}.add`).op('local.set', a);
}

/** L steps of k at a time: load, transpose, accumulate in k order. */
function emitTransposedSteps(g: RowGroup): void {
  const { s } = g;
  const { f, sh } = s;
  const { L, E } = sh;
  const splat = sh.t === 'f64' ? 'v128.load64_splat' : 'v128.load32_splat';
  loop(f, () => { f.op('local.get', g.k).op('i32.const', L).op('i32.lt_u'); }, () => {
    g.rowV.forEach((v, j) => {
      address(f, g.aK, offAt(g.aOff, j));
      f.mem('v128.load', { align: 0 }).op('local.set', v);
    });
    for (let n = 0; n < g.groups; n++) transpose(f, sh, g.rowV.slice(n * L, n * L + L), g.colV.slice(n * L, n * L + L), g.tmp);
    for (let j = 0; j < L; j++) {
      address(f, g.xK, offAt(g.xOff, j));
      f.mem(splat, { align: 0 }).op('local.set', g.xs);
      for (let n = 0; n < g.groups; n++) addProducts(g, n, at(g.colV, n * L + j, 'column vector'));
    }
    f.op('local.get', g.aK).op('i32.const', L * E).op('i32.add').op('local.set', g.aK);
    f.op('local.get', g.xK).op('local.get', at(g.xOff, L - 1, 'row offset')).op('local.get', s.bRow).op('i32.add').op('i32.add').op('local.set', g.xK);
    f.op('local.get', g.k).op('i32.const', L).op('i32.sub').op('local.set', g.k);
  });
}

/** The last K mod L steps: each row's element put into its lane. */
function emitLastSteps(g: RowGroup): void {
  const { s } = g;
  const { f, sh } = s;
  const { L, E } = sh;
  const splat = sh.t === 'f64' ? 'v128.load64_splat' : 'v128.load32_splat';
  loop(f, () => { f.op('local.get', g.k).op('i32.eqz'); }, () => {
    f.op('local.get', g.xK).mem(splat, { align: 0 }).op('local.set', g.xs);
    for (let n = 0; n < g.groups; n++) {
      const col = at(g.colV, n, 'column vector');
      f.v128i32(0);
      for (let l = 0; l < L; l++) {
        address(f, g.aK, offAt(g.aOff, n * L + l));
        f.mem(`${sh.t}.load`, { align: 0 }).op(`${sh.v}.replace_lane`, l);
      }
      f.op('local.set', col);
      addProducts(g, n, col);
    }
    f.op('local.get', g.aK).op('i32.const', E).op('i32.add').op('local.set', g.aK);
    f.op('local.get', g.xK).op('local.get', s.bRow).op('i32.add').op('local.set', g.xK);
    f.op('local.get', g.k).op('i32.const', 1).op('i32.sub').op('local.set', g.k);
  });
}

/** Rows left over from row i, one at a time. */
function emitScalarRows(s: Segment, i: Local, xq: Local, cq: Local): void {
  const { f, sh } = s;
  const [aK, xK, k] = [f.local('i32'), f.local('i32'), f.local('i32')];
  const acc = f.local(sh.t);
  loop(f, () => { f.op('local.get', i).op('local.get', s.n).op('i32.ge_u'); }, () => {
    f.op('local.get', s.aBase).op('local.get', i).op('local.get', s.aRow).op('i32.mul').op('i32.add').op('local.set', aK);
    f.op('local.get', xq).op('local.set', xK);
    f.op('local.get', s.K).op('local.set', k);
    f.op(`${sh.t}.const`, 0).op('local.set', acc);
    loop(f, () => { f.op('local.get', k).op('i32.eqz'); }, () => {
      f.op('local.get', acc);
      f.op('local.get', aK).mem(`${sh.t}.load`, { align: 0 });
      f.op('local.get', xK).mem(`${sh.t}.load`, { align: 0 });
      f.op(`${sh.t}.mul`).op(`${sh.t}.add`).op('local.set', acc);
      f.op('local.get', aK).op('local.get', s.aCol).op('i32.add').op('local.set', aK);
      f.op('local.get', xK).op('local.get', s.bRow).op('i32.add').op('local.set', xK);
      f.op('local.get', k).op('i32.const', 1).op('i32.sub').op('local.set', k);
    });
    f.op('local.get', cq).op('local.get', i).op('local.get', s.cRow).op('i32.mul').op('i32.add');
    f.op('local.get', acc).mem(`${sh.t}.store`, { align: 0 });
    bump(f, i, 1);
  });
}

export { emitRows };
