// Column reductions: the iteration space is [R, C] with the reduction over R
// (the outer axis in memory, like a sum over axis 0 of a row-major matrix).
// Reading row by row keeps memory access sequential; each block owns a range
// of columns and accumulates them in place in the partials array (slot-major:
// partials[slot * C + column]), so blocks never share an output and each
// column's value is final when its block ends. Rows are added in order, so
// results do not depend on how blocks are shared between workers.
import type { FunctionBuilder, Local } from '../encode/index.js';
import { ARGS, arrayPtrOffset, arrayStrideOffset } from './args-layout.js';
import { isFloatK, isUnsignedK, scalarType } from './context.js';
import type { EmitContext } from './context.js';
import { HIGH_TO_LOW, JOIN_LOW_HALVES } from '../encode/index.js';
import { emitBody, openBlockLoop, scalarLoop } from './emit-loops.js';
import type { ReduceInstr } from './emit-loops.js';
import { combineHalves, combineScalar, combineVector, identity } from './reduce-ops.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import type { KInstr, KReduce, KernelSpec } from './kernel-spec.js';
import { emitSimdInstr, splatConst } from './simd-ops.js';
import { LANE_COUNT, emitVectorLoad, emitVectorStore, vectorBytes } from './simd-widths.js';
import type { Lanes } from './simd-widths.js';


/**
 * A vector of columns' accumulator for one reduction: one v128 in the lanes'
 * own type, or (a float64 accumulator of four-lane values) two f64x2 halves.
 * The partials are f64, which hold every value of those types exactly, so the
 * accumulator is converted from them once per row group and back once.
 */
interface PartialsIO {
  /** acc = the partials at `at` + offset. */
  load(at: Local, offset: number, acc: readonly Local[]): void;
  /** acc = acc (fn) value, lane by lane; two halves take the value's halves, widened as the scalar loop widens them. */
  combine(fn: KReduce, acc: readonly Local[], value: Local): void;
  /** The partials at `at` + offset = acc, in f64. */
  store(at: Local, offset: number, acc: readonly Local[]): void;
}

function partialsIO(f: FunctionBuilder, lanes: Lanes): PartialsIO {
  const widen = lanes === 'f32x4' ? 'f64x2.promote_low_f32x4' : 'f64x2.convert_low_i32x4_s';
  const narrow = lanes === 'f32x4' ? 'f32x4.demote_f64x2_zero' : 'i32x4.trunc_sat_f64x2_s_zero';
  const same = (acc: readonly Local[]): boolean => lanes === 'f64x2' || acc.length === 2;
  return {
    load(at, offset, acc) {
      if (same(acc)) {
        acc.forEach((a, h) => { f.op('local.get', at).mem('v128.load', { align: 0, offset: offset + 16 * h }).op('local.set', a); });
        return;
      }
      f.op('local.get', at).mem('v128.load', { align: 0, offset }).op(narrow);
      f.op('local.get', at).mem('v128.load', { align: 0, offset: offset + 16 }).op(narrow);
      f.shuffle(JOIN_LOW_HALVES).op('local.set', acc[0]!);
    },
    combine(fn, acc, value) {
      if (acc.length === 1) combineVector(f, lanes, fn, acc[0]!, value);
      else combineHalves(f, widen, fn, acc[0]!, acc[1]!, value);
    },
    store(at, offset, acc) {
      if (same(acc)) {
        acc.forEach((a, h) => { f.op('local.get', at).op('local.get', a).mem('v128.store', { align: 0, offset: offset + 16 * h }); });
        return;
      }
      f.op('local.get', at).op('local.get', acc[0]!).op(widen).mem('v128.store', { align: 0, offset });
      f.op('local.get', at).op('local.get', acc[0]!).op('local.get', acc[0]!).shuffle(HIGH_TO_LOW).op(widen)
        .mem('v128.store', { align: 0, offset: offset + 16 });
    },
  };
}

/** Rows the vector loop takes at a time: one load and store of each partial per 16 rows, and 16 streams in flight. */
const ROWS = 16;
/** Vectors of columns the vector loop takes at a time: independent chains of additions. */
const COLUMN_VECTORS = 4;

