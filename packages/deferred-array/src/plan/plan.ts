// What the planner hands a backend: the values asked for and an ordered list
// of steps that produce them.
import type { FamilyNode, Node, NodeOf, StorageRef } from '../ir/node.js';
import type { Pin } from '../ir/marks.js';
import { isBigInt, isFloat } from '../ir/dtypes.js';
import type { OpName } from '../ir/op-table.js';
import { resolveElementwise } from '../ir/type-rules.js';
import type { Shape } from '../ir/shape.js';

/** A value marked with output() and found under the executed arrays, with its record key. */
interface MarkedOutput {
  readonly node: Node;
  readonly key: string;
}

/**
 * A trace computation's new value (see trace/), to be written into the heap
 * block that holds `version` of a mutable array: the whole block, or a strided
 * window of it (a slice assignment). `node` has the window's shape and the
 * array's dtype. A backend writes it there directly where it can, else copies
 * it there once every step has run.
 */
interface StoreTarget {
  readonly node: Node;
  readonly storage: StorageRef;
  readonly version: number;
  /** Element strides and offset of the window within the block (row-major for a whole-array write). */
  readonly strides: readonly number[];
  readonly offset: number;
}

/**
 * A pin()ned value (lappy): computed per block, into the kernel's scratch, by
 * every kernel that reads it, over the part of it the block reads; never an
 * array of its own.
 */
interface PinnedTemp {
  readonly node: Node;
  /** The elementwise nodes it is computed from, inputs before users, `node` last. */
  readonly members: readonly Node[];
  /** What they read from memory. */
  readonly inputs: readonly Node[];
}

/**
 * Elementwise nodes over one iteration space, run as one pass over memory,
 * plus the full reductions that consume them.
 */
interface FusedGroup {
  readonly id: number;
  readonly shape: Shape;
  /**
   * A matrix product (matmul, dot) the kernel computes first, block by block;
   * the members are its elementwise epilogue. It is always stored (first in
   * `stores`): the epilogue reads it back while it is in cache.
   */
  readonly contraction?: Contraction;
  /** Elementwise members, inputs before users. */
  readonly members: readonly Node[];
  /** Reductions of members, all over the same axes. */
  readonly reductions: readonly FusedReduction[];
  /**
   * Scans (cumsum, cumprod) of members or inputs, all along one axis, in a
   * group with no reductions; each is stored whole (they are in `stores`).
   */
  readonly scans?: readonly FusedScan[];
  /** Nodes read from outside the group (materialised values or views of them), its temporaries' inputs included. */
  readonly inputs: readonly Node[];
  /** pin()ned values the kernel computes per block before its members read them. */
  readonly temps?: readonly PinnedTemp[];
  /** Members whose values are needed after the kernel: written to memory. */
  readonly stores: readonly Node[];
  /** Member takes whose indices 'raise', in program order: an index out of bounds fails the run once the kernel has run. */
  readonly raising?: readonly FusedTake[];
}

/** Evaluate one node on its own. */
interface NodeStep {
  readonly kind: 'node';
  readonly node: Node;
  /** Values no later step reads: a backend may release them once this step is done. */
  readonly release: readonly Node[];
}

/** Run a fused group as one kernel. */
interface KernelStep {
  readonly kind: 'kernel';
  readonly group: FusedGroup;
  readonly release: readonly Node[];
}

type Step = NodeStep | KernelStep;

/**
 * A heap block of a run. A temporary buffer holds one value after another
 * (each once the previous one is dead); a result buffer holds a value the
 * caller receives.
 */
interface Buffer {
  readonly id: number;
  /** The largest value it holds. */
  readonly bytes: number;
  readonly kind: 'temporary' | 'result';
  /** The values it holds, in step order. */
  readonly values: readonly Node[];
}

interface Plan {
  /** The arrays execute() was called on, in call order. */
  readonly results: readonly Node[];
  /** Marked intermediates, in the order of their output() calls. */
  readonly outputs: readonly MarkedOutput[];
  /** Values written into mutable arrays' blocks rather than returned (a trace stage's writes). */
  readonly stores: readonly StoreTarget[];
  /** Values under the results marked with pinCse() or pin(). */
  readonly pins: ReadonlyMap<Node, Pin>;
  /** The pin()ned values kept as per-block temporaries (by the kernels reading them); not steps. */
  readonly temps: ReadonlyMap<Node, PinnedTemp>;
  /** Why a pin() could not be honoured, per pinned value (it is then planned as if unpinned). */
  readonly pinNotes: ReadonlyMap<Node, string>;
  /** Every step, producers before consumers. */
  readonly steps: readonly Step[];
  /** The heap blocks the steps write (empty for backends that manage their own memory). */
  readonly buffers: readonly Buffer[];
  /** Buffer id of each value a step writes to new memory. */
  readonly bufferOf: ReadonlyMap<Node, number>;
}

