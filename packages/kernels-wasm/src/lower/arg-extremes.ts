// argmax and argmin as one-pass reductions: each accumulator keeps a value
// and the position (along the reduced run) where it was found. A row
// kernel's piece writes both as its partials; a column kernel keeps each
// column's value and row in its partials (emit-columns.ts).
//
// Which of two (value, position) pairs wins, NumPy's argmax (argmin alike,
// with less for greater): the greater value; of equal values (-0 and +0
// are equal) the smaller position; a NaN beats any number, and of two NaNs
// the smaller position. That rule folds a row kernel's accumulators, their
// lanes and its pieces (on the host), in any order.
//
// Inside the loop an accumulator sees its elements in increasing position,
// so it takes an element only where it is greater (or the first NaN): one
// comparison. It starts at the reduction's identity (the least value, -Inf
// or the type's minimum) with the position NO_POSITION; if no accumulator of
// a piece (or column) took anything, every element equals the identity and
// the answer is its first. A row kernel's vector accumulator records the
// position of its loop iteration's first element, the same for every
// unrolled step and lane; the fold adds each one's offset.
//
// Positions are f64 in f64x2 lanes (exact below 2^53) and i32 otherwise.
import type { FunctionBuilder, Local } from '../encode/index.js';
import { InternalError, at } from '../internal-error.js';
import { intCompare, isFloatK, scalarType } from './context.js';
import type { EmitContext } from './context.js';
import { splatConst } from './emit-values.js';
import { pairwise } from './reduce-ops.js';
import type { KReduce, KType } from './kernel-spec.js';
import { LANE_COUNT } from './simd-widths.js';
import type { Lanes } from './simd-widths.js';

/** The position an accumulator holds before it has seen an element: past every real one. */
const NO_POSITION = 2 ** 31 - 1;

type ArgFn = Extract<KReduce, 'argmax' | 'argmin'>;
const isArgReduce = (fn: KReduce): fn is ArgFn => fn === 'argmax' || fn === 'argmin';

/** The lanes positions take beside values in `lanes`. */
const positionLanes = (lanes: Lanes): 'f64x2' | 'i32x4' => {
  if (lanes === 'f64x2') return 'f64x2';
  if (lanes === 'f32x4' || lanes === 'i32x4') return 'i32x4';
  throw new InternalError(`argmax and argmin have no ${lanes} form`);
};

/** Pushes whether (b, ib) beats (a, ia), scalars of value type t (positions i32): i32 0 or 1. */
function beatsScalar(f: FunctionBuilder, fn: ArgFn, t: KType, a: Local, ia: Local, b: Local, ib: Local): void {
  const w = scalarType(t);
  const better = (): void => {
    f.op('local.get', b).op('local.get', a);
    if (isFloatK(t)) f.op(`${w}.${fn === 'argmax' ? 'gt' : 'lt'}`);
    else f.op(intCompare(t, fn === 'argmax' ? 'gt' : 'lt'));
  };
  const earlier = (): void => { f.op('local.get', ib).op('local.get', ia).op('i32.lt_u'); };
  better();
  f.op('local.get', b).op('local.get', a).op(`${w}.eq`);
  earlier();
  f.op('i32.and').op('i32.or');
  if (!isFloatK(t)) return;
  // isnan(b) and (not isnan(a), or b earlier)
  f.op('local.get', b).op('local.get', b).op(`${w}.ne`);
  f.op('local.get', a).op('local.get', a).op(`${w}.eq`);
  earlier();
  f.op('i32.or').op('i32.and').op('i32.or');
}

/** (a, ia) = (b, ib) where (b, ib) beats it: scalars. */
function pickScalar(f: FunctionBuilder, fn: ArgFn, t: KType, a: Local, ia: Local, b: Local, ib: Local): void {
  const take = f.local('i32');
  beatsScalar(f, fn, t, a, ia, b, ib);
  f.op('local.set', take);
  f.op('local.get', b).op('local.get', a).op('local.get', take).op('select').op('local.set', a);
  f.op('local.get', ib).op('local.get', ia).op('local.get', take).op('select').op('local.set', ia);
}

