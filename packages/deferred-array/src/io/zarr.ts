// Zarr arrays (v2 and v3) read through zarrita: opened at a path in a store,
// every chunk fetched and decoded once (zarrita's codecs: Blosc, Zstd, LZ4,
// gzip, zlib and the rest of its registry), and the values handed over as an
// .npy file's are (npy.ts): in C order over a shape, converted where the
// package has no such dtype. zarrita is loaded when a store is first opened,
// so a page that never reads Zarr never downloads it.
import type { DType, TypedArray } from '../ir/dtypes.js';
import { dtypeInfo } from '../ir/dtypes.js';
import { FileFormatError } from '../ir/errors.js';
import { decodeData } from './npy-data.js';
import type { FileDType } from './npy-dtypes.js';
import type { NpyValues } from './npy.js';

/** What zarrita reads from: anything with get(key) giving a chunk's or a metadata document's bytes. */
interface ZarrStore {
  get(key: `/${string}`, options?: unknown): Promise<Uint8Array | undefined>;
}

/** zarrita's data types the package reads, and those converted as they load. */
const NATIVE: ReadonlySet<string> = new Set(['float64', 'float32', 'int32', 'uint32', 'int16', 'uint16', 'int8', 'uint8', 'bool']);
const WIDE: ReadonlySet<string> = new Set(['int64', 'uint64']);

/** The array at `path` in `store`, every chunk read once; `name` says which in errors; `as` converts. */
async function readZarr(store: ZarrStore, path: string, as: DType | undefined, name: string): Promise<NpyValues & { readonly chunks: readonly number[] }> {
  const zarr = await import('zarrita');
  let arr;
  try {
    arr = await zarr.open(zarr.root(store).resolve(path), { kind: 'array' });
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new FileFormatError(`${name}: no Zarr array there (${why})`, { cause: e });
  }
  const dtype = String(arr.dtype);
  if (!NATIVE.has(dtype) && !WIDE.has(dtype)) {
    throw new FileFormatError(
      `${name} holds Zarr data type '${dtype}', which the package does not read; it reads ${[...NATIVE].join(', ')}; and int64, uint64 converted as they load (fromZarr(store, path, { dtype: 'float64' }), say)`,
    );
  }
  let chunk;
  try {
    chunk = await zarr.get(arr);
  } catch (e) {
    throw new FileFormatError(`${name}: a chunk could not be read (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  // A 0-d array's get() gives its one value rather than a chunk.
  const { data: values, shape, stride } = typeof chunk === 'object' && chunk !== null && 'shape' in chunk
    ? chunk as { data: unknown; shape: number[]; stride: number[] }
    : { data: scalarArray(dtype, chunk), shape: [], stride: [] };
  const count = shape.reduce((a, b) => a * b, 1);
  const raw = values as { buffer: ArrayBuffer; byteOffset: number; byteLength: number };
  const bytes = new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
  const type = { dtype: dtype as FileDType, bytes: WIDE.has(dtype) ? 8 : dtypeInfo(dtype as DType).bytes, bigEndian: false };
  // zarrita's values are native (little-endian) and the buffer is new: the package keeps it.
  const { data, dtype: got } = decodeData(bytes, 0, type, count, as, true, name);
  // zarrita lays the values out as the array is stored: C order, Fortran order (v2), or any order a v3 transpose codec
  // names. They are C order over the axes taken from the largest stride down; the array is the transpose of that.
  const perm = shape.map((_, i) => i).sort((a, b) => stride[b]! - stride[a]! || a - b);
  const permuted = perm.some((axis, k) => axis !== k && shape[axis]! > 1);
  const axes = perm.map((_, j) => perm.indexOf(j));
  return {
    data: data as TypedArray, dtype: got, stored: permuted ? perm.map((a) => shape[a]!) : shape,
    ...(permuted ? { axes } : {}), ...(as ? { as } : {}), chunks: arr.chunks,
  };
}

/** One value as a one-element array of its data type. */
function scalarArray(dtype: string, value: unknown): ArrayBufferView {
  if (dtype === 'int64') return BigInt64Array.of(value as bigint);
  if (dtype === 'uint64') return BigUint64Array.of(value as bigint);
  return dtypeInfo(dtype as DType).ctor.of(Number(value));
}


export { readZarr };
export type { ZarrStore };
