// The reference evaluator against NumPy 1.24.2 (2.4.6 for the ops merged
// later), op by op and dtype by dtype (test/vectors/elementwise.json, made by
// scripts/numpy/gen_vectors.py).
// Inputs go in through the public API and results come back as ndarrays, so
// this checks the whole path a user sees, not just scalar-math.ts.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { dtypeInfo } from '../ir/dtypes.js';
import type { DType } from '../ir/dtypes.js';
import { ELEMENTWISE_OPS } from 'kernels-wasm';
import type { ElementwiseRow, UlpBound } from 'kernels-wasm';
import { BINARY_OPS, UNARY_OPS } from '../ir/op-table.js';
import type { BinaryOp, UnaryOp } from '../ir/op-table.js';

/** NumPy output dtypes include some this package does not have. */
type NpDType = DType | 'float16' | 'int8';
type Raw = number | string;

interface UnaryEntry {
  readonly outDtype: NpDType;
  readonly exact: boolean;
  readonly in: readonly Raw[];
  readonly out: readonly Raw[];
}
interface BinaryEntry {
  readonly outDtype: NpDType;
  readonly exact: boolean;
  readonly a: readonly Raw[];
  readonly b: readonly Raw[];
  readonly out: readonly Raw[];
  readonly rejected?: { readonly a: readonly number[]; readonly b: readonly number[]; readonly error: readonly string[] };
}
interface Vectors {
  readonly exact: Readonly<Record<string, boolean>>;
  readonly unary: Readonly<Record<string, Readonly<Partial<Record<DType, UnaryEntry>>>>>;
  readonly binary: Readonly<Record<string, Readonly<Partial<Record<DType, BinaryEntry>>>>>;
}

const vectors = JSON.parse(
  readFileSync(new URL('../../test/vectors/elementwise.json', import.meta.url), 'utf8'),
) as Vectors;

// Through the function form of the public API, by the op table's names (every op of the table has one).
const pkg = da as unknown as Record<string, (...xs: da.DeferredArray[]) => da.DeferredArray>;
const UNARY = Object.fromEntries(UNARY_OPS.map((op) => [op, pkg[op]!])) as Record<UnaryOp, (x: da.DeferredArray) => da.DeferredArray>;
const BINARY = Object.fromEntries(BINARY_OPS.map((op) => [op, pkg[op]!])) as Record<BinaryOp, (a: da.DeferredArray, b: da.DeferredArray) => da.DeferredArray>;

/**
 * Output dtypes that deliberately differ from NumPy 1.24 (promotion.json is
 * checked against the full table in ir/type-rules.test.ts; these are the rows
 * elementwise ops reach). Values are then compared as numbers. The first row
 * that matches wins.
 */
const DTYPE_DEVIATIONS: ReadonlyArray<{
  readonly numpy: NpDType;
  readonly ours: (input: DType) => DType;
  readonly when: (op: string, input: DType) => boolean;
  readonly why: string;
}> = [
  {
    numpy: 'float64', ours: (d) => d, when: (op) => ['floor', 'ceil', 'trunc'].includes(op),
    why: 'rounding an integer keeps its dtype (NumPy 2.1+ and the array API; NumPy 1.24 gave float64 for int32 and uint32)',
  },
  {
    numpy: 'float32', ours: (d) => d, when: (op) => ['floor', 'ceil', 'trunc'].includes(op),
    why: 'as above (NumPy 1.24 gave float32 for int16 and uint16)',
  },
  {
    numpy: 'float16', ours: (d) => d, when: (op) => ['floor', 'ceil', 'trunc', 'round'].includes(op),
    why: 'as above (NumPy 1.24 gave float16 for int8, uint8 and bool)',
  },
  {
    numpy: 'float16', ours: () => 'float32', when: () => true,
    why: 'no float16 dtype: float32 is the smallest float we have that holds every int8/uint8/bool value',
  },
];
const dtypeHits = DTYPE_DEVIATIONS.map(() => 0);

