// The element types a heap view can have, named as deferred-array names its
// dtypes, so a caller can pass an array's dtype straight through. 'bool' is
// stored one byte per element, 0 or 1, as NumPy does.

const VIEW_CONSTRUCTORS = {
  float64: Float64Array,
  float32: Float32Array,
  int64: BigInt64Array,
  uint64: BigUint64Array,
  int32: Int32Array,
  uint32: Uint32Array,
  int16: Int16Array,
  uint16: Uint16Array,
  int8: Int8Array,
  uint8: Uint8Array,
  bool: Uint8Array,
} as const;

type HeapDType = keyof typeof VIEW_CONSTRUCTORS;

/** The typed array a view of each dtype is. */
interface HeapViewTypes {
  float64: Float64Array;
  float32: Float32Array;
  int64: BigInt64Array;
  uint64: BigUint64Array;
  int32: Int32Array;
  uint32: Uint32Array;
  int16: Int16Array;
  uint16: Uint16Array;
  int8: Int8Array;
  uint8: Uint8Array;
  bool: Uint8Array;
}

type HeapView = HeapViewTypes[HeapDType];

const HEAP_DTYPES = Object.keys(VIEW_CONSTRUCTORS) as readonly HeapDType[];

function isHeapDType(x: unknown): x is HeapDType {
  return typeof x === 'string' && Object.hasOwn(VIEW_CONSTRUCTORS, x);
}

export { VIEW_CONSTRUCTORS, HEAP_DTYPES, isHeapDType };
export type { HeapDType, HeapViewTypes, HeapView };
