// Column reductions: the iteration space is [R, C] with the reduction over R
// (the outer axis in memory, like a sum over axis 0 of a row-major matrix).
// Reading row by row keeps memory access sequential; each block owns a range
// of columns and accumulates them in place in the partials array (slot-major:
// partials[slot * C + column]), so blocks never share an output and each
// column's value is final when its block ends. Rows are added in order, so
// results do not depend on how blocks are shared between workers. A scan over
// R (a cumsum over axis 0) keeps each column's running value there too, and
// its value at each row is that row's element of the result: the same
// additions, in the same order, as a line scanned element by element.
import type { FunctionBuilder, Local } from '../encode/index.js';
import { at } from '../internal-error.js';
import { ARGS, arrayPtrOffset, arrayStrideOffset } from './args-layout.js';
import type { EmitContext } from './context.js';
import { scalarType } from './context.js';
import { HIGH_TO_LOW, JOIN_LOW_HALVES } from '../encode/index.js';
import { blockRangeLoop, bump, emitHoisted, emitVectorStep, loop, scalarLoop, stepLoop, valueLocals } from './emit-loops.js';
import { loadArg, setArg } from './emit-values.js';
import type { ReduceInstr, ScanInstr, ValueLocals } from './emit-loops.js';
import { combineHalves, combineScalar, combineVector, fromF64, identity, toF64 } from './reduce-ops.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import type { KInstr, KReduce, KType, KernelArray, KernelSpec } from './kernel-spec.js';
import { LANE_COUNT, LANE_DTYPE, vectorBytes } from './simd-widths.js';
import { NO_POSITION, isArgReduce, iterationPositions, positionLanes, takeScalar, takeVector } from './arg-extremes.js';
import type { Lanes } from './simd-widths.js';

/**
 * A vector of columns' accumulator for one reduction: one v128 in the lanes'
 * own type, or (a float64 accumulator of four-lane values) two f64x2 halves.
 * The partials are f64, which hold every value of those types exactly, so the
 * accumulator is converted from them once per row group and back once.
 */
type Acc = readonly [Local] | readonly [Local, Local];

interface PartialsIO {
  /** acc = the partials at `at` + offset. */
  load(at: Local, offset: number, acc: Acc): void;
  /** acc = acc (fn) value, lane by lane, for values of type t; two halves take the value's halves, widened as the scalar loop widens them. */
  combine(fn: KReduce, t: KType, acc: Acc, value: Local): void;
  /** The partials at `at` + offset = acc, in f64. */
  store(at: Local, offset: number, acc: Acc): void;
}

/**
 * The partials of one value type t in `lanes`: i32x4 lanes hold every integer
 * type as the scalar loop does (narrow ones extended, exact in int32), uint32
 * as its bits, converted to and from the f64 partials unsigned.
 */
function partialsIO(f: FunctionBuilder, lanes: Lanes, t: KType): PartialsIO {
  if (t === 'bool') return maskPartialsIO(f, lanes);
  const s = t === 'uint32' ? 'u' : 's';
  const widen = lanes === 'f32x4' ? 'f64x2.promote_low_f32x4' : `f64x2.convert_low_i32x4_${s}`;
  const narrow = lanes === 'f32x4' ? 'f32x4.demote_f64x2_zero' : `i32x4.trunc_sat_f64x2_${s}_zero`;
  const same = (acc: Acc): boolean => lanes === 'f64x2' || acc.length === 2;
  return {
    load(at, offset, acc) {
      if (same(acc)) {
        acc.forEach((a, h) => { f.op('local.get', at).mem('v128.load', { align: 0, offset: offset + 16 * h }).op('local.set', a); });
        return;
      }
      f.op('local.get', at).mem('v128.load', { align: 0, offset }).op(narrow);
      f.op('local.get', at).mem('v128.load', { align: 0, offset: offset + 16 }).op(narrow);
      f.shuffle(JOIN_LOW_HALVES).op('local.set', acc[0]);
    },
    combine(fn, t, acc, value) {
      if (acc.length === 1) combineVector(f, lanes, fn, t, acc[0], value);
      else combineHalves(f, widen, fn, acc[0], acc[1], value);
    },
    store(at, offset, acc) {
      if (same(acc)) {
        acc.forEach((a, h) => { f.op('local.get', at).op('local.get', a).mem('v128.store', { align: 0, offset: offset + 16 * h }); });
        return;
      }
      f.op('local.get', at).op('local.get', acc[0]).op(widen).mem('v128.store', { align: 0, offset });
      f.op('local.get', at).op('local.get', acc[0]).op('local.get', acc[0]).shuffle(HIGH_TO_LOW).op(widen)
        .mem('v128.store', { align: 0, offset: offset + 16 });
    },
  };
}

