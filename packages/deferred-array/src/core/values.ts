// What every layer says of a value a user passed: its typed array's dtype,
// and how to name it in an error message.
import type { DType } from '../ir/dtypes.js';
import { objectName } from '../ir/format.js';

/** The typed array constructors, with the dtype each holds. */
const TYPED_DTYPES: ReadonlyArray<[abstract new (...args: never[]) => ArrayBufferView, DType]> = [
  [Float64Array, 'float64'],
  [Float32Array, 'float32'],
  [BigInt64Array, 'int64'],
  [BigUint64Array, 'uint64'],
  [Int32Array, 'int32'],
  [Uint32Array, 'uint32'],
  [Int16Array, 'int16'],
  [Uint16Array, 'uint16'],
  [Int8Array, 'int8'],
  [Uint8Array, 'uint8'],
];

/** The dtype of a typed array (a Uint8Array is uint8, never bool); undefined for anything else. */
/** By exact constructor, the common case: no chain of instanceof. */
const BY_CTOR = new Map<unknown, DType>(TYPED_DTYPES);

function typedDType(x: unknown): DType | undefined {
  if (x === null || typeof x !== 'object') return undefined;
  return BY_CTOR.get(x.constructor) ?? TYPED_DTYPES.find(([ctor]) => x instanceof ctor)?.[1];
}

/** A value as an error message names it: its class, or its type and value. */
function describe(x: unknown): string {
  if (x === null) return 'null';
  if (typeof x === 'object') return objectName(x);
  return `${typeof x} ${String(x)}`;
}

export { typedDType, describe };