function ourDType(op: string, input: DType, numpy: NpDType): DType {
  const i = DTYPE_DEVIATIONS.findIndex((r) => r.numpy === numpy && r.when(op, input));
  if (i < 0) return numpy as DType;
  dtypeHits[i]!++;
  return DTYPE_DEVIATIONS[i]!.ours(input);
}

interface ValueDeviation {
  readonly name: string;
  readonly why: string;
  /** Our value for the element, or undefined when this row does not apply. */
  readonly ours: (op: string, dtype: DType, a: number, b: number) => number | undefined;
}

const isZero = (x: number): boolean => x === 0;
const isNegZero = (x: number): boolean => Object.is(x, -0);

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** C's nextafterf: one step of float32's bits toward y. */
function nextafter32(x: number, y: number): number {
  if (x !== x || y !== y) return NaN;
  if (x === y) return y;
  if (x === 0) return y > 0 ? 2 ** -149 : -(2 ** -149);
  f32[0] = x;
  u32[0] = u32[0]! + ((y > x) === (x > 0) ? 1 : -1);
  return f32[0]!;
}

/** Elements where our value deliberately differs from NumPy's, with the reason. */
const VALUE_DEVIATIONS: readonly ValueDeviation[] = [
  {
    name: 'min/max of +0 and -0',
    why: 'IEEE 754-2019 maximum/minimum (WebAssembly f64.max/min): -0 < +0 whatever the order; NumPy returns one operand by position',
    ours: (op, d, a, b) => {
      if ((op !== 'maximum' && op !== 'minimum') || (d !== 'float32' && d !== 'float64')) return undefined;
      if (!isZero(a) || !isZero(b) || isNegZero(a) === isNegZero(b)) return undefined;
      return op === 'maximum' ? 0 : -0;
    },
  },
  {
    name: 'nextafter where NumPy steps in float16',
    why: 'no float16 dtype: 8-bit integer and bool operands compute in float32 (as for every float op), so the step is float32\'s',
    ours: (op, d, a, b) => (op === 'nextafter' && (d === 'int8' || d === 'uint8' || d === 'bool') ? nextafter32(a, b) : undefined),
  },
  {
    name: 'int32 reciprocal(0)',
    why: 'NumPy gives INT_MIN (C undefined behaviour); we give 0 and raise the divide flag, as for integer division by zero',
    ours: (op, d, a) => (op === 'reciprocal' && d === 'int32' && a === 0 ? 0 : undefined),
  },
];
/** Per value deviation: elements it covered, and those where NumPy's value really differs from ours. */
const deviationHits = new Map(VALUE_DEVIATIONS.map((r) => [r.name, { covered: 0, differs: 0 }]));

/**
 * Worst error allowed against NumPy, in units in the last place (ulp) of the
 * output dtype, for the ops NumPy does not promise bit for bit: the op table's
 * `ulp` (kernels-wasm src/ops/elementwise-ops.ts, where the bounds are
 * explained). Each bound is the maximum measured on the vectors (run with
 * ULP_REPORT=1 to print them), and a test below keeps it so: a looser bound
 * hides a regression, a tighter one fails.
 */
const ROWS: Readonly<Record<string, ElementwiseRow>> = ELEMENTWISE_OPS;
const ULP_BOUND: Readonly<Record<string, UlpBound>> = Object.fromEntries(
  Object.entries(ROWS).flatMap(([op, row]) => (row.ulp ? [[op, row.ulp]] : [])),
);
/**
 * float16 (NumPy's result for uint8/bool inputs) against our float32 rounded to
 * float16: both round a float32 result to float16, so they agree unless the two
 * float32 values straddle a float16 rounding boundary. Measured: 0.
 */
const FLOAT16_ULP_BOUND = 0;
/** Largest ulp error seen, per op and output dtype (what ULP_BOUND must cover). */
const measured = new Map<string, number>();

// ---------------------------------------------------------------------------
// Decoding the vectors and reading results.

const view = new DataView(new ArrayBuffer(8));

function halfToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0x1f) return frac ? NaN : sign * Infinity;
  if (exp === 0) return sign * frac * 2 ** -24;
  return sign * (1024 + frac) * 2 ** (exp - 25);
}

function decode(raw: Raw, dtype: NpDType): number {
  if (typeof raw === 'number') return raw;
  switch (dtype) {
    case 'float64':
      view.setBigUint64(0, BigInt(`0x${raw}`));
      return view.getFloat64(0);
    case 'float32':
      view.setUint32(0, parseInt(raw, 16));
      return view.getFloat32(0);
    case 'float16':
      return halfToNumber(parseInt(raw, 16));
    default:
      return Number(raw);
  }
}

const decodeAll = (raw: readonly Raw[], dtype: NpDType): number[] => raw.map((r) => decode(r, dtype));

function input(values: readonly number[], dtype: DType): da.DeferredArray {
  if (dtype === 'bool') return da.array(values.map((v) => v !== 0), { dtype: 'bool' });
  return da.wrap(new (dtypeInfo(dtype).ctor as Float64ArrayConstructor)(values));
}

/** Executes `y` and returns its dtype and values (bools as 0/1). */
function run(y: da.DeferredArray): { dtype: string; values: number[] } {
  const nd = y.executeSync() as da.StdNdarray;
  const n = nd.shape.reduce((p, d) => p * d, 1);
  const values = nd.dtype === 'bool'
    ? Array.from({ length: n }, (_, i) => Number(nd.iget(i)))
    : Array.from(nd.data as ArrayLike<number>);
  return { dtype: nd.dtype, values };
}

/** Rounds to the nearest float16 (ties to even) and returns its bit pattern. */
function toHalfBits(x: number): number {
  if (x !== x) return 0x7e00;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  const roundEven = (v: number): number => {
    const f = Math.floor(v);
    const d = v - f;
    return d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f;
  };
  if (a < 2 ** -14) return sign | roundEven(a * 2 ** 24); // subnormal; 1024 is the smallest normal
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  let m = roundEven((a / 2 ** e) * 1024) - 1024;
  if (m === 1024) {
    m = 0;
    e++;
  }
  return e + 15 >= 31 ? sign | 0x7c00 : sign | ((e + 15) << 10) | m;
}

/** Position of a float on the line of representable values; -0 sits one step below +0. */
/** x's place in the order of `dtype`'s values (adjacent values differ by 1), as a BigInt: float64's 2^63 places do not fit a double. */
function ordinal(x: number, dtype: 'float64' | 'float32' | 'float16'): bigint {
  let bits: number;
  let mag: number;
  if (dtype === 'float16') {
    bits = toHalfBits(x);
    mag = bits & 0x7fff;
    return BigInt(bits & 0x8000 ? -mag - 1 : mag);
  }
  if (dtype === 'float32') {
    view.setFloat32(0, x);
    bits = view.getUint32(0);
    mag = bits & 0x7fffffff;
    return BigInt(bits & 0x80000000 ? -mag - 1 : mag);
  }
  view.setFloat64(0, x);
  const big = view.getBigUint64(0);
  const m = big & 0x7fffffffffffffffn;
  return big >> 63n ? -m - 1n : m;
}

/** Distance in ulps of `dtype`; NaN against NaN is 0, NaN against a number is infinite. */
function ulps(ours: number, numpy: number, dtype: 'float64' | 'float32' | 'float16'): number {
  if (ours !== ours || numpy !== numpy) return ours !== ours && numpy !== numpy ? 0 : Infinity;
  if (ours === numpy && !isZero(ours)) return 0;
  const d = ordinal(ours, dtype) - ordinal(numpy, dtype);
  return Number(d < 0n ? -d : d);
}

const fmt = (x: number): string => (isNegZero(x) ? '-0' : String(x));

// ---------------------------------------------------------------------------
// The comparison.

interface Case {
  readonly op: string;
  readonly dtype: DType;
  readonly npOut: NpDType;
  readonly exact: boolean;
  readonly args: ReadonlyArray<readonly number[]>;
  readonly expected: readonly number[];
}

