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
import type { FunctionBuilder, Local } from '../encode/index.js';
import { ARGS, TEMPS, arrayPtrOffset, arrayStrideOffset } from './args-layout.js';
import { emitRandomLanes, emitRandomScalar, randomKeysOf } from './philox.js';
import { isFloatK, isUnsignedK, scalarType } from './context.js';
import type { EmitContext } from './context.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import type { KInstr, KernelSpec } from './kernel-spec.js';
import { emitConst } from './scalar-ops.js';
import { emitBody, openBlockLoop, scalarLoop } from './emit-loops.js';
import type { ReduceInstr, ScanInstr } from './emit-loops.js';
import { combineHalves, combineScalar, combineVector, foldLanes, identity, vectorReduceOp } from './reduce-ops.js';
import { emitSimdInstr, isPromotedAccumulation, splatConst } from './simd-ops.js';
import type { Lanes } from './simd-widths.js';
import { LANE_COUNT, emitVectorLoad, emitVectorStore, vectorBytes } from './simd-widths.js';

/** Vectors per iteration of the main vector loop (and vector accumulators per reduction). */
const UNROLL = 4;

interface KernelOptions {
  /** Run once over the elements [blockBegin, blockEnd) instead of over blocks: a pinned temporary's computation. */
  readonly range?: boolean;
  /** Arrays whose pointer is this local instead of the launch block's. */
  readonly pointers?: ReadonlyMap<number, Local>;
  /** For a spec with temporaries: their functions (in spec.temps order), this thread's scratch and where their fields are. */
  readonly temps?: { readonly fns: readonly number[]; readonly scratch: Local; readonly offset: number };
}

