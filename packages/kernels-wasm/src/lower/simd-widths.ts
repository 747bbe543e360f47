// Vector loads and stores of arrays whose element type is not the kernel's
// lane type. A vector kernel holds every value in its lane layout (f64x2,
// f32x4, i32x4 for every integer type, i16x8 and i8x16 for kernels of one
// narrow width, or i64x2 for kernels of int64 and uint64), booleans as lane
// masks; an array of another type is read or written LANE_COUNT elements at
// a time and converted on the way:
//
//   read   float32 -> f64x2   load64_zero, promote_low
//          int32   -> f64x2   load64_zero, convert_low_s      int32 -> f32x4   load, convert_s
//          int8, uint8, int16, uint16
//                  -> any     a narrow load, sign- or zero-extended to i32x4, converted
//          uint32  -> f64x2   load64_zero, convert_low_u       uint32 -> f32x4  load, convert_u
//          uint32  -> i32x4   its bits, as the scalar loop's i32 holds it
//          int16, uint16 -> i16x8; int8, uint8 -> i8x16; int64, uint64 -> i64x2: their bits
//          int8 ... uint32 -> i64x2   a narrow load, sign- or zero-extended to i64x2
//          bool    -> mask    the bytes != 0, sign-extended to the lane width
//   write  f64x2   -> float32 demote_zero, store64_lane
//          f64x2, f32x4 -> any integer type
//                             truncated, saturated and flagged as the scalar cast (emitFloatToIntStore)
//          i32x4   -> int8, uint8, int16, uint16, uint32
//                             the low bytes of each lane (the cast wraps)
//          i16x8, i8x16, i64x2 -> their width's types: the bits
//          i64x2   -> int8 ... uint32 the low bytes of each lane (the cast wraps)
//          mask    -> bool    one byte per lane, 0 or 1
//
// Each conversion is the one the scalar loop makes (same rounding, same
// wrapping), so the two loops agree bit for bit.
import type { FunctionBuilder, Local } from '../encode/index.js';
import { ARGS } from './args-layout.js';
import { intRange, isIntegerK, isUnsignedK } from './context.js';
import type { EmitContext } from './context.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import type { KType } from './kernel-spec.js';

type Lanes = 'f64x2' | 'f32x4' | 'i32x4' | 'i16x8' | 'i8x16' | 'i64x2';

const LANE_COUNT: Record<Lanes, number> = { f64x2: 2, f32x4: 4, i32x4: 4, i16x8: 8, i8x16: 16, i64x2: 2 };
/** The type a lane layout is named for (i16x8, i8x16 and i64x2 hold their width's unsigned type too, and i32x4 every integer type). */
const LANE_DTYPE: Record<Lanes, KType> = { f64x2: 'float64', f32x4: 'float32', i32x4: 'int32', i16x8: 'int16', i8x16: 'int8', i64x2: 'int64' };

/** A lane's width in bits. */
const laneBits = (L: Lanes): number => 128 / LANE_COUNT[L];

/** Integer lanes: i32x4 (every integer type, extended), or i16x8, i8x16 and i64x2 (the types of their width, as their bits). */
const isIntLanes = (L: Lanes): boolean => L === 'i32x4' || L === 'i16x8' || L === 'i8x16' || L === 'i64x2';

/** i16x8 and i8x16: lanes that hold the integer types of their width as their bits, and nothing wider. */
const isNarrowLanes = (L: Lanes): boolean => L === 'i16x8' || L === 'i8x16';

/**
 * Lanes that hold only the integer types of their own width, as their bits
 * (i16x8, i8x16, and i64x2: int64 and uint64 have no wider lanes to be read
 * into, and WebAssembly converts no i64x2 lane to a float).
 */
const isExactLanes = (L: Lanes): boolean => isNarrowLanes(L) || L === 'i64x2';

/** An integer type whose elements are exactly an exact lane wide (uint16 in i16x8, int8 in i8x16, uint64 in i64x2). */
const fillsLane = (L: Lanes, t: KType): boolean => isExactLanes(L) && isIntegerK(t) && KTYPE_BYTES[t] * LANE_COUNT[L] === 16;

/** Integer types narrower than a lane (read extended, written as their low bytes). */
const NARROW_INT: ReadonlySet<KType> = new Set(['int8', 'uint8', 'int16', 'uint16']);

/**
 * The lane form of wrapInt: i32x4 lanes hold every integer type as the
 * scalar loop's i32 does, so the same wrap after the same i32 arithmetic gives
 * the same bits. Other lanes need none: float lanes hold no integers, and
 * i16x8 and i8x16 wrap at their own width.
 */
function wrapIntLanes(f: FunctionBuilder, L: Lanes, t: KType): void {
  if (L !== 'i32x4') return;
  if (t === 'int8' || t === 'int16') {
    const shift = t === 'int8' ? 24 : 16;
    f.op('i32.const', shift).op('i32x4.shl').op('i32.const', shift).op('i32x4.shr_s');
  } else if (t === 'uint8' || t === 'uint16') {
    const mask = t === 'uint8' ? 0xff : 0xffff;
    f.v128i32(mask, mask, mask, mask).op('v128.and');
  }
}