const FLOATS: readonly string[] = ['float64', 'float32'];

/** Returns one line per element that disagrees with NumPy (empty when all agree). */
function compare(c: Case, ours: readonly number[], ourOut: DType): string[] {
  const bad: string[] = [];
  const bound = ULP_BOUND[c.op];
  const note = (key: string, e: number): void => void measured.set(key, Math.max(measured.get(key) ?? 0, e));
  ours.forEach((got, i) => {
    const a = c.args[0]![i]!;
    const b = c.args[1]?.[i] ?? NaN;
    const where = `${c.op}(${c.args.map((x) => fmt(x[i]!)).join(', ')}) in ${c.dtype}`;
    const want = c.expected[i]!;
    const dev = VALUE_DEVIATIONS.find((r) => r.ours(c.op, c.dtype, a, b) !== undefined);
    if (dev) {
      const ourWant = dev.ours(c.op, c.dtype, a, b)!;
      const hit = deviationHits.get(dev.name)!;
      hit.covered++;
      if (!Object.is(ourWant, want)) hit.differs++;
      if (!Object.is(got, ourWant)) bad.push(`${where}: got ${fmt(got)}, want ${fmt(ourWant)} (deviation: ${dev.name})`);
    } else if (ourOut !== c.npOut && !FLOATS.includes(ourOut)) {
      // An integer or bool kept where NumPy widened: the same number.
      if (got !== want) bad.push(`${where}: got ${fmt(got)}, NumPy ${fmt(want)} (as ${c.npOut})`);
    } else if (c.npOut === 'float16') {
      const e = ulps(got, want, 'float16');
      note(`float16 ${c.op}`, e);
      if (e > FLOAT16_ULP_BOUND) bad.push(`${where}: got ${fmt(got)}, NumPy ${fmt(want)}: ${e} float16 ulp`);
    } else if (!c.exact && bound !== undefined && FLOATS.includes(ourOut)) {
      const unit = ourOut as 'float64' | 'float32';
      const e = ulps(got, want, unit);
      note(`${c.op} ${unit}`, e);
      if (e > bound[unit]) bad.push(`${where}: got ${fmt(got)}, NumPy ${fmt(want)}: ${e} ulp > ${bound[unit]}`);
    } else if (!Object.is(got, want) && !(got !== got && want !== want)) {
      // Bit for bit, but for the NaN payload and sign.
      bad.push(`${where}: got ${fmt(got)}, NumPy ${fmt(want)}`);
    }
  });
  return bad;
}

// The oracle against NumPy: the ulp bounds below are the reference
// evaluator's (V8's Math). The WebAssembly backend is held to the reference by
// test/differential.test.ts and its vector math to NumPy's validation sets.
const initialBackend = da.configure().backend;
beforeAll(() => {
  da.configure({ backend: 'reference', errors: { divide: 'ignore', invalid: 'ignore' } });
});
afterAll(() => {
  da.configure({ backend: initialBackend, errors: { divide: 'warn', invalid: 'warn' } });
  if (process.env['ULP_REPORT']) console.log(Object.fromEntries([...measured].sort()));
});

const unaryCases = Object.entries(vectors.unary).flatMap(([op, byType]) =>
  Object.entries(byType).map(([dtype, entry]) => [op as UnaryOp, dtype as DType, entry!] as const));
const binaryCases = Object.entries(vectors.binary).flatMap(([op, byType]) =>
  Object.entries(byType).map(([dtype, entry]) => [op as BinaryOp, dtype as DType, entry!] as const));

