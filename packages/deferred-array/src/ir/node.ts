// The one graph node type. Nodes are immutable and shared: a DeferredArray is a
// handle on a node, and every operation makes a new node over existing ones.
// They are frozen where tests run (see FREEZE_NODES).
import type { DType, Scalar, TypedArray } from './dtypes.js';
import type { IndexArg } from './indexing.js';
import { InternalError } from '../util/lookup.js';
import { borrowIdTable, giveBackIdTable } from '../util/id-table.js';
import type { IdTable } from '../util/id-table.js';
import { OPS } from './op-table.js';
import type { Family, OpName, OpsOf } from './op-table.js';
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
  /** The heap its blocks lie in (the process heap): a backend on another reads and writes it through copies. */
  readonly heap: object;
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
  /** The heap the memory lies in: read in place there, copied into any other. */
  readonly heap: object;
}

/** What every node's attributes may carry: a short description for printers (the slice text, the cast target). */
interface Labelled {
  readonly label?: string;
}

/** No parameters beyond the inputs (elementwise ops, linear algebra, cond). */
type PlainAttrs = Labelled;

/** source: the values in row-major order, owned by the graph (copied in once). */
interface SourceAttrs extends Labelled {
  readonly data: TypedArray;
  /** Set when `data` is heap memory the graph does not own (a view result, read in place). */
  readonly lease?: HeapLease;
}

/** stored: the mutable array, and which of its versions this leaf is. */
interface StoredAttrs extends Labelled {
  readonly storage: StorageRef;
  readonly version: number;
}

/**
 * iota: the positions along axis `axis` of `of` (its length is that axis's),
 * so that a plan carried to new sizes (ir/rebuild.ts) gives it its new length.
 */
interface IotaAttrs extends Labelled {
  readonly of: Node;
  readonly axis: number;
}

/** random: the generator's key and the stream (the counter's upper words) this array draws from. */
interface RandomAttrs extends Labelled {
  readonly random: RandomWords;
}

/** scalar: the constant, already cast to the node's dtype. */
interface ScalarAttrs extends Labelled {
  /** A bigint for int64 and uint64, a number otherwise. */
  readonly value: Scalar;
}

/** reduce: the reduced axes (sorted). */
interface ReduceAttrs extends Labelled {
  readonly axes: readonly number[];
  readonly keepdims: boolean;
}

/** concat, stack: the axis joined along; cumsum, cumprod: the axis accumulated along. */
interface AxisAttrs extends Labelled {
  readonly axis: number;
}

/** take: the axis picked along, and what an index outside it does (NumPy's mode). */
interface TakeAttrs extends AxisAttrs {
  readonly mode: TakeMode;
}

/** searchsorted: which of equal elements' positions a value takes (NumPy's side). */
interface SearchAttrs extends Labelled {
  readonly side: 'left' | 'right';
}

/** The matrix decompositions' options: qr's mode, cholesky's and eigh's triangle, svd's full matrices and whether it makes u and vh. */
interface DecompAttrs extends Labelled {
  readonly mode?: 'reduced' | 'complete' | 'r';
  readonly upper?: boolean;
  readonly full?: boolean;
  readonly uv?: boolean;
  /** eigh's eigenvectors: computed unless false (eigvalsh), which leaves out their O(n^3) work. */
  readonly vectors?: boolean;
}

/** transpose, slice, broadcastTo: where each output element is read from. */
interface ViewAttrs extends Labelled {
  readonly view: ViewMap;
}

/** transpose: the permutation. */
interface TransposeAttrs extends ViewAttrs {
  readonly axes: readonly number[];
}

/** select: the axis, and the sorted positions along it taken, in the result's order. */
interface SelectAttrs extends AxisAttrs {
  readonly positions: readonly number[];
}

/** partition, argpartition: the axis, and the kth positions as given (negative ones from the end; any order, repeats allowed). */
interface PartitionAttrs extends AxisAttrs {
  readonly kth: readonly number[];
}

