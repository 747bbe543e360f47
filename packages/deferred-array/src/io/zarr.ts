// Zarr arrays (v2 and v3) read through zarrita, lazily: opening one reads its
// metadata only, and a run reads the elements it needs (a range in C order
// at a time, asked of zarrita as the few boxes that tile it), decoded by
// zarrita's codecs (Blosc, Zstd, LZ4, gzip, zlib and the rest of its
// registry) and by the .npy decoder where the package has no such dtype.
// Within a run a chunk is fetched from the store once: a chunk that two
// ranges share is kept between them. zarrita is loaded when a store is first
// opened, so a page that never reads Zarr never downloads it.
import type { DType, TypedArray } from '../ir/dtypes.js';
import { dtypeInfo } from '../ir/dtypes.js';
import { DeferredArrayError, FileFormatError } from '../ir/errors.js';
import type { MappedReader, MappedSource } from '../ir/mapped.js';
import { decodeData } from './npy-data.js';
import type { FileDType, FileType } from './npy-dtypes.js';
import { rangeBoxes } from './range-boxes.js';

/** What zarrita reads from: anything with get(key) giving a chunk's or a metadata document's bytes. */
interface ZarrStore {
  get(key: `/${string}`, options?: unknown): Promise<Uint8Array | undefined>;
}

/** zarrita's data types the package reads; the wide ones may also be converted to a narrower dtype as they load. */
const NATIVE: ReadonlySet<string> = new Set(['float64', 'float32', 'int64', 'uint64', 'int32', 'uint32', 'int16', 'uint16', 'int8', 'uint8', 'bool']);
const WIDE: ReadonlySet<string> = new Set(['int64', 'uint64']);

/** Chunks' bytes a run keeps for the ranges after (a chunk two ranges share is fetched once): past this, oldest first out. */
const KEPT_BYTES = 64 * 2 ** 20;

/** The store bytes a run has fetched, kept up to KEPT_BYTES, the least recently used dropped first (zarrita's ByteCache). */
class KeptBytes {
  readonly #map = new Map<string, Uint8Array | undefined>();
  #bytes = 0;

  has(key: string): boolean {
    return this.#map.has(key);
  }

  get(key: string): Uint8Array | undefined {
    const value = this.#map.get(key);
    // Used again: now the most recent.
    this.#map.delete(key);
    this.#map.set(key, value);
    return value;
  }

