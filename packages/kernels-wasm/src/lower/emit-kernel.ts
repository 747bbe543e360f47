// Writes the kernel function: run(args, blockBegin, blockEnd) walks blocks of
// the iteration space, each block row by row along the inner axis, with a
// vector loop (when the kernel vectorises) and a scalar loop for the rest.
//
// Reductions reduce runs of `segment` consecutive elements (the reduced axes
// come last in the iteration space, so each run is one output). Runs are cut
// at block boundaries too; each piece (a "segment piece") writes its partial
// to its own slot, numbered in element order, so any split of blocks between
// workers gives the same partials. The piece starting at element i is number
// floor(i/segment) + floor(i/blockSize) - floor(i/lcm(segment, blockSize)).
//
// Scans walk the same runs and pieces: each piece's running value starts from
// the launch's partials[piece * slots + slot], which the caller fills with the
// running value before the piece, and is stored element by element.
import type { Local } from '../encode/index.js';
import { InternalError, at } from '../internal-error.js';
import { ARGS, TEMPS, arrayPtrOffset, arrayStrideOffset } from './args-layout.js';
import { emitRandomLanes, emitRandomScalar, randomKeysOf } from './philox.js';
import type { RoundKeys } from './philox.js';
import { isIntegerK, scalarType } from './context.js';
import type { EmitContext } from './context.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import type { KInstr, KernelArray, KernelSpec } from './kernel-spec.js';
import { emitLoad } from './scalar-ops.js';
import {
  blockRangeLoop, emitHoisted, emitVectorStep, loop, randomKeys, rangeLoop, scalarLoop, stepLoop, valueLocals,
} from './emit-loops.js';
import type { ScanInstr, ValueLocals } from './emit-loops.js';
import { loadArg, setArg } from './emit-values.js';
import { gatherEmitter } from './emit-gathers.js';
import type { GatherEmitter, GatherInstr } from './emit-gathers.js';
import { combineScalar, fromF64 } from './reduce-ops.js';
import { combineScalarAcc, combineVectorAcc, emitPartials, partialAddress, reduceAccs, startReductions } from './emit-row-reductions.js';
import type { ReduceKernel } from './emit-row-reductions.js';
import { chainsScans, emitScanGroups } from './emit-scan-chains.js';
import type { Lanes } from './simd-widths.js';
import { LANE_COUNT, emitVectorLoad, vectorBytes } from './simd-widths.js';

/** Vectors per iteration of the main vector loop (and vector accumulators per reduction). */
const UNROLL = 4;

interface KernelOptions {
  /** Run once over the elements [blockBegin, blockEnd) instead of over blocks: a pinned temporary's computation. */
  readonly range?: boolean;
  /** Arrays whose pointer is this local instead of the launch block's. */
  readonly pointers?: ReadonlyMap<number, Local>;
  /** For a spec with temporaries: their functions (in spec.temps order), this thread's scratch and where their fields are. */
  readonly temps?: { readonly fns: readonly number[]; readonly scratch: Local; readonly offset: number };
  /** A scan kernel that finds its pieces' starting values itself (emit-scan-chains.ts): one without host functions. */
  readonly scanLookBack?: boolean;
}

/** An axis of the iteration space: its size and the current element's index along it. */
interface Axis {
  readonly size: Local;
  readonly idx: Local;
}

/** An array as the row kernel walks it: its row pointer, its inner stride in bytes, and its element size. */
interface RowArray {
  readonly spec: KernelArray;
  readonly cur: Local;
  readonly istride: Local;
  /** Bytes per element; 1 for a random array, whose pointer and strides count elements. */
  readonly bytes: number;
}

/** A scan and its running value. */
interface ScanAcc {
  readonly x: ScanInstr;
  readonly acc: Local;
}

