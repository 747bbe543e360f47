// The inner loops of a contraction's tile, over one batch's run of rows of C
// (a segment), with lanes along C's columns: a register tile over panels of
// B (see emit-contraction.ts for why each element's sum stays in k order).
// Lanes along A's rows are emit-contraction-rows.ts's.
import type { FunctionBuilder, Local } from '../encode/index.js';
import { at } from '../internal-error.js';
import { bump, loop, stepLoop } from './emit-loops.js';
import type { ContractionSpec } from './kernel-spec.js';

/** Rows by vectors of the 'columns' register tile, and row vectors per group in 'rows' (emit-contraction-rows.ts). */
const TILE_ROWS = 4;
const TILE_VECTORS = 2;
const ROW_GROUPS = 4;

interface Shape {
  readonly t: 'f64' | 'f32' | 'i32';
  readonly v: 'f64x2' | 'f32x4' | 'i32x4';
  readonly E: number;
  readonly L: number;
}

/** Lanes of the product's dtype; int32 and uint32 share i32 arithmetic, which wraps the same in both. */
const SHAPES: Readonly<Record<ContractionSpec['dtype'], Shape>> = {
  float64: { t: 'f64', v: 'f64x2', E: 8, L: 2 },
  float32: { t: 'f32', v: 'f32x4', E: 4, L: 4 },
  int32: { t: 'i32', v: 'i32x4', E: 4, L: 4 },
  uint32: { t: 'i32', v: 'i32x4', E: 4, L: 4 },
};

const shapeOf = (c: ContractionSpec): Shape => SHAPES[c.dtype];

/** One batch's run of rows: n rows of A from aBase, B from bBase, C from cBase (all byte addresses, byte strides). */
interface Segment {
  readonly f: FunctionBuilder;
  readonly sh: Shape;
  readonly n: Local;
  readonly K: Local;
  readonly Q: Local;
  readonly aBase: Local; readonly aRow: Local; readonly aCol: Local;
  readonly bBase: Local; readonly bRow: Local; readonly bCol: Local;
  readonly cBase: Local; readonly cRow: Local;
}

/**
 * A panel of the 'columns' product: steps [k0, k0 + K) of every sum, for
 * columns [q0, Q). Sums start from +0 in the first panel along k and from
 * what C holds (the earlier steps, stored exactly) in the others, so each is
 * still added in k order.
 */
interface Panel extends Segment {
  readonly q0: Local;
  /** Nonzero in the first panel along k. */
  readonly first: Local;
}

/**
 * Panels of the 'columns' product: KC steps of k by QC columns, so that the
 * part of B the tiles read (KC x QC elements: 64 KiB of float64) stays in
 * cache while every row of the segment passes over it, where a whole column
 * strip of B per row group streamed B through the caches once per four rows.
 */
const KC = 128;
const QC = 64;

/** Locals holding j * stride for j < count (j = 0 needs none). */
function multiples(f: FunctionBuilder, stride: Local, count: number): Local[] {
  return Array.from({ length: count }, (_, j) => {
    const l = f.local('i32');
    f.op('i32.const', j).op('local.get', stride).op('i32.mul').op('local.set', l);
    return l;
  });
}

/** Pushes `ptr + off` (off undefined or a local). */
function address(f: FunctionBuilder, ptr: Local, off?: Local): void {
  f.op('local.get', ptr);
  if (off) f.op('local.get', off).op('i32.add');
}

