// An .npy file's values as a typed array the package can hold: the file's
// own bytes where they are little-endian, aligned and ours to keep (no
// copy), else a copy, swapped from big-endian where the file is. float16
// is read as float32; int64 and uint64 as themselves, or converted on the way
// in to a narrower dtype asked for, rounded as NumPy's astype rounds (no
// bigint made per value); booleans are made 0 or 1.
import { dtypeInfo } from '../ir/dtypes.js';
import type { DType, TypedArray } from '../ir/dtypes.js';
import { FileFormatError } from '../ir/errors.js';
import type { FileType } from './npy-dtypes.js';

interface Decoded {
  readonly data: TypedArray;
  /** The dtype `data` holds; where it differs from the one asked for, the caller converts with astype. */
  readonly dtype: DType;
}

/**
 * The `count` values of `type` in `bytes` from `offset`. `as`: the dtype
 * asked for, which int64 and uint64 values are converted to here when it is
 * narrower; `owned`: whether `bytes` may be kept rather than copied.
 */
function decodeData(bytes: Uint8Array, offset: number, type: FileType, count: number, as: DType | undefined, owned: boolean, name: string): Decoded {
  const need = count * type.bytes;
  if (bytes.length - offset < need) {
    throw new FileFormatError(
      `${name} is truncated: its header says ${count} values of ${type.bytes} bytes (${need} bytes) from byte ${offset}, but the file ends at byte ${bytes.length}`,
    );
  }
  const raw = bytes.subarray(offset, offset + need);
  const { dtype } = type;
  if ((dtype === 'int64' || dtype === 'uint64') && as !== undefined && as !== 'int64' && as !== 'uint64') return wide(raw, type, count, as);
  if (dtype === 'float16') return { data: halves(raw, type.bigEndian, count), dtype: 'float32' };
  const data = type.bigEndian ? swapped(raw, type.bytes) : owned ? raw : raw.slice();
  const Ctor = dtypeInfo(dtype).ctor;
  // A typed array needs its offset a multiple of its element size: NumPy aligns data to 64 bytes, others may not.
  const aligned = (data.byteOffset % type.bytes === 0 ? data : data.slice());
  const typed = new Ctor(aligned.buffer as ArrayBuffer, aligned.byteOffset, count);
  // Ours to write by now: the file's own bytes, or a copy.
  if (dtype === 'bool') zeroOrOne(typed as Uint8Array);
  return { data: typed, dtype };
}

/** `raw` with each `width`-byte element's bytes reversed, in a new buffer. */
function swapped(raw: Uint8Array, width: number): Uint8Array {
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i += width) for (let b = 0; b < width; b++) out[i + b] = raw[i + width - 1 - b]!;
  return out;
}

/** NumPy stores booleans as bytes and reads any non-zero byte as True; the package's kernels take 0 or 1. */
function zeroOrOne(data: Uint8Array): void {
  for (let i = 0; i < data.length; i++) if (data[i]! > 1) data[i] = 1;
}

/** float16 values as float32, which holds each exactly (NaN payloads kept). */
function halves(raw: Uint8Array, bigEndian: boolean, count: number): Float32Array {
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const out = new Float32Array(count);
  const bits = new Uint32Array(out.buffer);
  for (let i = 0; i < count; i++) {
    const h = view.getUint16(2 * i, !bigEndian);
    const sign = (h & 0x8000) << 16;
    const exponent = (h >> 10) & 0x1f;
    const mantissa = h & 0x3ff;
    if (exponent === 0) out[i] = (sign ? -1 : 1) * mantissa * 2 ** -24;
    else if (exponent === 31) bits[i] = (sign | 0x7f800000 | (mantissa << 13)) >>> 0;
    else bits[i] = (sign | ((exponent + 112) << 23) | (mantissa << 13)) >>> 0;
  }
  return out;
}

/**
 * int64 or uint64 values as `as`: floats rounded to nearest once (as NumPy's
 * astype), integers wrapped (their low 32 bits, then astype's own wrapping to
 * narrower ones), bool as v != 0.
 */
function wide(raw: Uint8Array, type: FileType, count: number, as: DType): Decoded {
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const le = !type.bigEndian;
  const signed = type.dtype === 'int64';
  const lo = (i: number): number => view.getUint32(8 * i + (le ? 0 : 4), le);
  const hi = (i: number): number => (signed ? view.getInt32(8 * i + (le ? 4 : 0), le) : view.getUint32(8 * i + (le ? 4 : 0), le));
  if (as === 'float64' || as === 'float32') {
    const out = as === 'float64' ? new Float64Array(count) : new Float32Array(count);
    for (let i = 0; i < count; i++) {
      // hi * 2^32 is exact and so is lo: their sum is rounded once, to nearest.
      const h = hi(i);
      const v = h * 4294967296 + lo(i);
      // Below 2^53 that sum is exact, and float32 rounds it once; above, float64 rounded already, so round to odd first.
      out[i] = as === 'float32' && (h >= 0x200000 || h < -0x200000) ? roundToOdd(view.getBigUint64(8 * i, le), signed) : v;
    }
    return { data: out, dtype: as };
  }
  if (as === 'bool') {
    const out = new Uint8Array(count);
    for (let i = 0; i < count; i++) out[i] = hi(i) !== 0 || lo(i) !== 0 ? 1 : 0;
    return { data: out, dtype: 'bool' };
  }
  const out = as === 'uint32' ? new Uint32Array(count) : new Int32Array(count);
  for (let i = 0; i < count; i++) out[i] = lo(i);
  return { data: out, dtype: as === 'uint32' ? 'uint32' : 'int32' };
}

/**
 * The 64-bit integer `bits` as a float64 rounded to odd (toward zero, the
 * last bit set when anything was lost), from which float32's rounding to
 * nearest is the same as from the exact value (53 bits is more than 24 + 2).
 */
function roundToOdd(bits: bigint, signed: boolean): number {
  const v = signed ? BigInt.asIntN(64, bits) : bits;
  const f = Number(v);
  const rest = v - BigInt(f);
  if (rest === 0n) return f;
  const cell = new Float64Array([f]);
  const word = new BigUint64Array(cell.buffer);
  // Toward zero: Number() rounded to nearest, so step back one ulp where it rounded away from zero.
  let w = word[0]!;
  if ((f > 0 && rest < 0n) || (f < 0 && rest > 0n)) w -= 1n;
  word[0] = w | 1n;
  return cell[0]!;
}

export { decodeData };
export type { Decoded };
