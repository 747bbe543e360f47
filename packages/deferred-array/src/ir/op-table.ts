// The one op table. Op names, arity, method aliases, dtype rules and whether an
// op is IEEE-exact all derive from here; backends key their implementations on
// these names, so adding a row makes the type checker ask for each of them.

/**
 * How an op's result dtype follows from its (promoted) input dtype:
 * - arith: NumPy's promoted type; bool stays bool (add is or, multiply is and)
 * - arithNoBool: as arith, but bool has no meaning (NumPy raises for bool subtract/negative)
 * - intArith: as arith, but bool computes in int32 (NumPy: int8, which we do not have)
 * - trueDivide: floats stay; integers and bool give float64 (NumPy's true division)
 * - float: floats stay; int32 gives float64, uint8 and bool float32 (NumPy: float16)
 * - same: the input dtype, bool included
 * - compare, predicate, logical: bool
 * - cast: the dtype asked for
 * - bitwise: integers keep their dtype, bool stays bool (and, or, xor, invert are the logical ones); floats have no bits to operate on
 * - shift: integers keep their dtype; bool computes in int32 (NumPy: int8); floats are refused
 */
type DTypeRule =
  | 'arith' | 'arithNoBool' | 'intArith' | 'trueDivide' | 'float' | 'same' | 'compare' | 'predicate' | 'logical' | 'cast'
  | 'bitwise' | 'shift' | 'select' | 'reduceSum' | 'reduceMean' | 'reduceSame' | 'reduceBool' | 'reduceIndex' | 'none';

type Family = 'source' | 'scalar' | 'unary' | 'binary' | 'ternary' | 'cast' | 'reduce' | 'view' | 'reshape' | 'join' | 'gather' | 'scan' | 'linalg' | 'cond';

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

  // Elementwise, two operands.
  add: op('binary', 'arith', true),
  subtract: op('binary', 'arithNoBool', true, ['sub']),
  multiply: op('binary', 'arith', true, ['mul']),
  divide: op('binary', 'trueDivide', true, ['div', 'trueDivide']),
  floorDivide: op('binary', 'intArith', true),
  mod: op('binary', 'intArith', true, ['remainder']),
  power: op('binary', 'intArith', false, ['pow']),
  atan2: op('binary', 'float', false),
  hypot: op('binary', 'float', false),
  minimum: op('binary', 'arith', true),
  maximum: op('binary', 'arith', true),
  equal: op('binary', 'compare', true, ['eq']),
  notEqual: op('binary', 'compare', true, ['ne']),
  less: op('binary', 'compare', true, ['lt']),
  lessEqual: op('binary', 'compare', true, ['le']),
  greater: op('binary', 'compare', true, ['gt']),
  greaterEqual: op('binary', 'compare', true, ['ge']),
  logicalAnd: op('binary', 'logical', true),
  logicalOr: op('binary', 'logical', true),
  logicalXor: op('binary', 'logical', true),
  fmax: op('binary', 'arith', true),
  fmin: op('binary', 'arith', true),
  fmod: op('binary', 'intArith', true),
  copysign: op('binary', 'float', true),
  heaviside: op('binary', 'float', true),
  logaddexp: op('binary', 'float', false),
  logaddexp2: op('binary', 'float', false),
  bitwiseAnd: op('binary', 'bitwise', true),
  bitwiseOr: op('binary', 'bitwise', true),
  bitwiseXor: op('binary', 'bitwise', true),
  /** NumPy's left_shift: a shift by the type's width or more (or a negative one) gives 0. */
  leftShift: op('binary', 'shift', true),
  /** NumPy's right_shift, arithmetic for signed types: past the width it gives 0, or -1 for a negative value. */
  rightShift: op('binary', 'shift', true),

  // Elementwise, one operand.
  negative: op('unary', 'arithNoBool', true, ['neg']),
  abs: op('unary', 'same', true, ['absolute']),
  sign: op('unary', 'arithNoBool', true),
  sqrt: op('unary', 'float', true),
  cbrt: op('unary', 'float', false),
  square: op('unary', 'intArith', true),
  reciprocal: op('unary', 'intArith', true),
  exp: op('unary', 'float', false),
  expm1: op('unary', 'float', false),
  exp2: op('unary', 'float', false),
  log: op('unary', 'float', false),
  log1p: op('unary', 'float', false),
  log2: op('unary', 'float', false),
  log10: op('unary', 'float', false),
  sin: op('unary', 'float', false),
  cos: op('unary', 'float', false),
  tan: op('unary', 'float', false),
  asin: op('unary', 'float', false, ['arcsin']),
  acos: op('unary', 'float', false, ['arccos']),
  atan: op('unary', 'float', false, ['arctan']),
  sinh: op('unary', 'float', false),
  cosh: op('unary', 'float', false),
  tanh: op('unary', 'float', false),
  asinh: op('unary', 'float', false, ['arcsinh']),
  acosh: op('unary', 'float', false, ['arccosh']),
  atanh: op('unary', 'float', false, ['arctanh']),
  floor: op('unary', 'same', true),
  ceil: op('unary', 'same', true),
  round: op('unary', 'same', true, ['rint']),
  trunc: op('unary', 'same', true),
  logicalNot: op('unary', 'predicate', true),
  isnan: op('unary', 'predicate', true),
  isinf: op('unary', 'predicate', true),
  isfinite: op('unary', 'predicate', true),
  signbit: op('unary', 'predicate', true),
  positive: op('unary', 'arithNoBool', true),
  deg2rad: op('unary', 'float', true, ['radians']),
  rad2deg: op('unary', 'float', true, ['degrees']),
  invert: op('unary', 'bitwise', true, ['bitwiseNot']),

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

  // Views: a strided window onto the input, or a new shape over the same order.
  transpose: op('view', 'same', true),
  slice: op('view', 'same', true),
  broadcastTo: op('view', 'same', true),
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
/** Alias name -> op name, e.g. { sub: 'subtract', ... }. */
type AliasMap = { [K in OpName as (typeof OPS)[K]['aliases'][number]]: K };
type AliasOf<K extends OpName> = (typeof OPS)[K]['aliases'][number];

const opNames = <F extends Family>(family: F): Array<OpsOf<F>> =>
  (Object.keys(OPS) as OpName[]).filter((k) => OPS[k].family === family) as Array<OpsOf<F>>;

const UNARY_OPS = opNames('unary');
const BINARY_OPS = opNames('binary');
const REDUCE_OPS = opNames('reduce');

function opInfo(name: OpName): OpInfo {
  return OPS[name];
}

export { OPS, UNARY_OPS, BINARY_OPS, REDUCE_OPS, opInfo, opNames };
export type { AliasMap, AliasOf, OpName, OpInfo, OpsOf, Family, DTypeRule, UnaryOp, BinaryOp, TernaryOp, ReduceOp, LinalgOp, ScanOp };
