// The elementwise ops, one row each: the one place an op is described. Its
// name and aliases, family (and so arity), dtype rule, accuracy against NumPy
// and how each backend computes it all come from its row. deferred-array builds
// its op table (and from it the API, the type rules and the reference
// evaluator's dispatch) on these rows; the lowering reads them to choose
// between WebAssembly instructions (lower/native-ops.ts, keyed by this table so
// that a native row with no emitter fails `tsc`), the vector math library and
// a host call. The build writes this table to dist/op-table.json for the NumPy
// scripts under scripts/numpy/.

/**
 * How an element of an operand's kind is computed:
 * - native: written as WebAssembly instructions (lower/native-ops.ts);
 * - math: the vector math library (src/math/), under the row's `math` name or the op's own;
 * - host: a host function the caller supplies with its own scalar semantics
 *   (deferred-array's reference evaluator), so that both backends agree exactly.
 */
type Lowering = 'native' | 'math' | 'host';

/**
 * How an op's result dtype follows from its (promoted) input dtype:
 * - arith: NumPy's promoted type; bool stays bool (add is or, multiply is and)
 * - arithNoBool: as arith, but bool has no meaning (NumPy raises for bool subtract/negative)
 * - intArith: as arith, but bool computes in int8 (NumPy's integer loop for bool)
 * - trueDivide: floats stay; integers and bool give float64 (NumPy's true division)
 * - float: floats stay; integers give the smallest float that holds them (NumPy: float16 for 8-bit and bool, which we make float32)
 * - same: the input dtype, bool included
 * - compare, predicate, logical: bool
 * - bitwise: integers keep their dtype, bool stays bool (and, or, xor, invert are the logical ones); floats have no bits to operate on
 * - shift: integers keep their dtype; bool computes in int8; floats are refused
 * - integer: integers keep their dtype; floats, and bool operands alone, are refused (NumPy's gcd and lcm have integer loops only)
 */
type ElementwiseRule =
  | 'arith' | 'arithNoBool' | 'intArith' | 'trueDivide' | 'float' | 'same' | 'compare' | 'predicate' | 'logical'
  | 'bitwise' | 'shift' | 'integer';

/** The largest error against NumPy on the test vectors, in units in the last place of the output dtype. */
interface UlpBound {
  readonly float64: number;
  readonly float32: number;
}

interface ElementwiseRow {
  /** unary: one operand; binary: two. */
  readonly family: 'unary' | 'binary';
  readonly rule: ElementwiseRule;
  /** Short method names that also reach this op (a.sub(b) for a.subtract(b)). */
  readonly aliases: readonly string[];
  /** Bit for bit NumPy's on every backend (IEEE-exact, or ported step by step); false for transcendentals. */
  readonly exact: boolean;
  /** For an op that is not exact: how far from NumPy it may be (reference/numpy-elementwise.test.ts keeps it the measured maximum). */
  readonly ulp?: UlpBound;
  /** How float operands are computed. */
  readonly float: Lowering;
  /** How integer and bool operands are computed. */
  readonly int: Lowering;
  /** The math library's name for the op, where it differs ('power' is its 'pow'). */
  readonly math?: string;
  /** false: the native integer lowering is scalar only (the vector loop has no form of it). */
  readonly intLanes?: false;
  /** NumPy's name, where neither the op's name nor an alias is it in snake case. */
  readonly numpy?: string;
}

interface Lowerings {
  readonly float: Lowering;
  readonly int: Lowering;
  readonly math?: string;
  readonly intLanes?: false;
}

const NATIVE = { float: 'native', int: 'native' } as const;
/**
 * The vector math library for floats (transcendentals); integer operands
 * never reach it (a transcendental's integers compute in floats before they
 * get here; power's and fmod's rows say their own).
 */
