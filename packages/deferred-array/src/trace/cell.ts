// The identity of a mutable array as its handles see it. A handle made by a
// creation function (and every view of it: get, T, transpose, contiguous
// reshapes) is live: it reads the array's current version, as a NumPy view
// does, while every other operation builds an expression fixed at the point it
// was written. The cell becomes a Storage on its first in-place write.
import { isWindow } from '../plan/plan.js';
import { viewOf } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import { Storage } from './storage.js';
import { assertLeaseLive } from '../results/views.js';
import { copyViews } from '../results/in-place.js';
import { dtypeInfo } from '../ir/dtypes.js';
import { sizeOf } from '../ir/shape.js';
import { checkReadable, enqueue, readsOf } from './trace.js';
import { isReadOnly, reshapeWindow, viewWindow, wholeWindow } from './window.js';
import type { Window } from './window.js';

class Cell {
  /** The current value: a source, an expression, or a version of `storage`. */
  node: Node;
  storage: Storage | undefined;

  constructor(node: Node) {
    this.node = node;
  }

  /**
   * The storage in-place writes go to, made on the first: a source's values
   * are copied into it now (as wrap() copies in); an expression's are written
   * by a first computation, as `assign` would.
   */
  storageForWrite(overwritesAll: boolean): Storage {
    if (this.storage) return this.storage;
    const n = this.node;
    const reads = n.op === 'source' || overwritesAll ? [] : readsOf([n]);
    checkReadable(reads);
    // A view result read in place is copied into the array's own memory now (the view itself is not written).
    if (n.op === 'source' && !overwritesAll) assertLeaseLive(n.attrs.lease, 'the array written in place');
    const s = new Storage(n.shape, n.dtype);
    this.storage = s;
    if (n.op === 'source') {
      // Values a whole-array assign overwrites before anything reads them are not read (the view may be gone).
      s.initialise(overwritesAll ? new (dtypeInfo(n.dtype).ctor)(sizeOf(n.shape)) : n.attrs.data);
    }
    // A whole-array assign overwrites the expression's values before anything could read them.
    else if (!overwritesAll) enqueue('assign', s, copyViews(n), reads, undefined, '');
    this.node = s.leaf(s.latest);
    return s;
  }
}

/** A handle's view of a cell: how to build its node from the cell's, and where it lies in the array. */
interface LivePath {
  readonly cell: Cell;
  readonly build: ReadonlyArray<(n: Node) => Node>;
  /** Its window onto the array; undefined when it is read-only (a broadcast). */
  readonly window: Window | undefined;
  /** The node last built from the cell's, and that node (set by resolve; a path without a build needs none). */
  resolved?: { readonly base: Node; readonly node: Node };
}

/** The build of a handle over its cell's own array: none, one list shared by every such handle. */
const NO_BUILD: LivePath['build'] = Object.freeze([]);

const livePath = (cell: Cell): LivePath => ({ cell, build: NO_BUILD, window: wholeWindow(cell.node.shape) });

/** The node a live handle stands for now: built again only when the cell has moved to another node. */
function resolve(p: LivePath): Node {
  const base = p.cell.node;
  if (p.build.length === 0) return base;
  if (p.resolved?.base !== base) p.resolved = { base, node: p.build.reduce((n, f) => f(n), base) };
  return p.resolved.node;
}

/**
 * The path of `build` applied to a live handle, when the result is a view of
 * the same memory (else undefined: the result is an expression, e.g. a
 * reshape of a strided view, which NumPy would copy).
 */
function extend(p: LivePath, current: Node, built: Node, build: (n: Node) => Node): LivePath | undefined {
  if (built === current) return p;
  if (!isWindow(built) || built.inputs[0] !== current) return undefined;
  let window: Window | undefined;
  if (p.window) {
    const view = viewOf(built);
    window = view ? viewWindow(p.window, view, built.shape) : reshapeWindow(p.window, built.shape);
    if (!view && !window) return undefined;
    // A broadcast is read-only, as NumPy's broadcast_to is, even where it repeats nothing; so are sliding windows (they overlap).
    if (window && (isReadOnly(window) || built.op === 'broadcastTo' || built.op === 'slidingWindow')) window = undefined;
  }
  return { cell: p.cell, build: [...p.build, build], window };
}

export { Cell, livePath, resolve, extend };
export type { LivePath };
