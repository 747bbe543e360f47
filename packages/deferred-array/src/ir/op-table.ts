// The one op table. Op names, arity, method aliases, dtype rules and whether an
// op is IEEE-exact all derive from here; backends key their implementations on
// these names, so adding a row makes the type checker ask for each of them.
// The elementwise rows are kernels-wasm's (its ops/elementwise-ops.ts), where
// their lowering is part of the row; the graph-only rows (leaves, where, clip,
// casts, reductions, views, ...) are this file's. They come through the
// subpath kernels-wasm/ops, the op vocabulary alone (data with no imports), so
// the graph core reads the rows without reaching the backend.
import { ELEMENTWISE_OPS } from 'kernels-wasm/ops';
import type { ElementwiseRule } from 'kernels-wasm/ops';

/**
 * How an op's result dtype follows from its (promoted) input dtype: the
 * elementwise rules (kernels-wasm's ElementwiseRule, described there), and
 * - cast: the dtype asked for
 * - select: where's branches promote; the condition is read as truthiness
 * - reduceSum, reduceMean, reduceSame, reduceBool, reduceIndex: see resolveReduce
 */
type DTypeRule = ElementwiseRule | 'cast' | 'select' | 'reduceSum' | 'reduceMean' | 'reduceSame' | 'reduceBool' | 'reduceIndex' | 'none';

type Family = 'source' | 'scalar' | 'unary' | 'binary' | 'ternary' | 'cast' | 'reduce' | 'view' | 'reshape' | 'join' | 'gather' | 'scan' | 'sort' | 'search' | 'scatter' | 'decomp' | 'linalg' | 'cond';

interface OpRow<F extends Family, A extends readonly string[]> {
  readonly family: F;
  readonly rule: DTypeRule;
  readonly aliases: A;
  readonly exact: boolean;
}

interface OpInfo {
  readonly family: Family;
  readonly rule: DTypeRule;
  /** Short method names that also reach this op (a.sub(b) for a.subtract(b)). */
  readonly aliases: readonly string[];
  /** IEEE results are exactly determined (bit-exact across backends); false for transcendentals. */
  readonly exact: boolean;
}

// Overloaded so that families and aliases keep their literal types for the method signatures.
function op<const F extends Family>(family: F, rule: DTypeRule, exact: boolean): OpRow<F, readonly []>;
function op<const F extends Family, const A extends readonly string[]>(family: F, rule: DTypeRule, exact: boolean, aliases: A): OpRow<F, A>;
function op(family: Family, rule: DTypeRule, exact: boolean, aliases: readonly string[] = []): OpInfo {
  return { family, rule, exact, aliases };
}

