// The one graph node type. Nodes are immutable and shared: a DeferredArray is a
// handle on a node, and every operation makes a new node over existing ones.
import type { DType, TypedArray } from './dtypes.js';
import type { IndexArg } from './indexing.js';
import type { OpName } from './op-table.js';
import type { Shape } from './shape.js';

/**
 * A strided window onto the logical (row-major) element order of a node's
 * input. `strides`/`offset` index the input's row-major order; `axes`,
 * `steps` and `starts` say the same per axis (output axis i walks input axis
 * axes[i], or broadcasts when it is -1, by steps[i]; the window starts at index
 * starts[a] of input axis a), which lets a backend compose views over data
 * that is itself strided.
 */
interface ViewMap {
  readonly strides: readonly number[];
  readonly offset: number;
  readonly axes?: readonly number[];
  readonly steps?: readonly number[];
  readonly starts?: readonly number[];
}

/**
 * A mutable heap array as graph nodes see it: each version is a leaf ('stored'
 * op) that backends read from wherever that version is held. Implemented by
 * trace/storage.ts; the graph layer only reads through it.
 */
interface StorageRef {
  readonly id: number;
  /** How errors and printers name the array, e.g. 'A3 float64(4, 4)'. */
  readonly name: string;
  /** Byte address of the heap block holding `version`; StaleArrayError when none does. */
  address(version: number): number;
  /** The block holding `version` as a typed array over the heap (bool as uint8). */
  view(version: number): TypedArray;
}

/**
 * A source's hold on heap memory it reads in place (a view result passed back
 * in): the results layer checks it is still held, and pins it while a run reads it.
 */
interface HeapLease {
  readonly heapLease: true;
}

/**
 * Operation parameters. One interface for every op, each op reading the
 * fields it owns (see op-table.ts), so that passes can treat nodes uniformly.
 */
interface NodeAttrs {
  /** source: the values in row-major order, owned by the graph (copied in once). */
  readonly data?: TypedArray;
  /** source: set when `data` is heap memory the graph does not own (a view result, read in place). */
  readonly lease?: HeapLease;
  /** stored: the mutable array, and which of its versions this leaf is. */
  readonly storage?: StorageRef;
  readonly version?: number;
  /** scalar: the constant, already cast to the node's dtype. */
  readonly value?: number;
  /** random: the generator's key and the stream (the counter's upper words) this array draws from. */
  readonly random?: RandomWords;
  /** reduce: the reduced axes (sorted); transpose: the permutation. */
  readonly axes?: readonly number[];
  readonly keepdims?: boolean;
  /** concat, stack: the axis joined along; take: the axis picked along; cumsum, cumprod: the axis accumulated along. */
  readonly axis?: number;
  /** take: what an index outside the axis does (NumPy's mode). */
  readonly mode?: TakeMode;
  /** transpose, slice, broadcastTo: where each output element is read from. */
  readonly view?: ViewMap;
  /** slice: the index as given, resolved again when a compiled function's sizes change. */
  readonly index?: readonly IndexArg[];
  /** reshape: the shape as asked for (a -1 left unresolved), for the same reason. */
  readonly request?: readonly number[];
  /** A short description for printers (the slice text, the cast target). */
  readonly label?: string;
}

/** A random array's Philox key and stream, each two 32-bit words (low first). */
interface RandomWords {
  readonly key: readonly [number, number];
  readonly stream: readonly [number, number];
}

/** raise: an error; wrap: taken modulo the length; clip: the nearest end. */
type TakeMode = 'raise' | 'wrap' | 'clip';

interface Node {
  readonly id: number;
  readonly op: OpName;
  readonly inputs: readonly Node[];
  readonly shape: Shape;
  readonly dtype: DType;
  readonly attrs: NodeAttrs;
}

let nextId = 0;

function makeNode(op: OpName, inputs: readonly Node[], shape: Shape, dtype: DType, attrs: NodeAttrs = {}): Node {
  return Object.freeze({
    id: nextId++,
    op,
    inputs: Object.freeze([...inputs]),
    shape: Object.freeze([...shape]),
    dtype,
    attrs: Object.freeze({ ...attrs }),
  });
}

/**
 * Every node reachable from `roots`, inputs before their users (a
 * topological order); `children` narrows which inputs are followed.
 */
function topoOrder(roots: readonly Node[], children: (n: Node) => readonly Node[] = (n) => n.inputs): Node[] {
  const seen = new Set<Node>();
  const order: Node[] = [];
  // Iterative post-order: graphs built in loops can be deeper than the JS stack.
  const stack: Array<{ node: Node; next: number }> = [];
  for (const root of roots) {
    if (seen.has(root)) continue;
    seen.add(root);
    stack.push({ node: root, next: 0 });
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const kids = children(top.node);
      if (top.next < kids.length) {
        const child = kids[top.next++]!;
        if (!seen.has(child)) {
          seen.add(child);
          stack.push({ node: child, next: 0 });
        }
      } else {
        order.push(top.node);
        stack.pop();
      }
    }
  }
  return order;
}

export { makeNode, topoOrder };
export type { Node, NodeAttrs, ViewMap, StorageRef, HeapLease, RandomWords, TakeMode };