const MATH = { float: 'math', int: 'host' } as const;
/** Ops whose dtype rule gives floats only: an integer operand never reaches the lowering. */
const FLOAT_ONLY = { float: 'native', int: 'host' } as const;
/** floorDivide and mod: instructions in every lane type but i64x2 (floats npy_divmod's steps on fmod, integers a float quotient). */
const DIVISION = { float: 'native', int: 'native' } as const;
/**
 * Integer-only ops (the type rules refuse floats) written as scalar
 * instructions. Shifts by a count the same in every lane are vectorised
 * apart (lower/simd-ops.ts): WebAssembly's lane shifts take one count.
 */
const INT_ONLY = { float: 'host', int: 'native', intLanes: false } as const;

/**
 * Accuracy against NumPy. EXACT: bit for bit on every backend, IEEE-exact or
 * ported step by step (float floorDivide and mod follow npy_divmod's
 * roundings: 0 ulp on the vectors, and the WebAssembly backend takes the same
 * steps, lower/float-divmod.ts). ulp(float64, float32): the maximum measured on the
 * vectors for the reference evaluator, which reference/numpy-elementwise.test.ts
 * keeps the bound:
 * - float64: V8's Math.* (fdlibm ports, within 1 ulp of the true value) against
 *   NumPy's SVML/libm, 0-2 ulp apart (cos and hypot 2, logaddexp2 2 through its exp2 and log1p);
 * - float32: computed in float64 and rounded once, so within about 0.5 ulp of
 *   the true value; NumPy's float32 SIMD code is what strays (atan2(1, 1) is 1
 *   ulp below the correctly rounded pi/4, atan2(0.5, 3) 2 ulp; for the int16
 *   input 256, cos is 1 ulp and tan 2 ulp from the correctly rounded value).
 */
const EXACT = { exact: true } as const;
type Accuracy = typeof EXACT | { readonly exact: false; readonly ulp: UlpBound };
const ulp = (float64: number, float32: number): Accuracy => ({ exact: false, ulp: { float64, float32 } });

type RowOf<F extends ElementwiseRow['family'], A extends readonly string[], L extends Lowerings, C extends Accuracy> =
  { readonly family: F; readonly rule: ElementwiseRule; readonly aliases: A } & L & C;

// Overloaded so that families, aliases and lowerings keep their literal types (the method signatures and the native emitters key on them).
function op<const F extends ElementwiseRow['family'], const L extends Lowerings, const C extends Accuracy>(
  family: F, rule: ElementwiseRule, lowering: L, accuracy: C): RowOf<F, readonly [], L, C>;
function op<const F extends ElementwiseRow['family'], const L extends Lowerings, const C extends Accuracy, const A extends readonly string[]>(
  family: F, rule: ElementwiseRule, lowering: L, accuracy: C, aliases: A, numpy?: string): RowOf<F, A, L, C>;
function op(family: ElementwiseRow['family'], rule: ElementwiseRule, lowering: Lowerings, accuracy: Accuracy, aliases: readonly string[] = [], numpy?: string): ElementwiseRow {
  return { family, rule, aliases, ...lowering, ...accuracy, ...(numpy === undefined ? {} : { numpy }) };
}