const OPS = {
  // Leaves.
  source: op('source', 'none', true),
  /** One version of a mutable heap array (see trace/): read from the block that holds it. */
  stored: op('source', 'none', true),
  /** A compiled function's argument: the array a call binds (see api/compile.ts). */
  placeholder: op('source', 'none', true),
  scalar: op('scalar', 'none', true),
  /** Uniform [0, 1) values that no memory holds: each element computed where it is read (Philox 4x32-10; see api/random.ts). */
  random: op('source', 'none', true),
  /**
   * Positions 0, 1, ..., n-1 (int32) that no memory holds: kernels read the
   * counter itself. Made by the planner (argmin/argmax lowerings), never by users.
   */
  iota: op('source', 'none', true),

  // Elementwise, one or two operands: kernels-wasm's rows, where each op's lowering is described too.
  ...ELEMENTWISE_OPS,

  // Elementwise, three operands.
  where: op('ternary', 'select', true),
  clip: op('ternary', 'arith', true),

  astype: op('cast', 'cast', true),

  // Reductions.
  sum: op('reduce', 'reduceSum', false),
  prod: op('reduce', 'reduceSum', false),
  mean: op('reduce', 'reduceMean', false),
  min: op('reduce', 'reduceSame', true),
  max: op('reduce', 'reduceSame', true),
  any: op('reduce', 'reduceBool', true),
  all: op('reduce', 'reduceBool', true),
  argmin: op('reduce', 'reduceIndex', true),
  argmax: op('reduce', 'reduceIndex', true),

  // Scans: running sums and products along one axis, in element order (NumPy's sequential accumulate).
  cumsum: op('scan', 'reduceSum', false),
  cumprod: op('scan', 'reduceSum', false),

  // Sorting along one axis (stable, NaN last, -0 and +0 equal: NumPy's order) and binary search in a sorted
  // 1-d array: fusion boundaries, each line's result depending on the whole line.
  sort: op('sort', 'none', true),
  argsort: op('sort', 'none', true),
  /** The elements a sort along the axis puts at given positions (what quantiles read), found without sorting. */
  select: op('sort', 'none', true),
  /**
   * NumPy's partition and argpartition: each kth element (or its position) where a stable sort puts it, the
   * rest in the parts between them, in their order along the line; found by selection, not a sort.
   */
  partition: op('sort', 'none', true),
  argpartition: op('sort', 'none', true),
  searchsorted: op('search', 'none', true),

  /**
   * NumPy's add.at: x with each of its rows along the first axis that the indices name added to, once per
   * mention, in order (the writes of repeated indices accumulate). An in-place update's new version of x.
   */
  addAt: op('scatter', 'none', true),

  // Matrix decompositions over the last two axes (da.linalg), each matrix of a stack on its own: fusion
  // boundaries. qr, eigh, slogdet and svd give their several results packed along one last axis.
  solve: op('decomp', 'none', false),
  inv: op('decomp', 'none', false),
  det: op('decomp', 'none', false),
  slogdet: op('decomp', 'none', false),
  cholesky: op('decomp', 'none', false),
  qr: op('decomp', 'none', false),
  eigh: op('decomp', 'none', false),
  svd: op('decomp', 'none', false),

  // Views: a strided window onto the input, or a new shape over the same order.
  transpose: op('view', 'same', true),
  slice: op('view', 'same', true),
  broadcastTo: op('view', 'same', true),
  /** NumPy's sliding_window_view: every window of the given lengths along the given axes, each a view of x (read-only). */
  slidingWindow: op('view', 'same', true),
  reshape: op('reshape', 'same', true),

  // Joins and linear algebra: fusion boundaries.
  concat: op('join', 'arith', true),
  stack: op('join', 'arith', true),
  /** NumPy's take: elements picked along an axis by an integer array (a fusion boundary, as a join is). */
  take: op('gather', 'same', true),
  matmul: op('linalg', 'arith', false),
  dot: op('linalg', 'arith', false),
  outer: op('linalg', 'arith', true),

  // Theano's lazy conditional: resolved by the linker (the predicate run first, then only the branch taken); never planned into kernels.
  cond: op('cond', 'none', true),
} as const satisfies Record<string, OpInfo>;

type OpName = keyof typeof OPS;
type OpsOf<F extends Family> = { [K in OpName]: (typeof OPS)[K]['family'] extends F ? K : never }[OpName];
type UnaryOp = OpsOf<'unary'>;
type BinaryOp = OpsOf<'binary'>;
type TernaryOp = OpsOf<'ternary'>;
type ReduceOp = OpsOf<'reduce'>;
type LinalgOp = OpsOf<'linalg'>;
type ScanOp = OpsOf<'scan'>;
type SortOp = OpsOf<'sort'>;
type DecompOp = OpsOf<'decomp'>;
/** Alias name -> op name, e.g. { sub: 'subtract', ... }. */
type AliasMap = { [K in OpName as (typeof OPS)[K]['aliases'][number]]: K };
type AliasOf<K extends OpName> = (typeof OPS)[K]['aliases'][number];

const isOpName = (name: string): name is OpName => Object.hasOwn(OPS, name);

const opNames = <F extends Family>(family: F): Array<OpsOf<F>> =>
  Object.keys(OPS).filter(isOpName).filter((k): k is OpsOf<F> => OPS[k].family === family);

const isUnaryOp = (op: OpName): op is UnaryOp => OPS[op].family === 'unary';
const isBinaryOp = (op: OpName): op is BinaryOp => OPS[op].family === 'binary';

const UNARY_OPS = opNames('unary');
const BINARY_OPS = opNames('binary');
const REDUCE_OPS = opNames('reduce');

function opInfo(name: OpName): OpInfo {
  return OPS[name];
}

export { OPS, UNARY_OPS, BINARY_OPS, REDUCE_OPS, opInfo, opNames, isOpName, isUnaryOp, isBinaryOp };
export type { AliasMap, AliasOf, OpName, OpInfo, OpsOf, Family, DTypeRule, UnaryOp, BinaryOp, TernaryOp, ReduceOp, LinalgOp, ScanOp, SortOp, DecompOp };
