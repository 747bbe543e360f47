// One value converted into a dtype as storing it in that dtype's array would,
// across the two element kinds (numbers, and int64's and uint64's bigints).
import { dtypeInfo, isBigInt } from './dtypes.js';
import type { DType, NumberArray, Scalar } from './dtypes.js';

/** One element of each integer dtype, which castValue stores into and reads back. */
const castCells = new Map<DType, NumberArray>();

/**
 * A value converted into dtype `d` exactly as storing it in that dtype's
 * array would: a bigint for int64 and uint64 (a number is truncated and
 * wrapped, a non-finite one is 0), a number for the rest (a bigint wraps to
 * an integer dtype, rounds once to a float one).
 */
function castValue(value: Scalar, d: DType): Scalar {
  if (isBigInt(d)) {
    const v = typeof value === 'bigint' ? value : Number.isFinite(value) ? BigInt(Math.trunc(value)) : 0n;
    return d === 'int64' ? BigInt.asIntN(64, v) : BigInt.asUintN(64, v);
  }
  if (typeof value === 'bigint') {
    const { kind, bytes } = dtypeInfo(d);
    if (kind === 'b') return value !== 0n ? 1 : 0;
    if (kind === 'f') return d === 'float32' ? bigToFloat32(value) : Number(value); // Number() rounds once, to nearest
    return castValue(Number(kind === 'i' ? BigInt.asIntN(bytes * 8, value) : BigInt.asUintN(bytes * 8, value)), d);
  }
  switch (d) {
    case 'float64': return value;
    case 'float32': return Math.fround(value);
    case 'bool': return value !== 0 ? 1 : 0; // NaN is truthy, as in NumPy
    default: {
      let cell = castCells.get(d);
      if (cell === undefined) castCells.set(d, (cell = new (dtypeInfo(d).ctor as new (n: number) => NumberArray)(1)));
      cell[0] = value;
      return cell[0]!;
    }
  }
}

/**
 * A bigint rounded once to the nearest float32 (ties to even), as a store
 * of an int64 into float32 rounds it: through a double it would round twice.
 */
function bigToFloat32(v: bigint): number {
  const a = v < 0n ? -v : v;
  const bits = a.toString(2).length;
  if (bits <= 24) return Number(v);
  const shift = BigInt(bits - 24);
  let q = a >> shift;
  const rest = a - (q << shift);
  const half = 1n << (shift - 1n);
  if (rest > half || (rest === half && (q & 1n) === 1n)) q += 1n;
  const r = Math.fround(Number(q) * 2 ** Number(shift));
  return v < 0n ? -r : r;
}

/**
 * How an element of dtype `from` becomes one of `to` in a copy that converts:
 * undefined where a typed array's own store does it (numbers into numbers),
 * castValue where either side holds bigints.
 */
function elementConverter(from: DType, to: DType): ((x: Scalar) => Scalar) | undefined {
  if (!isBigInt(from) && !isBigInt(to)) return undefined;
  return (x) => castValue(x, to);
}

export { castValue, bigToFloat32, elementConverter };
