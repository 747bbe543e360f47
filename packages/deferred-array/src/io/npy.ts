// One .npy file: its bytes to the values it holds (the file's own memory
// where it can be kept) and how to lay them out, and the file np.save would
// write for an array of a dtype and shape, with the place its values go.
import type { DType, TypedArray } from '../ir/dtypes.js';
import { dtypeInfo } from '../ir/dtypes.js';
import { FileFormatError } from '../ir/errors.js';
import type { Shape } from '../ir/shape.js';
import { decodeData } from './npy-data.js';
import { descrOf, fileType } from './npy-dtypes.js';
import { readNpyHeader, writeNpyHeader } from './npy-header.js';

/** What reading an array may do: convert to a dtype; keep the bytes (no copy) where they are the caller's to give. */
interface ReadNpy {
  readonly dtype?: DType;
  readonly owned: boolean;
}

/**
 * A file's values: `data` in C order over `stored`, of `dtype`; the array is
 * the transpose of that by `axes` where they are given (Fortran order, or a
 * Zarr array stored in another order), converted to `as` where that is given
 * and differs.
 */
interface NpyValues {
  readonly data: TypedArray;
  readonly dtype: DType;
  readonly stored: Shape;
  readonly axes?: readonly number[];
  readonly as?: DType;
}

/** The values of the .npy file `bytes` (`name`: which file, for errors). */
function readNpy(bytes: Uint8Array, name: string, options: ReadNpy): NpyValues {
  const header = readNpyHeader(bytes, name);
  const type = fileType(header.descr, name);
  const { shape } = header;
  let count = 1;
  for (const d of shape) count *= d;
  if (!Number.isSafeInteger(count * type.bytes)) {
    throw new FileFormatError(`${name} has an .npy header whose shape (${shape.join(', ')}) is too large to be real`);
  }
  const { data, dtype } = decodeData(bytes, header.dataOffset, type, count, options.dtype, options.owned, name);
  // Fortran order is C order over the reversed shape: read as that, then transposed (a view, no copy).
  const fortranOrder = header.fortranOrder && shape.length > 1;
  const reversed = shape.map((_, i) => shape.length - 1 - i);
  return {
    data, dtype, stored: fortranOrder ? [...shape].reverse() : shape,
    ...(fortranOrder ? { axes: reversed } : {}), ...(options.dtype ? { as: options.dtype } : {}),
  };
}

/** The header np.save writes for an array of `dtype` and `shape` (C order, little-endian). */
const npyHeader = (dtype: DType, shape: Shape): Uint8Array => writeNpyHeader(descrOf(dtype), shape);

/**
 * The .npy file np.save writes for an array of `dtype` and `shape`, its
 * values not yet written: `values` is where they go.
 */
function npyFile(dtype: DType, shape: Shape): { readonly file: Uint8Array; readonly values: TypedArray } {
  const header = npyHeader(dtype, shape);
  const { ctor, bytes } = dtypeInfo(dtype);
  let count = 1;
  for (const d of shape) count *= d;
  const file = new Uint8Array(header.length + count * bytes);
  file.set(header);
  // The header is a multiple of 64 bytes long: the values start aligned.
  return { file, values: new ctor(file.buffer, header.length, count) };
}

export { readNpy, npyFile, npyHeader };
export type { ReadNpy, NpyValues };