/** What the row kernel's pieces share: the spec, its lanes and the function's locals (its reductions' among them). */
interface RowKernel extends ReduceKernel {
  readonly ctx: EmitContext;
  readonly spec: KernelSpec;
  readonly lanes: Lanes | undefined;
  readonly total: Local; readonly bs: Local; readonly blk: Local; readonly start: Local; readonly stop: Local;
  readonly i: Local; readonly run: Local; readonly j: Local; readonly rem: Local;
  readonly seg: Local; readonly segLcm: Local; readonly pieceStart: Local;
  readonly axes: readonly Axis[];
  /** The innermost axis, along which rows run. */
  readonly inner: Axis;
  readonly arrays: readonly RowArray[];
  readonly cur: readonly Local[];
  readonly istride: readonly Local[];
  readonly values: ValueLocals;
  readonly scans: readonly ScanAcc[];
  /** Per random array, the two vectors one generation of four elements makes (float64 lanes use them over two unrolled steps). */
  readonly randomStash: ReadonlyMap<number, readonly [Local, Local]>;
  /** Runs are cut into pieces (and pieces end) for reductions and scans alike. */
  readonly runsMatter: boolean;
  readonly keys: ReadonlyMap<number, RoundKeys>;
}

/** Emits the whole function body into `ctx.f` (params: args, blockBegin, blockEnd). */
function emitKernel(ctx: EmitContext, spec: KernelSpec, lanes: Lanes | undefined, blockBegin: Local, blockEnd: Local,
  options: KernelOptions = {}): void {
  const k = rowKernel(ctx, spec, lanes);
  loadHeader(k);
  const block = (): void => {
    const pointers = new Map(options.pointers);
    if (options.temps) for (const [t, local] of emitTemps(ctx, spec, k.blk, options.temps)) pointers.set(t, local);
    emitBlock(k, pointers);
  };
  if (options.range) {
    rangeLoop(ctx.f, k.blk, blockBegin, blockEnd, k.start, k.stop, block);
    return;
  }
  const blocks = (from: Local, to: Local): void => { blockRangeLoop(ctx.f, k.blk, from, to, k.bs, k.total, k.start, k.stop, block); };
  if (chainsScans(spec, lanes)) {
    emitScanGroups(ctx, spec, { total: k.total, bs: k.bs, seg: k.seg, values: k.values.scalar }, blockBegin, blockEnd, options.scanLookBack === true, blocks);
  } else {
    blocks(blockBegin, blockEnd);
  }
}

/** Allocates the row kernel's locals, in the order that fixes their numbers, and emits the random arrays' keys. */
function rowKernel(ctx: EmitContext, spec: KernelSpec, lanes: Lanes | undefined): RowKernel {
  const f = ctx.f;
  const nd = spec.ndim;
  const i32 = (): Local => f.local('i32');
  const [total, bs, blk, start, stop, i, run, j, rem, seg, segLcm, pieceStart] = [
    i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32(), i32()];
  const shape = Array.from({ length: nd }, i32);
  const idx = Array.from({ length: nd }, i32);
  const cur = spec.arrays.map(i32);
  const istride = spec.arrays.map(i32);
  const values = valueLocals(f, spec, lanes);
  const scanInstrs = spec.body.filter((ins): ins is ScanInstr => ins.op === 'scan');
  const accScan = scanInstrs.map((x) => f.local(scalarType(x.type)));
  const randomStash = new Map(spec.arrays.flatMap((a, n) => (a.random && lanes ? [[n, [f.local('v128'), f.local('v128')] as const]] : [])));
  const { reduces, rowPosition } = reduceAccs(f, spec, lanes, UNROLL);
  const axes = shape.map((size, d) => ({ size, idx: at(idx, d, 'axis') }));
  return {
    ctx, spec, lanes, total, bs, blk, start, stop, i, run, j, rem, seg, segLcm, pieceStart, axes,
    inner: at(axes, nd - 1, 'axis'),
    arrays: spec.arrays.map((a, n) => ({
      spec: a, cur: at(cur, n, 'array'), istride: at(istride, n, 'array'), bytes: a.random ? 1 : KTYPE_BYTES[a.dtype],
    })),
    cur, istride, values,
    scans: scanInstrs.map((x, s) => ({ x, acc: at(accScan, s, 'scan') })),
    randomStash,
    reduces,
    rowPosition,
    runsMatter: scanInstrs.length > 0 || reduces.length > 0,
    keys: randomKeysOf(ctx, spec, lanes !== undefined),
  };
}

/** Reads the sizes and inner strides the kernel keeps in locals. */
function loadHeader(k: RowKernel): void {
  const nd = k.spec.ndim;
  setArg(k.ctx, ARGS.total, k.total);
  setArg(k.ctx, ARGS.blockSize, k.bs);
  setArg(k.ctx, ARGS.segment, k.seg);
  setArg(k.ctx, ARGS.segmentLcm, k.segLcm);
  k.axes.forEach((a, d) => { setArg(k.ctx, ARGS.shape + 4 * d, a.size); });
  k.arrays.forEach((a, n) => { setArg(k.ctx, arrayStrideOffset(nd, n, nd - 1), a.istride, a.bytes); });
}