/**
 * any's and all's partials in f64x2, f32x4 or i32x4 lanes (simdLanes takes no
 * other for them in a column kernel): 0 or 1 per column as f64, lane masks
 * in the accumulator, which or and and combine.
 */
function maskPartialsIO(f: FunctionBuilder, lanes: Lanes): PartialsIO {
  const numbers = partialsIO(f, lanes, LANE_DTYPE[lanes]);
  return {
    load(at, offset, acc) {
      numbers.load(at, offset, acc);
      // 1 to a lane of set bits, 0 to a clear one.
      f.op('local.get', acc[0]);
      if (lanes === 'i32x4') f.op('i32x4.neg');
      else if (lanes === 'f64x2') f.v128f64(0).op('f64x2.ne');
      else f.v128f32(0).op('f32x4.ne');
      f.op('local.set', acc[0]);
    },
    combine(fn, t, acc, value) { combineVector(f, lanes, fn, t, acc[0], value); },
    store(at, offset, acc) {
      // A set lane back to 1 (an integer, or the float's bits of 1.0), a clear one to 0.
      const n = f.local('v128');
      f.op('local.get', acc[0]);
      if (lanes === 'i32x4') f.op('i32x4.neg');
      else if (lanes === 'f64x2') f.v128f64(1).op('v128.and');
      else f.v128f32(1).op('v128.and');
      f.op('local.set', n);
      numbers.store(at, offset, [n]);
    },
  };
}

/** Rows the vector loop takes at a time: one load and store of each partial per 16 rows, and 16 streams in flight. */
const ROWS = 16;
/** Vectors of columns the vector loop takes at a time: independent chains of additions. */
const COLUMN_VECTORS = 4;

/** An array as the column kernel walks it: its byte strides between rows and between columns. */
interface ColumnArray {
  readonly spec: KernelArray;
  readonly rowStride: Local;
  readonly colStride: Local;
}

/** A reduction with its scalar accumulator, and with lanes its vector accumulators and where its partials start at j. */
interface ColumnReduce {
  readonly r: ReduceInstr;
  readonly scalar: Local;
  /** One accumulator per vector of columns side by side. */
  readonly vector: readonly Acc[];
  readonly partialAt: Local;
  /**
   * argmax and argmin: the row each value was found at, scalar and per
   * vector of columns, where their partials start at j, and the row's
   * position in every lane (arg-extremes.ts).
   */
  readonly positions?: { readonly scalar: Local; readonly vector: readonly Local[]; readonly partialAt: Local; readonly row: Local };
}

/** A scan with its scalar running value, and with lanes one per vector of columns side by side. */
interface ColumnScan {
  readonly x: ScanInstr;
  readonly scalar: Local;
  readonly vector: readonly Local[];
  readonly partialAt: Local;
}

/** What the column kernel's pieces share: the spec, its lanes and the function's locals. */
interface ColumnKernel {
  readonly ctx: EmitContext;
  readonly spec: KernelSpec;
  readonly lanes: Lanes | undefined;
  readonly R: Local; readonly C: Local; readonly bs: Local; readonly blk: Local;
  /** This block's columns [c0, c1). */
  readonly c0: Local; readonly c1: Local;
  readonly r: Local; readonly j: Local;
  /** The partials' base, and a scratch address of one partial. */
  readonly pb: Local; readonly addr: Local;
  readonly arrays: readonly ColumnArray[];
  readonly colStride: readonly Local[];
  readonly values: ValueLocals;
  readonly reduces: readonly ColumnReduce[];
  readonly scans: readonly ColumnScan[];
  /** Per row of a row group, each array's pointer. */
  readonly rowPtr: readonly (readonly Local[])[];
  readonly jTail: Local;
}