/** Every value the plan must produce: results, marked outputs and stores. */
const rootsOf = (p: Pick<Plan, 'results' | 'outputs' | 'stores'>): Node[] => [...p.results, ...p.outputs.map((o) => o.node), ...p.stores.map((s) => s.node)];

/** The nodes whose values a step produces. */
const producedBy = (s: Step): readonly Node[] => (s.kind === 'node' ? [s.node] : groupNodes(s.group));

/** Every node a group computes: its contraction, members and reductions. */
const groupNodes = (g: Pick<FusedGroup, 'contraction' | 'members' | 'reductions' | 'scans'>): readonly Node[] =>
  [...(g.contraction ? [g.contraction] : []), ...g.members, ...g.reductions, ...(g.scans ?? [])];

type FusedReductionOp = 'sum' | 'prod' | 'min' | 'max' | 'any' | 'all' | 'mean' | 'argmax' | 'argmin';
/** A reduction a kernel computes as it streams its members. */
type FusedReduction = NodeOf<FusedReductionOp>;
/** A scan a kernel computes as it streams its members. */
type FusedScan = FamilyNode<'scan'>;
/** A matrix product a kernel computes block by block before its epilogue. */
type Contraction = NodeOf<'matmul' | 'dot'>;
type Elementwise = FamilyNode<'unary' | 'binary' | 'ternary' | 'cast'>;
type Window = FamilyNode<'view' | 'reshape'>;

// argmax and argmin reach kernels only where isOnePassArg holds (lower-arg-extremes.ts rewrites the rest).
const FUSED_REDUCTIONS: ReadonlySet<OpName> = new Set<FusedReductionOp>(['sum', 'prod', 'min', 'max', 'any', 'all', 'mean', 'argmax', 'argmin']);
const FUSED_SCANS: ReadonlySet<OpName> = new Set<OpName>(['cumsum', 'cumprod']);

/** Whether `n` reads or makes int64 or uint64 values. */
const touches64 = (n: Node): boolean => isBigInt(n.dtype) || n.inputs.some((i) => isBigInt(i.dtype));

/**
 * The ops kernels compute in int64 and uint64 (kernels-wasm's INT64_UNARY and
 * INT64_BINARY, which only wasm/ imports; a test holds them equal). Casts,
 * where and clip are there too; an op that computes in a float (sin of an
 * int64) reads its operands cast, which kernels do.
 */
const KERNEL_UNARY_64: ReadonlySet<OpName> = new Set<OpName>(['negative', 'abs', 'square', 'positive', 'floor', 'ceil', 'trunc', 'round', 'invert', 'logicalNot', 'isnan', 'isinf', 'isfinite', 'signbit', 'sign']);
const KERNEL_BINARY_64: ReadonlySet<OpName> = new Set<OpName>([
  'add', 'subtract', 'multiply', 'minimum', 'maximum', 'fmax', 'fmin', 'equal', 'notEqual', 'less', 'lessEqual', 'greater', 'greaterEqual',
  'logicalAnd', 'logicalOr', 'logicalXor', 'bitwiseAnd', 'bitwiseOr', 'bitwiseXor', 'leftShift', 'rightShift', 'floorDivide', 'mod', 'fmod', 'gcd',
]);

/**
 * Whether a kernel computes the elementwise node `n`, which touches int64 or
 * uint64: the rest (powers, the scans of them) run as steps of their
 * own, which the backend evaluates directly.
 */
function kernelComputes64(n: Node): boolean {
  if (n.family === 'cast' || n.op === 'where' || n.op === 'clip') return true;
  if (!isBigInt(resolveElementwise(n.op, n.inputs.map((i) => i.dtype)).compute)) return true;
  return (n.family === 'unary' ? KERNEL_UNARY_64 : KERNEL_BINARY_64).has(n.op);
}

/** An elementwise node a kernel computes. */
const isElementwise = (n: Node): n is Elementwise =>
  (n.family === 'unary' || n.family === 'binary' || n.family === 'ternary' || n.family === 'cast') && (!touches64(n) || kernelComputes64(n));
