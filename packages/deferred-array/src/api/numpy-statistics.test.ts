// NumPy's statistics (std, var, ptp, countNonzero, average, the nan-forms,
// isclose, allclose) against NumPy 1.24.2 (test/vectors/statistics.json, from
// scripts/numpy/gen_vectors.py): values, shapes and dtypes, special values,
// empty and 0-d arrays, axes and keepdims, on both backends. The reference
// builds each as NumPy's Python does and sums in NumPy's order, so it must
// agree to the bit; the WebAssembly backend sums in blocks and is held within
// a few ulps of NumPy. Then issue 21's two programs: standardising columns
// and a softmax.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { decodeValue } from '../../test/numpy-values.js';
import type { Raw } from '../../test/numpy-values.js';
import type { DType } from '../ir/dtypes.js';

type NpDType = DType | 'int64' | 'uint64';
type StatName = 'var' | 'std' | 'ptp' | 'countNonzero' | 'average' | 'nansum' | 'nanmean' | 'nanmin' | 'nanmax' | 'nanvar' | 'nanstd';

interface Case {
  readonly label: string;
  readonly inDtype: DType;
  readonly inShape: readonly number[];
  readonly in: readonly Raw[];
  readonly options: { axis?: number | number[] | null; keepdims?: boolean; ddof?: number };
  readonly weights?: { dtype: DType; shape: number[]; values: Raw[] };
  readonly outDtype?: NpDType;
  readonly outShape?: readonly number[];
  readonly out?: readonly Raw[];
  readonly error?: string;
}

interface CloseCase {
  readonly dtype: DType;
  readonly a: readonly Raw[];
  readonly b: readonly Raw[];
  readonly options: da.IscloseOptions;
  readonly out: readonly number[];
  readonly all: boolean;
}

interface Program { readonly shape: [number, number]; readonly every: number; readonly out: readonly string[] }

const vectors = JSON.parse(readFileSync(new URL('../../test/vectors/statistics.json', import.meta.url), 'utf8')) as {
  cases: Record<StatName, readonly Case[]>;
  isclose: readonly CloseCase[];
  programs: { standardise: Program; softmax: Program };
};

const FUNCS: Record<StatName, (x: da.DeferredArray, o: Record<string, unknown>) => da.DeferredArray> = {
  var: da.var, std: da.std, ptp: da.ptp, countNonzero: da.countNonzero, average: da.average,
  nansum: da.nansum, nanmean: da.nanmean, nanmin: da.nanmin, nanmax: da.nanmax, nanvar: da.nanvar, nanstd: da.nanstd,
};

/** Where NumPy raises, what we throw (at definition). */
const ERRORS: Readonly<Record<string, string>> = {
  'error:ValueError': 'ShapeError', // ptp, nanmin, nanmax of an empty axis: no identity
  'error:TypeError': 'DTypeError', // ptp of bool: no bool subtract
};

/**
 * NumPy's average without weights over an axis that leaves no elements
 * computes an unused scale a.size / avg.size = 0 / 0 and raises
 * ZeroDivisionError; ours is the mean, an empty array, as np.mean gives.
 */
const EMPTY_AVERAGE = 'error:ZeroDivisionError';

/**
 * No int64 here: countNonzero counts in int32, as argmin's indices are, and
 * nansum of integers is carried in float64 as sum's is (exact below 2^53).
 */
const ourDType = (name: StatName, d: NpDType): DType =>
  (d === 'int64' || d === 'uint64' ? (name === 'countNonzero' ? 'int32' : 'float64') : d);

/**
 * The WebAssembly kernels carry float32 sums in float64 (reduce-ops.ts), so a
 * float32 sum that overflows in NumPy does not in them: the mean of [max, max]
 * is max, its variance 0. Our values for the cases where that happens.
 */
function wideSum(name: StatName, c: Case): number | undefined {
  if (c.label !== 'overflow' || c.inDtype !== 'float32') return undefined;
  // Two elements: n - ddof <= 0 divides a zero sum of squares by zero.
  if (name === 'var' || name === 'std') return (c.options.ddof ?? 0) >= 2 ? NaN : 0;
  // With weights the products overflow elementwise, in float32, as NumPy's do.
  if (name === 'average' && !c.weights) return 3.4028234663852886e38;
  return undefined;
}

const decode = (raw: Raw, dtype: NpDType): number => decodeValue(raw, dtype);

function arrayOf(values: readonly number[], dtype: DType, shape: readonly number[]): da.DeferredArray {
  const flat = dtype === 'bool' ? da.array(values.map((v) => v !== 0), { dtype: 'bool' }) : da.array(values as number[], { dtype });
  return shape.length === 1 ? flat : flat.reshape(shape);
}