/** One block [start, stop): row by row, each row's run through the vector loops and the scalar loop. */
function emitBlock(k: RowKernel, pointers: ReadonlyMap<number, Local>): void {
  const f = k.ctx.f;
  startPiece(k, k.start);
  // The multi-index of the block's first element.
  f.op('local.get', k.start).op('local.set', k.rem);
  for (const a of [...k.axes].reverse()) {
    f.op('local.get', k.rem).op('local.get', a.size).op('i32.rem_u').op('local.set', a.idx);
    f.op('local.get', k.rem).op('local.get', a.size).op('i32.div_u').op('local.set', k.rem);
  }
  f.op('local.get', k.start).op('local.set', k.i);
  loop(f, () => { f.op('local.get', k.i).op('local.get', k.stop).op('i32.ge_u'); }, () => { emitRow(k, pointers); });
}

/** One run along the inner axis from element i, then the multi-index advanced past it. */
function emitRow(k: RowKernel, pointers: ReadonlyMap<number, Local>): void {
  const f = k.ctx.f;
  setRunLength(k);
  setRowPointers(k, pointers);
  // A run never crosses the end of a reduced run, so its elements' positions there follow from the first's.
  if (k.rowPosition) f.op('local.get', k.i).op('local.get', k.seg).op('i32.rem_u').op('local.set', k.rowPosition);
  f.op('i32.const', 0).op('local.set', k.j);
  if (k.lanes) emitVectorLoops(k, k.lanes);
  scalarLoop(k.ctx, k.spec, k.values.scalar, k.cur, k.istride, k.j, k.run, (r, s) => { combineScalarAcc(k, r, s); }, k.keys, (x, s) => {
    const acc = at(k.scans, s, 'scan').acc;
    combineScalar(f, x.fn, x.type, acc, at(k.values.scalar, x.arg, 'value'));
    f.op('local.get', acc);
  });
  advanceIndex(k);
  if (k.runsMatter) endPiece(k);
}

/** run = min(shape[inner] - idx[inner], stop - i[, end of the reduced run - i]) */
function setRunLength(k: RowKernel): void {
  const f = k.ctx.f;
  const minInto = (target: Local, a: () => void, b: () => void): void => {
    a(); b(); a(); b(); f.op('i32.lt_u').op('select').op('local.set', target);
  };
  minInto(k.run,
    () => { f.op('local.get', k.inner.size).op('local.get', k.inner.idx).op('i32.sub'); },
    () => { f.op('local.get', k.stop).op('local.get', k.i).op('i32.sub'); });
  if (!k.runsMatter) return;
  minInto(k.run, () => { f.op('local.get', k.run); }, () => {
    f.op('local.get', k.i).op('local.get', k.seg).op('i32.div_u').op('i32.const', 1).op('i32.add')
      .op('local.get', k.seg).op('i32.mul').op('local.get', k.i).op('i32.sub');
  });
}

/** Row pointers: base + sum over axes of idx * stride * element size. */
function setRowPointers(k: RowKernel, pointers: ReadonlyMap<number, Local>): void {
  const f = k.ctx.f;
  const nd = k.spec.ndim;
  k.arrays.forEach((a, n) => {
    const own = pointers.get(n);
    if (own !== undefined) f.op('local.get', own);
    else loadArg(k.ctx, arrayPtrOffset(nd, n));
    k.axes.forEach((axis, d) => {
      f.op('local.get', axis.idx);
      loadArg(k.ctx, arrayStrideOffset(nd, n, d));
      f.op('i32.mul').op('i32.const', a.bytes).op('i32.mul').op('i32.add');
    });
    f.op('local.set', a.cur);
  });
}

/** An unrolled loop of UNROLL vectors, then one vector at a time (the scalar loop takes the tail). */
function emitVectorLoops(k: RowKernel, lanes: Lanes): void {
  // Broadcast operands hold one value along the row, and constants one value everywhere: set once per row.
  const invariant = (ins: KInstr): boolean =>
    ins.op === 'const' || (ins.op === 'load' && at(k.spec.arrays, ins.array, 'array').inner === 'broadcast');
  emitHoisted(k.ctx, k.spec, lanes, k.values.vector, invariant, (n) => { emitRowValue(k, lanes, n); });
  const gathers = k.spec.body.some((ins) => ins.op === 'gather') ? gatherEmitter(k.ctx, k.spec, k.values.scalar, k.cur) : undefined;
  gathers?.setup();
  vectorLoop(k, lanes, invariant, UNROLL, gathers);
  vectorLoop(k, lanes, invariant, 1, gathers);
}

