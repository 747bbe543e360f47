// The elementwise ops the lowering knows, one row each: how a float and an
// integer operand are lowered. 'native': written as WebAssembly instructions
// (scalar-ops.ts and simd-ops.ts have a case for it); 'math': the vector math
// library (src/math/), for floats, under `math`'s name or the op's own; 'host':
// a host function the caller supplies with its own scalar semantics, so that
// results agree exactly with its reference. The op-name unions KUnary and
// KBinary are this table's keys: adding an op is a row here plus its cases.
type Lowering = 'native' | 'math' | 'host';

interface OpRule {
  readonly float: Lowering;
  readonly int: Lowering;
  /** The math library's name for the op, where it differs ('power' is its 'pow'). */
  readonly math?: string;
  /** A predicate: its result is bool whatever its operand's type (comparisons are binary ops' own case). */
  readonly bool?: true;
  /** false: the native integer lowering is scalar only (the vector loop has no form of it). */
  readonly intLanes?: false;
}

const NATIVE: OpRule = { float: 'native', int: 'native' };
const MATH: OpRule = { float: 'math', int: 'host' };
/** Not written as instructions yet: the host's own scalar function, per element. */
const HOST: OpRule = { float: 'host', int: 'host' };
const PREDICATE: OpRule = { float: 'native', int: 'native', bool: true };
/** Ops whose dtype rule gives floats only: an integer operand never reaches the lowering. */
const FLOAT_ONLY: OpRule = { float: 'native', int: 'host' };
/** Integer division's results and flags per element; no lane form. */
const INT_SCALAR: OpRule = { float: 'host', int: 'native', intLanes: false };
/**
 * Shifts: integers only (the type rules refuse floats). A count per lane has no
 * i32x4 instruction; simd-ops.ts vectorises a count the same in every lane.
 */
const SHIFT: OpRule = { float: 'host', int: 'native', intLanes: false };

const UNARY_RULES = {
  negative: NATIVE, abs: NATIVE, sign: NATIVE, sqrt: { float: 'native', int: 'host' }, square: NATIVE,
  reciprocal: { float: 'native', int: 'native', intLanes: false },
  floor: NATIVE, ceil: NATIVE, round: NATIVE, trunc: NATIVE,
  logicalNot: PREDICATE, isnan: PREDICATE, isinf: PREDICATE, isfinite: PREDICATE,
  exp: MATH, expm1: MATH, exp2: MATH, log: MATH, log1p: MATH, log2: MATH, log10: MATH, sin: MATH, cos: MATH, tan: MATH,
  asin: MATH, acos: MATH, atan: MATH, sinh: MATH, cosh: MATH, tanh: MATH, asinh: MATH, acosh: MATH, atanh: MATH, cbrt: MATH,
  signbit: PREDICATE, positive: NATIVE, deg2rad: FLOAT_ONLY, rad2deg: FLOAT_ONLY,
  invert: NATIVE,
} as const satisfies Record<string, OpRule>;

const BINARY_RULES = {
  add: NATIVE, subtract: NATIVE, multiply: NATIVE, divide: { float: 'native', int: 'host' },
  floorDivide: INT_SCALAR, mod: INT_SCALAR,
  power: { float: 'math', int: 'host', math: 'pow' }, atan2: MATH, hypot: MATH, minimum: NATIVE, maximum: NATIVE,
  equal: NATIVE, notEqual: NATIVE, less: NATIVE, lessEqual: NATIVE, greater: NATIVE, greaterEqual: NATIVE,
  logicalAnd: NATIVE, logicalOr: NATIVE, logicalXor: NATIVE,
  fmax: NATIVE, fmin: NATIVE, fmod: HOST, copysign: FLOAT_ONLY, heaviside: FLOAT_ONLY, logaddexp: HOST, logaddexp2: HOST,
  // Integer and bool operands only (deferred-array's type rules refuse floats).
  bitwiseAnd: NATIVE, bitwiseOr: NATIVE, bitwiseXor: NATIVE, leftShift: SHIFT, rightShift: SHIFT,
} as const satisfies Record<string, OpRule>;

type KUnary = keyof typeof UNARY_RULES;
type KBinary = keyof typeof BINARY_RULES;

const ruleOf = (fn: KUnary | KBinary): OpRule => (UNARY_RULES as Record<string, OpRule>)[fn] ?? (BINARY_RULES as Record<string, OpRule>)[fn]!;

/** Whether a unary op's result is bool whatever its operand. */
const isPredicate = (fn: KUnary): boolean => ruleOf(fn).bool === true;

export { UNARY_RULES, BINARY_RULES, ruleOf, isPredicate };
export type { KUnary, KBinary, OpRule };