const inputOf = (c: Case): da.DeferredArray => arrayOf(c.in.map((r) => decode(r, c.inDtype)), c.inDtype, c.inShape);

function valuesOf(y: da.DeferredArray): number[] {
  const nd = y.executeSync() as da.StdNdarray;
  const n = nd.shape.reduce((p, d) => p * d, 1);
  return Array.from({ length: n }, (_, i) => Number(nd.iget(i)));
}

/** Distance in units in the last place of `dtype` (0 for equal values and for two NaNs). */
function ulps(a: number, b: number, dtype: string): number {
  if (Object.is(a, b) || (a !== a && b !== b)) return 0;
  if (a !== a || b !== b || !Number.isFinite(a) || !Number.isFinite(b)) return Infinity;
  if (dtype === 'float32') {
    const ia = new Int32Array(Float32Array.of(a).buffer)[0]!;
    const ib = new Int32Array(Float32Array.of(b).buffer)[0]!;
    const key = (i: number): number => (i < 0 ? -(i & 0x7fffffff) : i);
    return Math.abs(key(ia) - key(ib));
  }
  if (dtype !== 'float64') return a === b ? 0 : Infinity;
  const bits = (x: number): bigint => {
    const i = new BigInt64Array(Float64Array.of(x).buffer)[0]!;
    return i < 0n ? -(i & 0x7fffffffffffffffn) : i;
  };
  const d = bits(a) - bits(b);
  return Number(d < 0n ? -d : d);
}

/** Ulps allowed per backend: the reference composes as NumPy does; the kernels sum in other orders, float32 in float64 (up to 5 ulps from NumPy where a float32 sum cancels). */
const ULPS = { reference: 0, wasm: 8 } as const;

function check(name: StatName, c: Case, backend: keyof typeof ULPS): void {
  const x = inputOf(c);
  const options: Record<string, unknown> = { ...c.options };
  if (c.weights) options['weights'] = arrayOf(c.weights.values.map((r) => decode(r, c.weights!.dtype)), c.weights.dtype, c.weights.shape);
  if (c.error === EMPTY_AVERAGE) {
    const y = FUNCS[name](x, options);
    const m = da.mean(x, c.options);
    expect([y.dtype, y.shape, valuesOf(y)]).toEqual([m.dtype, m.shape, []]);
    return;
  }
  if (c.error !== undefined) {
    expect(() => FUNCS[name](x, options)).toThrow(expect.objectContaining({ name: ERRORS[c.error] }) as unknown as Error);
    return;
  }
  const want = ourDType(name, c.outDtype!);
  const y = FUNCS[name](x, options);
  expect([y.dtype, y.shape]).toEqual([want, c.outShape]);
  const got = valuesOf(y);
  const bad = got.flatMap((v, i) => {
    const wide = backend === 'wasm' ? wideSum(name, c) : undefined;
    const w = wide ?? decode(c.out![i]!, c.outDtype!);
    const d = ulps(v, w, want);
    return d <= ULPS[backend] ? [] : [`[${i}] got ${v}, NumPy ${w} (${d} ulps)`];
  });
  expect(bad).toEqual([]);
}

type Row = readonly [string, StatName, Case];
const rows: Row[] = (Object.entries(vectors.cases) as Array<[StatName, readonly Case[]]>).flatMap(([name, list]) =>
  list.map((c): Row => [
    `${name} ${c.label} ${c.inDtype}[${c.inShape.join('x')}] ${JSON.stringify(c.options)}${c.weights ? ` weights ${c.weights.dtype}[${c.weights.shape.join('x')}]` : ''}`,
    name, c,
  ]));

const initialBackend = da.configure().backend;
afterAll(() => { da.configure({ backend: initialBackend }); });

describe.each(['reference', 'wasm'] as const)('statistics against NumPy, %s backend', (backend) => {
  test.each(rows)('%s', (_, name, c) => {
    da.configure({ backend });
    check(name, c, backend);
  });

  test.each(vectors.isclose.map((c) => [`${c.dtype} ${JSON.stringify(c.options)}`, c] as const))('isclose %s', (_, c) => {
    da.configure({ backend });
    const a = arrayOf(c.a.map((r) => decode(r, c.dtype)), c.dtype, [c.a.length]);
    const b = arrayOf(c.b.map((r) => decode(r, c.dtype)), c.dtype, [c.b.length]);
    expect(valuesOf(da.isclose(a, b, c.options))).toEqual([...c.out]);
    expect(valuesOf(da.allclose(a, b, c.options))).toEqual([Number(c.all)]);
  });
});

