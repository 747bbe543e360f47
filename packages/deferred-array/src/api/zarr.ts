// da.fromZarr: a Zarr array (v2 or v3) in a store, read lazily through zarrita.
import { checkDType } from '../ir/dtypes.js';
import type { DType } from '../ir/dtypes.js';
import { zarrStoreAt } from '../io/files.js';
import { mappedNode } from '../ir/mapped.js';
import { openZarr } from '../io/zarr.js';
import type { ZarrStore } from '../io/zarr.js';
import { wrapNode } from './deferred-array.js';
import type { DeferredArray } from './deferred-array.js';
import { describe } from './operand.js';

interface FromZarrOptions {
  /** Convert to this dtype as it loads (int64 and uint64 arrays convert to a narrower one without a bigint per value). */
  readonly dtype?: DType;
}

const isStore = (x: unknown): x is ZarrStore => typeof x === 'object' && x !== null && typeof (x as { get?: unknown }).get === 'function';

/**
 * The Zarr array at `path` in `store`: a folder (a path or file: URL, in
 * Node), an http(s) URL, or any store zarrita reads (an object with
 * `get(key)`). Its metadata is read now, its chunks as runs need them: a
 * run streams them through the kernels where the graph streams (elementwise
 * work and whole-array reductions), else reads the array whole first.
 */
async function fromZarr(store: string | URL | ZarrStore, path = '', options: FromZarrOptions = {}): Promise<DeferredArray> {
  if (typeof path !== 'string') throw new TypeError(`fromZarr: path must be a string naming the array in the store; got ${describe(path)}`);
  if (typeof options !== 'object' || options === null) throw new TypeError(`fromZarr: options must be an object like { dtype }; got ${describe(options)}`);
  for (const key of Object.keys(options)) if (key !== 'dtype') throw new TypeError(`fromZarr: unknown option '${key}' (expected dtype)`);
  const as = options.dtype === undefined ? undefined : checkDType(options.dtype, 'fromZarr: option dtype');
  let s: ZarrStore;
  let where: string;
  if (typeof store === 'string' || store instanceof URL) {
    s = await zarrStoreAt('fromZarr', store);
    where = `'${String(store)}'`;
  } else if (isStore(store)) {
    s = store;
    where = 'the store given';
  } else {
    throw new TypeError(`fromZarr: expected a folder, a URL or a store with get(key); got ${describe(store)}`);
  }
  const z = await openZarr(s, path, as, `fromZarr: ${where}${path ? `, array '${path}'` : ''}`, path ? `Zarr array '${path}' in ${where}` : `Zarr array in ${where}`);
  const x = wrapNode(mappedNode(z.source, z.shape, z.dtype));
  return as && as !== z.dtype ? x.astype(as) : x;
}

export { fromZarr };
export type { FromZarrOptions };
