// Reductions against NumPy 1.24.2 (test/vectors/reductions.json): values,
// shapes and dtypes of every case, through the public API (da.sum(x, { axis,
// keepdims }) and friends), and NumPy's errors as ours at definition time.
// Every value must match bit for bit (NaN payloads aside), float sums and
// means over any axes included: reduce.ts sums the pieces NumPy's iterator
// hands its inner loop, pairwise within each piece, in NumPy's order. The
// deliberate differences are listed in DTYPE_DEVIATIONS and VALUE_DEVIATIONS.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { dtypeInfo } from '../ir/dtypes.js';
import type { DType } from '../ir/dtypes.js';
import { decodeValue } from '../../test/numpy-values.js';
import type { Raw } from '../../test/numpy-values.js';
import { REDUCE_OPS } from '../ir/op-table.js';

type NpDType = DType | 'int64' | 'uint64';
type ReduceName = 'sum' | 'prod' | 'min' | 'max' | 'mean' | 'any' | 'all' | 'argmin' | 'argmax';

interface Case {
  readonly label: string;
  readonly inDtype: DType;
  readonly inShape: readonly number[];
  readonly in: readonly Raw[];
  readonly axis: number | number[] | null;
  readonly keepdims: boolean;
  readonly outDtype?: NpDType;
  readonly outShape?: readonly number[];
  readonly out?: readonly Raw[];
  readonly error?: string;
}

const { cases } = JSON.parse(
  readFileSync(new URL('../../test/vectors/reductions.json', import.meta.url), 'utf8'),
) as { cases: Readonly<Record<ReduceName, readonly Case[]>> };

const REDUCE: Record<ReduceName, (x: da.DeferredArray, options: da.ReduceOptions) => da.DeferredArray> = {
  sum: da.sum, prod: da.prod, min: da.min, max: da.max, mean: da.mean,
  any: da.any, all: da.all, argmin: da.argmin, argmax: da.argmax,
};

/**
 * Result dtypes that deliberately differ from NumPy's: the reduction rows of
 * the deviation table in ir/type-rules.test.ts.
 */
const DTYPE_DEVIATIONS: ReadonlyArray<{ readonly numpy: NpDType; readonly ours: DType; readonly ops: readonly ReduceName[]; readonly why: string }> = [
  { numpy: 'int64', ours: 'float64', ops: ['sum', 'prod'], why: 'int64 only where an operand is int64: integer sums and products are carried in float64 (exact below 2^53)' },
  { numpy: 'uint64', ours: 'float64', ops: ['sum', 'prod'], why: 'as above, for the unsigned types' },
  { numpy: 'int64', ours: 'int32', ops: ['argmin', 'argmax'], why: 'indices are int32: a wasm32 heap holds fewer than 2^31 elements' },
];

function ourDType(op: ReduceName, numpy: NpDType): DType {
  return DTYPE_DEVIATIONS.find((r) => r.numpy === numpy && r.ops.includes(op))?.ours ?? (numpy as DType);
}

/**
 * NumPy's errors, raised by us when the graph is built: an empty reduction
 * with no identity is a shape problem (ValueError there), and argmin/argmax
 * over a list of axes is not a valid call (TypeError in both).
 */
const ERRORS: Readonly<Record<string, string>> = {
  'error:ValueError': 'ShapeError',
  'error:TypeError': 'TypeError',
};

interface ValueDeviation {
  readonly name: string;
  readonly why: string;
  /** Our value for an output element reducing `run`, where NumPy gives `numpy`; undefined where the row does not apply. */
  readonly ours: (op: ReduceName, c: Case, run: readonly number[], numpy: number) => number | undefined;
  /** Relative error allowed around `ours`; bit for bit when absent. */
  readonly relative?: (run: readonly number[]) => number;
}

const isFloat = (d: string): boolean => d === 'float32' || d === 'float64';

/** Elements where our value deliberately differs from NumPy's, with the reason. */
const VALUE_DEVIATIONS: readonly ValueDeviation[] = [
  {
    name: 'min/max over +0 and -0',
    why: 'IEEE 754-2019 maximum/minimum, as for the elementwise ops: -0 < +0; NumPy keeps whichever its SIMD loop meets',
    ours: (op, c, run, numpy) => {
      if ((op !== 'max' && op !== 'min') || !isFloat(c.inDtype) || numpy !== 0) return undefined;
      if (!run.some((x) => Object.is(x, 0)) || !run.some((x) => Object.is(x, -0))) return undefined;
      return op === 'max' ? 0 : -0;
    },
  },
  {
    name: 'integer sum/prod beyond 2^53',
    why: "int64 only where an operand is int64: NumPy's int64 is exact to 2^63 and then wraps; our float64 is the exact value, rounded once per step",
    ours: (op, c, run, numpy) =>
      (op === 'sum' || op === 'prod') && !isFloat(c.inDtype) && Math.abs(numpy) > 2 ** 53 ? exactInteger(op, run) : undefined,
    relative: (run) => (run.length - 1) * 2 ** -53,
  },
];
/** Per value deviation: elements it covered, and those where NumPy's value really differs from ours. */
const deviationHits = new Map(VALUE_DEVIATIONS.map((r) => [r.name, { covered: 0, differs: 0 }]));

function input(c: Case): da.DeferredArray {
  const d = c.inDtype as DType;
  const values = c.in.map((r) => decodeValue(r, d));
  const flat = d === 'bool' ? da.array(values.map((v) => v !== 0), { dtype: 'bool' }) : da.wrap(new (dtypeInfo(d).ctor as Float64ArrayConstructor)(values));
  return c.inShape.length === 1 ? flat : flat.reshape(c.inShape);
}