const ELEMENTWISE_OPS = {
  // Two operands.
  add: op('binary', 'arith', NATIVE, EXACT),
  subtract: op('binary', 'arithNoBool', NATIVE, EXACT, ['sub']),
  multiply: op('binary', 'arith', NATIVE, EXACT, ['mul']),
  divide: op('binary', 'trueDivide', { float: 'native', int: 'host' }, EXACT, ['div', 'trueDivide']),
  /** Float operands port NumPy's npy_divmod step by step, so they are bit for bit NumPy's too. */
  floorDivide: op('binary', 'intArith', DIVISION, EXACT),
  mod: op('binary', 'intArith', DIVISION, EXACT, ['remainder']),
  power: op('binary', 'intArith', { float: 'math', int: 'host', math: 'pow' }, ulp(1, 1), ['pow']),
  atan2: op('binary', 'float', MATH, ulp(1, 2), [], 'arctan2'),
  hypot: op('binary', 'float', MATH, ulp(2, 0)),
  minimum: op('binary', 'arith', NATIVE, EXACT),
  maximum: op('binary', 'arith', NATIVE, EXACT),
  equal: op('binary', 'compare', NATIVE, EXACT, ['eq']),
  notEqual: op('binary', 'compare', NATIVE, EXACT, ['ne']),
  less: op('binary', 'compare', NATIVE, EXACT, ['lt']),
  lessEqual: op('binary', 'compare', NATIVE, EXACT, ['le']),
  greater: op('binary', 'compare', NATIVE, EXACT, ['gt']),
  greaterEqual: op('binary', 'compare', NATIVE, EXACT, ['ge']),
  logicalAnd: op('binary', 'logical', NATIVE, EXACT),
  logicalOr: op('binary', 'logical', NATIVE, EXACT),
  logicalXor: op('binary', 'logical', NATIVE, EXACT),
  fmax: op('binary', 'arith', NATIVE, EXACT),
  fmin: op('binary', 'arith', NATIVE, EXACT),
  /** Floats through the math library's exact fmod, integers as instructions (C's remainder). */
  fmod: op('binary', 'intArith', { float: 'math', int: 'native' }, EXACT),
  copysign: op('binary', 'float', FLOAT_ONLY, EXACT),
  heaviside: op('binary', 'float', FLOAT_ONLY, EXACT),
  /** The next representable value after x toward y, in x's float type (NumPy's nextafter: C's, per element). */
  nextafter: op('binary', 'float', FLOAT_ONLY, EXACT),
  logaddexp: op('binary', 'float', MATH, ulp(0, 1)),
  logaddexp2: op('binary', 'float', MATH, ulp(2, 1)),
  // Integer and bool operands only (the type rules refuse floats).
  bitwiseAnd: op('binary', 'bitwise', NATIVE, EXACT),
  bitwiseOr: op('binary', 'bitwise', NATIVE, EXACT),
  bitwiseXor: op('binary', 'bitwise', NATIVE, EXACT),
  /** NumPy's left_shift: a shift by the type's width or more (or a negative one) gives 0. */
  leftShift: op('binary', 'shift', INT_ONLY, EXACT),
  /** NumPy's right_shift, arithmetic for signed types: past the width it gives 0, or -1 for a negative value. */
  rightShift: op('binary', 'shift', INT_ONLY, EXACT),
  /** NumPy's gcd: of the magnitudes, so never negative, but where the most negative value's wraps (int32 gcd(-2^31, 0) is -2^31). */
  gcd: op('binary', 'integer', INT_ONLY, EXACT),

  // One operand.
  negative: op('unary', 'arithNoBool', NATIVE, EXACT, ['neg']),
  abs: op('unary', 'same', NATIVE, EXACT, ['absolute']),
  sign: op('unary', 'arithNoBool', NATIVE, EXACT),
  sqrt: op('unary', 'float', FLOAT_ONLY, EXACT),
  cbrt: op('unary', 'float', MATH, ulp(1, 1)),
  square: op('unary', 'intArith', NATIVE, EXACT),
  reciprocal: op('unary', 'intArith', { float: 'native', int: 'native', intLanes: false }, EXACT),
  exp: op('unary', 'float', MATH, ulp(1, 1)),
  expm1: op('unary', 'float', MATH, ulp(1, 1)),
  exp2: op('unary', 'float', MATH, ulp(1, 0)),
  log: op('unary', 'float', MATH, ulp(1, 1)),
  log1p: op('unary', 'float', MATH, ulp(1, 1)),
  log2: op('unary', 'float', MATH, ulp(0, 1)),
  log10: op('unary', 'float', MATH, ulp(1, 1)),
  sin: op('unary', 'float', MATH, ulp(1, 1)),
  cos: op('unary', 'float', MATH, ulp(2, 1)),
  tan: op('unary', 'float', MATH, ulp(1, 2)),
  asin: op('unary', 'float', MATH, ulp(0, 1), ['arcsin']),
  acos: op('unary', 'float', MATH, ulp(1, 1), ['arccos']),
  atan: op('unary', 'float', MATH, ulp(1, 1), ['arctan']),
  sinh: op('unary', 'float', MATH, ulp(1, 0)),
  cosh: op('unary', 'float', MATH, ulp(1, 1)),
  tanh: op('unary', 'float', MATH, ulp(1, 1)),
  asinh: op('unary', 'float', MATH, ulp(1, 0), ['arcsinh']),
  acosh: op('unary', 'float', MATH, ulp(1, 0), ['arccosh']),
  atanh: op('unary', 'float', MATH, ulp(1, 0), ['arctanh']),
  floor: op('unary', 'same', NATIVE, EXACT),
  ceil: op('unary', 'same', NATIVE, EXACT),
  round: op('unary', 'same', NATIVE, EXACT, ['rint']),
  trunc: op('unary', 'same', NATIVE, EXACT),
  logicalNot: op('unary', 'predicate', NATIVE, EXACT),
  isnan: op('unary', 'predicate', NATIVE, EXACT),
  isinf: op('unary', 'predicate', NATIVE, EXACT),
  isfinite: op('unary', 'predicate', NATIVE, EXACT),
  signbit: op('unary', 'predicate', NATIVE, EXACT),
  positive: op('unary', 'arithNoBool', NATIVE, EXACT),
  deg2rad: op('unary', 'float', FLOAT_ONLY, EXACT, ['radians']),
  rad2deg: op('unary', 'float', FLOAT_ONLY, EXACT, ['degrees']),
  invert: op('unary', 'bitwise', NATIVE, EXACT, ['bitwiseNot']),
} as const satisfies Record<string, ElementwiseRow>;