/**
 * Leaves a (c) b lane by lane for i64x2 operands of type t: locals, or b a
 * constant in every lane. Lanes order signed values only: unsigned ones are
 * compared with their sign bits flipped, which maps 0..2^64-1 onto
 * -2^63..2^63-1 in order (a constant's flipped as it is written).
 */
function compareI64x2(f: FunctionBuilder, a: Local, b: Local | bigint, c: 'lt' | 'le' | 'gt' | 'ge', t: KType): void {
  const sign = -(2n ** 63n);
  const flip = isUnsignedK(t);
  for (const x of [a, b]) {
    if (typeof x === 'bigint') { f.v128i64(BigInt.asIntN(64, flip ? x ^ sign : x)); continue; }
    f.op('local.get', x);
    if (flip) f.v128i64(sign).op('v128.xor');
  }
  f.op(`i64x2.${c}_s`);
}

/** Leaves, lane by lane, a where a (c) b holds and b elsewhere: the integer extremes of i64x2 lanes, which have no min or max. */
function pickI64x2(f: FunctionBuilder, a: Local, b: Local, c: 'lt' | 'gt', t: KType): void {
  f.op('local.get', a).op('local.get', b);
  compareI64x2(f, a, b, c, t);
  f.op('v128.bitselect');
}

/** Whether an array of `dtype` can be read as numbers of the kernel's lane type (through a cast to it). */
function widens(lanes: Lanes, dtype: KType): boolean {
  // i64x2 lanes read every narrower integer extended, as the scalar loop's i64.extend_i32 does.
  if (lanes === 'i64x2') return dtype === 'bool' || isIntegerK(dtype);
  if (isNarrowLanes(lanes)) return dtype === 'bool' || fillsLane(lanes, dtype);
  if (dtype === LANE_DTYPE[lanes] || dtype === 'bool' || NARROW_INT.has(dtype) || dtype === 'uint32') return true;
  return lanes === 'f64x2' ? dtype === 'float32' || dtype === 'int32' : lanes === 'f32x4' && dtype === 'int32';
}

/**
 * Whether a value of the kernel's lane type can be stored into an array of
 * `dtype` (after a cast to it). Floats go into every integer type as the
 * scalar cast takes them (emitFloatToIntStore).
 */
function narrows(lanes: Lanes, dtype: KType): boolean {
  if (lanes === 'i64x2') return dtype === 'bool' || isIntegerK(dtype);
  if (isNarrowLanes(lanes)) return dtype === 'bool' || fillsLane(lanes, dtype);
  if (dtype === LANE_DTYPE[lanes] || dtype === 'bool') return true;
  if (lanes === 'f64x2' && dtype === 'float32') return true;
  return lanes === 'i32x4' ? NARROW_INT.has(dtype) || dtype === 'uint32' : isIntegerK(dtype);
}

/** Bytes one vector of the kernel covers in an array of `dtype`. */
const vectorBytes = (lanes: Lanes, dtype: KType): number => LANE_COUNT[lanes] * KTYPE_BYTES[dtype];

/** i8x16.shuffle packing the low `keep` bytes of each `stride`-byte lane. */
const lowBytes = (stride: number, keep: number): number[] =>
  Array.from({ length: 16 }, (_, i) => (Math.floor(i / keep) * stride + (i % keep)) % 16);

/**
 * With an address on the stack, loads one vector of the kernel's elements
 * from an array of `dtype` ('broadcast': one element, splat) and leaves it in
 * the lane layout: numbers of the lane type, or masks for bool.
 */
function emitVectorLoad(ctx: EmitContext, lanes: Lanes, dtype: KType, broadcast: boolean, offset: number): void {
  const f = ctx.f;
  const size = KTYPE_BYTES[dtype];
  const bytes = broadcast ? size : vectorBytes(lanes, dtype);
  if (broadcast) f.mem(`v128.load${size * 8}_splat`, { align: 0, offset });
  else if (bytes === 16) f.mem('v128.load', { align: 0, offset });
  else if (bytes === 8 || bytes === 4) f.mem(`v128.load${bytes * 8}_zero`, { align: 0, offset });
  else {
    f.v128i32(0, 0, 0, 0);
    f.mem('v128.load16_lane', { align: 0, offset }, 0);
  }
  if (dtype === LANE_DTYPE[lanes] || fillsLane(lanes, dtype)) return;
  const wide = lanes === 'f64x2' || lanes === 'i64x2';
  if (dtype === 'bool') {
    // Bytes 0/1 to lane masks: != 0 gives 0x00/0xff bytes, which sign-extend to the lane width.
    f.v128i32(0, 0, 0, 0).op('i8x16.ne');
    if (lanes === 'i8x16') return;
    f.op('i16x8.extend_low_i8x16_s');
    if (lanes === 'i16x8') return;
    f.op('i32x4.extend_low_i16x8_s');
    if (wide) f.op('i64x2.extend_low_i32x4_s');
    return;
  }
  if (dtype === 'float32') { f.op('f64x2.promote_low_f32x4'); return; }
  const unsigned = dtype === 'uint8' || dtype === 'uint16' || dtype === 'uint32';
  const u = unsigned ? 'u' : 's';
  if (size === 1) f.op(`i16x8.extend_low_i8x16_${u}`);
  if (size <= 2) f.op(`i32x4.extend_low_i16x8_${u}`);
  if (lanes === 'i32x4') return;
  if (lanes === 'i64x2') { f.op(`i64x2.extend_low_i32x4_${u}`); return; }
  // Narrow values are in int32 range once extended; only uint32 needs the unsigned conversion.
  const c = dtype === 'uint32' ? 'u' : 's';
  f.op(wide ? `f64x2.convert_low_i32x4_${c}` : `f32x4.convert_i32x4_${c}`);
}

