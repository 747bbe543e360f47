// Result dtypes against NumPy 1.24.2 (test/vectors/promotion.json): every
// ordered dtype pair of every binary op, every unary op and reduction per
// dtype, and NEP 50's weak scalars on either side. Where we differ on purpose,
// the DEVIATIONS table below says so, one row per rule, with the reason.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { DTYPES as ALL_DTYPES, dtypeInfo, floatFor, isBigInt, isInteger, needsInt64 } from './dtypes.js';
import type { DType } from './dtypes.js';
import { BINARY_OPS, OPS, REDUCE_OPS, UNARY_OPS } from './op-table.js';

type Kind = 'int' | 'float' | 'bool' | 'int300' | 'intNeg1' | 'int2pow40' | 'float1e300';
type Table = Readonly<Record<string, Readonly<Record<string, string>>>>;

interface Promotion {
  readonly binary: Table;
  readonly unary: Table;
  readonly reduce: Table;
  readonly weak: Table;
  readonly weakPromotionState: string;
  readonly weakScalars: Readonly<Record<Kind, string>>;
}

const promotion = JSON.parse(
  readFileSync(new URL('../../test/vectors/promotion.json', import.meta.url), 'utf8'),
) as Promotion;

/** The JS value that plays each Python scalar of the weak table. */
const WEAK_VALUES: Readonly<Record<Kind, number | boolean>> = {
  int: 1, float: 1.5, bool: true, int300: 300, intNeg1: -1, int2pow40: 2 ** 40, float1e300: 1e300,
};

/** Where a NumPy answer comes from, for the deviation rows to match on. */
interface Where {
  readonly table: 'binary' | 'unary' | 'reduce' | 'weak';
  readonly op: string;
  /** The array operands' dtypes. */
  readonly dtypes: readonly DType[];
  /** The weak scalar's Python kind (weak table only). */
  readonly kind?: Kind;
}

const isInt = isInteger;
/** The integer dtypes NumPy's float-only ufuncs (and ours) compute in float32 or float16. */
const smallFloat = (d: DType): boolean => d !== 'bool' && isInteger(d) && floatFor(d) === 'float32';
// Binary ops whose integer operands keep their dtype, and those that give floats, from the op table's rules.
const ARITHMETIC: readonly string[] = BINARY_OPS.filter((op) => ['arith', 'arithNoBool', 'intArith'].includes(OPS[op].rule) && op !== 'divide');
const FLOAT_BINARY: readonly string[] = BINARY_OPS.filter((op) => OPS[op].rule === 'float');
/** Binary ops with integer loops only: bitwise ops, shifts and gcd. */
const BITWISE: readonly string[] = BINARY_OPS.filter((op) => ['bitwise', 'shift', 'integer'].includes(OPS[op].rule));
/** Binary ops whose integer loops differ from their float ones (division by zero, powers): no float64 stand-in for int64. */
const INT_ARITH: readonly string[] = BINARY_OPS.filter((op) => OPS[op].rule === 'intArith');
const COMPARISONS = ['equal', 'notEqual', 'less', 'lessEqual', 'greater', 'greaterEqual'];

/**
 * Every deliberate difference from NumPy 1.24's result dtype. `numpy` is what
 * NumPy says, `ours` what we give; a NumPy error is written 'error:<Name>'.
 * Rows are tried in order; the first that matches wins.
 */