function emitColumns(s: Segment): void {
  const { f } = s;
  const i32 = (): Local => f.local('i32');
  const [i, k0, kc, q0, q1, aK0, bK0, first] = [i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32()];
  const aOff = multiples(f, s.aRow, TILE_ROWS);
  const cOff = multiples(f, s.cRow, TILE_ROWS);
  const minInto = (x: () => void, y: () => void, into: Local): void => {
    x(); y(); x(); y(); f.op('i32.lt_u').op('select').op('local.set', into);
  };
  const get = (l: Local) => (): void => { f.op('local.get', l); };
  f.op('i32.const', 0).op('local.set', k0);
  // An empty sum (K = 0) still writes its +0s: one panel along k, of no steps.
  f.op('i32.const', 1).op('local.set', first);
  f.block().loop();
  minInto(() => { f.op('i32.const', KC); }, () => { f.op('local.get', s.K).op('local.get', k0).op('i32.sub'); }, kc);
  f.op('local.get', s.aBase).op('local.get', k0).op('local.get', s.aCol).op('i32.mul').op('i32.add').op('local.set', aK0);
  f.op('local.get', s.bBase).op('local.get', k0).op('local.get', s.bRow).op('i32.mul').op('i32.add').op('local.set', bK0);
  f.op('i32.const', 0).op('local.set', q0);
  loop(f, () => { f.op('local.get', q0).op('local.get', s.Q).op('i32.ge_u'); }, () => {
    minInto(() => { f.op('local.get', q0).op('i32.const', QC).op('i32.add'); }, get(s.Q), q1);
    const panel: Panel = { ...s, K: kc, Q: q1, aBase: aK0, bBase: bK0, q0, first };
    f.op('i32.const', 0).op('local.set', i);
    for (const rr of [TILE_ROWS, 1]) stepLoop(f, i, rr, s.n, () => { emitColumnRows(panel, rr, i, aOff, cOff); });
    f.op('local.get', q1).op('local.set', q0);
  });
  f.op('i32.const', 0).op('local.set', first);
  f.op('local.get', k0).op('local.get', kc).op('i32.add').op('local.tee', k0);
  f.op('local.get', s.K).op('i32.lt_u').op('br_if', 0);
  f.end().end();
}

/** The k loop's pointers along a row of A and a column of B, and the count of steps left. */
interface KWalk {
  readonly aK: Local;
  readonly bK: Local;
  readonly k: Local;
}

