// Scalar semantics of every elementwise op, per computation dtype, in plain
// JavaScript. IEEE-exact ops are bit-exact with NumPy; float32 results are
// computed in float64 and rounded once where that is exact (+ - * / sqrt), and
// step by step where NumPy's algorithm has several roundings (divmod).
import type { DType } from '../ir/dtypes.js';
import { ExecutionError } from '../ir/errors.js';
import { bitsOf, dtypeInfo, isFloat, wrapTo } from '../ir/dtypes.js';
import type { BinaryOp, UnaryOp } from '../ir/op-table.js';
import type { RunFlags } from '../core/flags.js';

type Unary = (x: number) => number;
type Binary = (a: number, b: number) => number;

const identity: Unary = (x) => x;
const rounder = (t: DType): Unary => (t === 'float32' ? Math.fround : identity);
const truthy = (x: number): boolean => x !== 0; // NaN counts as true, as in NumPy
const copysign0 = (x: number): number => (x < 0 || Object.is(x, -0) ? -0 : 0);

/** Round half to even (C rint in the default rounding mode). */
function rint(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** IEEE 754-2019 maximum/minimum: NaN propagates and +0 > -0 (the rule WebAssembly's f64.max follows). */
function fmax(a: number, b: number): number {
  if (a !== a || b !== b) return NaN;
  if (a === 0 && b === 0) return Object.is(a, -0) ? b : a;
  return a > b ? a : b;
}
function fmin(a: number, b: number): number {
  if (a !== a || b !== b) return NaN;
  if (a === 0 && b === 0) return Object.is(a, -0) ? a : b;
  return a < b ? a : b;
}

// The sign bit of a double, NaN's included (signbit, copysign).
const bitsF = new Float64Array(1);
const bitsU = new Uint32Array(bitsF.buffer);
const signBit = (x: number): number => {
  bitsF[0] = x;
  return bitsU[1]! >>> 31;
};

// The bits of a float32 (nextafter steps them).
const bitsF32 = new Float32Array(1);
const bitsU32 = new Uint32Array(bitsF32.buffer);

/**
 * C's nextafter, as NumPy's: NaN in either gives NaN, x == y gives y, zero
 * steps to the smallest subnormal toward y, and any other x one unit in the
 * last place of `t` toward y (max finite to Inf, Inf to max finite).
 */
function nextafter(t: DType): Binary {
  const tiny = t === 'float32' ? 2 ** -149 : Number.MIN_VALUE;
  return (x, y) => {
    if (x !== x || y !== y) return x + y;
    if (x === y) return y;
    if (x === 0) return y > 0 ? tiny : -tiny;
    // Away from zero where y lies beyond x on x's side, toward it otherwise: the bits grow or shrink by one.
    const step = (y > x) === (x > 0) ? 1 : -1;
    if (t === 'float32') {
      bitsF32[0] = x;
      bitsU32[0] = bitsU32[0]! + step;
      return bitsF32[0]!;
    }
    bitsF[0] = x;
    const lo = bitsU[0]!;
    bitsU[0] = (lo + step) >>> 0;
    if ((step > 0 && lo === 0xffffffff) || (step < 0 && lo === 0)) bitsU[1] = bitsU[1]! + step;
    return bitsF[0]!;
  };
}

/** fmax/fmin as NumPy's: a NaN operand gives the other one; equal operands (0 and -0) the second, as x86's maxpd. */
const nanSkippingMax = (a: number, b: number): number => (a !== a ? b : b !== b ? a : a > b ? a : b);
const nanSkippingMin = (a: number, b: number): number => (a !== a ? b : b !== b ? a : a < b ? a : b);

/** NumPy's npy_logaddexp: log(exp(a) + exp(b)) without overflow. */
function logaddexp(a: number, b: number): number {
  if (a === b) return a + Math.LN2; // infinities of one sign included
  const d = a - b;
  if (d > 0) return a + Math.log1p(Math.exp(-d));
  if (d <= 0) return b + Math.log1p(Math.exp(d));
  return d; // NaN
}

/** NumPy's npy_logaddexp2: log2(2^a + 2^b). */
function logaddexp2(a: number, b: number): number {
  if (a === b) return a + 1;
  const d = a - b;
  if (d > 0) return a + Math.LOG2E * Math.log1p(Math.pow(2, -d));
  if (d <= 0) return b + Math.LOG2E * Math.log1p(Math.pow(2, d));
  return d;
}

/** C pow special cases that Math.pow answers differently. */
function cpow(a: number, b: number): number {
  if (a === 1) return 1;
  if (a === -1 && (b === Infinity || b === -Infinity)) return 1;
  return Math.pow(a, b);
}

/** NumPy's npy_divmod: the floor quotient and Python-style remainder, rounding each step in `r`. */
function divmod(a: number, b: number, r: Unary): [number, number] {
  let mod = a % b;
  if (b === 0) return [a / b, mod];
  let div = r(r(a - mod) / b);
  if (mod !== 0) {
    if ((b < 0) !== (mod < 0)) {
      mod = r(mod + b);
      div = r(div - 1);
    }
  } else {
    mod = copysign0(b);
  }
  let floordiv: number;
  if (div !== 0) {
    floordiv = Math.floor(div);
    if (div - floordiv > 0.5) floordiv += 1;
  } else {
    floordiv = copysign0(a / b);
  }
  return [floordiv, mod];
}

function unaryFloat(op: UnaryOp, t: DType): Unary {
  switch (op) {
    case 'negative': return (x) => -x;
    case 'abs': return Math.abs;
    case 'sign': return (x) => (x > 0 ? 1 : x < 0 ? -1 : x === 0 ? 0 : x);
    case 'sqrt': return Math.sqrt;
    case 'cbrt': return Math.cbrt;
    case 'square': return (x) => x * x;
    case 'reciprocal': return (x) => 1 / x;
    case 'exp': return Math.exp;
    case 'expm1': return Math.expm1;
    case 'exp2': return (x) => Math.pow(2, x);
    case 'log': return Math.log;
    case 'log1p': return Math.log1p;
    case 'log2': return Math.log2;
    case 'log10': return Math.log10;
    case 'sin': return Math.sin;
    case 'cos': return Math.cos;
    case 'tan': return Math.tan;
    case 'asin': return Math.asin;
    case 'acos': return Math.acos;
    case 'atan': return Math.atan;
    case 'sinh': return Math.sinh;
    case 'cosh': return Math.cosh;
    case 'tanh': return Math.tanh;
    case 'asinh': return Math.asinh;
    case 'acosh': return Math.acosh;
    case 'atanh': return Math.atanh;
    case 'floor': return Math.floor;
    case 'ceil': return Math.ceil;
    case 'round': return rint;
    case 'trunc': return Math.trunc;
    case 'logicalNot': return (x) => (truthy(x) ? 0 : 1);
    case 'isnan': return (x) => (x !== x ? 1 : 0);
    case 'isinf': return (x) => (x === Infinity || x === -Infinity ? 1 : 0);
    case 'isfinite': return (x) => (Number.isFinite(x) ? 1 : 0);
    case 'signbit': return signBit;
    case 'positive': return identity;
    // NumPy multiplies by the constant in the dtype: (float)(pi/180) for float32.
    case 'deg2rad': { const c = t === 'float32' ? Math.fround(Math.fround(Math.PI) / 180) : Math.PI / 180; return (x) => x * c; }
    case 'rad2deg': { const c = t === 'float32' ? Math.fround(180 / Math.fround(Math.PI)) : 180 / Math.PI; return (x) => x * c; }
    case 'invert': return noFloatBits(op);
  }
}

/** The type rules refuse bitwise ops on floats before anything runs. */
function noFloatBits(op: string): never {
  throw new Error(`internal: ${op} reached a float loop`);
}

/**
 * Integer multiplication wrapped to the type: a 32-bit product can pass 2^53,
 * so it goes through Math.imul; a narrower one is exact in a double.
 */
function intMultiply(t: DType): Binary {
  const wrap = wrapTo(t);
  return bitsOf(t) === 32 ? (a, b) => wrap(Math.imul(a, b)) : (a, b) => wrap(a * b);
}

function unaryInt(op: UnaryOp, t: DType, flags: RunFlags): Unary {
  const mul = intMultiply(t);
  const wrap = wrapTo(t);
  switch (op) {
    case 'negative': return (x) => wrap(-x);
    case 'abs': return (x) => wrap(Math.abs(x));
    case 'sign': return (x) => (x > 0 ? 1 : x < 0 ? -1 : 0);
    case 'square': return (x) => mul(x, x);
    case 'reciprocal': return (x) => {
      if (x === 0) {
        flags.divideByZero++;
        flags.where.add('reciprocal');
        return 0;
      }
      return Math.trunc(1 / x);
    };
    case 'floor': case 'ceil': case 'round': case 'trunc': return identity;
    case 'isnan': case 'isinf': return () => 0;
    case 'isfinite': return () => 1;
    // Two's complement in the type's width; bool's invert is logical not.
    case 'invert': return t === 'bool' ? (x) => x ^ 1 : (x) => wrap(~x);
    default: return unaryFloat(op, t);
  }
}

/** The scalar function of a unary op computing in dtype `t` (stored afterwards into the output dtype). */
function unaryImpl(op: UnaryOp, t: DType, flags: RunFlags): Unary {
  return isFloat(t) ? unaryFloat(op, t) : unaryInt(op, t, flags);
}

function binaryFloat(op: BinaryOp, t: DType): Binary {
  const r = rounder(t);
  switch (op) {
    case 'add': return (a, b) => a + b;
    case 'subtract': return (a, b) => a - b;
    case 'multiply': return (a, b) => a * b;
    case 'divide': return (a, b) => a / b;
    case 'floorDivide': return (a, b) => divmod(a, b, r)[0];
    case 'mod': return (a, b) => (b === 0 ? a % b : divmod(a, b, r)[1]);
    case 'power': return cpow;
    case 'atan2': return Math.atan2;
    case 'hypot': return Math.hypot;
    case 'minimum': return fmin;
    case 'maximum': return fmax;
    case 'fmax': return nanSkippingMax;
    case 'fmin': return nanSkippingMin;
    case 'fmod': return (a, b) => a % b; // JavaScript's % is C's fmod
    case 'copysign': return (a, b) => (signBit(a) === signBit(b) ? a : -a);
    case 'heaviside': return (x, h) => (x !== x ? x : x < 0 ? 0 : x > 0 ? 1 : h);
    case 'nextafter': return nextafter(t);
    case 'logaddexp': return logaddexp;
    case 'logaddexp2': return logaddexp2;
    case 'bitwiseAnd': case 'bitwiseOr': case 'bitwiseXor': case 'leftShift': case 'rightShift': case 'gcd': return noFloatBits(op);
    default: return compareOrLogical(op);
  }
}

type CompareOrLogical = 'equal' | 'notEqual' | 'less' | 'lessEqual' | 'greater' | 'greaterEqual' | 'logicalAnd' | 'logicalOr' | 'logicalXor';

// binaryFloat's default passes the ops its cases leave: a binary op of the table with no case
// there (and no comparison form) is a type error at that call.
function compareOrLogical(op: CompareOrLogical): Binary {
  switch (op) {
    case 'equal': return (a, b) => (a === b ? 1 : 0);
    case 'notEqual': return (a, b) => (a !== b ? 1 : 0);
    case 'less': return (a, b) => (a < b ? 1 : 0);
    case 'lessEqual': return (a, b) => (a <= b ? 1 : 0);
    case 'greater': return (a, b) => (a > b ? 1 : 0);
    case 'greaterEqual': return (a, b) => (a >= b ? 1 : 0);
    case 'logicalAnd': return (a, b) => (truthy(a) && truthy(b) ? 1 : 0);
    case 'logicalOr': return (a, b) => (truthy(a) || truthy(b) ? 1 : 0);
    case 'logicalXor': return (a, b) => (truthy(a) !== truthy(b) ? 1 : 0);
  }
}

function binaryInt(op: BinaryOp, t: DType, flags: RunFlags): Binary {
  const { min, kind } = dtypeInfo(t);
  const mul = intMultiply(t);
  const wrap = wrapTo(t);
  const zero = (): number => {
    flags.divideByZero++;
    flags.where.add(op);
    return 0;
  };
  switch (op) {
    case 'multiply': return t === 'bool' ? (a, b) => a & b : mul;
    case 'add': return t === 'bool' ? (a, b) => a | b : (a, b) => wrap(a + b);
    case 'subtract': return (a, b) => wrap(a - b);
    case 'floorDivide': return (a, b) => {
      if (b === 0) return zero();
      if (a === min && b === -1) return min; // overflows, and wraps, as NumPy's does
      return wrap(Math.floor(a / b));
    };
    case 'mod': return (a, b) => {
      if (b === 0) return zero();
      const rem = a % b;
      return rem === 0 || (a > 0) === (b > 0) ? rem : rem + b;
    };
    case 'power': return (a, b) => {
      if (b < 0) {
        throw new ExecutionError(
          `power: integers to negative integer powers are not allowed (${a} ** ${b} in ${t}), as in NumPy; ` +
          `use a float exponent or astype('float64') first`,
        );
      }
      let out = 1;
      let base = a;
      for (let e = b; e > 0; e >>>= 1) {
        if (e & 1) out = mul(out, base);
        base = mul(base, base);
      }
      return out;
    };
    case 'minimum': case 'fmin': return (a, b) => Math.min(a, b);
    case 'maximum': case 'fmax': return (a, b) => Math.max(a, b);
    case 'fmod': return (a, b) => (b === 0 ? zero() : a % b); // C's truncated remainder
    case 'bitwiseAnd': return (a, b) => a & b;
    case 'bitwiseOr': return (a, b) => a | b;
    case 'bitwiseXor': return (a, b) => a ^ b;
    // NumPy's npy_lshift/npy_rshift: the count is read unsigned, so a negative one is past the width too
    // (JavaScript's << and >> would take it modulo 32).
    case 'leftShift': { const w = bitsOf(t); return (a, b) => (b >= 0 && b < w ? wrap(a << b) : 0); }
    case 'rightShift': {
      const w = bitsOf(t);
      // uint32 values past 2^31 shift in zeros, which JavaScript's >> would not.
      if (kind === 'u') return (a, b) => (b >= 0 && b < w ? a >>> b : 0);
      return (a, b) => (b >= 0 && b < w ? a >> b : a < 0 ? -1 : 0);
    }
    // Euclid's algorithm on the magnitudes, wrapped back to the type as NumPy's (the most negative value's magnitude does not fit).
    case 'gcd': return (a, b) => {
      let x = Math.abs(a);
      for (let y = Math.abs(b); y !== 0;) [x, y] = [y, x % y];
      return wrap(x);
    };
    default: return binaryFloat(op, t);
  }
}

/** The scalar function of a binary op computing in dtype `t`. */
function binaryImpl(op: BinaryOp, t: DType, flags: RunFlags): Binary {
  return isFloat(t) ? binaryFloat(op, t) : binaryInt(op, t, flags);
}

export { unaryImpl, binaryImpl, intMultiply, fmax, fmin, rint, truthy };
export type { Unary, Binary };