const DEVIATIONS: ReadonlyArray<{
  readonly numpy: string;
  readonly ours: string | ((w: Where) => string);
  readonly when: (w: Where) => boolean;
  readonly why: string;
}> = [
  {
    numpy: 'float64', ours: (w) => w.dtypes[0]!,
    when: (w) => w.table === 'unary' && ['floor', 'ceil', 'trunc'].includes(w.op) && dtypeInfo(w.dtypes[0]!).bytes === 4,
    why: 'rounding an integer or bool keeps its dtype (NumPy 2.1+ and the array API)',
  },
  {
    numpy: 'float32', ours: (w) => w.dtypes[0]!,
    when: (w) => w.table === 'unary' && ['floor', 'ceil', 'trunc'].includes(w.op),
    why: 'as above, for int16 and uint16',
  },
  {
    numpy: 'float16', ours: (w) => w.dtypes[0]!,
    when: (w) => w.table === 'unary' && ['floor', 'ceil', 'trunc', 'round'].includes(w.op),
    why: 'as above, for int8, uint8 and bool',
  },
  {
    numpy: 'int64', ours: 'error:TypeError',
    when: (w) => w.table === 'binary' && [...BITWISE, ...INT_ARITH].includes(w.op) && needsInt64(w.dtypes[0]!, w.dtypes[1]!),
    why: 'int64 only where an operand is int64: bitwise ops, gcd, integer division, modulo and powers of uint32 with a signed integer have no common integer type here (a DTypeError says which cast to make)',
  },
  {
    numpy: 'int64', ours: 'float64', when: (w) => w.table === 'binary' && needsInt64(w.dtypes[0]!, w.dtypes[1]!),
    why: 'int64 only where an operand is int64: uint32 with a signed integer promotes to float64, which holds both exactly (as NumPy does for uint64 with int64)',
  },
  {
    numpy: 'float16', ours: 'float32', when: () => true,
    why: 'no float16: float32 is the smallest float we have that holds every uint8/bool value',
  },
  {
    numpy: 'int64', ours: 'float64', when: (w) => w.table === 'reduce' && (w.op === 'sum' || w.op === 'prod'),
    why: 'int64 only where an operand is int64: integer sums and products are carried in float64 (exact below 2^53)',
  },
  {
    numpy: 'uint64', ours: 'float64', when: (w) => w.table === 'reduce' && (w.op === 'sum' || w.op === 'prod'),
    why: 'as above, for the unsigned types',
  },
  {
    numpy: 'int64', ours: 'int32', when: (w) => w.table === 'reduce' && (w.op === 'argmin' || w.op === 'argmax'),
    why: 'indices are int32: a wasm32 heap (4 GiB) holds fewer than 2^31 elements of any dtype',
  },
  {
    numpy: 'int64', ours: 'int32', when: (w) => w.table === 'weak' && w.dtypes[0] === 'bool' && w.kind !== 'int2pow40',
    why: 'int64 only where an operand is int64: a Python int meeting a bool array computes in int32, our default integer',
  },
  {
    numpy: 'int64', ours: 'error:OverflowError',
    when: (w) => w.table === 'weak' && w.dtypes[0] === 'bool' && w.kind === 'int2pow40' && BITWISE.includes(w.op),
    why: 'int64 only where an operand is int64: 2^40 does not fit int32, and the float64 that holds it has no bits for bitwise ops',
  },
  {
    numpy: 'int64', ours: 'float64', when: (w) => w.table === 'weak' && w.dtypes[0] === 'bool' && w.kind === 'int2pow40',
    why: 'as above, but 2^40 does not fit int32; float64 holds it exactly',
  },
  {
    numpy: 'error:OverflowError', ours: 'bool', when: (w) => w.table === 'weak' && COMPARISONS.includes(w.op),
    why: 'comparing with an out-of-range int is well defined (NumPy 2 allows it too)',
  },
  {
    numpy: 'float64', ours: 'error:OverflowError',
    when: (w) => w.kind === 'float1e300' && isInt(w.dtypes[0]!) && ARITHMETIC.includes(w.op),
    why: 'JS cannot tell 1e300 from an integer, so it plays a Python int, which does not fit the integer array',
  },
  {
    numpy: 'error:TypeError', ours: 'error:OverflowError',
    when: (w) => w.kind === 'float1e300' && (isInt(w.dtypes[0]!) || w.dtypes[0] === 'bool') && BITWISE.includes(w.op),
    why: 'as above: 1e300 plays a Python int, too big for the array (int32 for bool), where NumPy refuses a float for bitwise ops',
  },
  {
    numpy: 'float64', ours: 'float32',
    when: (w) => w.kind === 'float1e300' && smallFloat(w.dtypes[0]!) && FLOAT_BINARY.includes(w.op),
    why: 'as above: a weak int meets a float op (atan2, hypot, copysign, ...) of a narrow integer in the float that integer gets',
  },
];
const hits = DEVIATIONS.map(() => 0);

/**
 * How a NumPy error shows here. TypeError (no loop for these dtypes) and
 * OverflowError (weak int outside the array dtype) are known from dtypes alone,
 * so we raise them when the graph is built; ValueError (integer to a negative
 * power) depends on the values, so it can only surface at execute().
 */
const ERRORS: Readonly<Record<string, string>> = {
  'error:TypeError': 'DTypeError',
  'error:OverflowError': 'RangeError',
  'error:ValueError': 'ExecutionError at execute()',
};