// `lanes` as simdLanes chose them: its reductions are in the lanes' own type, or float64 ones of
// float32 values (see PartialsIO), never any/all.
function emitColumnKernel(ctx: EmitContext, spec: KernelSpec, lanes: Lanes | undefined, blockBegin: Local, blockEnd: Local): void {
  const f = ctx.f;
  const reduces = spec.body.filter((ins): ins is ReduceInstr => ins.op === 'reduce');
  const perVector = lanes ? LANE_COUNT[lanes] : 1;
  const i32 = (): Local => f.local('i32');
  const [R, C, bs, blk, c0, c1, r, j, pb, addr] = Array.from({ length: 10 }, i32) as [Local, Local, Local, Local, Local, Local, Local, Local, Local, Local];
  const rowStride = spec.arrays.map(i32);
  const colStride = spec.arrays.map(i32);
  const types = spec.body.map((ins) => ins.type);
  const scalarVals = spec.body.map((ins) => (ins.op === 'store' || ins.op === 'reduce' ? (-1 as Local) : f.local(scalarType(ins.type))));
  const vecVals = lanes ? spec.body.map(() => f.local('v128')) : [];
  const accS = reduces.map((red) => f.local(scalarType(red.type)));
  const argLoad = (offset: number): void => { f.op('local.get', ctx.args).mem('i32.load', { offset }); };

  argLoad(ARGS.shape); f.op('local.set', R);
  argLoad(ARGS.shape + 4); f.op('local.set', C);
  argLoad(ARGS.blockSize); f.op('local.set', bs);
  argLoad(ARGS.partials); f.op('local.set', pb);
  spec.arrays.forEach((a, k) => {
    const bytes = KTYPE_BYTES[a.dtype];
    argLoad(arrayStrideOffset(2, k, 0)); f.op('i32.const', bytes).op('i32.mul').op('local.set', rowStride[k]!);
    argLoad(arrayStrideOffset(2, k, 1)); f.op('i32.const', bytes).op('i32.mul').op('local.set', colStride[k]!);
  });
  /** into (addr unless given) = &partials[slot * C + column] */
  const partialAddress = (slot: number, column: Local, into: Local = addr): void => {
    f.op('local.get', pb).op('i32.const', slot).op('local.get', C).op('i32.mul').op('local.get', column).op('i32.add')
      .op('i32.const', 8).op('i32.mul').op('i32.add').op('local.set', into);
  };

  openBlockLoop(f, blk, blockBegin, blockEnd, bs, C, c0, c1);
  // This block's columns start from each reduction's identity.
  reduces.forEach((red) => {
    f.op('local.get', c0).op('local.set', j);
    f.block().loop();
    f.op('local.get', j).op('local.get', c1).op('i32.ge_u').op('br_if', 1);
    partialAddress(red.slot, j);
    f.op('local.get', addr).op('f64.const', identity(red.fn, red.type)).mem('f64.store', { align: 0 });
    f.op('local.get', j).op('i32.const', 1).op('i32.add').op('local.set', j);
    f.op('br', 0).end().end();
  });

  // Constants splat once, outside every loop (V8 does not hoist a v128.const).
  const isConst = (ins: KInstr): boolean => ins.op === 'const';
  // A load of an array broadcast across columns has one value per row: loaded for the row's first
  // vector of columns, reused by the others.
  const isRowValue = (ins: KInstr): boolean => ins.op === 'load' && spec.arrays[ins.array]!.inner === 'broadcast';
  if (lanes) spec.body.forEach((ins, v) => { if (ins.op === 'const') { splatConst(ctx, lanes, ins.value); f.op('local.set', vecVals[v]!); } });
  // Rows ROWS at a time while ROWS are left, then one at a time: each partial is loaded once,
  // takes the rows' values in row order (the same additions as row by row) and is stored once.
  const rowPtr = Array.from({ length: ROWS }, () => spec.arrays.map(i32));
  /** Array k's address of (row r, column `col`): its pointer + r * rowStride + col * colStride. */
  const elementAddress = (k: number, col: Local): void => {
    argLoad(arrayPtrOffset(2, k));
    f.op('local.get', r).op('local.get', rowStride[k]!).op('i32.mul').op('i32.add');
    f.op('local.get', col).op('local.get', colStride[k]!).op('i32.mul').op('i32.add');
  };
  const accV = lanes ? reduces.map((red) => Array.from({ length: COLUMN_VECTORS }, () =>
    Array.from({ length: lanes !== 'f64x2' && red.type === 'float64' ? 2 : 1 }, () => f.local('v128')))) : [];
  // Where each reduction's partials for the columns at j start, set once per step of the vector loop.
  const partialAt = reduces.map(i32);
  const partialBytes = 8 * perVector;
  const partials = lanes ? partialsIO(f, lanes) : undefined;
  const jTail = i32();
  /** A reduction's step in the element-at-a-time loop: the column's f64 partial, loaded, combined and stored. */
  const scalarReduce = (red: ReduceInstr, s: number): void => {
    // Partials are f64; every value of the reduction's type converts there and back exactly.
    partialAddress(red.slot, j);
    f.op('local.get', addr).mem('f64.load', { align: 0 });
    if (red.type === 'float32') f.op('f32.demote_f64');
    else if (!isFloatK(red.type)) f.op(`i32.trunc_f64_${isUnsignedK(red.type) ? 'u' : 's'}`);
    f.op('local.set', accS[s]!);
    combineScalar(f, red.fn, red.type, accS[s]!, scalarVals[red.arg]!);
    f.op('local.get', addr).op('local.get', accS[s]!);
    if (red.type === 'float32') f.op('f64.promote_f32');
    else if (!isFloatK(red.type)) f.op(`f64.convert_i32_${isUnsignedK(red.type) ? 'u' : 's'}`);
    f.mem('f64.store', { align: 0 });
  };
  f.op('i32.const', 0).op('local.set', r);
  for (const rows of lanes ? [ROWS, 1] : [1]) {
    const ptr = rowPtr.slice(0, rows);
    f.block().loop(); // row groups
    f.op('local.get', r).op('i32.const', rows).op('i32.add').op('local.get', R).op('i32.gt_u').op('br_if', 1);
    spec.arrays.forEach((_, k) => {
      elementAddress(k, c0);
      f.op('local.set', ptr[0]![k]!);
      for (let u = 1; u < rows; u++) {
        f.op('local.get', ptr[u - 1]![k]!).op('local.get', rowStride[k]!).op('i32.add').op('local.set', ptr[u]![k]!);
      }
    });
    f.op('local.get', c0).op('local.set', j);

    if (lanes) {
      // `vectors` vectors of columns side by side, so their additions do not wait on each other.
      const vectorColumns = (vectors: number): void => {
        f.block().loop();
        f.op('local.get', j).op('i32.const', perVector * vectors).op('i32.add').op('local.get', c1).op('i32.gt_u').op('br_if', 1);
        reduces.forEach((red, s) => { partialAddress(red.slot, j, partialAt[s]!); });
        ptr.forEach((p, u) => {
          for (let c = 0; c < vectors; c++) {
            const offset = (k: number): number => (spec.arrays[k]!.inner === 'contiguous' ? c * vectorBytes(lanes, spec.arrays[k]!.dtype) : 0);
            emitBody(ctx, spec, vecVals, p, (ins, k) => {
              const a = spec.arrays[k]!;
              f.op('local.get', p[k]!);
              if (ins.op === 'load') emitVectorLoad(ctx, lanes, a.dtype, a.inner === 'broadcast', offset(k));
            }, (ins) => emitSimdInstr(ctx, lanes, ins, vecVals, types, 'call'), (red, s) => {
              const acc = accV[s]![c]!;
              if (u === 0) partials!.load(partialAt[s]!, partialBytes * c, acc);
              partials!.combine(red.fn, acc, vecVals[red.arg]!);
              if (u === rows - 1) partials!.store(partialAt[s]!, partialBytes * c, acc);
            }, (k) => { emitVectorStore(ctx, lanes, spec.arrays[k]!.dtype, offset(k)); }, (ins) => isConst(ins) || (c > 0 && isRowValue(ins)));
          }
        });
        f.op('local.get', j).op('i32.const', perVector * vectors).op('i32.add').op('local.set', j);
        ptr.forEach((p) => spec.arrays.forEach((a, k) => {
          if (a.inner !== 'contiguous') return;
          f.op('local.get', p[k]!).op('i32.const', vectors * vectorBytes(lanes, a.dtype)).op('i32.add').op('local.set', p[k]!);
        }));
        f.op('br', 0).end().end();
      };
      vectorColumns(COLUMN_VECTORS);
      vectorColumns(1);
    }

    // Without lanes every column goes through the element-at-a-time loop, here, row by row.
    if (!lanes) scalarLoop(ctx, spec, scalarVals, ptr[0]!, colStride, j, c1, scalarReduce);

    f.op('local.get', r).op('i32.const', rows).op('i32.add').op('local.set', r);
    f.op('br', 0).end().end(); // row groups
  }
  if (lanes) {
    // The columns past the last whole vector, one loop over every row after the vector loops: each
    // such column's partial still takes its rows in row order, and the loop is written once.
    f.op('local.get', c1).op('local.get', c0).op('i32.sub').op('i32.const', -perVector).op('i32.and')
      .op('local.get', c0).op('i32.add').op('local.set', jTail);
    f.op('local.get', jTail).op('local.get', c1).op('i32.lt_u').if();
    f.op('i32.const', 0).op('local.set', r);
    // Each array's address of (row r, column jTail): set once, then a row stride per row.
    const start = spec.arrays.map(i32);
    spec.arrays.forEach((_, k) => { elementAddress(k, jTail); f.op('local.set', start[k]!); });
    f.block().loop();
    f.op('local.get', r).op('local.get', R).op('i32.ge_u').op('br_if', 1);
    const p = rowPtr[0]!;
    spec.arrays.forEach((_, k) => { f.op('local.get', start[k]!).op('local.set', p[k]!); });
    f.op('local.get', jTail).op('local.set', j);
    scalarLoop(ctx, spec, scalarVals, p, colStride, j, c1, scalarReduce);
    spec.arrays.forEach((_, k) => { f.op('local.get', start[k]!).op('local.get', rowStride[k]!).op('i32.add').op('local.set', start[k]!); });
    f.op('local.get', r).op('i32.const', 1).op('i32.add').op('local.set', r);
    f.op('br', 0).end().end(); // rows
    f.end();
  }
  f.op('local.get', blk).op('i32.const', 1).op('i32.add').op('local.set', blk);
  f.op('br', 0).end().end(); // blocks
}

export { emitColumnKernel };