/** Pushes a broadcast array's one value along the row, splatted. */
function emitRowValue(k: RowKernel, lanes: Lanes, n: number): void {
  const f = k.ctx.f;
  const a = at(k.arrays, n, 'array');
  if (!a.spec.random) {
    f.op('local.get', a.cur);
    emitVectorLoad(k.ctx, lanes, a.spec.dtype, true, 0);
    return;
  }
  emitRandomScalar(f, randomKeys(k.keys, n), a.cur, a.spec.dtype);
  if (lanes === 'f64x2' && a.spec.dtype === 'float32') f.op('f64.promote_f32');
  // The counter, converted as its vector loads are.
  if (a.spec.dtype === 'int32' && lanes !== 'i32x4') f.op(lanes === 'f64x2' ? 'f64.convert_i32_s' : 'f32.convert_i32_s');
  f.op(lanes === 'f64x2' ? 'f64x2.splat' : lanes === 'f32x4' ? 'f32x4.splat' : 'i32x4.splat');
}

/** `unroll` vectors per iteration while that many are left in the run. */
function vectorLoop(k: RowKernel, lanes: Lanes, invariant: (ins: KInstr) => boolean, unroll: number, gathers?: GatherEmitter): void {
  const f = k.ctx.f;
  // A random array has no bytes: its pointer moves by elements.
  const stepBytes = (a: RowArray): number => (a.spec.random ? LANE_COUNT[lanes] : vectorBytes(lanes, a.spec.dtype));
  stepLoop(f, k.j, LANE_COUNT[lanes] * unroll, k.run, () => {
    for (let u = 0; u < unroll; u++) {
      const offset = (n: number): number => {
        const a = at(k.arrays, n, 'array');
        return a.spec.inner === 'contiguous' ? u * stepBytes(a) : 0;
      };
      emitVectorStep(k.ctx, k.spec, k.cur, {
        lanes, values: k.values, math: 'inline', hoisted: invariant, offset,
        // A gathered array walks its other axes as any array: lane l's element is l elements on along a contiguous row.
        ...(gathers ? {
          gather: (g: GatherInstr) => {
            const a = at(k.arrays, g.array, 'gathered array');
            const read = indexArray(k.spec, g);
            // An index read from an array is read again per lane as an i32: no trip through the lane type.
            const laneIndex = read === undefined ? undefined : (l: number): void => {
              const ia = at(k.arrays, read, 'index array');
              f.op('local.get', ia.cur);
              emitLoad(k.ctx, ia.spec.dtype, offset(read) + (ia.spec.inner === 'contiguous' ? l * ia.bytes : 0));
            };
            gathers.emitLanes(g, lanes, at(k.values.vector, g.index, 'gather index'), (l) => offset(g.array) + (a.spec.inner === 'contiguous' ? l * a.bytes : 0), laneIndex);
          },
        } : {}),
        reduce: (r, s) => { combineVectorAcc(k, lanes, at(k.reduces, s, 'reduction'), u); },
        random: (n) => {
          const a = at(k.arrays, n, 'array');
          const stash = k.randomStash.get(n);
          if (!stash) throw new InternalError(`random array ${n} has no stash`);
          emitRandomLanes(f, lanes, a.spec.dtype, randomKeys(k.keys, n), a.cur, u, stash);
        },
      });
    }
  }, () => {
    for (const a of k.arrays) {
      if (a.spec.inner === 'contiguous') f.op('local.get', a.cur).op('i32.const', unroll * stepBytes(a)).op('i32.add').op('local.set', a.cur);
    }
  });
}

/** The array a gather's index is read from (a load, or a load cast to int32), if it is read and not computed. */
function indexArray(spec: KernelSpec, g: GatherInstr): number | undefined {
  const ins = at(spec.body, g.index, 'gather index');
  const load = ins.op === 'cast' ? at(spec.body, ins.arg, 'cast value') : ins;
  return load.op === 'load' && isIntegerK(load.type) ? load.array : undefined;
}

