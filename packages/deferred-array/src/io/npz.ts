// .npz archives, NumPy's way: a zip of .npy files, one per array, named
// after it ('a.npy' holds a). The directory is read without inflating
// anything, each member on its own when asked for; archives are written
// stored, as np.savez writes them, or deflated, as np.savez_compressed.
import { unzipSync, zipSync } from 'fflate';
import { FileFormatError } from '../ir/errors.js';

/** A zip archive starts with a local file header, or, empty, with the end of its directory. */
const isZip = (bytes: Uint8Array): boolean =>
  bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6));

/** The arrays of the archive `bytes`: each name (the member's, less .npy) and its entry. Other files are not arrays: left out. */
function npzMembers(bytes: Uint8Array, name: string): ReadonlyMap<string, string> {
  const members = new Map<string, string>();
  try {
    // The filter sees every entry of the directory and takes none: names only, nothing inflated.
    unzipSync(bytes, {
      filter: (f) => {
        if (f.name.endsWith('.npy')) members.set(f.name.slice(0, -4), f.name);
        return false;
      },
    });
  } catch (e) {
    throw new FileFormatError(`${name} is not a readable .npz (zip) archive: ${(e as Error).message}`, { cause: e });
  }
  return members;
}

/** The bytes of the archive's `entry` (`where` names it in errors), new: inflated or sliced out for this read. */
function npzMember(bytes: Uint8Array, entry: string, where: string): Uint8Array {
  let data: Uint8Array | undefined;
  try {
    data = unzipSync(bytes, { filter: (f) => f.name === entry })[entry];
  } catch (e) {
    throw new FileFormatError(`${where} cannot be read: ${(e as Error).message}`, { cause: e });
  }
  if (!data) throw new FileFormatError(`${where} is missing from the archive`);
  return data;
}

/** An archive of `files` (.npy bytes by array name): stored, or deflated when `compressed`. */
function zipNpz(files: Readonly<Record<string, Uint8Array>>, compressed: boolean): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  for (const [name, bytes] of Object.entries(files)) entries[`${name}.npy`] = bytes;
  return zipSync(entries, { level: compressed ? 6 : 0 });
}

export { isZip, npzMembers, npzMember, zipNpz };