  set(key: string, value: Uint8Array | undefined): void {
    this.#bytes -= this.#map.get(key)?.length ?? 0;
    this.#map.delete(key);
    this.#map.set(key, value);
    this.#bytes += value?.length ?? 0;
    for (const [k, v] of this.#map) {
      if (this.#bytes <= KEPT_BYTES || k === key) break;
      this.#map.delete(k);
      this.#bytes -= v?.length ?? 0;
    }
  }
}

/** A zarrita chunk of values: its typed array (zarrita's BoolArray for bool), shape and strides in elements. */
interface Chunk {
  readonly data: { readonly buffer: ArrayBufferLike; readonly byteOffset: number; readonly byteLength: number };
  readonly shape: readonly number[];
  readonly stride: readonly number[];
}

/** Copies `chunk`'s values into `out` from byte `at`, in C order over its shape (zarrita lays them out as stored: C, Fortran or a transpose); returns the bytes written. */
function copyInCOrder(chunk: Chunk, bytes: number, out: Uint8Array, at: number): number {
  const { shape, stride } = chunk;
  const count = shape.reduce((a, b) => a * b, 1);
  const src = new Uint8Array(chunk.data.buffer, chunk.data.byteOffset, chunk.data.byteLength);
  let c = 1;
  const contiguous = shape.every((_, i) => {
    const k = shape.length - 1 - i;
    const ok = shape[k]! <= 1 || stride[k] === c;
    c *= shape[k]!;
    return ok;
  });
  if (contiguous) {
    out.set(src.subarray(0, count * bytes), at);
    return count * bytes;
  }
  // Element by element, as integers of the element's width (floats copied as numbers could lose a NaN's payload; 8-byte elements as two words).
  const words = bytes === 8 ? 2 : 1;
  const Word = bytes === 1 ? Uint8Array : bytes === 2 ? Uint16Array : Uint32Array;
  const from = new Word(src.buffer as ArrayBuffer, src.byteOffset, src.byteLength / Word.BYTES_PER_ELEMENT);
  const to = new Word(out.buffer as ArrayBuffer, out.byteOffset + at, count * words);
  const index = new Array<number>(shape.length).fill(0);
  for (let i = 0; i < count; i++) {
    let e = 0;
    for (let k = 0; k < shape.length; k++) e += index[k]! * stride[k]!;
    to[i * words] = from[e * words]!;
    if (words === 2) to[i * 2 + 1] = from[e * 2 + 1]!;
    for (let k = shape.length - 1; k >= 0; k--) {
      if (++index[k]! < shape[k]!) break;
      index[k] = 0;
    }
  }
  return count * bytes;
}

/** One value (a 0-d array's) as a one-element array of its data type. */
function scalarArray(dtype: string, value: unknown): ArrayBufferView {
  if (dtype === 'int64') return BigInt64Array.of(value as bigint);
  if (dtype === 'uint64') return BigUint64Array.of(value as bigint);
  return (dtypeInfo(dtype as DType).ctor as Float64ArrayConstructor).of(Number(value));
}

/** A Zarr array opened lazily: its shape, the dtype it reads as, and its mapped source. */
interface ZarrArray {
  readonly shape: readonly number[];
  /** What its values decode to (its own dtype, or for int64 and uint64 a narrower dtype asked for). */
  readonly dtype: DType;
  readonly source: MappedSource;
  /** Zarr's chunk shape. */
  readonly chunks: readonly number[];
}

/**
 * The array at `path` in `store`, its metadata read now, its values as runs
 * ask; `name` says which in the errors of this call, `label` in those of runs
 * and in printed graphs; `as` converts int64 and uint64.
 */
async function openZarr(store: ZarrStore, path: string, as: DType | undefined, name: string, label: string): Promise<ZarrArray> {
  const zarr = await import('zarrita');
  const at = zarr.root(store).resolve(path);
  let meta;
  try {
    meta = await zarr.open(at, { kind: 'array' });
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new FileFormatError(`${name}: no Zarr array there (${why})`, { cause: e });
  }
  const dtype = String(meta.dtype);
  if (!NATIVE.has(dtype)) {
    throw new FileFormatError(`${name} holds Zarr data type '${dtype}', which the package does not read; it reads ${[...NATIVE].join(', ')}`);
  }
  const wide = WIDE.has(dtype);
  const type: FileType = { dtype: dtype as FileDType, bytes: dtypeInfo(dtype as DType).bytes, bigEndian: false };
  // What the values decode to, asked of the decoder over no values.
  const decoded = decodeData(new Uint8Array(0), 0, type, 0, wide ? as : undefined, true, name).dtype;
  const shape = [...meta.shape];
  const source: MappedSource = {
    name: label,
    itemBytes: type.bytes,
    direct: false,
    async open(fn: string): Promise<MappedReader> {
      // Opened again over a store that keeps what it fetched, for this run; it must still hold the array opened.
      const cache = new KeptBytes();
      let arr;
      try {
        arr = await zarr.open(zarr.root(zarr.withByteCaching(store as never, { cache }) as ZarrStore).resolve(path), { kind: 'array' });
      } catch (e) {
        throw new FileFormatError(`${fn}: ${label} cannot be opened now (${e instanceof Error ? e.message : String(e)})`, { cause: e });
      }
      if (String(arr.dtype) !== dtype || arr.shape.length !== shape.length || arr.shape.some((d, i) => d !== shape[i])) {
        throw new DeferredArrayError(
          `${fn}: ${label} is not the array it was when fromZarr opened it (${String(arr.dtype)} of shape (${arr.shape.join(', ')}) now, ` +
          `${dtype} of shape (${shape.join(', ')}) then); open it again`,
          'FILE_CHANGED',
        );
      }
      const fail = (e: unknown): never => {
        throw new FileFormatError(`${fn}: ${label}: a chunk could not be read (${e instanceof Error ? e.message : String(e)})`, { cause: e });
      };
      return {
        async read(from: number, to: number): Promise<TypedArray> {
          const out = new Uint8Array((to - from) * type.bytes);
          if (shape.length === 0 && to > from) {
            // A 0-d array's get() gives its one value rather than a chunk.
            const v = scalarArray(dtype, await zarr.get(arr).catch(fail));
            out.set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
          }
          let written = 0;
          for (const box of rangeBoxes(shape, from, to)) {
            const selection = [...box.fixed, zarr.slice(box.start, box.stop), ...shape.slice(box.fixed.length + 1).map(() => null)];
            const chunk = (await zarr.get(arr, selection).catch(fail)) as unknown as Chunk;
            written += copyInCOrder(chunk, type.bytes, out, written);
          }
          return decodeData(out, 0, type, to - from, wide ? as : undefined, true, name).data;
        },
        close: async () => undefined,
      };
    },
  };
  return { shape, dtype: decoded, source, chunks: [...meta.chunks] };
}

export { openZarr };
export type { ZarrStore, ZarrArray };