/** slidingWindow: the windows' lengths and the axes they run along (an axis may come more than once). */
interface SlidingWindowAttrs extends ViewAttrs {
  readonly window: readonly number[];
  readonly axes: readonly number[];
}

/** slice: the index as given, resolved again when a compiled function's sizes change. */
interface SliceAttrs extends ViewAttrs {
  readonly index: readonly IndexArg[];
}

/** reshape: the shape as asked for (a -1 left unresolved), for the same reason. */
interface ReshapeAttrs extends Labelled {
  readonly request: readonly number[];
}

/** The attributes of each family's ops; `never` where they differ op by op (see OpAttrs). */
interface FamilyAttrs {
  readonly source: never;
  readonly scalar: ScalarAttrs;
  readonly unary: PlainAttrs;
  readonly binary: PlainAttrs;
  readonly ternary: PlainAttrs;
  readonly cast: Labelled;
  readonly reduce: ReduceAttrs;
  readonly view: never;
  readonly reshape: ReshapeAttrs;
  readonly join: AxisAttrs;
  readonly gather: TakeAttrs;
  readonly scan: AxisAttrs;
  readonly sort: AxisAttrs;
  readonly search: SearchAttrs;
  readonly scatter: PlainAttrs;
  readonly decomp: DecompAttrs;
  readonly linalg: PlainAttrs;
  readonly cond: PlainAttrs;
}

/** The ops whose attributes are their own rather than their family's. */
interface OpAttrs {
  readonly source: SourceAttrs;
  readonly stored: StoredAttrs;
  readonly placeholder: Labelled;
  readonly random: RandomAttrs;
  readonly iota: IotaAttrs;
  readonly transpose: TransposeAttrs;
  readonly slice: SliceAttrs;
  readonly broadcastTo: ViewAttrs;
  readonly slidingWindow: SlidingWindowAttrs;
  readonly select: SelectAttrs;
  readonly partition: PartitionAttrs;
  readonly argpartition: PartitionAttrs;
}

/** Each family's inputs: a tuple where the arity is fixed, a list where it varies (joins) or is checked by the builder. */
interface FamilyInputs {
  readonly source: readonly [];
  readonly scalar: readonly [];
  readonly unary: readonly Node[];
  readonly binary: readonly Node[];
  readonly ternary: readonly Node[];
  readonly cast: readonly [Node];
  readonly reduce: readonly [Node];
  readonly view: readonly [Node];
  readonly reshape: readonly [Node];
  readonly join: readonly Node[];
  readonly gather: readonly [from: Node, indices: Node];
  readonly scan: readonly [Node];
  readonly sort: readonly [Node];
  readonly search: readonly [sorted: Node, values: Node];
  readonly scatter: readonly [target: Node, indices: Node, values: Node];
  readonly decomp: readonly Node[];
  readonly linalg: readonly [Node, Node];
  readonly cond: readonly [pred: Node, then: Node, otherwise: Node];
}

type FamilyOf<O extends OpName> = (typeof OPS)[O]['family'];
type AttrsOf<O extends OpName> = O extends keyof OpAttrs ? OpAttrs[O] : FamilyAttrs[FamilyOf<O>];
type InputsOf<O extends OpName> = FamilyInputs[FamilyOf<O>];

/** raise: an error; wrap: taken modulo the length; clip: the nearest end. */
type TakeMode = 'raise' | 'wrap' | 'clip';

/** A random array's Philox key and stream, each two 32-bit words (low first). */
interface RandomWords {
  readonly key: readonly [number, number];
  readonly stream: readonly [number, number];
}

/** A node of one op: its family, inputs and attributes follow from the op. */
interface OpNode<O extends OpName> {
  readonly id: number;
  readonly op: O;
  readonly family: FamilyOf<O>;
  readonly inputs: InputsOf<O>;
  readonly shape: Shape;
  readonly dtype: DType;
  readonly attrs: AttrsOf<O>;
}