/** What we should give where NumPy gives `numpy`, after the deviation table. */
function expected(w: Where, numpy: string): string {
  const i = DEVIATIONS.findIndex((r) => r.numpy === numpy && r.when(w));
  let ours = numpy;
  if (i >= 0) {
    hits[i]!++;
    const r = DEVIATIONS[i]!;
    ours = typeof r.ours === 'string' ? r.ours : r.ours(w);
  }
  return ERRORS[ours] ?? ours;
}

type Fn = (...args: unknown[]) => da.DeferredArray;

function fn(op: string): Fn {
  const f = (da as unknown as Record<string, Fn | undefined>)[op];
  if (f === undefined) throw new Error(`da.${op} is not exported`);
  return f;
}

/**
 * The dtype `build` gives at definition, or the name of the error it throws
 * then. With `execute`, also runs it: the evaluator's dtype must agree, and a
 * run-time error is reported as such.
 */
function outcome(build: () => da.DeferredArray, execute: boolean): string {
  let y: da.DeferredArray;
  try {
    y = build();
  } catch (e) {
    return (e as Error).name;
  }
  if (!execute) return y.dtype;
  try {
    const nd = y.executeSync() as da.StdNdarray;
    return nd.dtype === y.dtype ? y.dtype : `${y.dtype} at definition but ${nd.dtype} from execute()`;
  } catch (e) {
    return `${(e as Error).name} at execute()`;
  }
}

const one = (d: DType, n = 1): da.DeferredArray => da.ones([n], { dtype: d });
/**
 * The dtypes promotion.json was made for. int64 and uint64 came later: their
 * promotion, arithmetic and reductions are checked against NumPy 2's in
 * api/int64.test.ts (test/vectors/int64.json).
 */
const DTYPES = ALL_DTYPES.filter((d) => !isBigInt(d));
const pairs = DTYPES.flatMap((a) => DTYPES.map((b) => [a, b] as const));

describe('the vectors cover the op table', () => {
  test('binary, unary and reduction ops, and every dtype', () => {
    expect(Object.keys(promotion.binary).sort()).toEqual([...BINARY_OPS].sort());
    expect(Object.keys(promotion.weak).sort()).toEqual([...BINARY_OPS].sort());
    expect(Object.keys(promotion.unary).sort()).toEqual([...UNARY_OPS].sort());
    expect(Object.keys(promotion.reduce).sort()).toEqual([...REDUCE_OPS].sort());
    expect(Object.keys(promotion.binary['add']!).length).toBe(DTYPES.length ** 2);
  });

  test('the weak table was made under NEP 50, with the Python scalars our JS values stand for', () => {
    expect(promotion.weakPromotionState).toBe('weak');
    const python = (v: number | boolean): string => (typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v));
    expect(Object.fromEntries(Object.entries(WEAK_VALUES).map(([k, v]) => [k, python(v)]))).toEqual(promotion.weakScalars);
  });
});

describe.each([...BINARY_OPS])('binary %s: every ordered pair of dtypes', (op) => {
  test.each(pairs)('%s, %s', (a, b) => {
    const numpy = promotion.binary[op]![`${a},${b}`]!;
    expect(outcome(() => fn(op)(one(a), one(b)), true)).toBe(expected({ table: 'binary', op, dtypes: [a, b] }, numpy));
  });
});

describe('unary ops per dtype', () => {
  test.each(UNARY_OPS.flatMap((op) => DTYPES.map((d) => [op, d] as const)))('%s %s', (op, d) => {
    const numpy = promotion.unary[op]![d]!;
    expect(outcome(() => fn(op)(one(d)), true)).toBe(expected({ table: 'unary', op, dtypes: [d] }, numpy));
  });
});

describe('reductions per dtype', () => {
  test.each(REDUCE_OPS.flatMap((op) => DTYPES.map((d) => [op, d] as const)))('%s %s', (op, d) => {
    const numpy = promotion.reduce[op]![d]!;
    expect(outcome(() => fn(op)(one(d, 3)), true)).toBe(expected({ table: 'reduce', op, dtypes: [d] }, numpy));
  });
});

