// Function forms of the elementwise ops: da.add(a, b), da.sin(x), ...
// One line per op and alias, so the export list in index.ts stays explicit;
// functions.test.ts checks it against the op table.
import type { DeferredArray } from './deferred-array.js';
import { binary, ternary, unary } from './ufunc.js';
import type { Operand, UfuncOptions } from './ufunc.js';
import type { BinaryOp, UnaryOp } from '../ir/op-table.js';

const u = (op: UnaryOp) => (x: Operand, options?: UfuncOptions): DeferredArray => unary(op, x, options);
const b = (op: BinaryOp) => (x: Operand, y: Operand, options?: UfuncOptions): DeferredArray => binary(op, x, y, options);

const add = b('add');
const subtract = b('subtract');
const sub = subtract;
const multiply = b('multiply');
const mul = multiply;
const divide = b('divide');
const div = divide;
const trueDivide = divide;
const floorDivide = b('floorDivide');
const mod = b('mod');
const remainder = mod;
const power = b('power');
const pow = power;
const atan2 = b('atan2');
const hypot = b('hypot');
const minimum = b('minimum');
const maximum = b('maximum');
const equal = b('equal');
const eq = equal;
const notEqual = b('notEqual');
const ne = notEqual;
const less = b('less');
const lt = less;
const lessEqual = b('lessEqual');
const le = lessEqual;
const greater = b('greater');
const gt = greater;
const greaterEqual = b('greaterEqual');
const ge = greaterEqual;
const logicalAnd = b('logicalAnd');
const logicalOr = b('logicalOr');
const logicalXor = b('logicalXor');
const negative = u('negative');
const neg = negative;
const abs = u('abs');
const absolute = abs;
const sign = u('sign');
const sqrt = u('sqrt');
const cbrt = u('cbrt');
const square = u('square');
const reciprocal = u('reciprocal');
const exp = u('exp');
const expm1 = u('expm1');
const exp2 = u('exp2');
const log = u('log');
const log1p = u('log1p');
const log2 = u('log2');
const log10 = u('log10');
const sin = u('sin');
const cos = u('cos');
const tan = u('tan');
const asin = u('asin');
const arcsin = asin;
const acos = u('acos');
const arccos = acos;
const atan = u('atan');
const arctan = atan;
const sinh = u('sinh');
const cosh = u('cosh');
const tanh = u('tanh');
const asinh = u('asinh');
const arcsinh = asinh;
const acosh = u('acosh');
const arccosh = acosh;
const atanh = u('atanh');
const arctanh = atanh;
const floor = u('floor');
const ceil = u('ceil');
const round = u('round');
const rint = round;
const trunc = u('trunc');
const logicalNot = u('logicalNot');
const isnan = u('isnan');
const isinf = u('isinf');
const isfinite = u('isfinite');

/** NumPy's where: elementwise choice, fused like any other elementwise op (unlike a lazy cond). */
function where(condition: Operand, x: Operand, y: Operand, options?: UfuncOptions): DeferredArray {
  return ternary('where', condition, x, y, options);
}

/** clip(x, lo, hi) = minimum(maximum(x, lo), hi); NaN in any operand propagates. */
function clip(x: Operand, lo: Operand, hi: Operand, options?: UfuncOptions): DeferredArray {
  return ternary('clip', x, lo, hi, options);
}

export {
  add, subtract, sub, multiply, mul, divide, div, trueDivide, floorDivide, mod, remainder, power,
  pow, atan2, hypot, minimum, maximum, equal, eq, notEqual, ne, less, lt, lessEqual, le, greater, gt,
  greaterEqual, ge, logicalAnd, logicalOr, logicalXor, negative, neg, abs, absolute, sign, sqrt, cbrt, square,
  reciprocal, exp, expm1, exp2, log, log1p, log2, log10, sin, cos, tan, asin, arcsin, acos, arccos, atan,
  arctan, sinh, cosh, tanh, asinh, arcsinh, acosh, arccosh, atanh, arctanh, floor, ceil, round, rint, trunc,
  logicalNot, isnan, isinf, isfinite, where, clip,
};