type NodeVariants = { readonly [O in OpName]: OpNode<O> };
/** The node of op O (of any of O's ops, when O is a union). */
type NodeOf<O extends OpName> = NodeVariants[O];
/** The one graph node type: a union over ops, so a switch on `op` or `family` narrows `inputs` and `attrs`. */
type Node = NodeOf<OpName>;
type FamilyNode<F extends Family> = NodeOf<OpsOf<F>>;
/** Any node's attributes; read through a narrowed node where possible. */
type NodeAttrs = Node['attrs'];

/** A node as the constructor sees it, before its fields are tied to its op. */
interface LooseNode {
  readonly id: number;
  readonly op: OpName;
  readonly family: Family;
  readonly inputs: readonly Node[];
  readonly shape: Shape;
  readonly dtype: DType;
  readonly attrs: NodeAttrs;
}

/** The attributes argument: optional where an op has none it must be given. */
type AttrsArg<O extends OpName> = object extends AttrsOf<O> ? [attrs?: AttrsOf<O>] : [attrs: AttrsOf<O>];

let nextId = 0;

/** The inputs of a leaf: one frozen array, shared. */
const NO_INPUTS: readonly Node[] = Object.freeze([]);

/** The attributes of a node that has none: one frozen object, shared. */
const NO_ATTRS: NodeAttrs = Object.freeze({});

/** `xs` itself when already frozen (nothing can change it, so nodes may share it: most shapes are an input's), else a frozen copy. */
const frozenCopy = <T>(xs: readonly T[]): readonly T[] => (Object.isFrozen(xs) ? xs : Object.freeze(xs.slice()));

/**
 * Whether nodes are frozen as they are made: where tests run (NODE_ENV=test,
 * which jest sets), so that code changing a node fails there. Everywhere a
 * node is immutable by its type (readonly throughout, and no node reaches
 * users), but freezing it, its inputs and its attributes took a third of
 * building a graph (0.3 µs a node, paid by every call that builds one), so
 * elsewhere they are not frozen: React freezes its elements in development
 * only, for the same reason. Shapes are frozen always, since a frozen shape
 * is how a node knows it may share its input's.
 */
const FREEZE_NODES = (globalThis as { process?: { env?: { readonly NODE_ENV?: string } } }).process?.env?.NODE_ENV === 'test';

const frozenInTests = <T extends object>(x: T): T => (FREEZE_NODES ? Object.freeze(x) : x);

function makeNode<O extends OpName>(op: O, inputs: InputsOf<O>, shape: Shape, dtype: DType, ...attrs: AttrsArg<O>): NodeOf<O>;
function makeNode(op: OpName, inputs: readonly Node[], shape: Shape, dtype: DType, attrs: NodeAttrs = NO_ATTRS): LooseNode {
  return nodeAt(op, inputs, frozenCopy(shape), dtype, attrs);
}

/** makeNode over `shape`, which is another node's (frozen, so shared as it is, with no check). */
function nodeAt<O extends OpName>(op: O, inputs: InputsOf<O>, shape: Shape, dtype: DType, ...attrs: AttrsArg<O>): NodeOf<O>;
function nodeAt(op: OpName, inputs: readonly Node[], shape: Shape, dtype: DType, attrs: NodeAttrs = NO_ATTRS): LooseNode {
  return frozenInTests({
    id: nextId++,
    op,
    family: OPS[op].family,
    inputs: inputs.length === 0 ? NO_INPUTS : frozenInTests(inputs.slice()),
    shape,
    dtype,
    // Kept where it is, not copied: every caller passes a literal made for the node (a spread copy
    // of an object of varying shape is a slow generic clone in V8, a large part of building a node).
    attrs: frozenInTests(attrs),
  });
}

/** Whether `xs` has as many entries as `like`: the check that lets a copy keep its node's input tuple. */
const sameArity = <T extends readonly Node[]>(like: T, xs: readonly Node[]): xs is T => xs.length === like.length;

/** A new node like `n` (op, shape, dtype, attributes) over `inputs`, which must be as many as n's. */
function copyNode<N extends Node>(n: N, inputs: readonly Node[]): N {
  const xs = [...inputs];
  if (!sameArity(n.inputs, xs)) throw new InternalError(`${n.op} copied over ${inputs.length} inputs instead of ${n.inputs.length}`);
  const m: N = { ...n, id: nextId++, inputs: frozenInTests(xs) };
  return frozenInTests(m);
}

