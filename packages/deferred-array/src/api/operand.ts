// Turning what users pass (DeferredArrays, JS numbers, stdlib ndarrays, typed
// arrays, nested lists) into graph nodes. Outside arrays are copied in once.
import { DTypeError, ShapeError } from '../ir/errors.js';
import { DTYPES, checkDType, dtypeInfo, isInteger, setElement, setElements } from '../ir/dtypes.js';
import type { DType, Scalar, TypedArray } from '../ir/dtypes.js';
import { fitsIn } from '../ir/type-rules.js';
import { cast, source } from '../ir/build-elementwise.js';
import { castValue } from '../ir/cast-value.js';
import type { Node } from '../ir/node.js';
import { isRowMajor, sizeOf } from '../ir/shape.js';
import { ViewLease, assertLive, heapViewOf, viewEntryOf } from '../results/views.js';
import type { ViewEntry } from '../results/views.js';
import { describe, typedDType } from '../core/values.js';
import { leafArray } from '../core/small-copies.js';
import { isStdNdarray } from '../util/stdlib.js';
import type { StdNdarray } from '../util/stdlib.js';

type NestedArray = ReadonlyArray<number | bigint | boolean | NestedArray>;
type ArrayInput = StdNdarray | TypedArray | NestedArray;

function isArrayInput(x: unknown): x is ArrayInput {
  return Array.isArray(x) || typedDType(x) !== undefined || isStdNdarray(x);
}

/** Shape of a nested list; ragged lists are refused as NumPy 1.24+ does. */
function nestedShape(x: NestedArray, path = 'array'): number[] {
  if (x.length === 0) return [0];
  // forEach and for...of walk past a sparse array's holes (or read them as undefined, which becomes NaN).
  for (let i = 0; i < x.length; i++) {
    if (!(i in x)) throw new TypeError(`${path}[${i}] is a hole in a sparse array: give every element a value`);
  }
  const first = x[0];
  if (!Array.isArray(first)) {
    x.forEach((v, i) => {
      if (Array.isArray(v)) throw new ShapeError(`${path} is ragged: ${path}[${i}] is a list but ${path}[0] is not`);
      if (typeof v !== 'number' && typeof v !== 'boolean' && typeof v !== 'bigint') {
        throw new TypeError(`${path}[${i}] must be a number, bigint or boolean; got ${typeof v}`);
      }
    });
    return [x.length];
  }
  const inner = nestedShape(first as NestedArray, `${path}[0]`);
  x.forEach((v, i) => {
    if (!Array.isArray(v)) throw new ShapeError(`${path} is ragged: ${path}[${i}] is not a list but ${path}[0] is`);
    const s = nestedShape(v as NestedArray, `${path}[${i}]`);
    if (s.length !== inner.length || s.some((d, j) => d !== inner[j])) {
      throw new ShapeError(`${path} is ragged: ${path}[${i}] has shape (${s.join(', ')}) but ${path}[0] has (${inner.join(', ')})`);
    }
  });
  return [x.length, ...inner];
}

/** bool only when there are elements and every one is a boolean: NumPy makes [[]] float64. */
/**
 * The dtype of a nested list as NumPy gives a list of Python values: bool for
 * booleans alone, int64 where a bigint (a Python int) meets only integers and
 * booleans, float64 otherwise (a JS number is a Python float).
 */
function listDType(x: NestedArray): DType {
  let leaves = 0;
  let bools = 0;
  let bigints = 0;
  let fractions = 0;
  for (const v of flatten(x, false)) {
    leaves++;
    if (typeof v === 'boolean') bools++;
    else if (typeof v === 'bigint') bigints++;
    else if (!Number.isInteger(v)) fractions++;
  }
  if (leaves > 0 && bools === leaves) return 'bool';
  return bigints > 0 && fractions === 0 ? 'int64' : 'float64';
}

function fill(data: TypedArray, values: Iterable<Scalar>, dtype: DType): void {
  let i = 0;
  for (const v of values) setElement(data, i++, castValue(v, dtype));
}

/**
 * A JS number going into an integer dtype is a Python scalar to NumPy 2, which
 * truncates it but refuses NaN, ±Inf and values out of range rather than wrap them.
 */
function checkScalarFits(v: Scalar, dtype: DType, where: string): void {
  if (!isInteger(dtype)) return;
  if (typeof v === 'number' && !Number.isFinite(v)) throw new RangeError(`${where} is ${v}, which no integer dtype holds; pass a finite value for ${dtype}`);
  if (!fitsIn(typeof v === 'number' ? Math.trunc(v) : v, dtype)) {
    const { bigMin, bigMax } = dtypeInfo(dtype);
    throw new RangeError(
      `${where} is ${v}, which does not fit in ${dtype} (range ${bigMin}..${bigMax}); ` +
      `pick a wider dtype, or create the array as float64 and astype('${dtype}') it to saturate`,
    );
  }
}

function fillScalars(data: TypedArray, x: NestedArray, dtype: DType): void {
  let i = 0;
  for (const v of flatten(x)) {
    checkScalarFits(v, dtype, `element ${i} (row-major) of the list`);
    setElement(data, i++, castValue(v, dtype));
  }
}