// `lanes` as simdLanes chose them: its reductions are in the lanes' own type, or float64 ones of
// float32 values (see PartialsIO), never any/all.
function emitColumnKernel(ctx: EmitContext, spec: KernelSpec, lanes: Lanes | undefined, blockBegin: Local, blockEnd: Local): void {
  const k = columnKernel(ctx, spec, lanes);
  setArg(ctx, ARGS.shape, k.R);
  setArg(ctx, ARGS.shape + 4, k.C);
  setArg(ctx, ARGS.blockSize, k.bs);
  setArg(ctx, ARGS.partials, k.pb);
  k.arrays.forEach((a, n) => {
    const bytes = KTYPE_BYTES[a.spec.dtype];
    setArg(ctx, arrayStrideOffset(2, n, 0), a.rowStride, bytes);
    setArg(ctx, arrayStrideOffset(2, n, 1), a.colStride, bytes);
  });
  blockRangeLoop(ctx.f, k.blk, blockBegin, blockEnd, k.bs, k.C, k.c0, k.c1, () => { emitColumnBlock(k); });
}

/** Allocates the column kernel's locals, in the order that fixes their numbers. */
function columnKernel(ctx: EmitContext, spec: KernelSpec, lanes: Lanes | undefined): ColumnKernel {
  const f = ctx.f;
  const reduceInstrs = spec.body.filter((ins): ins is ReduceInstr => ins.op === 'reduce');
  const scanInstrs = spec.body.filter((ins): ins is ScanInstr => ins.op === 'scan');
  const i32 = (): Local => f.local('i32');
  const [R, C, bs, blk, c0, c1, r, j, pb, addr] = [i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32()];
  const rowStride = spec.arrays.map(i32);
  const colStride = spec.arrays.map(i32);
  const values = valueLocals(f, spec, lanes);
  const accS = reduceInstrs.map((red) => f.local(scalarType(red.type)));
  const rowPtr = Array.from({ length: ROWS }, () => spec.arrays.map(i32));
  const v128 = (): Local => f.local('v128');
  const accV = reduceInstrs.map((red) => (lanes ? Array.from({ length: COLUMN_VECTORS }, (): Acc =>
    (lanes !== 'f64x2' && red.type === 'float64' ? [v128(), v128()] : [v128()])) : []));
  // Where each reduction's partials for the columns at j start, set once per step of the vector loop.
  const partialAt = reduceInstrs.map(i32);
  // simdLanes lets a column kernel scan in lanes only in the lanes' own type: one v128 per vector of columns.
  const scans = scanInstrs.map((x) => ({
    x, scalar: f.local(scalarType(x.type)), vector: lanes ? Array.from({ length: COLUMN_VECTORS }, v128) : [], partialAt: i32(),
  }));
  return {
    ctx, spec, lanes, R, C, bs, blk, c0, c1, r, j, pb, addr, colStride, values, rowPtr,
    arrays: spec.arrays.map((a, n) => ({ spec: a, rowStride: at(rowStride, n, 'array'), colStride: at(colStride, n, 'array') })),
    reduces: reduceInstrs.map((red, s) => ({
      r: red, scalar: at(accS, s, 'reduction'), vector: at(accV, s, 'reduction'), partialAt: at(partialAt, s, 'reduction'),
      ...(isArgReduce(red.fn) ? {
        positions: { scalar: i32(), vector: lanes ? Array.from({ length: COLUMN_VECTORS }, v128) : [], partialAt: i32(), row: v128() },
      } : {}),
    })),
    scans,
    jTail: i32(),
  };
}