/** Pushes a lane mask of where (b, ib) beats (a, ia): values in `lanes` of type t, positions in positionLanes. */
function beatsVector(ctx: EmitContext, lanes: Lanes, fn: ArgFn, t: KType, a: Local, ia: Local, b: Local, ib: Local): void {
  const f = ctx.f;
  const P = positionLanes(lanes);
  const cmp = fn === 'argmax' ? 'gt' : 'lt';
  f.op('local.get', b).op('local.get', a);
  f.op(isFloatK(t) ? `${lanes}.${cmp}` : `${lanes}.${cmp}_${t === 'uint32' ? 'u' : 's'}`);
  f.op('local.get', b).op('local.get', a).op(`${lanes}.eq`);
  f.op('local.get', ib).op('local.get', ia).op(P === 'f64x2' ? 'f64x2.lt' : 'i32x4.lt_s');
  f.op('v128.and').op('v128.or');
  if (!isFloatK(t)) return;
  f.op('local.get', b).op('local.get', b).op(`${lanes}.ne`);
  f.op('local.get', a).op('local.get', a).op(`${lanes}.eq`);
  f.op('local.get', ib).op('local.get', ia).op(P === 'f64x2' ? 'f64x2.lt' : 'i32x4.lt_s');
  f.op('v128.or').op('v128.and').op('v128.or');
}

/** (a, ia) = (b, ib) lane by lane where (b, ib) beats it. */
function pickVector(ctx: EmitContext, lanes: Lanes, fn: ArgFn, t: KType, a: Local, ia: Local, b: Local, ib: Local): void {
  const f = ctx.f;
  const take = f.local('v128');
  beatsVector(ctx, lanes, fn, t, a, ia, b, ib);
  f.op('local.set', take);
  f.op('local.get', b).op('local.get', a).op('local.get', take).op('v128.bitselect').op('local.set', a);
  f.op('local.get', ib).op('local.get', ia).op('local.get', take).op('v128.bitselect').op('local.set', ia);
}

/** The starting position of an accumulator: NO_POSITION, scalar or in every lane. */
function startPosition(ctx: EmitContext, lanes: Lanes | undefined): void {
  if (lanes === undefined) ctx.f.op('i32.const', NO_POSITION);
  else splatConst(ctx, positionLanes(lanes), NO_POSITION);
}

/** Pushes an i32 1 where value b is taken over accumulator a inside the loop: greater (argmin: less), or a NaN over a number. */
function takesScalar(f: FunctionBuilder, fn: ArgFn, t: KType, a: Local, b: Local): void {
  const w = scalarType(t);
  if (!isFloatK(t)) {
    f.op('local.get', b).op('local.get', a).op(intCompare(t, fn === 'argmax' ? 'gt' : 'lt'));
    return;
  }
  // not (b <= a) holds where b is greater or either is a NaN; a NaN accumulator keeps its place.
  f.op('local.get', b).op('local.get', a).op(`${w}.${fn === 'argmax' ? 'le' : 'ge'}`).op('i32.eqz');
  f.op('local.get', a).op('local.get', a).op(`${w}.eq`).op('i32.and');
}

/** Inside the scalar loop: (a, ia) = (b, position) where b is taken. */
function takeScalar(f: FunctionBuilder, fn: ArgFn, t: KType, a: Local, ia: Local, b: Local, position: Local): void {
  const take = f.local('i32');
  takesScalar(f, fn, t, a, b);
  f.op('local.set', take);
  f.op('local.get', b).op('local.get', a).op('local.get', take).op('select').op('local.set', a);
  f.op('local.get', position).op('local.get', ia).op('local.get', take).op('select').op('local.set', ia);
}