/** A reduction a kernel computes: int64 and uint64 ones too, in their own type or cast (mean, any, all). */
/** The types whose argmax and argmin a kernel reduces in one pass. */
const ONE_PASS_ARG: ReadonlySet<string> = new Set(['float64', 'float32', 'int32', 'uint32', 'int16', 'uint16', 'int8', 'uint8', 'bool']);

/**
 * Whether a kernel reduces argmax or argmin `n` as it is, in one pass (row
 * and column kernels alike): of a type compared in lanes (bools as 0 and 1),
 * over a non-empty run. lower-arg-extremes.ts rewrites the others (int64,
 * uint64) into two passes.
 */
function isOnePassArg(n: Node): boolean {
  if (n.op !== 'argmax' && n.op !== 'argmin') return false;
  const x = n.inputs[0]!;
  return ONE_PASS_ARG.has(x.dtype) && (n as NodeOf<'argmax'>).attrs.axes.every((d) => x.shape[d] !== 0);
}

const isFusedReduction = (n: Node): n is FusedReduction => FUSED_REDUCTIONS.has(n.op) && (isOnePassArg(n) || (n.op !== 'argmax' && n.op !== 'argmin'));
const isFusedScan = (n: Node): n is FusedScan => n.family === 'scan' && !touches64(n);

/** A take a kernel computes: it reads x from memory, at each index. */
type FusedTake = NodeOf<'take'>;

/** Index dtypes a kernel gathers by: int64 and uint64 as they are, uint32 as int64 (past 2^31 it is no int32), the narrower ones read as int32. */
const GATHER_INDEX_TYPES: ReadonlySet<string> = new Set(['int64', 'uint64', 'uint32', 'int32', 'int16', 'int8', 'uint16', 'uint8']);

/**
 * Whether take `n` may be a member of a group: not of int64 or uint64 x
 * (gathered by a kernel of its own, moved as float64 bits), nor with an
 * empty result (whose indices 'raise' must still check, in the reference
 * evaluator), nor of random numbers (which have no memory to gather from).
 */
function isFusedTake(n: Node): n is FusedTake {
  if (n.op !== 'take') return false;
  const [x, indices] = n.inputs as [Node, Node];
  const base = windowBase(x);
  return !isBigInt(x.dtype) && GATHER_INDEX_TYPES.has(indices.dtype) && n.shape.every((d) => d > 0) && base.op !== 'random' && base.op !== 'iota';
}

/**
 * Ops whose kernels count elements for errors and warnings (integer division
 * by zero, invalid casts to an integer dtype), so each element must be
 * computed exactly once.
 */
const countsElements = (n: Node): boolean =>
  (['floorDivide', 'mod', 'fmod', 'reciprocal'].includes(n.op) && !isFloat(n.dtype)) || (n.op === 'astype' && n.dtype !== 'bool' && !isFloat(n.dtype));

/** Each node's readers among `nodes`, in their order. */
function consumersOf(nodes: Iterable<Node>): Map<Node, Node[]> {
  const consumers = new Map<Node, Node[]>();
  for (const n of nodes) {
    for (const i of n.inputs) {
      const list = consumers.get(i);
      if (list) list.push(n);
      else consumers.set(i, [n]);
    }
  }
  return consumers;
}

/** View and reshape nodes: windows onto their input's memory, with none of their own. */
const isWindow = (n: Node): n is Window => n.family === 'view' || n.family === 'reshape';

/** The value whose memory `n` reads: views and reshapes read their input's. */
const windowBase = (n: Node): Node => (isWindow(n) ? windowBase(n.inputs[0]) : n);

/** The nodes a step reads. */
const readBy = (s: Step): readonly Node[] => (s.kind === 'node' ? s.node.inputs : s.group.inputs);

export {
  rootsOf, producedBy, readBy, isWindow, windowBase, groupNodes, isElementwise, isFusedReduction, isOnePassArg, isFusedScan, isFusedTake, countsElements, consumersOf,
  GATHER_INDEX_TYPES,
  FUSED_REDUCTIONS, FUSED_SCANS, KERNEL_UNARY_64, KERNEL_BINARY_64, touches64,
};
export type { FusedReduction, FusedScan, FusedTake, Contraction, Elementwise, Window, Plan, Step, NodeStep, KernelStep, FusedGroup, MarkedOutput, Buffer, PinnedTemp, StoreTarget };