/** One block's columns: their partials from the identity, the rows in groups, then the columns past the last whole vector. */
function emitColumnBlock(k: ColumnKernel): void {
  const f = k.ctx.f;
  const starts = [...k.reduces.map((red) => red.r), ...k.scans.map((sc) => sc.x)].flatMap((r) => [
    [r.slot, Number(identity(r.fn, r.type))] as const, ...(r.op === 'reduce' && r.position !== undefined ? [[r.position, NO_POSITION] as const] : []),
  ]);
  for (const [slot, value] of starts) {
    f.op('local.get', k.c0).op('local.set', k.j);
    loop(f, () => { f.op('local.get', k.j).op('local.get', k.c1).op('i32.ge_u'); }, () => {
      partialAddress(k, slot, k.j);
      f.op('local.get', k.addr).op('f64.const', value).mem('f64.store', { align: 0 });
      bump(f, k.j, 1);
    });
  }
  if (k.lanes) emitHoisted(k.ctx, k.spec, k.lanes, k.values.vector, isConst, () => {});
  // Rows ROWS at a time while ROWS are left, then one at a time: each partial is loaded once,
  // takes the rows' values in row order (the same additions as row by row) and is stored once.
  f.op('i32.const', 0).op('local.set', k.r);
  for (const rows of k.lanes ? [ROWS, 1] : [1]) stepLoop(f, k.r, rows, k.R, () => { emitRowGroup(k, k.rowPtr.slice(0, rows)); });
  if (k.lanes) emitTailColumns(k, k.lanes);
  // A column whose rows all equal the identity took none of them: its first row is the answer.
  for (const red of k.reduces) {
    if (red.r.position === undefined) continue;
    f.op('local.get', k.c0).op('local.set', k.j);
    loop(f, () => { f.op('local.get', k.j).op('local.get', k.c1).op('i32.ge_u'); }, () => {
      partialAddress(k, red.r.position!, k.j);
      f.op('local.get', k.addr).op('f64.const', 0).op('local.get', k.addr).mem('f64.load', { align: 0 });
      f.op('local.get', k.addr).mem('f64.load', { align: 0 }).op('f64.const', NO_POSITION).op('f64.eq').op('select');
      f.mem('f64.store', { align: 0 });
      bump(f, k.j, 1);
    });
  }
}

// Constants splat once per block, outside the row loops (V8 does not hoist a v128.const).
const isConst = (ins: KInstr): boolean => ins.op === 'const';

/** into (addr unless given) = &partials[slot * C + column] */
function partialAddress(k: ColumnKernel, slot: number, column: Local, into: Local = k.addr): void {
  k.ctx.f.op('local.get', k.pb).op('i32.const', slot).op('local.get', k.C).op('i32.mul').op('local.get', column).op('i32.add')
    .op('i32.const', 8).op('i32.mul').op('i32.add').op('local.set', into);
}

/** Pushes array n's address of (row r, column `col`): its pointer + r * rowStride + col * colStride. */
function elementAddress(k: ColumnKernel, n: number, col: Local): void {
  const f = k.ctx.f;
  const a = at(k.arrays, n, 'array');
  loadArg(k.ctx, arrayPtrOffset(2, n));
  f.op('local.get', k.r).op('local.get', a.rowStride).op('i32.mul').op('i32.add');
  f.op('local.get', col).op('local.get', a.colStride).op('i32.mul').op('i32.add');
}

/** The rows from r, one per entry of `ptr`, over the block's columns (without lanes, all of them). */
function emitRowGroup(k: ColumnKernel, ptr: readonly (readonly Local[])[]): void {
  const f = k.ctx.f;
  k.arrays.forEach((a, n) => {
    let prev: Local | undefined;
    for (const p of ptr) {
      const l = at(p, n, 'array pointer');
      if (prev === undefined) elementAddress(k, n, k.c0);
      else f.op('local.get', prev).op('local.get', a.rowStride).op('i32.add');
      f.op('local.set', l);
      prev = l;
    }
  });
  f.op('local.get', k.c0).op('local.set', k.j);
  if (k.lanes) {
    vectorColumns(k, k.lanes, ptr, COLUMN_VECTORS);
    vectorColumns(k, k.lanes, ptr, 1);
  } else {
    // Without lanes every column goes through the element-at-a-time loop, here, row by row.
    scalarColumns(k, at(ptr, 0, 'row'));
  }
}