/** Emits the whole function body into `ctx.f` (params: args, blockBegin, blockEnd). */
function emitKernel(ctx: EmitContext, spec: KernelSpec, lanes: Lanes | undefined, blockBegin: Local, blockEnd: Local,
  options: KernelOptions = {}): void {
  const f = ctx.f;
  const nd = spec.ndim;
  const i32 = (): Local => f.local('i32');
  const total = i32();
  const bs = i32();
  const blk = i32();
  const start = i32();
  const stop = i32();
  const i = i32();
  const run = i32();
  const j = i32();
  const rem = i32();
  const seg = i32();
  const segLcm = i32();
  const pieceStart = i32();
  const shape = Array.from({ length: nd }, i32);
  const idx = Array.from({ length: nd }, i32);
  const cur = spec.arrays.map(i32);
  const istride = spec.arrays.map(i32);
  const types = spec.body.map((ins) => ins.type);
  const scalarVals = spec.body.map((ins) => (ins.op === 'store' || ins.op === 'reduce' ? (-1 as Local) : f.local(scalarType(ins.type))));
  const vecVals = lanes ? spec.body.map(() => f.local('v128')) : [];
  const scans = spec.body.filter((ins): ins is ScanInstr => ins.op === 'scan');
  const accScan = scans.map((x) => f.local(scalarType(x.type)));
  // Runs are cut into pieces (and pieces end) for reductions and scans alike.
  const runsMatter = spec.body.some((ins) => ins.op === 'reduce' || ins.op === 'scan');
  // Per random array, the two vectors one generation of four elements makes (float64 lanes use them over two unrolled steps).
  const randomStash = new Map(spec.arrays.flatMap((a, k) => (a.random && lanes ? [[k, [f.local('v128'), f.local('v128')] as const]] : [])));
  const reduces = spec.body.filter((ins): ins is ReduceInstr => ins.op === 'reduce');
  const accS = reduces.map((r) => f.local(scalarType(r.type)));
  // Several vector accumulators per reduction, so consecutive adds do not wait on each other;
  // a float32 value accumulated in float64 needs two (its low and high halves) per step.
  const promoted = reduces.map((r) => lanes !== undefined && isPromotedAccumulation(spec, lanes, r.arg));
  const accLanes = (s: number): Lanes => (promoted[s] ? 'f64x2' : lanes!);
  const accV = lanes ? reduces.map((_, s) => Array.from({ length: UNROLL * (promoted[s] ? 2 : 1) }, () => f.local('v128'))) : [];
  const argLoad = (offset: number): void => { f.op('local.get', ctx.args).mem('i32.load', { offset }); };
  // A random array has no bytes: its pointer and strides count elements.
  const elementBytes = (k: number): number => (spec.arrays[k]!.random ? 1 : KTYPE_BYTES[spec.arrays[k]!.dtype]);
  const stepBytes = (k: number): number => (spec.arrays[k]!.random ? LANE_COUNT[lanes!] : vectorBytes(lanes!, spec.arrays[k]!.dtype));
  const keys = randomKeysOf(ctx, spec, lanes !== undefined);

  argLoad(ARGS.total); f.op('local.set', total);
  argLoad(ARGS.blockSize); f.op('local.set', bs);
  argLoad(ARGS.segment); f.op('local.set', seg);
  argLoad(ARGS.segmentLcm); f.op('local.set', segLcm);
  shape.forEach((s, d) => { argLoad(ARGS.shape + 4 * d); f.op('local.set', s); });
  spec.arrays.forEach((a, k) => {
    argLoad(arrayStrideOffset(nd, k, nd - 1));
    f.op('i32.const', elementBytes(k)).op('i32.mul').op('local.set', istride[k]!);
  });

  if (options.range) {
    // One pass of the block loop, over [blockBegin, blockEnd).
    f.op('i32.const', 0).op('local.set', blk);
    f.block().loop();
    f.op('local.get', blk).op('br_if', 1);
    f.op('local.get', blockBegin).op('local.set', start);
    f.op('local.get', blockEnd).op('local.set', stop);
  } else {
    openBlockLoop(f, blk, blockBegin, blockEnd, bs, total, start, stop);
  }
  const pointers = new Map(options.pointers);
  if (options.temps) for (const [t, local] of emitTemps(ctx, spec, blk, options.temps)) pointers.set(t, local);
  const resetAccumulators = (): void => {
    reduces.forEach((r, s) => {
      emitConst(ctx, r.type, identity(r.fn, r.type)); f.op('local.set', accS[s]!);
      if (lanes) for (const acc of accV[s]!) { splatConst(ctx, accLanes(s), identity(r.fn, r.type)); f.op('local.set', acc); }
    });
  };
  /** A piece begins at `at`: reductions start from their identity, scans from the launch's value for the piece. */
  const startPiece = (at: Local): void => {
    resetAccumulators();
    f.op('local.get', at).op('local.set', pieceStart);
    if (scans.length === 0) return;
    const piece = pieceNumber(f, pieceStart, seg, bs, segLcm);
    scans.forEach((x, s) => {
      f.op('local.get', ctx.args).mem('i32.load', { offset: ARGS.partials });
      f.op('local.get', piece).op('i32.const', spec.slots).op('i32.mul').op('i32.const', x.slot).op('i32.add');
      f.op('i32.const', 8).op('i32.mul').op('i32.add').mem('f64.load', { align: 0 });
      if (x.type === 'float32') f.op('f32.demote_f64');
      else if (!isFloatK(x.type)) f.op(`i32.trunc_sat_f64_${isUnsignedK(x.type) ? 'u' : 's'}`);
      f.op('local.set', accScan[s]!);
    });
  };
  startPiece(start);
  // The multi-index of the block's first element.
  f.op('local.get', start).op('local.set', rem);
  for (let d = nd - 1; d >= 0; d--) {
    f.op('local.get', rem).op('local.get', shape[d]!).op('i32.rem_u').op('local.set', idx[d]!);
    f.op('local.get', rem).op('local.get', shape[d]!).op('i32.div_u').op('local.set', rem);
  }
  f.op('local.get', start).op('local.set', i);

  f.block().loop(); // rows
  f.op('local.get', i).op('local.get', stop).op('i32.ge_u').op('br_if', 1);
  // run = min(shape[inner] - idx[inner], stop - i[, end of the reduced run - i])
  const minInto = (target: Local, a: () => void, b: () => void): void => {
    a(); b(); a(); b(); f.op('i32.lt_u').op('select').op('local.set', target);
  };
  minInto(run,
    () => { f.op('local.get', shape[nd - 1]!).op('local.get', idx[nd - 1]!).op('i32.sub'); },
    () => { f.op('local.get', stop).op('local.get', i).op('i32.sub'); });
  if (runsMatter) {
    minInto(run, () => { f.op('local.get', run); }, () => {
      f.op('local.get', i).op('local.get', seg).op('i32.div_u').op('i32.const', 1).op('i32.add')
        .op('local.get', seg).op('i32.mul').op('local.get', i).op('i32.sub');
    });
  }
  // Row pointers: base + sum over axes of idx * stride * element size.
  spec.arrays.forEach((_, k) => {
    const own = pointers.get(k);
    if (own !== undefined) f.op('local.get', own);
    else argLoad(arrayPtrOffset(nd, k));
    for (let d = 0; d < nd; d++) {
      f.op('local.get', idx[d]!);
      argLoad(arrayStrideOffset(nd, k, d));
      f.op('i32.mul').op('i32.const', elementBytes(k)).op('i32.mul').op('i32.add');
    }
    f.op('local.set', cur[k]!);
  });
  f.op('i32.const', 0).op('local.set', j);

  if (lanes) {
    const invariant = (ins: KInstr): boolean =>
      ins.op === 'const' || (ins.op === 'load' && spec.arrays[ins.array]!.inner === 'broadcast');
    // An unrolled loop of UNROLL vectors, then one vector at a time, then the scalar tail.
    const n = LANE_COUNT[lanes];
    const vectorLoop = (unroll: number): void => {
      f.block().loop();
      f.op('local.get', j).op('i32.const', n * unroll).op('i32.add').op('local.get', run).op('i32.gt_u').op('br_if', 1);
      for (let u = 0; u < unroll; u++) {
        const offset = (k: number): number => (spec.arrays[k]!.inner === 'contiguous' ? u * stepBytes(k) : 0);
        emitBody(ctx, spec, vecVals, cur, (ins, k) => {
          if (spec.arrays[k]!.random) {
            emitRandomLanes(f, lanes, spec.arrays[k]!.dtype, keys.get(k)!, cur[k]!, u, randomStash.get(k)!);
            return;
          }
          f.op('local.get', cur[k]!);
          if (ins.op === 'load') emitVectorLoad(ctx, lanes, spec.arrays[k]!.dtype, false, offset(k));
        }, (ins) => emitSimdInstr(ctx, lanes, ins, vecVals, types, 'inline'), (r, s) => {
          if (promoted[s]) {
            combineHalves(f, 'f64x2.promote_low_f32x4', r.fn, accV[s]![2 * u]!, accV[s]![2 * u + 1]!, vecVals[r.arg]!);
            return;
          }
          combineVector(f, lanes, r.fn, accV[s]![u]!, vecVals[r.arg]!);
        }, (k) => { emitVectorStore(ctx, lanes, spec.arrays[k]!.dtype, offset(k)); }, invariant);
      }
      f.op('local.get', j).op('i32.const', n * unroll).op('i32.add').op('local.set', j);
      spec.arrays.forEach((a, k) => {
        if (a.inner === 'contiguous') {
          f.op('local.get', cur[k]!).op('i32.const', unroll * stepBytes(k)).op('i32.add').op('local.set', cur[k]!);
        }
      });
      f.op('br', 0).end().end();
    };
    // Broadcast operands hold one value along the row, and constants one value everywhere:
    // splat them once, not per vector (V8 does not hoist a v128.const out of a loop).
    spec.body.forEach((ins, v) => {
      if (!invariant(ins)) return;
      if (ins.op === 'const') splatConst(ctx, lanes, ins.value);
      else {
        const k = (ins as { array: number }).array;
        const a = spec.arrays[k]!;
        if (a.random) {
          emitRandomScalar(f, keys.get(k)!, cur[k]!, a.dtype);
          if (lanes === 'f64x2' && a.dtype === 'float32') f.op('f64.promote_f32');
          f.op(lanes === 'f64x2' ? 'f64x2.splat' : 'f32x4.splat');
        } else {
          f.op('local.get', cur[k]!);
          emitVectorLoad(ctx, lanes, a.dtype, true, 0);
        }
      }
      f.op('local.set', vecVals[v]!);
    });
    vectorLoop(UNROLL);
    vectorLoop(1);
  }

  scalarLoop(ctx, spec, scalarVals, cur, istride, j, run, (r, s) => {
    combineScalar(f, r.fn, r.type, accS[s]!, scalarVals[r.arg]!);
  }, keys, (x, s) => {
    combineScalar(f, x.fn, x.type, accScan[s]!, scalarVals[x.arg]!);
    f.op('local.get', accScan[s]!);
  });

  // Advance the multi-index by the run, carrying into outer axes.
  f.op('local.get', i).op('local.get', run).op('i32.add').op('local.set', i);
  f.op('local.get', idx[nd - 1]!).op('local.get', run).op('i32.add').op('local.set', idx[nd - 1]!);
  for (let d = nd - 1; d >= 1; d--) {
    f.op('local.get', idx[d]!).op('local.get', shape[d]!).op('i32.ge_u').if();
    f.op('i32.const', 0).op('local.set', idx[d]!);
    f.op('local.get', idx[d - 1]!).op('i32.const', 1).op('i32.add').op('local.set', idx[d - 1]!);
  }
  for (let d = nd - 1; d >= 1; d--) f.end();
  if (runsMatter) {
    // The piece ends at the end of a reduced run or of the block: write its partials.
    f.op('local.get', i).op('local.get', seg).op('i32.rem_u').op('i32.eqz');
    f.op('local.get', i).op('local.get', stop).op('i32.eq').op('i32.or').if();
    if (reduces.length > 0) emitPartials(ctx, spec, lanes ? accLanes : undefined, reduces, accS, accV, pieceStart, seg, bs, segLcm);
    // The next piece, unless the block ended (the next block starts its own).
    f.op('local.get', i).op('local.get', stop).op('i32.lt_u').if();
    startPiece(i);
    f.end();
    f.end();
  }
  f.op('br', 0).end().end(); // rows

  f.op('local.get', blk).op('i32.const', 1).op('i32.add').op('local.set', blk);
  f.op('br', 0).end().end(); // blocks
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
    const at = temps.offset + TEMPS.first + TEMPS.stride * i;
    const base = f.local('i32');
    f.op('local.get', ctx.args).mem('i32.load', { offset: at + TEMPS.table });
    f.op('local.get', blk).op('i32.const', 8).op('i32.mul').op('i32.add').op('local.tee', entry);
    f.mem('i32.load', { offset: 0 }).op('local.set', lo);
    f.op('local.get', entry).mem('i32.load', { offset: 4 }).op('local.set', hi);
    f.op('local.get', temps.scratch).op('local.get', ctx.args).mem('i32.load', { offset: at + TEMPS.offset }).op('i32.add');
    f.op('local.get', lo).op('i32.const', KTYPE_BYTES[spec.arrays[t.array]!.dtype]).op('i32.mul').op('i32.sub').op('local.set', base);
    f.op('local.get', ctx.args).mem('i32.load', { offset: at + TEMPS.args });
    f.op('local.get', lo).op('local.get', hi).op('local.get', base).op('call', temps.fns[i]!);
    return [t.array, base];
  });
}