/** Advances the multi-index by the run, carrying into outer axes. */
function advanceIndex(k: RowKernel): void {
  const f = k.ctx.f;
  f.op('local.get', k.i).op('local.get', k.run).op('i32.add').op('local.set', k.i);
  f.op('local.get', k.inner.idx).op('local.get', k.run).op('i32.add').op('local.set', k.inner.idx);
  const carries = k.axes.slice(1).map((a, d) => [at(k.axes, d, 'axis'), a] as const).reverse();
  for (const [outer, axis] of carries) {
    f.op('local.get', axis.idx).op('local.get', axis.size).op('i32.ge_u').if();
    f.op('i32.const', 0).op('local.set', axis.idx);
    f.op('local.get', outer.idx).op('i32.const', 1).op('i32.add').op('local.set', outer.idx);
  }
  carries.forEach(() => f.end());
}

/** The piece ends at the end of a reduced run or of the block: its partials written, and the next piece started unless the block ended. */
function endPiece(k: RowKernel): void {
  const f = k.ctx.f;
  f.op('local.get', k.i).op('local.get', k.seg).op('i32.rem_u').op('i32.eqz');
  f.op('local.get', k.i).op('local.get', k.stop).op('i32.eq').op('i32.or').if();
  if (k.reduces.length > 0) emitPartials(k, pieceNumber(k));
  // The next block starts its own piece.
  f.op('local.get', k.i).op('local.get', k.stop).op('i32.lt_u').if();
  startPiece(k, k.i);
  f.end();
  f.end();
}

/** A piece begins at `start`: reductions start from their identity, scans from the launch's value for the piece. */
function startPiece(k: RowKernel, start: Local): void {
  const f = k.ctx.f;
  startReductions(k);
  f.op('local.get', start).op('local.set', k.pieceStart);
  if (k.scans.length === 0) return;
  const piece = pieceNumber(k);
  for (const { x, acc } of k.scans) {
    partialAddress(k, piece, x.slot);
    f.mem('f64.load', { align: 0 });
    fromF64(f, x.type, true);
    f.op('local.set', acc);
  }
}

/** A local holding the number of the piece starting at pieceStart (see the head of this file). */
function pieceNumber(k: RowKernel): Local {
  const f = k.ctx.f;
  const piece = f.local('i32');
  const div = (by: Local): void => { f.op('local.get', k.pieceStart).op('local.get', by).op('i32.div_u'); };
  div(k.seg); div(k.bs); f.op('i32.add'); div(k.segLcm); f.op('i32.sub').op('local.set', piece);
  return piece;
}

/**
 * Computes block `blk`'s part of each pinned temporary into this thread's
 * scratch: the range [lo, hi) of its flat order the block reads comes from its
 * table (written at launch), and its function writes element e at
 * base + e * size, base being the scratch part less lo elements. Returns the
 * body's arrays that read them, with the local holding each one's base.
 */
function emitTemps(ctx: EmitContext, spec: KernelSpec, blk: Local, temps: NonNullable<KernelOptions['temps']>): Array<[number, Local]> {
  const f = ctx.f;
  const [lo, hi, entry] = [f.local('i32'), f.local('i32'), f.local('i32')];
  return (spec.temps ?? []).map((t, i) => {
    const field = temps.offset + TEMPS.first + TEMPS.stride * i;
    const base = f.local('i32');
    loadArg(ctx, field + TEMPS.table);
    f.op('local.get', blk).op('i32.const', 8).op('i32.mul').op('i32.add').op('local.tee', entry);
    f.mem('i32.load', { offset: 0 }).op('local.set', lo);
    f.op('local.get', entry).mem('i32.load', { offset: 4 }).op('local.set', hi);
    f.op('local.get', temps.scratch);
    loadArg(ctx, field + TEMPS.offset);
    f.op('i32.add');
    f.op('local.get', lo).op('i32.const', KTYPE_BYTES[at(spec.arrays, t.array, 'array').dtype]).op('i32.mul').op('i32.sub').op('local.set', base);
    loadArg(ctx, field + TEMPS.args);
    f.op('local.get', lo).op('local.get', hi).op('local.get', base).op('call', at(temps.fns, i, 'temporary function'));
    return [t.array, base];
  });
}

export { emitKernel };
export type { KernelOptions };