describe('unary ops against NumPy', () => {
  test('the vectors cover every unary op of the op table', () => {
    expect(Object.keys(vectors.unary).sort()).toEqual(Object.keys(UNARY).sort());
  });

  test.each(unaryCases.map(([op, d, e]) => [`${op} ${d}`, op, d, e] as const))('%s', (_, op, dtype, entry) => {
    const x = decodeAll(entry.in, dtype);
    const want = ourDType(op, dtype, entry.outDtype);
    const y = UNARY[op](input(x, dtype));
    expect(y.dtype).toBe(want);
    const { dtype: got, values } = run(y);
    expect(got).toBe(want);
    const c: Case = { op, dtype, npOut: entry.outDtype, exact: entry.exact, args: [x], expected: decodeAll(entry.out, entry.outDtype) };
    expect(compare(c, values, want)).toEqual([]);
  });
});

describe('binary ops against NumPy', () => {
  test('the vectors cover every binary op of the op table', () => {
    expect(Object.keys(vectors.binary).sort()).toEqual(Object.keys(BINARY).sort());
  });

  test.each(binaryCases.map(([op, d, e]) => [`${op} ${d}`, op, d, e] as const))('%s', (_, op, dtype, entry) => {
    const a = decodeAll(entry.a, dtype);
    const b = decodeAll(entry.b, dtype);
    const want = ourDType(op, dtype, entry.outDtype);
    const y = BINARY[op](input(a, dtype), input(b, dtype));
    expect(y.dtype).toBe(want);
    const { dtype: got, values } = run(y);
    expect(got).toBe(want);
    const c: Case = { op, dtype, npOut: entry.outDtype, exact: entry.exact, args: [a, b], expected: decodeAll(entry.out, entry.outDtype) };
    expect(compare(c, values, want)).toEqual([]);
  });

  test('int32 power with a negative exponent fails at execute() with ExecutionError, pair by pair', () => {
    const rejected = vectors.binary['power']!['int32']!.rejected!;
    expect(rejected.error).toEqual(['error:ValueError']);
    expect(rejected.a.length).toBeGreaterThan(0);
    rejected.a.forEach((a, i) => {
      const y = da.power(input([a], 'int32'), input([rejected.b[i]!], 'int32'));
      expect(y.dtype).toBe('int32'); // value-dependent, so only execute() can know
      expect(() => y.executeSync()).toThrow(da.ExecutionError);
    });
  });
});

describe('deliberate deviations', () => {
  test('int32 reciprocal(0) raises the divide flag', () => {
    da.configure({ errors: { divide: 'raise' } });
    try {
      expect(() => da.reciprocal(input([0], 'int32')).executeSync()).toThrow(da.ExecutionError);
      expect(run(da.reciprocal(input([1, -1], 'int32'))).values).toEqual([1, -1]);
    } finally {
      da.configure({ errors: { divide: 'ignore' } });
    }
  });

  test('every deviation row is reached, and NumPy really differs there (a row that is not is stale)', () => {
    expect(DTYPE_DEVIATIONS.map((r, i) => [r.why, dtypeHits[i]! > 0])).toEqual(DTYPE_DEVIATIONS.map((r) => [r.why, true]));
    for (const [name, { covered, differs }] of deviationHits) expect([name, covered > 0, differs > 0]).toEqual([name, true, true]);
  });

  test("the vectors' exact flags are the op table's (scripts/numpy/gen_vectors.py reads them from it)", () => {
    expect(vectors.exact).toEqual(Object.fromEntries(Object.keys(vectors.exact).map((op) => [op, ROWS[op]?.exact])));
  });

  test('each ulp bound is the measured maximum, and only ops NumPy does not promise bit for bit have one', () => {
    const inexact = Object.entries(vectors.exact).filter(([, e]) => !e).map(([op]) => op).sort();
    expect(Object.keys(ULP_BOUND).sort()).toEqual(inexact);
    const bounds = Object.entries(ULP_BOUND).flatMap(([op, b]) => [[`${op} float64`, b.float64], [`${op} float32`, b.float32]]);
    expect(bounds.map(([key]) => [key, measured.get(key as string)])).toEqual(bounds);
    const half = [...measured].filter(([key]) => key.startsWith('float16 '));
    expect(half.length).toBeGreaterThan(0);
    expect(Math.max(...half.map(([, e]) => e))).toBe(FLOAT16_ULP_BOUND);
  });
});