/** rr rows of C from row i, over the panel: vector tiles across q, then the columns left one at a time. */
function emitColumnRows(s: Panel, rr: number, i: Local, aOff: readonly Local[], cOff: readonly Local[]): void {
  const { f } = s;
  const [ap, cp, q, aK, bK, k] = [f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32'), f.local('i32')];
  f.op('local.get', s.aBase).op('local.get', i).op('local.get', s.aRow).op('i32.mul').op('i32.add').op('local.set', ap);
  f.op('local.get', s.cBase).op('local.get', i).op('local.get', s.cRow).op('i32.mul').op('i32.add').op('local.set', cp);
  f.op('local.get', s.q0).op('local.set', q);
  const tile: ColumnTile = { s, rr, q, ap, cp, aOff, cOff, walk: { aK, bK, k } };
  for (const cv of [TILE_VECTORS, 1]) emitVectorTiles(tile, cv);
  emitLeftColumns(tile);
}

/** Where a register tile of C starts: rr rows from ap (A) and cp (C), columns from q. */
interface ColumnTile {
  readonly s: Panel;
  readonly rr: number;
  readonly q: Local;
  readonly ap: Local;
  readonly cp: Local;
  /** Byte offsets of the tile's rows in A and in C (row 0 has none). */
  readonly aOff: readonly Local[];
  readonly cOff: readonly Local[];
  readonly walk: KWalk;
}

/** The offset of row r in `offs`, none for row 0. */
const rowOff = (offs: readonly Local[], r: number): Local | undefined => (r === 0 ? undefined : at(offs, r, 'row offset'));

/** Starts the k loop of the columns at q: A at the tile's row, B at column q, K steps. */
function startK(t: ColumnTile): void {
  const { f, sh } = t.s;
  const { aK, bK, k } = t.walk;
  f.op('local.get', t.ap).op('local.set', aK);
  f.op('local.get', t.s.bBase).op('local.get', t.q).op('i32.const', sh.E).op('i32.mul').op('i32.add').op('local.set', bK);
  f.op('local.get', t.s.K).op('local.set', k);
}

/** The k loop over A's row and B's column, `body` once per step. */
function kLoop(t: ColumnTile, body: () => void): void {
  const { f } = t.s;
  const { aK, bK, k } = t.walk;
  loop(f, () => { f.op('local.get', k).op('i32.eqz'); }, () => {
    body();
    f.op('local.get', aK).op('local.get', t.s.aCol).op('i32.add').op('local.set', aK);
    f.op('local.get', bK).op('local.get', t.s.bRow).op('i32.add').op('local.set', bK);
    f.op('local.get', k).op('i32.const', 1).op('i32.sub').op('local.set', k);
  });
}

/** The tile's sums from +0 in the panel first along k (`zero`), else from C (`load`). */
function startSums(t: ColumnTile, zero: () => void, load: () => void): void {
  const { f } = t.s;
  f.op('local.get', t.s.first).if();
  zero();
  f.else();
  load();
  f.end();
}

/** Pushes the address of C[i + r, q] (plus a constant offset at the store). */
function cAt(t: ColumnTile, r: number): void {
  const { f, sh } = t.s;
  address(f, t.cp, rowOff(t.cOff, r));
  f.op('local.get', t.q).op('i32.const', sh.E).op('i32.mul').op('i32.add');
}

/** Tiles of rr rows by cv vectors of columns, while cv vectors of columns are left. */
function emitVectorTiles(t: ColumnTile, cv: number): void {
  const { f, sh } = t.s;
  const acc = Array.from({ length: t.rr }, () => Array.from({ length: cv }, () => f.local('v128')));
  const bv = Array.from({ length: cv }, () => f.local('v128'));
  const av = f.local('v128');
  stepLoop(f, t.q, cv * sh.L, t.s.Q, () => {
    startSums(t, () => { for (const row of acc) for (const a of row) f.v128i32(0).op('local.set', a); }, () => {
      acc.forEach((row, r) => row.forEach((a, c) => { cAt(t, r); f.mem('v128.load', { offset: 16 * c, align: 0 }).op('local.set', a); }));
    });
    startK(t);
    kLoop(t, () => {
      bv.forEach((v, c) => { f.op('local.get', t.walk.bK).mem('v128.load', { offset: 16 * c, align: 0 }).op('local.set', v); });
      acc.forEach((row, r) => {
        address(f, t.walk.aK, rowOff(t.aOff, r));
        f.mem(sh.t === 'f64' ? 'v128.load64_splat' : 'v128.load32_splat', { align: 0 }).op('local.set', av);
        row.forEach((a, c) => {
          f.op('local.get', a).op('local.get', av).op('local.get', at(bv, c, 'vector')).op(`${sh.v}.mul`).op(`${sh.v}.add`).op('local.set', a);
        });
      });
    });
    acc.forEach((row, r) => row.forEach((a, c) => {
      cAt(t, r);
      f.op('local.get', a).mem('v128.store', { offset: 16 * c, align: 0 });
    }));
  });
}

/** Columns left over, one lane's worth at a time. */
function emitLeftColumns(t: ColumnTile): void {
  const { f, sh } = t.s;
  const accS = Array.from({ length: t.rr }, () => f.local(sh.t));
  const bs = f.local(sh.t);
  loop(f, () => { f.op('local.get', t.q).op('local.get', t.s.Q).op('i32.ge_u'); }, () => {
    startSums(t, () => { for (const a of accS) f.op(`${sh.t}.const`, 0).op('local.set', a); }, () => {
      accS.forEach((a, r) => { cAt(t, r); f.mem(`${sh.t}.load`, { align: 0 }).op('local.set', a); });
    });
    startK(t);
    kLoop(t, () => {
      f.op('local.get', t.walk.bK).mem(`${sh.t}.load`, { align: 0 }).op('local.set', bs);
      accS.forEach((a, r) => {
        f.op('local.get', a);
        address(f, t.walk.aK, rowOff(t.aOff, r));
        f.mem(`${sh.t}.load`, { align: 0 }).op('local.get', bs).op(`${sh.t}.mul`).op(`${sh.t}.add`).op('local.set', a);
      });
    });
    accS.forEach((a, r) => { cAt(t, r); f.op('local.get', a).mem(`${sh.t}.store`, { align: 0 }); });
    bump(f, t.q, 1);
  });
}

export { emitColumns, shapeOf, multiples, address, ROW_GROUPS };
export type { Segment, Shape };
