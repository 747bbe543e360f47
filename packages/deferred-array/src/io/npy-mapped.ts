// An .npy file loaded with mmapMode, as a mapped source: its values read a
// range at a time from the file, which must still be the one loaded.
import type { DType, TypedArray } from '../ir/dtypes.js';
import type { MappedReader, MappedSource } from '../ir/mapped.js';
import { openRanges } from './files.js';
import type { FileIdentity } from './files.js';
import { decodeData } from './npy-data.js';
import type { FileType } from './npy-dtypes.js';

/** Where an .npy file's values lie: C order, of `type`, from `dataOffset`. */
interface NpyPlace {
  readonly path: string;
  readonly dataOffset: number;
  readonly type: FileType;
  /** What the values are decoded to where int64 or uint64 values convert as they load to a narrower dtype. */
  readonly as: DType | undefined;
  /** The file as it was at load (device, inode, size, time written): a run over another file at the path is refused. */
  readonly identity: FileIdentity;
}

/** The mapped source of the .npy file at `place`, read as an array of `dtype`. */
function npySource(place: NpyPlace, dtype: DType): MappedSource {
  const { path, dataOffset, type, as, identity } = place;
  return {
    name: `file ${path}`,
    itemBytes: type.bytes,
    direct: dtype !== 'bool' && !type.bigEndian && type.dtype === dtype,
    async open(fn: string): Promise<MappedReader> {
      const file = await openRanges(fn, path, identity);
      const readInto = (into: Uint8Array, from: number): Promise<void> => file.read(into, dataOffset + from * type.bytes);
      return {
        readInto,
        async read(from: number, to: number): Promise<TypedArray> {
          const bytes = new Uint8Array((to - from) * type.bytes);
          await readInto(bytes, from);
          return decodeData(bytes, 0, type, to - from, as, true, path).data;
        },
        close: () => file.close(),
      };
    },
  };
}

export { npySource };
export type { NpyPlace };