/** Whether `m` has `n`'s op, and so its node type (a rebuilt or copied node keeps its op). */
const sameOp = <N extends Node>(n: N, m: Node): m is N => m.op === n.op;
const isOp = <O extends OpName>(n: Node, op: O): n is NodeOf<O> => n.op === op;
const isFamily = <F extends Family>(n: Node, family: F): n is FamilyNode<F> => n.family === family;

/** The heap memory a source reads in place, if it is one that does. */
const leaseOf = (n: Node): HeapLease | undefined => (n.op === 'source' ? n.attrs.lease : undefined);
/** Where a view node's elements are read from; undefined for any other node (a reshape included). */
const viewOf = (n: Node): ViewMap | undefined => (n.family === 'view' ? n.attrs.view : undefined);

/** `n` as an O node, which the caller knows it is (an InternalError otherwise). */
function expectOp<O extends OpName>(n: Node, op: O): NodeOf<O> {
  if (isOp(n, op)) return n;
  throw new InternalError(`expected a ${op} node, got ${n.op} (node ${n.id})`);
}

/**
 * A node's inputs: topoOrder's default, made once. A default written as an
 * arrow in the parameter list is a new function per call, which V8 optimizes
 * again for each (it did so hundreds of times a second in a loop of calls).
 */
const inputsOf = (n: Node): readonly Node[] => n.inputs;

/**
 * Every node reachable from `roots`, inputs before their users (a
 * topological order); `children` narrows which inputs are followed.
 */
function topoOrder(roots: readonly Node[], children: (n: Node) => readonly Node[] = inputsOf): Node[] {
  // By id: a fresh node keyed by itself would first be given a hash.
  const seen = borrowIdTable();
  try {
    return walk(roots, children, seen);
  } finally {
    giveBackIdTable(seen);
  }
}

function walk(roots: readonly Node[], children: (n: Node) => readonly Node[], seen: IdTable): Node[] {
  const order: Node[] = [];
  // Iterative post-order: graphs built in loops can be deeper than the JS stack. Two parallel stacks, no object per node.
  const nodes: Node[] = [];
  const next: number[] = [];
  for (const root of roots) {
    if (seen.has(root.id)) continue;
    seen.set(root.id, 0);
    nodes.push(root);
    next.push(0);
    while (nodes.length > 0) {
      const top = nodes.length - 1;
      const kids = children(nodes[top]!);
      const j = next[top]!;
      // Bounds checked here: a read past an array's end is a slow path in V8.
      if (j < kids.length) {
        next[top] = j + 1;
        const child = kids[j]!;
        if (!seen.has(child.id)) {
          seen.set(child.id, 0);
          nodes.push(child);
          next.push(0);
        }
      } else {
        order.push(nodes.pop()!);
        next.pop();
      }
    }
  }
  return order;
}

/**
 * What a node follows in an order that rebuilds or rewrites graphs: its
 * inputs, and for an iota the array whose axis it counts (not an input: no
 * value of it is read, but its length is that axis's).
 */
const dependsOn = (n: Node): readonly Node[] => (n.op === 'iota' ? [n.attrs.of] : n.inputs);

export { NO_ATTRS, makeNode, nodeAt, copyNode, sameOp, isOp, isFamily, expectOp, leaseOf, viewOf, topoOrder, dependsOn };
export type {
  Node, NodeOf, FamilyNode, NodeAttrs, AttrsOf, ViewMap, StorageRef, HeapLease, RandomWords, TakeMode,
  SourceAttrs, StoredAttrs, RandomAttrs, ScalarAttrs, ReduceAttrs, AxisAttrs, SearchAttrs, DecompAttrs, TakeAttrs, ViewAttrs, TransposeAttrs, SliceAttrs, ReshapeAttrs, SelectAttrs, PartitionAttrs,
};