function flatten(x: NestedArray): Generator<Scalar>;
function flatten(x: NestedArray, asNumbers: false): Generator<Scalar | boolean>;
function* flatten(x: NestedArray, asNumbers = true): Generator<Scalar | boolean> {
  for (const v of x) {
    if (Array.isArray(v)) yield* flatten(v as NestedArray, asNumbers as false);
    else yield typeof v === 'boolean' && asNumbers ? (v ? 1 : 0) : (v as Scalar | boolean);
  }
}

function* ndarrayValues(x: StdNdarray): Generator<Scalar> {
  const shape = x.shape;
  const n = sizeOf(shape);
  const idx = new Array<number>(shape.length).fill(0);
  for (let i = 0; i < n; i++) {
    const v = x.get(...idx);
    yield typeof v === 'boolean' ? (v ? 1 : 0) : typeof v === 'bigint' ? v : Number(v);
    for (let ax = shape.length - 1; ax >= 0; ax--) {
      if (++idx[ax]! < shape[ax]!) break;
      idx[ax] = 0;
    }
  }
}

function ndarrayDType(x: StdNdarray): DType {
  // int64 and uint64 results are 'generic' ndarrays over their bigint arrays (to-ndarray.ts).
  const big = x.dtype === 'generic' ? typedDType(x.data) : undefined;
  if (big === 'int64' || big === 'uint64') return big;
  try {
    return checkDType(x.dtype, 'the ndarray dtype');
  } catch (e) {
    throw new DTypeError(`cannot wrap a stdlib ndarray of dtype '${x.dtype}': supported dtypes are ${DTYPES.join(', ')}; astype it first`, { cause: e });
  }
}

/** A source reading heap memory in place: `data` lies in the live view `entry`. */
function leasedSource(data: TypedArray, shape: readonly number[], dtype: DType, entry: ViewEntry): Node {
  return source(data, shape, dtype, new ViewLease(entry));
}

/**
 * A stdlib ndarray's elements when they are a row-major run of a typed
 * array (any offset), as that typed array; else undefined.
 */
function rowMajorRun(x: StdNdarray, d: DType): TypedArray | undefined {
  if (d === 'bool' || typedDType(x.data) !== d) return undefined;
  if (!isRowMajor(x.shape, x.strides)) return undefined;
  return (x.data as TypedArray).subarray(x.offset, x.offset + sizeOf(x.shape));
}

/**
 * A new source node from an outside array. Outside arrays are copied in
 * once; a view result (heap memory) is read in place when `inPlace` (wrap,
 * operands), which is why it must stay live until the graph has run, and
 * copied otherwise (array()). A released view is a DisposedError. A typed
 * array or ndarray converted to another `dtype` is exactly `.astype(dtype)`
 * of its values (same saturation, same `invalid` flag at execute()); a nested
 * list holds JS numbers, which convert as NumPy converts Python scalars.
 */
function sourceFrom(x: ArrayInput, dtype?: DType, inPlace = false): Node {
  if (isStdNdarray(x)) {
    const d = ndarrayDType(x);
    const run = rowMajorRun(x, d);
    const entry = viewEntryOf(x) ?? (run ? heapViewOf(run, 'the ndarray') : undefined);
    if (entry) assertLive(entry, 'the ndarray');
    if (entry && inPlace && run) return cast(leasedSource(run, x.shape, d, entry), dtype ?? d);
    const data = leafArray(dtypeInfo(d).ctor, sizeOf(x.shape));
    fill(data, ndarrayValues(x), d);
    return cast(source(data, x.shape, d), dtype ?? d);
  }
  const td = typedDType(x);
  if (td !== undefined) {
    const t = x as TypedArray;
    const entry = heapViewOf(t, () => `the ${describe(t)}`);
    if (entry && inPlace) return cast(leasedSource(t, [t.length], td, entry), dtype ?? td);
    const data = leafArray(dtypeInfo(td).ctor, t.length);
    setElements(data, t);
    return cast(source(data, [t.length], td), dtype ?? td);
  }
  if (Array.isArray(x)) {
    const shape = nestedShape(x);
    const d = dtype ?? listDType(x);
    const data = leafArray(dtypeInfo(d).ctor, sizeOf(shape));
    fillScalars(data, x, d);
    return source(data, shape, d);
  }
  if (ArrayBuffer.isView(x)) {
    throw new TypeError(
      `${describe(x)} is not supported (there is no float16 dtype): pass a Float64Array, Float32Array, BigInt64Array, ` +
      `BigUint64Array, Int32Array, Uint32Array, Int16Array, Uint16Array, Int8Array or Uint8Array (copy it into one first, e.g. Float32Array.from(x))`,
    );
  }
  throw new TypeError(`expected a DeferredArray, a stdlib ndarray, a typed array of a supported dtype (Float64Array, Int16Array, ...) or a nested list of numbers; got ${describe(x)}`);
}

/** An integer argument of `fn` (at least `min`), or a TypeError naming `what` and what was given. */
function integer(fn: string, what: string, v: unknown, min = -Infinity): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
    throw new TypeError(`${fn}: ${what} must be ${min === 0 ? 'a non-negative integer' : 'an integer'}; got ${describe(v)}`);
  }
  return v;
}

export { sourceFrom, isArrayInput, describe, checkScalarFits, typedDType, integer };
export type { ArrayInput, NestedArray };
