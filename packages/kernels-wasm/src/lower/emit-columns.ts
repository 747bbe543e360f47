// Column reductions: the iteration space is [R, C] with the reduction over R
// (the outer axis in memory, like a sum over axis 0 of a row-major matrix).
// Reading row by row keeps memory access sequential; each block owns a range
// of columns and accumulates them in place in the partials array (slot-major:
// partials[slot * C + column]), so blocks never share an output and each
// column's value is final when its block ends. Rows are added in order, so
// results do not depend on how blocks are shared between workers.
import type { Local } from '../encode/index.js';
import { ARGS, arrayPtrOffset, arrayStrideOffset } from './args-layout.js';
import { isFloatK, scalarType } from './context.js';
import type { EmitContext } from './context.js';
import { combineScalar, emitBody, identity, openBlockLoop } from './emit-kernel.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import type { KInstr, KernelSpec } from './kernel-spec.js';
import { emitLoad, emitScalarInstr, emitStore } from './scalar-ops.js';
import { emitSimdInstr, splatConst } from './simd-ops.js';
import { LANE_COUNT, LANE_DTYPE, emitVectorLoad, emitVectorStore, vectorBytes } from './simd-widths.js';
import type { Lanes } from './simd-ops.js';

type ReduceInstr = Extract<KInstr, { op: 'reduce' }>;

/** The lane instruction that folds a row into a reduction's accumulator, per lane type. */
const COMBINE: Readonly<Record<string, Readonly<Record<Lanes, string>>>> = {
  sum: { f64x2: 'f64x2.add', f32x4: 'f32x4.add', i32x4: 'i32x4.add' },
  prod: { f64x2: 'f64x2.mul', f32x4: 'f32x4.mul', i32x4: 'i32x4.mul' },
  min: { f64x2: 'f64x2.min', f32x4: 'f32x4.min', i32x4: 'i32x4.min_s' },
  max: { f64x2: 'f64x2.max', f32x4: 'f32x4.max', i32x4: 'i32x4.max_s' },
};

// Four f64 partials to four lanes and back: the low halves of two vectors joined, and the high half moved low.
const JOIN_LOW_HALVES = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23];
const HIGH_TO_LOW = [8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15];

/** Rows the vector loop takes at a time: one load and store of each partial per 16 rows, and 16 streams in flight. */
const ROWS = 16;
/** Vectors of columns the vector loop takes at a time: independent chains of additions. */
const COLUMN_VECTORS = 4;