type ElementwiseOp = keyof typeof ELEMENTWISE_OPS;
type ElementwiseOf<F extends ElementwiseRow['family']> = { [K in ElementwiseOp]: (typeof ELEMENTWISE_OPS)[K]['family'] extends F ? K : never }[ElementwiseOp];
/** Elementwise operations of one operand, with deferred-array's (NumPy's) semantics. */
type KUnary = ElementwiseOf<'unary'>;
/** Elementwise operations of two operands. */
type KBinary = ElementwiseOf<'binary'>;
/** The ops whose float or integer operands are written as WebAssembly instructions: each needs an emitter. */
type NativeOp = {
  [K in ElementwiseOp]: (typeof ELEMENTWISE_OPS)[K]['float'] extends 'native' ? K : (typeof ELEMENTWISE_OPS)[K]['int'] extends 'native' ? K : never
}[ElementwiseOp];

/** The native ops the vector loop writes too: float instructions, or integer ones unless the row says `intLanes: false`. */
type LaneOp = {
  [K in NativeOp]: (typeof ELEMENTWISE_OPS)[K]['float'] extends 'native' ? K : (typeof ELEMENTWISE_OPS)[K] extends { readonly intLanes: false } ? never : K
}[NativeOp];

const isElementwiseOp = (name: string): name is ElementwiseOp => Object.hasOwn(ELEMENTWISE_OPS, name);

/** The row of an op: a lookup that forgets the literal types, for code that reads any row. */
const rowOf = (fn: ElementwiseOp): ElementwiseRow => ELEMENTWISE_OPS[fn];

/** Operands an op takes. */
const arity = (fn: ElementwiseOp): 1 | 2 => (ELEMENTWISE_OPS[fn].family === 'unary' ? 1 : 2);

export { ELEMENTWISE_OPS, isElementwiseOp, rowOf, arity };
export type { ElementwiseRow, ElementwiseRule, ElementwiseOp, KUnary, KBinary, NativeOp, LaneOp, Lowering, UlpBound };