function run(y: da.DeferredArray): { dtype: string; shape: number[]; values: number[] } {
  const nd = y.executeSync() as da.StdNdarray;
  const n = nd.shape.reduce((p, d) => p * d, 1);
  const values = nd.dtype === 'bool'
    ? Array.from({ length: n }, (_, i) => Number(nd.iget(i)))
    : Array.from(nd.data as ArrayLike<number>);
  return { dtype: nd.dtype, shape: [...nd.shape], values };
}

const axesOf = (c: Case): number[] => {
  const nd = c.inShape.length;
  if (c.axis === null) return c.inShape.map((_, i) => i);
  return (Array.isArray(c.axis) ? c.axis : [c.axis]).map((a) => (a < 0 ? a + nd : a));
};

/** The input values each output element reduces, in row-major order of the reduced axes. */
function runsOf(c: Case): number[][] {
  const axes = axesOf(c);
  const shape = c.inShape;
  const kept = shape.map((_, i) => i).filter((i) => !axes.includes(i));
  const runs = Array.from({ length: kept.reduce((p, k) => p * shape[k]!, 1) }, (): number[] => []);
  c.in.forEach((r, flat) => {
    let rest = flat;
    const idx: number[] = [];
    for (let k = shape.length - 1; k >= 0; k--) {
      idx[k] = rest % shape[k]!;
      rest = Math.floor(rest / shape[k]!);
    }
    runs[kept.reduce((o, k) => o * shape[k]! + idx[k]!, 0)]!.push(decodeValue(r, c.inDtype));
  });
  return runs;
}

/** The exact integer result of a sum or product, rounded to float64 once. */
function exactInteger(op: ReduceName, run: readonly number[]): number {
  const xs = run.map((x) => BigInt(x));
  return Number(op === 'sum' ? xs.reduce((s, x) => s + x, 0n) : xs.reduce((p, x) => p * x, 1n));
}

const fmt = (x: number): string => (Object.is(x, -0) ? '-0' : String(x));

/** One line per output element that disagrees with NumPy (empty when all agree). */
function compare(op: ReduceName, c: Case, got: readonly number[]): string[] {
  const runs = runsOf(c);
  const bad: string[] = [];
  got.forEach((v, o) => {
    const w = decodeValue(c.out![o]!, c.outDtype!);
    const run = runs[o]!;
    const at = `[${o}]: got ${fmt(v)}, NumPy ${fmt(w)}`;
    const dev = VALUE_DEVIATIONS.find((r) => r.ours(op, c, run, w) !== undefined);
    if (dev) {
      const ours = dev.ours(op, c, run, w)!;
      const hit = deviationHits.get(dev.name)!;
      hit.covered++;
      if (!Object.is(ours, w)) hit.differs++;
      const tol = dev.relative ? Math.abs(ours) * dev.relative(run) : 0;
      if (!(Object.is(v, ours) || Math.abs(v - ours) <= tol)) bad.push(`${at}, want ${fmt(ours)} (deviation: ${dev.name})`);
    } else if (!Object.is(v, w) && !(v !== v && w !== w)) {
      // Bit for bit, but for the NaN payload and sign.
      bad.push(at);
    }
  });
  return bad;
}

type Row = readonly [string, ReduceName, Case];
const rows: Row[] = (Object.entries(cases) as Array<[ReduceName, readonly Case[]]>).flatMap(([op, list]) =>
  list.map((c): Row => [`${op} ${c.label} ${c.inDtype}[${c.inShape.join('x')}] axis=${JSON.stringify(c.axis)}${c.keepdims ? ' keepdims' : ''}`, op, c]));

function check(op: ReduceName, c: Case): void {
  const x = input(c);
  const options: da.ReduceOptions = { axis: c.axis, keepdims: c.keepdims };
  if (c.error !== undefined) {
    // At definition: no execute() needed to find out.
    let thrown: unknown;
    try {
      REDUCE[op](x, options);
    } catch (e) {
      thrown = e;
    }
    expect((thrown as Error | undefined)?.name).toBe(ERRORS[c.error]);
    return;
  }
  const want = ourDType(op, c.outDtype!);
  const y = REDUCE[op](x, options);
  expect([y.dtype, y.shape]).toEqual([want, c.outShape]);
  const got = run(y);
  expect([got.dtype, got.shape]).toEqual([want, c.outShape]);
  expect(compare(op, c, got.values)).toEqual([]);
}


// The oracle against NumPy, bit for bit (its pairwise sums follow NumPy's
// order). The WebAssembly backend sums in another order; it is held to the
// reference within a tolerance by test/differential.test.ts.
const initialBackend = da.configure().backend;
beforeAll(() => { da.configure({ backend: 'reference' }); });
afterAll(() => { da.configure({ backend: initialBackend }); });

describe('reductions against NumPy', () => {
  test('the vectors cover every reduction of the op table', () => {
    expect(Object.keys(cases).sort()).toEqual([...REDUCE_OPS].sort());
  });

  test.each(rows)('%s', (_, op, c) => check(op, c));

  test('every deviation row is reached, and NumPy really differs there (a row that is not is stale)', () => {
    for (const [name, { covered, differs }] of deviationHits) expect([name, covered > 0, differs > 0]).toEqual([name, true, true]);
  });
});