/** Stores each reduction's accumulators (lanes folded, then the scalar tail) as f64 partials of the piece at pieceStart. */
function emitPartials(ctx: EmitContext, spec: KernelSpec, accLanes: ((slotIndex: number) => Lanes) | undefined, reduces: readonly ReduceInstr[],
  accS: readonly Local[], accV: readonly (readonly Local[])[], pieceStart: Local, seg: Local, bs: Local, segLcm: Local): void {
  const f = ctx.f;
  const piece = pieceNumber(f, pieceStart, seg, bs, segLcm);
  reduces.forEach((r, s) => {
    f.op('local.get', ctx.args).mem('i32.load', { offset: ARGS.partials });
    f.op('local.get', piece).op('i32.const', spec.slots).op('i32.mul').op('i32.const', r.slot).op('i32.add');
    f.op('i32.const', 8).op('i32.mul').op('i32.add');
    if (accLanes) {
      // The vector accumulators pairwise, then their lanes, then the scalar tail, in that fixed order.
      const lanes = accLanes(s);
      const accs = accV[s]!;
      const op = vectorReduceOp(lanes, r.fn);
      const tree = (lo: number, hi: number): void => {
        if (hi - lo === 1) { f.op('local.get', accs[lo]!); return; }
        const mid = (lo + hi) >> 1;
        tree(lo, mid); tree(mid, hi); f.op(op);
      };
      tree(0, accs.length);
      f.op('local.set', accs[0]!);
      const folded = f.local(scalarType(r.type));
      foldLanes(f, lanes, r.fn, accs[0]!);
      f.op('local.set', folded);
      combineScalar(f, r.fn, r.type, folded, accS[s]!);
      f.op('local.get', folded);
    } else {
      f.op('local.get', accS[s]!);
    }
    if (r.type === 'float32') f.op('f64.promote_f32');
    else if (!isFloatK(r.type)) f.op(`f64.convert_i32_${isUnsignedK(r.type) ? 'u' : 's'}`);
    f.mem('f64.store', { align: 0 });
  });
}

/** A local holding the number of the piece starting at element `at` (see the head of this file). */
function pieceNumber(f: FunctionBuilder, at: Local, seg: Local, bs: Local, segLcm: Local): Local {
  const piece = f.local('i32');
  const div = (by: Local): void => { f.op('local.get', at).op('local.get', by).op('i32.div_u'); };
  div(seg); div(bs); f.op('i32.add'); div(segLcm); f.op('i32.sub').op('local.set', piece);
  return piece;
}

export { emitKernel };
export type { KernelOptions };
