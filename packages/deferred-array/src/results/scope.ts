// Scopes, tfjs's tidy for heap views: results that execute() and
// executeSync() make inside da.scope()/da.scopeSync() are heap views, and
// the scope releases them when it ends. What the scope returns is handed on:
// to the enclosing scope, which then owns it (no copy), or, at the outermost
// scope, as an ordinary array copied out of the heap, so that outside every
// scope nobody holds heap memory without having asked for it ({ view: true }).
import { gather } from '../core/dense.js';
import { isRowMajor, sizeOf } from '../ir/shape.js';
import type { DType, TypedArray } from '../ir/dtypes.js';
import { toNdarray } from '../execute/to-ndarray.js';
import { mapNested } from '../util/nested.js';
import { asyncContext } from '../util/platform.js';
import { isThenable } from '../util/stack-context.js';
import type { StdNdarray } from '../util/stdlib.js';
import { describe } from '../core/values.js';
import { release, viewEntryOf } from './views.js';
import type { ViewEntry, ViewOwner } from './views.js';

class Frame implements ViewOwner {
  readonly views = new Set<ViewEntry>();
  readonly parent: Frame | undefined;
  ended = false;

  constructor(parent: Frame | undefined) {
    this.parent = parent;
  }

  end(): void {
    this.ended = true;
    for (const e of [...this.views]) release(e);
  }
}

const context = asyncContext<Frame>();

/** The scope results made now belong to; none outside every scope, or after the scope ended (results are then copies). */
function currentScope(): Frame | undefined {
  const f = context.get();
  return f && !f.ended ? f : undefined;
}

function checkFn(fn: unknown, name: string): void {
  if (typeof fn !== 'function') throw new TypeError(`${name}(fn): fn must be a function; got ${describe(fn)}`);
}

/**
 * Runs `fn`; results executed inside are heap views (no copy), released when
 * it returns or throws, except what it returns: a view, or arrays and plain
 * objects holding views, go to the enclosing scope, or leave the outermost
 * scope as ordinary arrays (copied). Scopes nest.
 */
async function scope<T>(fn: () => T | Promise<T>): Promise<T> {
  checkFn(fn, 'scope');
  const frame = new Frame(currentScope());
  try {
    return handOff(await context.run(frame, fn), frame);
  } finally {
    frame.end();
  }
}

/** As scope(), for synchronous code (executeSync()); fn must not return a promise. */
function scopeSync<T>(fn: () => T): T {
  checkFn(fn, 'scopeSync');
  const frame = new Frame(currentScope());
  try {
    const out = context.run(frame, fn);
    if (isThenable(out)) {
      // Its views are released now; what it still computes comes back as copies.
      Promise.resolve(out).catch(() => undefined);
      throw new TypeError('scopeSync(fn): fn returned a promise; use `await da.scope(async () => ...)` for asynchronous code');
    }
    return handOff(out, frame);
  } finally {
    frame.end();
  }
}

/** `x` with each view of `frame` in it moved to the enclosing scope, or replaced by a copy at the outermost. */
function handOff<T>(x: T, frame: Frame): T {
  return mapNested(x, (v) => {
    const e = viewEntryOf(v);
    if (!e || e.owner !== frame) return v;
    const parent = frame.parent && !frame.parent.ended ? frame.parent : undefined;
    if (!parent) return copyOut(v as StdNdarray | TypedArray);
    frame.views.delete(e);
    e.owner = parent;
    parent.views.add(e);
    return v;
  }) as T;
}

/** An ordinary copy of a view (its data, or an ndarray over it, with any strides). */
function copyOut(x: StdNdarray | TypedArray): StdNdarray | TypedArray {
  if (ArrayBuffer.isView(x)) return x.slice();
  const data = x.data as TypedArray;
  const n = sizeOf(x.shape);
  // A row-major view (what execute() hands out) is one block: a slice, not an element walk.
  if (isRowMajor(x.shape, x.strides)) {
    return toNdarray({ dtype: x.dtype as DType, shape: x.shape, data: data.slice(x.offset, x.offset + n) });
  }
  const src = { dtype: x.dtype as DType, shape: x.shape, data };
  return toNdarray(gather(src, x.shape, { strides: x.shape.length === 0 ? [] : x.strides, offset: x.offset }));
}

export { scope, scopeSync, currentScope, Frame };
