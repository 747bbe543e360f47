// Scalar semantics of the integer ops computing in int64 or uint64, on
// bigints: two's complement wrap-around after every op, as NumPy's loops
// have it, and NumPy's rules for division by zero, shifts past the width and
// negative powers. Ops whose loops are float ones never compute in these types.
import type { DType } from '../ir/dtypes.js';
import { ExecutionError } from '../ir/errors.js';
import type { BinaryOp, UnaryOp } from '../ir/op-table.js';
import type { RunFlags } from '../core/flags.js';

type BigUnary = (x: bigint) => bigint;
type BigBinary = (a: bigint, b: bigint) => bigint;

/** The wrap of dtype `t` (int64 or uint64). */
const wrapper = (t: DType): BigUnary => (t === 'int64' ? (x) => BigInt.asIntN(64, x) : (x) => BigInt.asUintN(64, x));

const bool = (c: boolean): bigint => (c ? 1n : 0n);
const truthy = (x: bigint): boolean => x !== 0n;

function unary64(op: UnaryOp, t: DType, flags: RunFlags): BigUnary {
  const wrap = wrapper(t);
  switch (op) {
    case 'negative': return (x) => wrap(-x);
    case 'abs': return (x) => wrap(x < 0n ? -x : x);
    case 'sign': return (x) => (x > 0n ? 1n : x < 0n ? -1n : 0n);
    case 'square': return (x) => wrap(x * x);
    case 'reciprocal': return (x) => {
      if (x === 0n) {
        flags.divideByZero++;
        flags.where.add('reciprocal');
        return 0n;
      }
      return wrap(1n / x); // truncates toward zero, as C's integer division
    };
    case 'positive': case 'floor': case 'ceil': case 'round': case 'trunc': return (x) => x;
    case 'invert': return (x) => wrap(~x);
    case 'isnan': case 'isinf': return () => 0n;
    case 'isfinite': return () => 1n;
    case 'signbit': return (x) => bool(x < 0n);
    case 'logicalNot': return (x) => bool(!truthy(x));
    default: throw new Error(`internal: ${op} has no ${t} loop (its type rule computes it in a float)`);
  }
}

/** a ** b by squaring, wrapping each step: the exponent may be up to 2^64 - 1. */
function power(a: bigint, b: bigint, wrap: BigUnary): bigint {
  let out = 1n;
  let base = a;
  for (let e = b; e > 0n; e >>= 1n) {
    if (e & 1n) out = wrap(out * base);
    base = wrap(base * base);
  }
  return out;
}

function binary64(op: BinaryOp, t: DType, flags: RunFlags): BigBinary {
  const wrap = wrapper(t);
  const zero = (): bigint => {
    flags.divideByZero++;
    flags.where.add(op);
    return 0n;
  };
  switch (op) {
    case 'add': return (a, b) => wrap(a + b);
    case 'subtract': return (a, b) => wrap(a - b);
    case 'multiply': return (a, b) => wrap(a * b);
    case 'floorDivide': return (a, b) => {
      if (b === 0n) return zero();
      const q = a / b;
      // bigint division truncates; floor moves a negative inexact quotient down (the most negative over -1 wraps, as NumPy's).
      return wrap(a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q);
    };
    case 'mod': return (a, b) => {
      if (b === 0n) return zero();
      const r = a % b;
      return r !== 0n && (r < 0n) !== (b < 0n) ? r + b : r;
    };
    case 'fmod': return (a, b) => (b === 0n ? zero() : a % b);
    case 'power': return (a, b) => {
      if (b < 0n) {
        throw new ExecutionError(
          `power: integers to negative integer powers are not allowed (${a} ** ${b} in ${t}), as in NumPy; ` +
          `use a float exponent or astype('float64') first`,
        );
      }
      return power(a, b, wrap);
    };
    case 'minimum': case 'fmin': return (a, b) => (b < a ? b : a);
    case 'maximum': case 'fmax': return (a, b) => (b > a ? b : a);
    case 'bitwiseAnd': return (a, b) => wrap(a & b);
    case 'bitwiseOr': return (a, b) => wrap(a | b);
    case 'bitwiseXor': return (a, b) => wrap(a ^ b);
    // NumPy's npy_lshift/npy_rshift: a count past the width (or negative, read unsigned) shifts everything out.
    case 'leftShift': return (a, b) => (b >= 0n && b < 64n ? wrap(a << b) : 0n);
    case 'rightShift': return (a, b) => (b >= 0n && b < 64n ? a >> b : a < 0n ? -1n : 0n);
    case 'gcd': return (a, b) => {
      let x = a < 0n ? -a : a;
      for (let y = b < 0n ? -b : b; y !== 0n;) [x, y] = [y, x % y];
      return wrap(x);
    };
    case 'equal': return (a, b) => bool(a === b);
    case 'notEqual': return (a, b) => bool(a !== b);
    case 'less': return (a, b) => bool(a < b);
    case 'lessEqual': return (a, b) => bool(a <= b);
    case 'greater': return (a, b) => bool(a > b);
    case 'greaterEqual': return (a, b) => bool(a >= b);
    case 'logicalAnd': return (a, b) => bool(truthy(a) && truthy(b));
    case 'logicalOr': return (a, b) => bool(truthy(a) || truthy(b));
    case 'logicalXor': return (a, b) => bool(truthy(a) !== truthy(b));
    default: throw new Error(`internal: ${op} has no ${t} loop (its type rule computes it in a float)`);
  }
}

export { unary64, binary64, wrapper, truthy };
export type { BigUnary, BigBinary };
