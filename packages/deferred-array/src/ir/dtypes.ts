// The dtypes, their storage, and NumPy's promotion rules between them.
import { DTypeError } from './errors.js';
import { stdNdarray } from '../util/stdlib.js';

const DTYPES = ['float64', 'float32', 'int32', 'uint8', 'bool'] as const;
type DType = (typeof DTYPES)[number];

/** b: boolean, i: signed integer, u: unsigned integer, f: floating point (NumPy's `kind`). */
type DTypeKind = 'b' | 'i' | 'u' | 'f';

type TypedArray = Float64Array | Float32Array | Int32Array | Uint8Array;
type TypedArrayCtor = Float64ArrayConstructor | Float32ArrayConstructor | Int32ArrayConstructor | Uint8ArrayConstructor;

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
  throw new DTypeError(`${argument} must be one of ${DTYPES.map((d) => `'${d}'`).join(', ')}; got ${JSON.stringify(x)}`);
}

const isFloat = (d: DType): boolean => INFO[d].kind === 'f';
const isInteger = (d: DType): boolean => INFO[d].kind === 'i' || INFO[d].kind === 'u';

/**
 * NumPy's promotion table (np.result_type of two arrays). bool sits below every
 * other type; among the numeric types stdlib's table agrees with NumPy's.
 */
function promoteTypes(a: DType, b: DType): DType {
  if (a === b) return a;
  if (a === 'bool') return b;
  if (b === 'bool') return a;
  const r = stdNdarray().promotionRules(a, b);
  if (!isDType(r)) throw new DTypeError(`no common dtype for ${a} and ${b}`);
  return r;
}

/**
 * The smallest float that holds every value of `d` exactly: what NumPy's
 * float-only ufuncs (sin, sqrt, true divide) compute in. NumPy picks float16
 * for bool and uint8, which this package does not have, so those get float32.
 */
function floatFor(d: DType): DType {
  if (d === 'float32' || d === 'float64') return d;
  return d === 'int32' ? 'float64' : 'float32';
}

/** Can every value of `from` be represented in `to` (NumPy's 'safe' casting)? */
function canCastSafely(from: DType, to: DType): boolean {
  return promoteTypes(from, to) === to;
}

export { DTYPES, dtypeInfo, isDType, checkDType, isFloat, isInteger, promoteTypes, floatFor, canCastSafely };
export type { DType, DTypeKind, DTypeInfo, TypedArray, TypedArrayCtor };
