// execute()'s options, { out, view }, as a request the linker carries out.
import { processHeap } from '../core/heap.js';
import { describe } from '../core/values.js';
import { mapNested } from '../util/nested.js';
import { currentScope } from './scope.js';
import type { Frame } from './scope.js';
import { assertLive, viewEntryOf } from './views.js';

/** How the caller wants one request's results. */
interface ResultRequest {
  /** Results without an out: heap views (true) or ordinary copies. */
  readonly view: boolean;
  /** The scope that releases the views (none: released by hand). */
  readonly owner?: Frame;
  /** execute({ out }) as given; bound to the results once the request is planned. */
  readonly out?: unknown;
}

/** Ordinary copies, whatever the scope: for the package's own runs (cond predicates, arguments computed first). */
const COPIES: ResultRequest = { view: false, owner: undefined, out: undefined };

interface ExecuteOptions {
  /** NumPy's out=: arrays to write the results into (returned in their place). */
  readonly out?: unknown;
  /** Results as heap views (true) or ordinary copies (false); by default views inside da.scope(), copies outside. */
  readonly view?: boolean;
  /** Told of a run's reading of arrays loaded with mmapMode or from fromZarr: bytes read so far, of the total, after each chunk (or each array read whole). Other runs do not call it. */
  readonly onProgress?: (progress: { readonly done: number; readonly total: number }) => void;
}

/** Checks execute()'s options (`fn` names the caller) and resolves the scope in force now. */
function resultRequest(fn: string, options: unknown): ResultRequest {
  const owner = currentScope();
  if (options === undefined) return owner && processHeap().shared ? { view: true, owner, out: undefined } : COPIES;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`${fn}: options must be an object like { out, view }; got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (key !== 'out' && key !== 'view' && key !== 'onProgress') throw new TypeError(`${fn}: unknown option '${key}' (expected out, view, onProgress)`);
  }
  const { out, view, onProgress } = options as ExecuteOptions;
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new TypeError(`${fn}: option onProgress must be a function; got ${describe(onProgress)}`);
  if (view !== undefined && typeof view !== 'boolean') throw new TypeError(`${fn}: option view must be a boolean; got ${describe(view)}`);
  // Released views are refused now, before a force runs anything; the rest of out is checked once the request is planned.
  mapNested(out, (v, name) => {
    const e = viewEntryOf(v);
    if (e) assertLive(e, `${fn}: ${name}`);
    return v;
  }, 'out');
  // Without a shared heap (a page without cross-origin isolation), growing the memory detaches
  // its buffer and every view with it: results are copies there, views asked for included.
  const views = (view ?? owner !== undefined) && processHeap().shared;
  // One shape of object whatever the options, so the code reading requests stays monomorphic.
  return { view: views, owner: views ? owner : undefined, out };
}

export { resultRequest, COPIES };
export type { ResultRequest, ExecuteOptions };
