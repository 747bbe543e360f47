// A row kernel's reductions (emit-kernel.ts): each one's accumulators, a
// step of them in the scalar loop and in the vector loop, their identities
// when a piece starts, and the partials a piece writes when it ends (vector
// accumulators folded pairwise, then their lanes, then the scalar tail, in
// that fixed order). The arithmetic of one step is reduce-ops.ts's.
import type { FunctionBuilder, Local } from '../encode/index.js';
import { InternalError, at } from '../internal-error.js';
import { scalarType } from './context.js';
import type { EmitContext } from './context.js';
import type { KernelSpec } from './kernel-spec.js';
import { emitConst } from './scalar-ops.js';
import { piecePartialAddress } from './emit-loops.js';
import type { ReduceInstr, ValueLocals } from './emit-loops.js';
import { combineHalves, combineScalar, combineVector, foldLanes, identity, maskIdentity, pairwise, toF64 } from './reduce-ops.js';
import { isCountedMask, isPromotedAccumulation, splatConst } from './simd-ops.js';
import { NO_POSITION, foldArgAccumulators, isArgReduce, iterationPositions, startPosition, takeScalar, takeVector } from './arg-extremes.js';
import type { Lanes } from './simd-widths.js';

/** A reduction's accumulators: a scalar one, and with lanes UNROLL vector ones (twice as many when promoted). */
interface ReduceAcc {
  readonly r: ReduceInstr;
  readonly scalar: Local;
  /**
   * The vector accumulators' lanes: f64x2 for a float32 value accumulated in
   * float64, i32x4 for a mask's counted ones; undefined without lanes.
   */
  readonly lanes: Lanes | undefined;
  readonly promoted: boolean;
  /** A sum of a mask made float64, counted in i32x4 lanes (isCountedMask). */
  readonly counted: boolean;
  readonly vector: readonly Local[];
  /**
   * argmax and argmin: the position each accumulator's value was found at
   * (vector ones: their iteration's first, arg-extremes.ts), and the current
   * iteration's first position in every lane.
   */
  readonly positions?: { readonly scalar: Local; readonly vector: readonly Local[]; readonly iteration: Local };
}

/** What of the row kernel its reductions read: its locals for values, positions and pieces, and their accumulators. */
interface ReduceKernel {
  readonly ctx: EmitContext;
  readonly spec: KernelSpec;
  readonly values: ValueLocals;
  readonly j: Local;
  readonly seg: Local;
  readonly pieceStart: Local;
  readonly reduces: readonly ReduceAcc[];
  /** With argmax or argmin: the position along the reduced run of the row's first element. */
  readonly rowPosition: Local | undefined;
}

/**
 * Allocates each reduction's locals (in the order that fixes their numbers):
 * a scalar accumulator, and with lanes `unroll` vector ones, so that
 * consecutive steps do not wait on each other (a float32 value accumulated
 * in float64 needs two, its low and high halves, per step).
 */
function reduceAccs(f: FunctionBuilder, spec: KernelSpec, lanes: Lanes | undefined, unroll: number): { reduces: ReduceAcc[]; rowPosition: Local | undefined } {
  const reduceInstrs = spec.body.filter((ins): ins is ReduceInstr => ins.op === 'reduce');
  const accS = reduceInstrs.map((r) => f.local(scalarType(r.type)));
  const promoted = reduceInstrs.map((r) => lanes !== undefined && isPromotedAccumulation(spec, lanes, r.arg));
  const counted = reduceInstrs.map((r) => lanes !== undefined && isCountedMask(spec, lanes, r.arg));
  const accV = lanes ? promoted.map((p) => Array.from({ length: unroll * (p ? 2 : 1) }, () => f.local('v128'))) : [];
  const positions = reduceInstrs.map((r) => (isArgReduce(r.fn)
    ? { scalar: f.local('i32'), vector: lanes ? Array.from({ length: unroll }, () => f.local('v128')) : [], iteration: f.local('v128') } : undefined));
  const rowPosition = positions.some((p) => p !== undefined) ? f.local('i32') : undefined;
  const reduces = reduceInstrs.map((r, s): ReduceAcc => {
    const isPromoted = promoted[s] === true;
    const isCounted = counted[s] === true;
    const p = positions[s];
    return {
      r, scalar: at(accS, s, 'reduction'), promoted: isPromoted, counted: isCounted,
      lanes: lanes && (isPromoted ? 'f64x2' : isCounted ? 'i32x4' : lanes), vector: accV[s] ?? [], ...(p ? { positions: p } : {}),
    };
  });
  return { reduces, rowPosition };
}

/** The scalar loop's step of reduction slot s: its value folded into the scalar accumulator (argmax, argmin: with its position). */
function combineScalarAcc(k: ReduceKernel, r: ReduceInstr, s: number): void {
  const f = k.ctx.f;
  const acc = at(k.reduces, s, 'reduction');
  const value = at(k.values.scalar, r.arg, 'value');
  if (acc.positions && isArgReduce(r.fn)) {
    const position = f.local('i32');
    f.op('local.get', k.rowPosition!).op('local.get', k.j).op('i32.add').op('local.set', position);
    takeScalar(f, r.fn, r.type, acc.scalar, acc.positions.scalar, value, position);
  } else combineScalar(f, r.fn, r.type, acc.scalar, value);
}