/** `vectors` vectors of columns side by side, so their additions do not wait on each other. */
function vectorColumns(k: ColumnKernel, lanes: Lanes, ptr: readonly (readonly Local[])[], vectors: number): void {
  const f = k.ctx.f;
  const perVector = LANE_COUNT[lanes];
  // Scans are in the lanes' own type (simdLanes); a reduction's partials are read as its values' type.
  const partials = new Map([...k.reduces.map((red) => red.r.type), LANE_DTYPE[lanes]].map((t) => [t, partialsIO(f, lanes, t)] as const));
  const partialBytes = 8 * perVector;
  // A load of an array broadcast across columns has one value per row: loaded for the row's first
  // vector of columns, reused by the others.
  const isRowValue = (ins: KInstr): boolean => ins.op === 'load' && at(k.spec.arrays, ins.array, 'array').inner === 'broadcast';
  stepLoop(f, k.j, perVector * vectors, k.c1, () => {
    // Accumulator `acc` of vector c of columns at row u of the group: loaded from its partials for the
    // group's first row, combined with the row's value, stored after its last row.
    const accumulate = (u: number, c: number, partialAt: Local, acc: Acc, r: ReduceInstr | ScanInstr): void => {
      const io = partials.get(r.op === 'reduce' ? r.type : LANE_DTYPE[lanes])!;
      if (u === 0) io.load(partialAt, partialBytes * c, acc);
      io.combine(r.fn, r.type, acc, at(k.values.vector, r.arg, 'value'));
      if (u === ptr.length - 1) io.store(partialAt, partialBytes * c, acc);
    };
    // argmax and argmin: the value and the row it was found at, taken where the row's value beats it.
    const positionsIO = positionLanes(lanes) === 'f64x2' ? partialsIO(f, 'f64x2', 'float64') : partialsIO(f, 'i32x4', 'int32');
    const take = (u: number, c: number, red: ColumnReduce, fn: 'argmax' | 'argmin'): void => {
      const pos = red.positions!;
      const value = at(red.vector, c, 'accumulator');
      const position = at(pos.vector, c, 'position');
      const io = partials.get(red.r.type)!;
      if (u === 0) { io.load(red.partialAt, partialBytes * c, value); positionsIO.load(pos.partialAt, partialBytes * c, [position]); }
      if (c === 0) {
        const row = f.local('i32');
        f.op('local.get', k.r).op('i32.const', u).op('i32.add').op('local.set', row);
        iterationPositions(k.ctx, lanes, row);
        f.op('local.set', pos.row);
      }
      takeVector(k.ctx, lanes, fn, red.r.type, value[0], position, at(k.values.vector, red.r.arg, 'value'), pos.row);
      if (u === ptr.length - 1) { io.store(red.partialAt, partialBytes * c, value); positionsIO.store(pos.partialAt, partialBytes * c, [position]); }
    };
    for (const red of k.reduces) partialAddress(k, red.r.slot, k.j, red.partialAt);
    for (const red of k.reduces) if (red.positions && red.r.position !== undefined) partialAddress(k, red.r.position, k.j, red.positions.partialAt);
    for (const sc of k.scans) partialAddress(k, sc.x.slot, k.j, sc.partialAt);
    ptr.forEach((p, u) => {
      for (let c = 0; c < vectors; c++) {
        emitVectorStep(k.ctx, k.spec, p, {
          lanes, values: k.values, math: 'call',
          offset: (n) => {
            const a = at(k.spec.arrays, n, 'array');
            return a.inner === 'contiguous' ? c * vectorBytes(lanes, a.dtype) : 0;
          },
          reduce: (r, s) => {
            const red = at(k.reduces, s, 'reduction');
            if (isArgReduce(r.fn)) take(u, c, red, r.fn);
            else accumulate(u, c, red.partialAt, at(red.vector, c, 'accumulator'), r);
          },
          scan: (x, s) => {
            // A scan's running value is also each row's value.
            const sc = at(k.scans, s, 'scan');
            const acc = [at(sc.vector, c, 'running value')] as const;
            accumulate(u, c, sc.partialAt, acc, x);
            f.op('local.get', acc[0]);
          },
          hoisted: (ins) => isConst(ins) || (c > 0 && isRowValue(ins)),
        });
      }
    });
  }, () => {
    ptr.forEach((p) => k.arrays.forEach((a, n) => {
      if (a.spec.inner !== 'contiguous') return;
      const l = at(p, n, 'array pointer');
      f.op('local.get', l).op('i32.const', vectors * vectorBytes(lanes, a.spec.dtype)).op('i32.add').op('local.set', l);
    }));
  });
}

