// Vector loads and stores of arrays whose element type is not the kernel's
// lane type. A vector kernel holds every value in its lane layout (f64x2,
// f32x4 or i32x4), booleans as lane masks; an array of another type is read
// or written LANE_COUNT elements at a time and converted on the way:
//
//   read   float32 -> f64x2   load64_zero, promote_low
//          int32   -> f64x2   load64_zero, convert_low_s      int32 -> f32x4   load, convert_s
//          uint8   -> any     load16_lane/load32_zero, zero-extend, convert
//          bool    -> mask    the bytes != 0, sign-extended to the lane width
//   write  f64x2   -> float32 demote_zero, store64_lane
//          i32x4   -> uint8   the low byte of each lane (int32 -> uint8 wraps)
//          mask    -> bool    one byte per lane, 0 or 1
//
// Each conversion is the one the scalar loop makes (same rounding, same
// wrapping), so the two loops agree bit for bit.
import type { EmitContext } from './context.js';
import { KTYPE_BYTES } from './kernel-spec.js';
import type { KType } from './kernel-spec.js';

type Lanes = 'f64x2' | 'f32x4' | 'i32x4';

const LANE_COUNT: Record<Lanes, number> = { f64x2: 2, f32x4: 4, i32x4: 4 };
const LANE_DTYPE: Record<Lanes, KType> = { f64x2: 'float64', f32x4: 'float32', i32x4: 'int32' };

/** Whether an array of `dtype` can be read as numbers of the kernel's lane type (through a cast to it). */
function widens(lanes: Lanes, dtype: KType): boolean {
  if (dtype === LANE_DTYPE[lanes] || dtype === 'uint8' || dtype === 'bool') return true;
  return lanes === 'f64x2' ? dtype === 'float32' || dtype === 'int32' : lanes === 'f32x4' && dtype === 'int32';
}

/** Whether a value of the kernel's lane type can be stored into an array of `dtype` (after a cast to it). */
function narrows(lanes: Lanes, dtype: KType): boolean {
  return dtype === LANE_DTYPE[lanes] || dtype === 'bool' || (lanes === 'f64x2' && dtype === 'float32') || (lanes === 'i32x4' && dtype === 'uint8');
}

/** Bytes one vector of the kernel covers in an array of `dtype`. */
const vectorBytes = (lanes: Lanes, dtype: KType): number => LANE_COUNT[lanes] * KTYPE_BYTES[dtype];

/** i8x16.shuffle taking byte `stride * i` to byte i: the low byte of each lane, packed. */
const lowBytes = (stride: number): number[] => Array.from({ length: 16 }, (_, i) => (i * stride) % 16);

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
  if (dtype === LANE_DTYPE[lanes]) return;
  const wide = lanes === 'f64x2';
  if (dtype === 'bool') {
    // Bytes 0/1 to lane masks: != 0 gives 0x00/0xff bytes, which sign-extend to the lane width.
    f.v128i32(0, 0, 0, 0).op('i8x16.ne').op('i16x8.extend_low_i8x16_s').op('i32x4.extend_low_i16x8_s');
    if (wide) f.op('i64x2.extend_low_i32x4_s');
    return;
  }
  if (dtype === 'uint8') {
    f.op('i16x8.extend_low_i8x16_u').op('i32x4.extend_low_i16x8_u');
    if (lanes !== 'i32x4') f.op(wide ? 'f64x2.convert_low_i32x4_u' : 'f32x4.convert_i32x4_u');
    return;
  }
  if (dtype === 'float32') { f.op('f64x2.promote_low_f32x4'); return; }
  f.op(wide ? 'f64x2.convert_low_i32x4_s' : 'f32x4.convert_i32x4_s'); // int32
}

/** With an address and a vector in the lane layout on the stack, stores it into an array of `dtype`. */
function emitVectorStore(ctx: EmitContext, lanes: Lanes, dtype: KType, offset: number): void {
  const f = ctx.f;
  if (dtype === LANE_DTYPE[lanes]) { f.mem('v128.store', { align: 0, offset }); return; }
  if (dtype === 'float32') {
    f.op('f32x4.demote_f64x2_zero').mem('v128.store64_lane', { align: 0, offset }, 0);
    return;
  }
  // The second operand is unused by the shuffle: every index picks from the first.
  f.v128i32(0, 0, 0, 0).shuffle(lowBytes(16 / LANE_COUNT[lanes]));
  if (dtype === 'bool') f.op('i8x16.neg'); // mask bytes 0/-1 to 0/1, with no constant to rebuild per vector
  f.mem(LANE_COUNT[lanes] === 2 ? 'v128.store16_lane' : 'v128.store32_lane', { align: 0, offset }, 0);
}

export { widens, narrows, vectorBytes, emitVectorLoad, emitVectorStore, LANE_COUNT, LANE_DTYPE };
export type { Lanes };