function emitColumnKernel(ctx: EmitContext, spec: KernelSpec, simd: Lanes | undefined, blockBegin: Local, blockEnd: Local): void {
  const f = ctx.f;
  const reduces = spec.body.filter((ins): ins is ReduceInstr => ins.op === 'reduce');
  // Each accumulator is in the lanes' own type (float64, float32 or int32), held in the f64
  // partials (which hold every value of those types exactly) and converted on the way in and
  // out; or, for float64 accumulators of four-lane values (a float32 or int32 sum), two f64x2
  // halves, each lane widened exactly as the scalar loop widens it.
  const vectorisable = (r: ReduceInstr, l: Lanes): boolean => r.fn in COMBINE && (r.type === LANE_DTYPE[l] || r.type === 'float64');
  const lanes = simd && reduces.every((r) => vectorisable(r, simd)) ? simd : undefined;
  const perVector = lanes ? LANE_COUNT[lanes] : 1;
  /** Whether reduction r keeps two f64x2 accumulators per vector of columns. */
  const halves = (r: ReduceInstr): boolean => lanes !== undefined && lanes !== 'f64x2' && r.type === 'float64';
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
  if (lanes) spec.body.forEach((ins, v) => { if (ins.op === 'const') { splatConst(ctx, lanes, ins.value); f.op('local.set', vecVals[v]!); } });
  // Rows ROWS at a time while ROWS are left, then one at a time: each partial is loaded once,
  // takes the rows' values in row order (the same additions as row by row) and is stored once.
  const rowPtr = Array.from({ length: ROWS }, () => spec.arrays.map(i32));
  const accV = lanes ? reduces.map((red) => Array.from({ length: COLUMN_VECTORS }, () => (halves(red) ? [f.local('v128'), f.local('v128')] : [f.local('v128')]))) : [];
  // Where each reduction's partials for the columns at j start, set once per step of the vector loop.
  const partialAt = reduces.map(i32);
  const j0 = i32();
  f.op('i32.const', 0).op('local.set', r);
  for (const rows of lanes ? [ROWS, 1] : [1]) {
    const ptr = rowPtr.slice(0, rows);
    f.block().loop(); // row groups
    f.op('local.get', r).op('i32.const', rows).op('i32.add').op('local.get', R).op('i32.gt_u').op('br_if', 1);
    spec.arrays.forEach((_, k) => {
      argLoad(arrayPtrOffset(2, k));
      f.op('local.get', r).op('local.get', rowStride[k]!).op('i32.mul').op('i32.add');
      f.op('local.get', c0).op('local.get', colStride[k]!).op('i32.mul').op('i32.add');
      f.op('local.set', ptr[0]![k]!);
      for (let u = 1; u < rows; u++) {
        f.op('local.get', ptr[u - 1]![k]!).op('local.get', rowStride[k]!).op('i32.add').op('local.set', ptr[u]![k]!);
      }
    });
    f.op('local.get', c0).op('local.set', j);

    if (lanes) {
      const partialBytes = 8 * perVector;
      const widen = lanes === 'f32x4' ? 'f64x2.promote_low_f32x4' : 'f64x2.convert_low_i32x4_s';
      /** acc = the partials of column vector c at `at`, in the accumulator's type. */
      const loadPartials = (at: Local, c: number, acc: readonly Local[]): void => {
        if (acc.length === 2) {
          acc.forEach((a, h) => { f.op('local.get', at).mem('v128.load', { align: 0, offset: partialBytes * c + 16 * h }).op('local.set', a); });
          return;
        }
        const half = (offset: number): void => {
          f.op('local.get', at).mem('v128.load', { align: 0, offset });
          if (lanes === 'f32x4') f.op('f32x4.demote_f64x2_zero');
          else if (lanes === 'i32x4') f.op('i32x4.trunc_sat_f64x2_s_zero');
        };
        half(partialBytes * c);
        if (lanes !== 'f64x2') {
          half(partialBytes * c + 16);
          f.shuffle(JOIN_LOW_HALVES);
        }
        f.op('local.set', acc[0]!);
      };
      /** acc = acc (op) value, lane by lane; two accumulators take the value's halves, widened. */
      const combine = (fn: string, acc: readonly Local[], value: Local): void => {
        if (acc.length === 1) {
          f.op('local.get', acc[0]!).op('local.get', value).op(COMBINE[fn]![lanes]).op('local.set', acc[0]!);
          return;
        }
        f.op('local.get', acc[0]!).op('local.get', value).op(widen).op(COMBINE[fn]!['f64x2']).op('local.set', acc[0]!);
        f.op('local.get', acc[1]!).op('local.get', value).op('local.get', value);
        f.shuffle(HIGH_TO_LOW);
        f.op(widen).op(COMBINE[fn]!['f64x2']).op('local.set', acc[1]!);
      };
      /** The partials of column vector c at `at` = acc, widened back to f64. */
      const storePartials = (at: Local, c: number, accs: readonly Local[]): void => {
        if (lanes === 'f64x2' || accs.length === 2) {
          accs.forEach((a, h) => { f.op('local.get', at).op('local.get', a).mem('v128.store', { align: 0, offset: partialBytes * c + 16 * h }); });
          return;
        }
        const acc = accs[0]!;
        f.op('local.get', at).op('local.get', acc).op(widen).mem('v128.store', { align: 0, offset: partialBytes * c });
        f.op('local.get', at).op('local.get', acc).op('local.get', acc);
        f.shuffle(HIGH_TO_LOW);
        f.op(widen).mem('v128.store', { align: 0, offset: partialBytes * c + 16 });
      };
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
            }, (ins) => emitSimdInstr(ctx, lanes, ins, vecVals, types), (red, s) => {
              const acc = accV[s]![c]!;
              if (u === 0) loadPartials(partialAt[s]!, c, acc);
              combine(red.fn, acc, vecVals[red.arg]!);
              if (u === rows - 1) storePartials(partialAt[s]!, c, acc);
            }, (k) => { emitVectorStore(ctx, lanes, spec.arrays[k]!.dtype, offset(k)); }, isConst);
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

    // The columns left, row by row.
    f.op('local.get', j).op('local.set', j0);
    ptr.forEach((p) => {
      f.op('local.get', j0).op('local.set', j);
      f.block().loop();
      f.op('local.get', j).op('local.get', c1).op('i32.ge_u').op('br_if', 1);
      emitBody(ctx, spec, scalarVals, p, (ins, k) => {
        f.op('local.get', p[k]!);
        if (ins.op === 'load') emitLoad(ctx, spec.arrays[k]!.dtype);
      }, (ins) => emitScalarInstr(ctx, ins, scalarVals, types), (red, s) => {
        // Partials are f64; every value of the reduction's type converts there and back exactly.
        partialAddress(red.slot, j);
        f.op('local.get', addr).mem('f64.load', { align: 0 });
        if (red.type === 'float32') f.op('f32.demote_f64');
        else if (!isFloatK(red.type)) f.op('i32.trunc_f64_s');
        f.op('local.set', accS[s]!);
        combineScalar(f, red.fn, red.type, accS[s]!, scalarVals[red.arg]!);
        f.op('local.get', addr).op('local.get', accS[s]!);
        if (red.type === 'float32') f.op('f64.promote_f32');
        else if (!isFloatK(red.type)) f.op('f64.convert_i32_s');
        f.mem('f64.store', { align: 0 });
      }, (k) => emitStore(ctx, spec.arrays[k]!.dtype));
      f.op('local.get', j).op('i32.const', 1).op('i32.add').op('local.set', j);
      spec.arrays.forEach((_, k) => {
        f.op('local.get', p[k]!).op('local.get', colStride[k]!).op('i32.add').op('local.set', p[k]!);
      });
      f.op('br', 0).end().end();
    });

    f.op('local.get', r).op('i32.const', rows).op('i32.add').op('local.set', r);
    f.op('br', 0).end().end(); // row groups
  }
  f.op('local.get', blk).op('i32.const', 1).op('i32.add').op('local.set', blk);
  f.op('br', 0).end().end(); // blocks
}

export { emitColumnKernel };
