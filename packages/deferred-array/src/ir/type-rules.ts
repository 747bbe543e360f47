// Result and computation dtypes of every op, from the op table's rules, and
// NEP 50's weak JS scalars.
import { DTypeError } from './errors.js';
import { dtypeInfo, floatFor, isBigInt, isFloat } from './dtypes.js';
import { promoteTypes } from './promotion.js';
import type { DType } from './dtypes.js';
import { OPS } from './op-table.js';
import type { OpName, ReduceOp, ScanOp } from './op-table.js';

/** `compute` is the dtype the loop works in (its inputs are cast to it); `out` is stored. */
interface Resolved {
  readonly compute: DType;
  readonly out: DType;
}

const BOOL_HINT: Partial<Record<OpName, string>> = {
  subtract: 'use logicalXor, or astype() to a number type first',
  negative: 'use logicalNot, or astype() to a number type first',
  sign: 'a bool is its own sign; use astype() to a number type first',
};

/** Resolves an elementwise op over its operands' dtypes (after broadcasting). */
function resolveElementwise(op: OpName, dtypes: readonly DType[]): Resolved {
  const rule = OPS[op].rule;
  if (rule === 'select') {
    // where(cond, a, b): the condition is read as truthiness, the branches promote.
    const t = promoteTypes(dtypes[1]!, dtypes[2]!);
    return { compute: t, out: t };
  }
  let t = dtypes[0]!;
  for (let i = 1; i < dtypes.length; i++) t = promoteTypes(t, dtypes[i]!);
  switch (rule) {
    case 'arith':
    case 'same':
      return { compute: t, out: t };
    case 'arithNoBool':
      if (t === 'bool') {
        throw new DTypeError(`${op} is not defined for bool operands (NumPy raises too); ${BOOL_HINT[op] ?? 'use astype() first'}`);
      }
      return { compute: t, out: t };
    case 'intArith': {
      // Integer division, modulo and powers need an integer type: float64 would divide by zero to Inf.
      // uint64 with a signed integer is the exception: NumPy itself computes that pair in float64.
      if (isFloat(t) && !dtypes.some(isFloat) && !unsignedWithSigned64(dtypes)) throw new DTypeError(int64Message(op, dtypes));
      // NumPy's integer loops for bool operands are int8's (square, floor divide, power).
      const c = t === 'bool' ? 'int8' : t;
      return { compute: c, out: c };
    }
    case 'trueDivide': {
      const c = isFloat(t) ? t : 'float64';
      return { compute: c, out: c };
    }
    case 'float': {
      // The smallest float every operand casts to safely, as NumPy's loop search
      // finds it: int16 with uint16 is float32, though their common integer is int32.
      const c = dtypes.map(floatFor).reduce((a, b) => promoteTypes(a, b));
      return { compute: c, out: c };
    }
    case 'bitwise':
    case 'shift': {
      if (isFloat(t) && !dtypes.some(isFloat)) throw new DTypeError(int64Message(op, dtypes));
      if (isFloat(t)) {
        throw new DTypeError(
          `${op} is defined for integer and bool operands only (NumPy raises too); got ${dtypes.join(' and ')}: ` +
          `use astype('int32') first if the values are whole numbers`,
        );
      }
      const c = rule === 'shift' && t === 'bool' ? 'int8' : t;
      return { compute: c, out: c };
    }
    case 'integer':
      return integerOnly(op, dtypes, t);
    case 'compare':
      return { compute: t, out: 'bool' };
    case 'predicate':
    case 'logical':
      return { compute: t, out: 'bool' };
    default:
      throw new DTypeError(`${op} is not an elementwise op (rule ${rule})`);
  }
}

/** Integer loops only (NumPy's gcd): floats are refused, and so are bool operands alone, which NumPy finds no loop for. */
function integerOnly(op: OpName, dtypes: readonly DType[], t: DType): Resolved {
  if (isFloat(t) && !dtypes.some(isFloat)) throw new DTypeError(int64Message(op, dtypes));
  if (isFloat(t)) {
    throw new DTypeError(
      `${op} is defined for integer operands only (NumPy raises too); got ${dtypes.join(' and ')}: ` +
      `use astype('int32') first if the values are whole numbers`,
    );
  }
  if (t === 'bool') throw new DTypeError(`${op} is not defined for bool operands alone (NumPy raises too); use astype('int8') on one of them first`);
  return { compute: t, out: t };
}

/** uint64 with a signed integer, which NumPy promotes to float64 (so its integer-only loops refuse them). */
const unsignedWithSigned64 = (dtypes: readonly DType[]): boolean =>
  dtypes.includes('uint64') && dtypes.some((d) => dtypeInfo(d).kind === 'i');