/** The element-at-a-time loop over columns [j, c1) of one row through the pointers `p`. */
function scalarColumns(k: ColumnKernel, p: readonly Local[]): void {
  scalarLoop(k.ctx, k.spec, k.values.scalar, p, k.colStride, k.j, k.c1, (red, s) => {
    const acc = at(k.reduces, s, 'reduction');
    if (acc.positions && isArgReduce(red.fn)) argScalarStep(k, red, red.fn, acc.scalar, acc.positions.scalar);
    else scalarStep(k, red, acc.scalar);
  }, new Map(), (x, s) => {
    scalarStep(k, x, at(k.scans, s, 'scan').scalar);
    k.ctx.f.op('local.get', at(k.scans, s, 'scan').scalar);
  });
}

/** A reduction's or scan's step in the element-at-a-time loop: acc = the column's f64 partial (fn) the value, stored back. */
function scalarStep(k: ColumnKernel, red: ReduceInstr | ScanInstr, acc: Local): void {
  const f = k.ctx.f;
  partialAddress(k, red.slot, k.j);
  f.op('local.get', k.addr).mem('f64.load', { align: 0 });
  fromF64(f, red.type, false);
  f.op('local.set', acc);
  combineScalar(f, red.fn, red.type, acc, at(k.values.scalar, red.arg, 'value'));
  f.op('local.get', k.addr).op('local.get', acc);
  toF64(f, red.type);
  f.mem('f64.store', { align: 0 });
}

/** argmax or argmin's step in the element-at-a-time loop: the column's value and row partials, taken where row r's value beats them. */
function argScalarStep(k: ColumnKernel, red: ReduceInstr, fn: 'argmax' | 'argmin', acc: Local, position: Local): void {
  const f = k.ctx.f;
  const row = f.local('i32');
  const at2 = f.local('i32');
  partialAddress(k, red.slot, k.j);
  partialAddress(k, red.position!, k.j, at2);
  f.op('local.get', k.addr).mem('f64.load', { align: 0 });
  fromF64(f, red.type, false);
  f.op('local.set', acc);
  f.op('local.get', at2).mem('f64.load', { align: 0 }).op('i32.trunc_f64_u').op('local.set', position);
  f.op('local.get', k.r).op('local.set', row);
  takeScalar(f, fn, red.type, acc, position, at(k.values.scalar, red.arg, 'value'), row);
  f.op('local.get', k.addr).op('local.get', acc);
  toF64(f, red.type);
  f.mem('f64.store', { align: 0 });
  f.op('local.get', at2).op('local.get', position).op('f64.convert_i32_u').mem('f64.store', { align: 0 });
}

/**
 * The columns past the last whole vector, one loop over every row after the vector loops: each
 * such column's partial still takes its rows in row order, and the loop is written once.
 */
function emitTailColumns(k: ColumnKernel, lanes: Lanes): void {
  const f = k.ctx.f;
  f.op('local.get', k.c1).op('local.get', k.c0).op('i32.sub').op('i32.const', -LANE_COUNT[lanes]).op('i32.and')
    .op('local.get', k.c0).op('i32.add').op('local.set', k.jTail);
  f.op('local.get', k.jTail).op('local.get', k.c1).op('i32.lt_u').if();
  f.op('i32.const', 0).op('local.set', k.r);
  // Each array's address of (row r, column jTail): set once, then a row stride per row.
  const start = k.arrays.map(() => f.local('i32'));
  start.forEach((l, n) => { elementAddress(k, n, k.jTail); f.op('local.set', l); });
  const p = at(k.rowPtr, 0, 'row');
  loop(f, () => { f.op('local.get', k.r).op('local.get', k.R).op('i32.ge_u'); }, () => {
    start.forEach((l, n) => { f.op('local.get', l).op('local.set', at(p, n, 'array pointer')); });
    f.op('local.get', k.jTail).op('local.set', k.j);
    scalarColumns(k, p);
    start.forEach((l, n) => { f.op('local.get', l).op('local.get', at(k.arrays, n, 'array').rowStride).op('i32.add').op('local.set', l); });
    bump(f, k.r, 1);
  });
  f.end();
}

export { emitColumnKernel };