/** Folds the reduction's vector value at unrolled step u into its accumulator(s) for that step. */
function combineVectorAcc(k: ReduceKernel, lanes: Lanes, acc: ReduceAcc, u: number): void {
  const f = k.ctx.f;
  const value = at(k.values.vector, acc.r.arg, 'value');
  if (acc.positions && isArgReduce(acc.r.fn)) {
    // The iteration's first position, set by its first unrolled step for the others.
    if (u === 0) {
      const first = f.local('i32');
      f.op('local.get', k.rowPosition!).op('local.get', k.j).op('i32.add').op('local.set', first);
      iterationPositions(k.ctx, lanes, first);
      f.op('local.set', acc.positions.iteration);
    }
    takeVector(k.ctx, lanes, acc.r.fn, acc.r.type, at(acc.vector, u, 'accumulator'), at(acc.positions.vector, u, 'position'), value,
      acc.positions.iteration);
  } else if (acc.counted) {
    // Bytes of 0 or 1 summed in pairs twice, four counts of at most 4 into each i32 lane.
    const sum = at(acc.vector, u, 'accumulator');
    f.op('local.get', sum).op('local.get', value).op('i16x8.extadd_pairwise_i8x16_u').op('i32x4.extadd_pairwise_i16x8_u').op('i32x4.add').op('local.set', sum);
  } else if (acc.promoted) {
    combineHalves(f, 'f64x2.promote_low_f32x4', acc.r.fn, at(acc.vector, 2 * u, 'accumulator'), at(acc.vector, 2 * u + 1, 'accumulator'), value);
  } else {
    combineVector(f, lanes, acc.r.fn, acc.r.type, at(acc.vector, u, 'accumulator'), value);
  }
}

/** A piece begins: every reduction starts from its identity (any and all from masks, argmax and argmin with no position). */
function startReductions(k: ReduceKernel): void {
  const f = k.ctx.f;
  for (const acc of k.reduces) {
    const id = identity(acc.r.fn, acc.r.type);
    emitConst(k.ctx, acc.r.type, id); f.op('local.set', acc.scalar);
    if (acc.lanes) {
      for (const v of acc.vector) {
        if (acc.r.fn === 'any' || acc.r.fn === 'all') maskIdentity(f, acc.r.fn);
        else splatConst(k.ctx, acc.lanes, id);
        f.op('local.set', v);
      }
    }
    if (acc.positions) {
      startPosition(k.ctx, undefined); f.op('local.set', acc.positions.scalar);
      for (const v of acc.positions.vector) { startPosition(k.ctx, acc.lanes); f.op('local.set', v); }
    }
  }
}

/** Pushes the address of the partial of `piece` (a local) for `slot`. */
function partialAddress(k: Pick<ReduceKernel, 'ctx' | 'spec'>, piece: Local, slot: number): void {
  piecePartialAddress(k.ctx, k.spec.slots, () => { k.ctx.f.op('local.get', piece); }, slot);
}

/** Stores each reduction's accumulators (lanes folded, then the scalar tail) as f64 partials of the piece at pieceStart. */
function emitPartials(k: ReduceKernel, piece: Local): void {
  const f = k.ctx.f;
  for (const acc of k.reduces) {
    if (acc.positions) { emitArgPartials(k, acc, piece); continue; }
    partialAddress(k, piece, acc.r.slot);
    if (acc.lanes) emitFoldedAcc(k, acc, acc.lanes);
    else f.op('local.get', acc.scalar);
    toF64(f, acc.r.type);
    f.mem('f64.store', { align: 0 });
  }
}

/** Pushes a reduction's value: the vector accumulators pairwise, then their lanes, then the scalar tail, in that fixed order. */
function emitFoldedAcc(k: ReduceKernel, acc: ReduceAcc, lanes: Lanes): void {
  const f = k.ctx.f;
  const { r, vector } = acc;
  const first = at(vector, 0, 'accumulator');
  // Pairwise into the lower half's accumulator (the piece's accumulators start again after): i64x2's extremes take their operands from locals.
  pairwise(vector.length, (lo, mid) => { combineVector(f, lanes, r.fn, r.type, at(vector, lo, 'accumulator'), at(vector, mid, 'accumulator')); });
  const folded = f.local(scalarType(r.type));
  if (acc.counted) {
    // A piece's count fits an i32 (a piece is at most a block); as float64 it is exact.
    foldLanes(f, lanes, 'sum', 'int32', first);
    f.op('f64.convert_i32_u');
  } else foldLanes(f, lanes, r.fn, r.type, first);
  f.op('local.set', folded);
  combineScalar(f, r.fn, r.type, folded, acc.scalar);
  f.op('local.get', folded);
}

/**
 * argmax or argmin's partials: its accumulators folded by the rule (pairwise,
 * then their lanes, into the scalar one), the value in its slot and its
 * position in its position slot.
 */
function emitArgPartials(k: ReduceKernel, acc: ReduceAcc, piece: Local): void {
  const f = k.ctx.f;
  const { r, vector, lanes, positions } = acc;
  const fn = r.fn;
  if (!positions || !isArgReduce(fn)) throw new InternalError(`${fn} keeps no position`);
  if (lanes) foldArgAccumulators(k.ctx, lanes, fn, r.type, vector, positions.vector, acc.scalar, positions.scalar);
  partialAddress(k, piece, r.slot);
  f.op('local.get', acc.scalar);
  toF64(f, r.type);
  f.mem('f64.store', { align: 0 });
  // No accumulator took an element: all of them equal the identity, and the first is the answer.
  f.op('local.get', k.pieceStart).op('local.get', k.seg).op('i32.rem_u');
  f.op('local.get', positions.scalar);
  f.op('local.get', positions.scalar).op('i32.const', NO_POSITION).op('i32.eq').op('select').op('local.set', positions.scalar);
  partialAddress(k, piece, r.position ?? r.slot);
  f.op('local.get', positions.scalar).op('f64.convert_i32_u');
  f.mem('f64.store', { align: 0 });
}

export { reduceAccs, combineScalarAcc, combineVectorAcc, startReductions, emitPartials, partialAddress };
export type { ReduceAcc, ReduceKernel };