/** Inside the vector loop: (a, ia) = (b, iteration) lane by lane where b is taken; `iteration` holds the iteration's first position. */
function takeVector(ctx: EmitContext, lanes: Lanes, fn: ArgFn, t: KType, a: Local, ia: Local, b: Local, iteration: Local): void {
  const f = ctx.f;
  const take = f.local('v128');
  if (isFloatK(t)) {
    f.op('local.get', a).op('local.get', a).op(`${lanes}.eq`);
    f.op('local.get', b).op('local.get', a).op(`${lanes}.${fn === 'argmax' ? 'le' : 'ge'}`);
    f.op('v128.andnot');
  } else {
    f.op('local.get', b).op('local.get', a).op(`${lanes}.${fn === 'argmax' ? 'gt' : 'lt'}_${t === 'uint32' ? 'u' : 's'}`);
  }
  f.op('local.set', take);
  f.op('local.get', b).op('local.get', a).op('local.get', take).op('v128.bitselect').op('local.set', a);
  f.op('local.get', iteration).op('local.get', ia).op('local.get', take).op('v128.bitselect').op('local.set', ia);
}

/** Pushes the position of an iteration's first element (an i32 local) in every lane. */
function iterationPositions(ctx: EmitContext, lanes: Lanes, first: Local): void {
  const f = ctx.f;
  f.op('local.get', first);
  if (positionLanes(lanes) === 'f64x2') f.op('f64.convert_i32_u').op('f64x2.splat');
  else f.op('i32x4.splat');
}

/** Makes the recorded positions of unrolled step u's accumulator real: plus u vectors and the lane number, where one was taken. */
function realPositions(ctx: EmitContext, lanes: Lanes, positions: Local, u: number): void {
  const f = ctx.f;
  const L = LANE_COUNT[lanes];
  const P = positionLanes(lanes);
  // NO_POSITION where it is one, else plus the offsets.
  startPosition(ctx, lanes);
  f.op('local.get', positions);
  if (P === 'f64x2') f.v128f64(u * L, u * L + 1).op('f64x2.add');
  else f.v128i32(u * L, u * L + 1, u * L + 2, u * L + 3).op('i32x4.add');
  f.op('local.get', positions);
  startPosition(ctx, lanes);
  f.op(P === 'f64x2' ? 'f64x2.eq' : 'i32x4.eq').op('v128.bitselect').op('local.set', positions);
}

/** Pushes lane k of a position vector as an i32. */
function positionLane(f: FunctionBuilder, lanes: Lanes, v: Local, k: number): void {
  f.op('local.get', v);
  if (positionLanes(lanes) === 'f64x2') f.op('f64x2.extract_lane', k).op('i32.trunc_f64_u');
  else f.op('i32x4.extract_lane', k);
}

/** Folds every lane of (value, position) vectors into the scalars (a, ia), by the rule. */
function foldArgLanes(ctx: EmitContext, lanes: Lanes, fn: ArgFn, t: KType, v: Local, iv: Local, a: Local, ia: Local): void {
  const f = ctx.f;
  const b = f.local(scalarType(t));
  const ib = f.local('i32');
  for (let k = 0; k < LANE_COUNT[lanes]; k++) {
    f.op('local.get', v).op(`${lanes}.extract_lane`, k).op('local.set', b);
    positionLane(f, lanes, iv, k);
    f.op('local.set', ib);
    pickScalar(f, fn, t, a, ia, b, ib);
  }
}

/**
 * Folds a row kernel's unrolled (value, position) vector accumulators into
 * the scalar pair (a, ia) by the rule: their positions made real, pairwise,
 * then the lanes.
 */
function foldArgAccumulators(ctx: EmitContext, lanes: Lanes, fn: ArgFn, t: KType, values: readonly Local[], positions: readonly Local[], a: Local, ia: Local): void {
  positions.forEach((p, u) => { realPositions(ctx, lanes, p, u); });
  pairwise(values.length, (lo, mid) => {
    pickVector(ctx, lanes, fn, t, at(values, lo, 'accumulator'), at(positions, lo, 'position'), at(values, mid, 'accumulator'), at(positions, mid, 'position'));
  });
  foldArgLanes(ctx, lanes, fn, t, at(values, 0, 'accumulator'), at(positions, 0, 'position'), a, ia);
}

export { NO_POSITION, isArgReduce, positionLanes, pickScalar, takeScalar, takeVector, iterationPositions, startPosition, foldArgAccumulators };
export type { ArgFn };
