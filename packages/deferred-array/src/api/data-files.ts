// NumPy's files and Zarr stores, as the package exports them: each function
// loads the readers and writers (data-files-impl.ts) on its first call.
// They are asynchronous anyway, and a page that never reads a file does not
// load them (about 14 KiB gzip of the browser payload, fflate's inflate
// among it); in Node the module is one more file read on the first call.
import type * as Impl from './data-files-impl.js';

// The host caches the module: every call after the first finds it loaded.
const impl = (): Promise<typeof Impl> => import('./data-files-impl.js');

/**
 * NumPy's np.load: the array an .npy file holds, or the arrays of an .npz
 * file as a record by name (each read when first used).
 */
const load = (async (source: Parameters<typeof Impl.load>[0], options?: Parameters<typeof Impl.load>[1]) => (await impl()).load(source, options)) as typeof Impl.load;

/** NumPy's np.save: `x` as an .npy file at a path, or its bytes (target null). */
const save: typeof Impl.save = async (target, x) => (await impl()).save(target, x);

/** NumPy's np.savez: the arrays as an .npz file (stored), at a path or as bytes. */
const savez: typeof Impl.savez = async (target, arrays) => (await impl()).savez(target, arrays);

/** NumPy's np.savez_compressed: as savez, each member deflated. */
const savezCompressed: typeof Impl.savezCompressed = async (target, arrays) => (await impl()).savezCompressed(target, arrays);

/** The Zarr array at `path` in `store` (see zarr.ts): its metadata read now, its chunks as runs need them. */
const fromZarr: typeof Impl.fromZarr = async (store, path, options) => (await impl()).fromZarr(store, path, options);

export { load, save, savez, savezCompressed, fromZarr };