/** With an address and a vector in the lane layout on the stack, stores it into an array of `dtype`. */
function emitVectorStore(ctx: EmitContext, lanes: Lanes, dtype: KType, offset: number): void {
  const f = ctx.f;
  if (dtype === LANE_DTYPE[lanes] || fillsLane(lanes, dtype)) { f.mem('v128.store', { align: 0, offset }); return; }
  if (lanes === 'i8x16') { f.op('i8x16.neg').mem('v128.store', { align: 0, offset }); return; } // bool masks to 0/1
  if (dtype === 'float32') {
    f.op('f32x4.demote_f64x2_zero').mem('v128.store64_lane', { align: 0, offset }, 0);
    return;
  }
  if (!isIntLanes(lanes) && isIntegerK(dtype)) { emitFloatToIntStore(ctx, lanes as 'f64x2' | 'f32x4', dtype, offset); return; }
  const size = KTYPE_BYTES[dtype];
  if (size === 4 && lanes === 'i32x4') { f.mem('v128.store', { align: 0, offset }); return; } // uint32 from i32x4: the bits
  // The second operand is unused by the shuffle: every index picks from the first.
  f.v128i32(0, 0, 0, 0).shuffle(lowBytes(16 / LANE_COUNT[lanes], size));
  if (dtype === 'bool') f.op('i8x16.neg'); // mask bytes 0/-1 to 0/1, with no constant to rebuild per vector
  f.mem(`v128.store${LANE_COUNT[lanes] * size * 8}_lane`, { align: 0, offset }, 0);
}

/**
 * With an address and float lanes on the stack, stores them into an array of
 * integer type `dtype` as the scalar cast does (scalar-ops.ts emitCast):
 * truncated; a lane outside the type's range (or NaN) saturates to its
 * bound (NaN to 0) and counts in the invalid flag, one count per lane.
 */
function emitFloatToIntStore(ctx: EmitContext, lanes: 'f64x2' | 'f32x4', dtype: KType, offset: number): void {
  const f = ctx.f;
  const [lo, hi] = intRange(dtype);
  const splat = (v: number): void => { if (lanes === 'f64x2') f.v128f64(v); else f.v128f32(v); };
  const t = f.local('v128');
  f.op(`${lanes}.trunc`).op('local.set', t);
  if (!ctx.quiet) {
    // In range: lo <= t < hi + 1 (exact in float32 too, where hi itself may not be); the rest count,
    // on a path of its own so that a vector in range pays one test.
    const i = lanes === 'f64x2' ? 'i64x2' : 'i32x4';
    const inRange = (): void => {
      f.op('local.get', t); splat(lo); f.op(`${lanes}.ge`);
      f.op('local.get', t); splat(hi + 1); f.op(`${lanes}.lt`).op('v128.and');
    };
    inRange(); f.op(`${i}.all_true`).op('i32.eqz');
    f.if();
    f.op('local.get', ctx.args).op('i32.const', LANE_COUNT[lanes]);
    inRange(); f.op(`${i}.bitmask`).op('i32.popcnt').op('i32.sub');
    f.mem('i32.atomic.rmw.add', { offset: ARGS.flagInvalid }).op('drop');
    f.end();
  }
  // Clamped to [lo, hi] (NaN stays NaN, which the saturating conversion makes 0), then converted.
  // pmax and pmin (a < b ? b : a) are one instruction each where max and min are several, and keep a NaN a.
  f.op('local.get', t); splat(lo); f.op(`${lanes}.pmax`); splat(hi); f.op(`${lanes}.pmin`);
  const u = dtype === 'uint32' ? 'u' : 's';
  f.op(lanes === 'f64x2' ? `i32x4.trunc_sat_f64x2_${u}_zero` : `i32x4.trunc_sat_f32x4_${u}`);
  const size = KTYPE_BYTES[dtype];
  const bytes = LANE_COUNT[lanes] * size;
  if (size < 4) f.v128i32(0, 0, 0, 0).shuffle(lowBytes(4, size));
  if (bytes === 16) f.mem('v128.store', { align: 0, offset });
  else f.mem(`v128.store${bytes * 8}_lane`, { align: 0, offset }, 0);
}

export { widens, narrows, vectorBytes, emitVectorLoad, emitVectorStore, isIntLanes, isNarrowLanes, isExactLanes, fillsLane, compareI64x2, pickI64x2, laneBits, wrapIntLanes, LANE_COUNT, LANE_DTYPE };
export type { Lanes };
