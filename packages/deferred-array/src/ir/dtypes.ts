// The dtypes, their storage, and NumPy's promotion rules between them.
import { DTypeError } from './errors.js';
import { stdNdarray } from '../util/stdlib.js';
import { formatValue } from './format.js';

const DTYPES = ['float64', 'float32', 'int32', 'uint32', 'int16', 'uint16', 'int8', 'uint8', 'bool'] as const;
type DType = (typeof DTYPES)[number];

/** b: boolean, i: signed integer, u: unsigned integer, f: floating point (NumPy's `kind`). */
type DTypeKind = 'b' | 'i' | 'u' | 'f';

type TypedArray = Float64Array | Float32Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array;
type TypedArrayCtor =
  | Float64ArrayConstructor | Float32ArrayConstructor | Int32ArrayConstructor | Uint32ArrayConstructor
  | Int16ArrayConstructor | Uint16ArrayConstructor | Int8ArrayConstructor | Uint8ArrayConstructor;

interface DTypeInfo {
  readonly name: DType;
  readonly kind: DTypeKind;
  readonly bytes: number;
  /** Storage; bool is stored one byte per element, 0 or 1. */
  readonly ctor: TypedArrayCtor;
  readonly min: number;
  readonly max: number;
}

const INFO: { readonly [K in DType]: DTypeInfo } = Object.freeze({
  float64: { name: 'float64', kind: 'f', bytes: 8, ctor: Float64Array, min: -Number.MAX_VALUE, max: Number.MAX_VALUE },
  float32: { name: 'float32', kind: 'f', bytes: 4, ctor: Float32Array, min: -3.4028234663852886e38, max: 3.4028234663852886e38 },
  int32: { name: 'int32', kind: 'i', bytes: 4, ctor: Int32Array, min: -2147483648, max: 2147483647 },
  uint32: { name: 'uint32', kind: 'u', bytes: 4, ctor: Uint32Array, min: 0, max: 4294967295 },
  int16: { name: 'int16', kind: 'i', bytes: 2, ctor: Int16Array, min: -32768, max: 32767 },
  uint16: { name: 'uint16', kind: 'u', bytes: 2, ctor: Uint16Array, min: 0, max: 65535 },
  int8: { name: 'int8', kind: 'i', bytes: 1, ctor: Int8Array, min: -128, max: 127 },
  uint8: { name: 'uint8', kind: 'u', bytes: 1, ctor: Uint8Array, min: 0, max: 255 },
  bool: { name: 'bool', kind: 'b', bytes: 1, ctor: Uint8Array, min: 0, max: 1 },
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

/**
 * NumPy's promotion table (np.result_type of two arrays). bool sits below every
 * other type; among the numeric types stdlib's table agrees with NumPy's. Where
 * NumPy answers int64 (uint32 with a signed integer) this package, which has no
 * int64, answers float64, as NumPy itself does for uint64 with int64: every
 * value of both operands is exact there.
 */
function promoteTypes(a: DType, b: DType): DType {
  if (a === b) return a;
  if (a === 'bool') return b;
  if (b === 'bool') return a;
  const r = stdNdarray().promotionRules(a, b);
  if (r === 'int64') return 'float64';
  if (!isDType(r)) throw new DTypeError(`no common dtype for ${a} and ${b}`);
  return r;
}

/** uint32 with a signed integer: NumPy's int64, our float64 (see promoteTypes). */
function needsInt64(a: DType, b: DType): boolean {
  const ka = INFO[a].kind;
  const kb = INFO[b].kind;
  return (a === 'uint32' && kb === 'i') || (b === 'uint32' && ka === 'i');
}

/**
 * The smallest float that holds every value of `d` exactly: what NumPy's
 * float-only ufuncs (sin, sqrt, true divide) compute in. NumPy picks float16
 * for bool, int8 and uint8, which this package does not have, so those get float32.
 */
function floatFor(d: DType): DType {
  if (d === 'float32' || d === 'float64') return d;
  return INFO[d].bytes === 4 ? 'float64' : 'float32';
}

const WRAP: { readonly [K in DType]: (x: number) => number } = {
  float64: (x) => x,
  float32: Math.fround,
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

/** The width in bits of an integer dtype (bool's one). */
const bitsOf = (d: DType): number => (d === 'bool' ? 1 : INFO[d].bytes * 8);

/** Can every value of `from` be represented in `to` (NumPy's 'safe' casting)? */
function canCastSafely(from: DType, to: DType): boolean {
  return promoteTypes(from, to) === to;
}

export { DTYPES, dtypeInfo, isDType, checkDType, isFloat, isInteger, promoteTypes, needsInt64, floatFor, canCastSafely, wrapTo, bitsOf };
export type { DType, DTypeKind, DTypeInfo, TypedArray, TypedArrayCtor };