describe("issue 21's programs match NumPy", () => {
  const matrix = (shape: [number, number], f: (i: number, j: number) => number): da.DeferredArray => {
    const data = new Float64Array(shape[0] * shape[1]);
    for (let i = 0; i < shape[0]; i++) for (let j = 0; j < shape[1]; j++) data[i * shape[1] + j] = f(i, j);
    return da.wrap(data).reshape(shape);
  };
  const sampled = (y: da.DeferredArray, p: Program): { got: number[]; want: number[] } => {
    const all = valuesOf(y);
    return { got: all.filter((_, k) => k % p.every === 0), want: p.out.map((r) => decode(r, 'float64')) };
  };

  test.each(['reference', 'wasm'] as const)('standardising the columns of a 1000 x 50 matrix (%s)', (backend) => {
    da.configure({ backend });
    const p = vectors.programs.standardise;
    const x = matrix(p.shape, (i, j) => ((i * 37 + j * 101) % 997) * 0.25 - 100 + j * 3);
    const z = x.sub(x.mean({ axis: 0 })).div(x.std({ axis: 0 }));
    const { got, want } = sampled(z, p);
    expect(got.length).toBe(want.length);
    expect(Math.max(...got.map((v, k) => ulps(v, want[k]!, 'float64')))).toBeLessThanOrEqual(ULPS[backend]);
  });

  test.each(['reference', 'wasm'] as const)('a softmax over the last axis of a 100 x 1000 matrix (%s)', (backend) => {
    da.configure({ backend });
    const p = vectors.programs.softmax;
    const x = matrix(p.shape, (i, j) => ((i * 13 + j * 29) % 211) / 16 - 6);
    const e = da.exp(x.sub(x.max({ axis: -1, keepdims: true })));
    const soft = e.div(e.sum({ axis: -1, keepdims: true }));
    const { got, want } = sampled(soft, p);
    // exp is within 1 ulp of NumPy's (a different libm); the sums add those up.
    expect(Math.max(...got.map((v, k) => ulps(v, want[k]!, 'float64')))).toBeLessThanOrEqual(16);
  });
});

describe('statistics options', () => {
  test('bad options name what was wrong', () => {
    const x = da.arange(6).reshape([2, 3]);
    expect(() => da.std(x, { ddof: 0.5 })).toThrow(/ddof must be an integer/);
    expect(() => da.var(x, { axis: 0, dof: 1 } as never)).toThrow(/unknown option 'dof'/);
    expect(() => da.average(x, { weights: [1, 2, 3] })).toThrow(/give the axis/);
    expect(() => da.average(x, { axis: 1, weights: [1, 2] })).toThrow(/2 weights for axis 1 of length 3/);
    expect(() => da.isclose(x, x, { rtol: '1' } as never)).toThrow(/rtol must be a number/);
    // Counts and positions past int32 are refused when built (a broadcast of 2^32 elements allocates nothing).
    const huge = da.broadcastTo(da.array([1]), [65536, 65536]);
    expect(() => da.countNonzero(huge)).toThrow(/count over 4294967296 elements may not fit in int32.*da\.sum\(da\.notEqual\(x, 0\)\)/);
    expect(da.countNonzero(huge, { axis: 0 }).shape).toEqual([65536]);
    expect(() => da.argmax(huge)).toThrow(/argmax: an array of more than 2\^31-1 elements has positions past int32.*over an axis/);
  });

  test('methods and functions agree, and var fuses its elementwise part into the reductions', () => {
    const x = da.arange(12).reshape([3, 4]).astype('float64');
    expect(valuesOf(x.var({ axis: 1, ddof: 1 }))).toEqual(valuesOf(da.var(x, { axis: 1, ddof: 1 })));
    expect(valuesOf(x.std())).toEqual(valuesOf(da.std(x)));
    expect(valuesOf(x.ptp({ axis: 0 }))).toEqual([8, 8, 8, 8]);
    // The mean, then (x - mean)^2 summed in a kernel that writes no array.
    expect(x.var({ axis: 0 }).explain()).toMatch(/kernel \d over \(3, 4\): subtract, square, sum; reads %\d+, %\d+; writes nothing/);
  });

  test('a compiled function with var traces again at new sizes (its divisor is a length)', async () => {
    const n = da.size('n');
    const f = da.compile((x) => x.var({ ddof: 1 }), [da.placeholder([n], 'float64')]);
    const a = (await f(new Float64Array([1, 2, 3, 4]))) as da.StdNdarray;
    const b = (await f(new Float64Array([1, 2, 3, 4, 5, 6]))) as da.StdNdarray;
    expect([a.get(), b.get()]).toEqual([5 / 3, 3.5]);
  });
});