describe.each([...BINARY_OPS])('weak JS scalars (NEP 50) with %s', (op) => {
  const cases = Object.entries(promotion.weak[op]!).map(([key, numpy]) => {
    const [d, kind] = key.split(',') as [DType, Kind];
    return [d, kind, numpy] as const;
  });

  test.each(cases)('array %s with %s: array on the left', (d, kind, numpy) => {
    const want = expected({ table: 'weak', op, dtypes: [d], kind }, numpy);
    // The array holds 1, so int32 ** -1 fails at execute() as NumPy's ValueError does.
    expect(outcome(() => fn(op)(one(d), WEAK_VALUES[kind]), true)).toBe(want);
  });

  test.each(cases)('array %s with %s: scalar on the left', (d, kind, numpy) => {
    let want = expected({ table: 'weak', op, dtypes: [d], kind }, numpy);
    // (-1) ** 1 is fine: only a negative exponent fails, so the definition is all there is to check.
    if (want === ERRORS['error:ValueError']) want = expected({ table: 'weak', op, dtypes: [d], kind: 'int' }, promotion.weak[op]![`${d},int`]!);
    expect(outcome(() => fn(op)(WEAK_VALUES[kind], one(d)), false)).toBe(want);
  });
});

describe('weak scalars, by value', () => {
  test('a float32 array times 2.5 stays float32, and 1e300 overflows to infinity in it', () => {
    const y = da.multiply(da.array([1, 2], { dtype: 'float32' }), 2.5);
    expect(y.dtype).toBe('float32');
    expect(Array.from((y.executeSync() as da.StdNdarray).data as Float32Array)).toEqual([2.5, 5]);
    expect(Array.from((da.add(one('float32'), 1e300).executeSync() as da.StdNdarray).data as Float32Array)).toEqual([Infinity]);
  });

  test('comparisons with an out-of-range integer answer by value', () => {
    const u = da.array([0, 255], { dtype: 'uint8' });
    const i = da.array([-(2 ** 31), 2 ** 31 - 1], { dtype: 'int32' });
    const bools = (y: da.DeferredArray): boolean[] => {
      const nd = y.executeSync() as da.StdNdarray;
      return [0, 1].map((k) => nd.iget(k) as boolean);
    };
    expect(bools(da.less(u, 300))).toEqual([true, true]);
    expect(bools(da.greater(u, -1))).toEqual([true, true]);
    expect(bools(da.equal(u, 256))).toEqual([false, false]);
    expect(bools(da.notEqual(-1, u))).toEqual([true, true]);
    expect(bools(da.greaterEqual(i, -(2 ** 40)))).toEqual([true, true]);
    expect(bools(da.lessEqual(2 ** 40, i))).toEqual([false, false]);
  });

  test('arithmetic with an out-of-range integer is a RangeError at definition, naming the value and dtype', () => {
    const u = one('uint8');
    expect(() => da.add(u, 300)).toThrow(RangeError);
    expect(() => da.add(u, -1)).toThrow(/-1 does not fit in uint8/);
    expect(() => da.multiply(300, u)).toThrow(RangeError);
    expect(() => da.add(one('int32'), 2 ** 40)).toThrow(/does not fit in int32/);
  });

  test('float-only ops take an out-of-range integer in their float type, by value', () => {
    const u = da.array([3, 255], { dtype: 'uint8' });
    const div = da.divide(u, 300);
    expect(div.dtype).toBe('float64');
    expect(Array.from((div.executeSync() as da.StdNdarray).data as Float64Array)).toEqual([3 / 300, 255 / 300]);
    const h = da.hypot(u, -4);
    expect(h.dtype).toBe('float32');
    expect(Array.from((h.executeSync() as da.StdNdarray).data as Float32Array)).toEqual([5, Math.fround(Math.hypot(255, 4))]);
  });

  test('a bool array meets a Python int in int32, or float64 where int32 cannot hold it', () => {
    const b = da.array([false, true]);
    const small = da.subtract(b, 3);
    expect(small.dtype).toBe('int32');
    expect(Array.from((small.executeSync() as da.StdNdarray).data as Int32Array)).toEqual([-3, -2]);
    const big = da.add(2 ** 40, b);
    expect(big.dtype).toBe('float64');
    expect(Array.from((big.executeSync() as da.StdNdarray).data as Float64Array)).toEqual([2 ** 40, 2 ** 40 + 1]);
  });
});

describe('the deviation table', () => {
  test('every row is reached by the vectors (a row nothing reaches is stale)', () => {
    expect(DEVIATIONS.map((r, i) => [r.numpy, r.why, hits[i]! > 0])).toEqual(DEVIATIONS.map((r) => [r.numpy, r.why, true]));
  });
});