/** uint32 with a signed integer: NumPy computes in int64, which this package does not here (promoteTypes gives float64). */
function int64Message(op: OpName, dtypes: readonly DType[]): string {
  if (unsignedWithSigned64(dtypes)) {
    return `${op} of ${dtypes.join(' and ')} has no integer loop: uint64 with a signed integer promotes to float64 (NumPy raises too); ` +
      `cast one operand with astype() so both are signed or both unsigned`;
  }
  return `${op} of ${dtypes.join(' and ')}: NumPy computes this pair in int64, where this package promotes it to float64 ` +
    `(exact, and kept in the vector kernels), which has no integer ${op}; cast both operands with astype('int64'), ` +
    `or the uint32 one with astype('int32') if its values are below 2^31 (or both with astype('float64') for float semantics)`;
}

/**
 * Result dtype of a reduction or scan. Sums and products of integers up to 32
 * bits are carried in float64 (exact below 2^53); int64 and uint64 ones in
 * their own type, wrapping as NumPy's do.
 */
function resolveReduce(op: ReduceOp | ScanOp, d: DType): Resolved {
  switch (OPS[op].rule) {
    case 'reduceSum':
      if (isBigInt(d)) return { compute: d, out: d };
      return { compute: isFloat(d) ? d : 'float64', out: isFloat(d) ? d : 'float64' };
    case 'reduceMean': {
      const c = isFloat(d) ? d : 'float64';
      return { compute: c, out: c };
    }
    case 'reduceSame':
      return { compute: d, out: d };
    case 'reduceBool':
      return { compute: d, out: 'bool' };
    case 'reduceIndex':
      return { compute: d, out: 'int32' };
    default:
      throw new DTypeError(`${op} is not a reduction`);
  }
}

/**
 * NEP 50: a JS number or boolean next to an array is a weak scalar that adopts
 * the array's dtype where its kind allows. Returns the dtype the constant is
 * stored in. An integer-valued number is a Python int; any other a Python float.
 */
function weakScalarDType(op: OpName, arrayDType: DType, value: number | boolean | bigint): DType {
  if (typeof value === 'boolean') return arrayDType;
  const integral = typeof value === 'bigint' || Number.isInteger(value);
  if (isFloat(arrayDType)) return arrayDType;
  if (!integral) return 'float64';
  const rule = OPS[op].rule;
  const bits = rule === 'bitwise' || rule === 'shift' || rule === 'integer';
  // A bool array meets a Python int in NumPy's int64; ours is int32, or float64
  // past it, which has no bits to operate on.
  if (arrayDType === 'bool' && !bits) return fitsIn(value, 'int32') ? 'int32' : 'float64';
  const target = arrayDType === 'bool' ? 'int32' : arrayDType;
  if (fitsIn(value, target)) return target;
  // Comparing with an out-of-range integer is still well defined (NumPy 2 does
  // it too); float64 holds every value of our integer dtypes up to 32 bits exactly.
  // Not int64's or uint64's: there the answer is the same for every element, and refused rather than rounded.
  if (rule === 'logical' || (rule === 'compare' && !isBigInt(target))) return 'float64';
  if (rule === 'compare') {
    throw new RangeError(
      `${op}: the JS ${typeof value} ${value} lies outside ${target} (${dtypeInfo(target).bigMin}..${dtypeInfo(target).bigMax}), ` +
      `so the comparison gives the same answer for every element; compare with the type's end instead, or use da.full() for the answer`,
    );
  }
  // Float-only ops (true divide, atan2, hypot) convert the integer to their float
  // loop type, where it cannot overflow: NumPy gives uint8 / 300 as float64 and
  // atan2(uint8, 300) in the float the uint8 array alone would get.
  if (rule === 'trueDivide' || rule === 'float') return resolveElementwise(op, [arrayDType]).compute;
  throw new RangeError(
    `the JS ${typeof value} ${value} does not fit in ${target} (range ${dtypeInfo(target).bigMin}..${dtypeInfo(target).bigMax}), ` +
    `so ${op} cannot treat it as a weak ${target} scalar (NEP 50); cast the array with astype() to a wider dtype, ` +
    `or pass a 0-d array of the dtype you want`,
  );
}

/** Whether the integer `value` is one of d's values (exactly: a number past 2^53 is the integer it holds). */
function fitsIn(value: number | bigint, d: DType): boolean {
  const info = dtypeInfo(d);
  if (typeof value === 'number' && !isBigInt(d)) return value >= info.min && value <= info.max;
  const v = BigInt(value);
  return v >= info.bigMin && v <= info.bigMax;
}

/** The dtype a standalone JS value gets when it has no array to adopt (da.array(2.5), da.add(1, 2), da.array(5n)). */
function defaultDType(value: number | boolean | bigint): DType {
  if (typeof value !== 'bigint') return typeof value === 'boolean' ? 'bool' : 'float64';
  // NumPy's np.array(2**63) is uint64; past both types it raises.
  if (fitsIn(value, 'int64')) return 'int64';
  if (fitsIn(value, 'uint64')) return 'uint64';
  throw new RangeError(`the JS bigint ${value} fits neither int64 nor uint64 (range -2^63..2^64-1); NumPy raises OverflowError too`);
}

export { resolveElementwise, resolveReduce, weakScalarDType, defaultDType, fitsIn };
export type { Resolved };
