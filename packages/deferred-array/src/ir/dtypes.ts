// The dtypes, their storage, and NumPy's promotion rules between them.
import { DTypeError } from './errors.js';
import { formatValue } from './format.js';

const DTYPES = ['float64', 'float32', 'int64', 'uint64', 'int32', 'uint32', 'int16', 'uint16', 'int8', 'uint8', 'bool'] as const;
type DType = (typeof DTYPES)[number];

/** b: boolean, i: signed integer, u: unsigned integer, f: floating point (NumPy's `kind`). */
type DTypeKind = 'b' | 'i' | 'u' | 'f';

/** Storage of the dtypes whose elements are JS numbers. */
type NumberArray = Float64Array | Float32Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array;
/** Storage of int64 and uint64, whose elements are bigints. */
type BigIntArray = BigInt64Array | BigUint64Array;
type TypedArray = NumberArray | BigIntArray;
type TypedArrayCtor =
  | Float64ArrayConstructor | Float32ArrayConstructor | Int32ArrayConstructor | Uint32ArrayConstructor
  | Int16ArrayConstructor | Uint16ArrayConstructor | Int8ArrayConstructor | Uint8ArrayConstructor
  | BigInt64ArrayConstructor | BigUint64ArrayConstructor;

interface DTypeInfo {
  readonly name: DType;
  readonly kind: DTypeKind;
  readonly bytes: number;
  /** Storage; bool is stored one byte per element, 0 or 1. */
  readonly ctor: TypedArrayCtor;
  /** The range as numbers: int64's and uint64's ends are rounded (2^63 - 1 reads 2^63); bigMin/bigMax hold them exactly. */
  readonly min: number;
  readonly max: number;
  readonly bigMin: bigint;
  readonly bigMax: bigint;
}

const info = (name: DType, kind: DTypeKind, bytes: number, ctor: TypedArrayCtor, min: number, max: number, big?: readonly [bigint, bigint]): DTypeInfo =>
  ({ name, kind, bytes, ctor, min, max, bigMin: big?.[0] ?? BigInt(Math.trunc(min)), bigMax: big?.[1] ?? BigInt(Math.trunc(max)) });

const INFO: { readonly [K in DType]: DTypeInfo } = Object.freeze({
  float64: info('float64', 'f', 8, Float64Array, -Number.MAX_VALUE, Number.MAX_VALUE),
  float32: info('float32', 'f', 4, Float32Array, -3.4028234663852886e38, 3.4028234663852886e38),
  int64: info('int64', 'i', 8, BigInt64Array, -(2 ** 63), 2 ** 63, [-(2n ** 63n), 2n ** 63n - 1n]),
  uint64: info('uint64', 'u', 8, BigUint64Array, 0, 2 ** 64, [0n, 2n ** 64n - 1n]),
  int32: info('int32', 'i', 4, Int32Array, -2147483648, 2147483647),
  uint32: info('uint32', 'u', 4, Uint32Array, 0, 4294967295),
  int16: info('int16', 'i', 2, Int16Array, -32768, 32767),
  uint16: info('uint16', 'u', 2, Uint16Array, 0, 65535),
  int8: info('int8', 'i', 1, Int8Array, -128, 127),
  uint8: info('uint8', 'u', 1, Uint8Array, 0, 255),
  bool: info('bool', 'b', 1, Uint8Array, 0, 1),
});

function isDType(x: unknown): x is DType {
  return typeof x === 'string' && (DTYPES as readonly string[]).includes(x);
}

function dtypeInfo(d: DType): DTypeInfo {
  return INFO[d];
}

/** Validates a user-given dtype, naming the argument it came from. */
function checkDType(x: unknown, argument = 'dtype'): DType {
  if (isDType(x)) return x;
  throw new DTypeError(`${argument} must be one of ${DTYPES.map((d) => `'${d}'`).join(', ')}; got ${formatValue(x)}`);
}

const isFloat = (d: DType): boolean => INFO[d].kind === 'f';
const isInteger = (d: DType): boolean => INFO[d].kind === 'i' || INFO[d].kind === 'u';

/** uint32 with a signed integer: NumPy's int64, our float64 (see promoteTypes). */
function needsInt64(a: DType, b: DType): boolean {
  const narrowSigned = (d: DType): boolean => INFO[d].kind === 'i' && INFO[d].bytes < 8;
  return (a === 'uint32' && narrowSigned(b)) || (b === 'uint32' && narrowSigned(a));
}

/**
 * The smallest float that holds every value of `d` exactly: what NumPy's
 * float-only ufuncs (sin, sqrt, true divide) compute in. NumPy picks float16
 * for bool, int8 and uint8, which this package does not have, so those get float32.
 */
function floatFor(d: DType): DType {
  if (d === 'float32' || d === 'float64') return d;
  return INFO[d].bytes >= 4 ? 'float64' : 'float32';
}

const WRAP: { readonly [K in DType]: (x: number) => number } = {
  float64: (x) => x,
  float32: Math.fround,
  int64: (x) => Number(BigInt.asIntN(64, BigInt(x))),
  uint64: (x) => Number(BigInt.asUintN(64, BigInt(x))),
  int32: (x) => x | 0,
  uint32: (x) => x >>> 0,
  int16: (x) => (x << 16) >> 16,
  uint16: (x) => x & 0xffff,
  int8: (x) => (x << 24) >> 24,
  uint8: (x) => x & 0xff,
  bool: (x) => x & 1,
};

/**
 * What storing the number `x` (an integer of magnitude below 2^53 for the
 * integer dtypes) in dtype `d` leaves: two's complement wrap-around, as C and
 * NumPy's integer loops have it, or float32's rounding.
 */
function wrapTo(d: DType): (x: number) => number {
  return WRAP[d];
}

/** One element's value: a bigint for int64 and uint64, a number for every other dtype. */
type Scalar = number | bigint;

/** Whether `d` is stored as bigints (int64, uint64). */
const isBigInt = (d: DType): d is 'int64' | 'uint64' => d === 'int64' || d === 'uint64';

/**
 * Copies `src` into `dst` at `offset`: typed arrays of one element kind
 * (numbers into numbers, bigints into bigints), as every caller's dtypes agree.
 */
function setElements(dst: TypedArray, src: TypedArray | ArrayLike<number>, offset = 0): void {
  (dst as Float64Array).set(src as Float64Array, offset);
}

/** Stores `v` (a bigint exactly where `dst` holds bigints, as castValue gives) at index `i` of `dst`. */
function setElement(dst: TypedArray, i: number, v: Scalar): void {
  (dst as Float64Array)[i] = v as number;
}

/** The width in bits of an integer dtype (bool's one). */
const bitsOf = (d: DType): number => (d === 'bool' ? 1 : INFO[d].bytes * 8);

export { DTYPES, dtypeInfo, isBigInt, setElement, setElements, isDType, checkDType, isFloat, isInteger, needsInt64, floatFor, wrapTo, bitsOf };
export type { Scalar, DType, DTypeKind, DTypeInfo, TypedArray, TypedArrayCtor, NumberArray, BigIntArray };
