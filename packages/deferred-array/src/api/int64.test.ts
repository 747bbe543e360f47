// int64 and uint64: BigInt64Array and BigUint64Array in and out, NumPy's
// promotion, wrapping arithmetic and reductions, against NumPy 2 vectors
// (test/vectors/int64.json, made by scripts/numpy/gen_int64.py), on both
// backends and with 1 and 2 workers.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { promoteTypes } from '../ir/promotion.js';
import type { DType } from '../ir/dtypes.js';

type Raw = string | number;
interface BinaryCase { readonly a: readonly Raw[]; readonly b: readonly Raw[]; readonly out: readonly Raw[]; readonly outDtype: string }
interface UnaryCase { readonly in: readonly Raw[]; readonly out: readonly Raw[]; readonly outDtype: string }
interface Vectors {
  readonly promotion: Readonly<Record<string, string>>;
  readonly binary: Readonly<Record<string, Readonly<Record<string, BinaryCase>>>>;
  readonly unary: Readonly<Record<string, Readonly<Record<string, UnaryCase>>>>;
  readonly reductions: Readonly<Record<string, Readonly<Record<string, UnaryCase>>>>;
  readonly casts: Readonly<Record<string, { readonly in: readonly Raw[]; readonly out: readonly Raw[] }>>;
}

const vectors = JSON.parse(readFileSync(new URL('../../test/vectors/int64.json', import.meta.url), 'utf8')) as Vectors;

/** Floats decoded from the hex of their bits, integers from decimal strings. */
function decode(r: Raw, dtype: string): number | bigint {
  if (dtype === 'float64') return new Float64Array(new BigUint64Array([BigInt(`0x${r}`)]).buffer)[0]!;
  if (dtype === 'float32') return new Float32Array(new Uint32Array([Number(`0x${r}`)]).buffer)[0]!;
  if (dtype === 'bool') return Number(r);
  if (dtype === 'int64' || dtype === 'uint64') return BigInt(r);
  return Number(r);
}

function input(values: readonly Raw[], dtype: string): da.DeferredArray {
  if (dtype === 'int64') return da.wrap(BigInt64Array.from(values, (v) => BigInt(v)));
  if (dtype === 'uint64') return da.wrap(BigUint64Array.from(values, (v) => BigInt(v)));
  if (dtype === 'float64') return da.wrap(Float64Array.from(values, (v) => decode(v, dtype) as number));
  const ctors: Record<string, new (v: number[]) => Int32Array | Uint32Array | Int8Array> = { int32: Int32Array, uint32: Uint32Array, int8: Int8Array };
  return da.wrap(new ctors[dtype]!(values.map((v) => Number(v))));
}

/** An ndarray's values as JS values (bools as 0/1), NaN as the string 'NaN' so that toEqual compares it. */
function valuesOf(r: unknown, n: number): unknown[] {
  // A bool ndarray keeps its values in a BooleanArray, read with get().
  const data = (r as da.StdNdarray).data as { get?: (i: number) => unknown } & ArrayLike<unknown>;
  return Array.from({ length: n }, (_, i) => {
    const v = typeof data.get === 'function' ? data.get(i) : data[i];
    return typeof v === 'boolean' ? Number(v) : typeof v === 'number' && v !== v ? 'NaN' : v;
  });
}

const expected = (out: readonly Raw[], dtype: string): unknown[] =>
  out.map((r) => { const v = decode(r, dtype); return typeof v === 'number' && v !== v ? 'NaN' : v; });

/** numpy's dtype name as ours: the ndarray of an int64 result says 'generic' (stdlib has no int64). */
const ourDType = (x: da.DeferredArray): string => x.dtype;

const pkg = da as unknown as Record<string, (...xs: da.DeferredArray[]) => da.DeferredArray>;

describe.each([
  ['wasm, 1 worker', { backend: 'wasm', threads: 1 }],
  ['wasm, 2 workers', { backend: 'wasm', threads: 2 }],
  ['reference', { backend: 'reference' }],
] as const)('int64 and uint64 (%s)', (_, config) => {
  const before = da.configure();
  afterAll(() => { da.configure({ backend: before.backend, threads: before.threads }); });

  test('the example: a BigInt64Array plus 1 gives a BigInt64Array, exact past 2^53', async () => {
    da.configure(config);
    const y = da.wrap(BigInt64Array.from([1n, 2n, 9007199254740993n])).add(1);
    expect(y.dtype).toBe('int64');
    const r = await y.execute();
    expect(r.data).toBeInstanceOf(BigInt64Array);
    expect(Array.from(r.data as BigInt64Array)).toEqual([2n, 3n, 9007199254740994n]);
    const out = new BigInt64Array(3);
    await y.execute({ out });
    expect(out[2]).toBe(9007199254740994n);
    expect(Array.from(y.executeSync().data as BigInt64Array)).toEqual([2n, 3n, 9007199254740994n]);
  });

  test.each(Object.entries(vectors.binary).flatMap(([op, byType]) => Object.entries(byType).map(([t, c]) => [op, t, c] as const)))(
    'binary %s over %s matches NumPy', async (op, t, c) => {
      da.configure(config);
      const y = pkg[op]!(input(c.a, t), input(c.b, t));
      expect(ourDType(y)).toBe(c.outDtype);
      expect(valuesOf(await y.execute(), c.a.length)).toEqual(expected(c.out, c.outDtype));
    },
  );

  test.each(Object.entries(vectors.unary).flatMap(([op, byType]) => Object.entries(byType).map(([t, c]) => [op, t, c] as const)))(
    'unary %s over %s matches NumPy', async (op, t, c) => {
      da.configure(config);
      const y = pkg[op]!(input(c.in, t));
      expect(ourDType(y)).toBe(c.outDtype);
      expect(valuesOf(await y.execute(), c.in.length)).toEqual(expected(c.out, c.outDtype));
    },
  );

  test.each(Object.entries(vectors.reductions).flatMap(([op, byType]) => Object.entries(byType).map(([t, c]) => [op, t, c] as const)))(
    'reduction %s over %s matches NumPy', async (op, t, c) => {
      da.configure(config);
      const y = pkg[op]!(input(c.in, t));
      // NumPy's argmin/argmax give intp (int64); ours give int32 (indices below 2^31).
      expect(ourDType(y)).toBe(c.outDtype === 'int64' && op.startsWith('arg') ? 'int32' : c.outDtype);
      expect(valuesOf(await y.execute(), c.out.length)).toEqual(expected(c.out, c.outDtype).map((v) => (op.startsWith('arg') ? Number(v) : v)));
    },
  );

  test.each(Object.entries(vectors.casts))('astype %s matches NumPy', async (pair, c) => {
    da.configure(config);
    const [from, to] = pair.split('->') as [string, DType];
    const r = await input(c.in, from).astype(to).execute();
    expect(valuesOf(r, c.in.length)).toEqual(expected(c.out, to));
  });

  test('mixed kernels: an int64 step between fused float steps, views, joins and gathers', async () => {
    da.configure(config);
    const x = da.wrap(Float64Array.of(1.5, -2.5, 3.5, 1e10));
    const big = x.mul(2).astype('int64').add(2n ** 40n);
    const back = big.astype('float64').sub(2 ** 40).mul(0.5);
    expect(Array.from((await back.execute()).data as Float64Array)).toEqual([1.5, -2.5, 3.5, 1e10]);
    const joined = da.concat([big.get('::2'), da.wrap(Int32Array.of(-1))]);
    expect(joined.dtype).toBe('int64');
    expect(Array.from((await joined.execute()).data as BigInt64Array)).toEqual([2n ** 40n + 3n, 2n ** 40n + 7n, -1n]);
    const taken = da.take(big, da.wrap(BigInt64Array.of(3n, 0n)));
    expect(Array.from((await taken.execute()).data as BigInt64Array)).toEqual([2n ** 40n + 20000000000n, 2n ** 40n + 3n]);
    const m = da.matmul(big.reshape([2, 2]), da.wrap(BigInt64Array.of(1n, 0n, 0n, 1n)).reshape([2, 2]));
    expect(Array.from((await m.execute()).data as BigInt64Array)).toEqual(Array.from((await big.execute()).data as BigInt64Array));
  });
});

describe('int64 and uint64 values', () => {
  test("promotion follows NumPy's table (uint32 with a signed integer below 64 bits aside)", () => {
    for (const [pair, numpy] of Object.entries(vectors.promotion)) {
      const [a, b] = pair.split(',') as [DType, DType];
      expect([pair, promoteTypes(a, b), promoteTypes(b, a)]).toEqual([pair, numpy, numpy]);
    }
  });

  test('constants: bigints and integral numbers are weak int64 scalars; a value past the type is refused', () => {
    const x = da.wrap(BigInt64Array.of(1n));
    expect(x.add(2n ** 62n).dtype).toBe('int64');
    expect(x.add(3).dtype).toBe('int64');
    expect(x.add(0.5).dtype).toBe('float64');
    expect(da.wrap(Int32Array.of(1)).add(5n).dtype).toBe('int32');
    expect(() => x.add(2n ** 63n)).toThrow(/does not fit in int64/);
    expect(() => da.wrap(BigUint64Array.of(1n)).add(-1n)).toThrow(/does not fit in uint64/);
    expect(da.array([1n, 2n]).dtype).toBe('int64');
    expect(da.array([1n, 2.5]).dtype).toBe('float64');
    expect(da.full([2], 2n ** 62n).dtype).toBe('int64');
    expect(() => da.full([2], 2n ** 64n, { dtype: 'uint64' })).toThrow(/does not fit in uint64 \(range 0\.\.18446744073709551615\)/);
  });

  test('floats past the range saturate, NaN gives 0, and each counts as invalid (the rule of the narrower integers)', async () => {
    const x = da.wrap(Float64Array.of(1e19, 2 ** 63, -(2 ** 63), -1e19, NaN, 2 ** 63 - 1024, -1.5, 2 ** 64));
    da.configure({ errors: { invalid: 'ignore' } });
    try {
      const i = await x.astype('int64').execute();
      expect(Array.from(i.data as BigInt64Array)).toEqual([2n ** 63n - 1n, 2n ** 63n - 1n, -(2n ** 63n), -(2n ** 63n), 0n, 2n ** 63n - 1024n, -1n, 2n ** 63n - 1n]);
      const u = await x.astype('uint64').execute();
      expect(Array.from(u.data as BigUint64Array)).toEqual([10000000000000000000n, 2n ** 63n, 0n, 0n, 0n, 2n ** 63n - 1024n, 0n, 2n ** 64n - 1n]);
    } finally {
      da.configure({ errors: { invalid: 'warn' } });
    }
    da.configure({ errors: { invalid: 'raise' } });
    try {
      await expect(x.get('5:6').astype('int64').execute()).resolves.toBeDefined();
      await expect(x.get('1:2').astype('int64').execute()).rejects.toThrow(/invalid value in astype\(int64\)/);
      await expect(x.get('1:2').astype('uint64').execute()).resolves.toBeDefined();
      await expect(x.get('6:7').astype('uint64').execute()).rejects.toThrow(/invalid value in astype\(uint64\)/);
    } finally {
      da.configure({ errors: { invalid: 'warn' } });
    }
  });

  test('integer division by zero is 0 and counted, as for the narrower integers', async () => {
    const y = da.floorDivide(da.wrap(BigInt64Array.of(5n, -5n)), da.wrap(BigInt64Array.of(0n, 2n)));
    da.configure({ errors: { divide: 'raise' } });
    try {
      await expect(y.execute()).rejects.toThrow(/divide/);
    } finally {
      da.configure({ errors: { divide: 'warn' } });
    }
  });

  test('the functions that read index, mask and count arrays now take int64 ones', async () => {
    const I = (...v: bigint[]): da.DeferredArray => da.wrap(BigInt64Array.from(v));
    const ints = async (x: da.DeferredArray): Promise<number[]> => Array.from((await x.execute()).data as ArrayLike<number | bigint>, Number);
    expect(await ints(da.nonzero(I(0n, 5n, 0n, 7n))[0]!)).toEqual([1, 3]);
    expect(await ints(da.compress(I(1n, 0n, 1n, 0n), da.array([1, 2, 3, 4])))).toEqual([1, 3]);
    expect(await ints(da.zeros([4]).set(I(-1n, 0n), 7))).toEqual([7, 0, 0, 7]);
    expect(await Promise.all(da.unravelIndex(I(5n, 1n), [2, 3]).map(ints))).toEqual([[1, 0], [2, 1]]);
    expect(await ints(da.repeat(I(1n, 2n), I(2n, 1n)))).toEqual([1, 1, 2]);
    expect(() => da.take(da.arange(4), I(-1n, 10n))).toThrow(/index 10 is out of bounds/);
  });

  test('products with an int64 operand of another type compute in float64', async () => {
    const m = da.matmul(da.wrap(BigInt64Array.of(1n, 2n, 3n, 4n)).reshape([2, 2]), da.array([[1, 0], [0, 1]]));
    expect(m.dtype).toBe('float64');
    expect(Array.from((await m.execute()).data as Float64Array)).toEqual([1, 2, 3, 4]);
    const d = da.dot(da.wrap(BigUint64Array.of(2n ** 63n, 1n)), da.wrap(Int32Array.of(1, -1)));
    expect(Array.from((await d.execute()).data as Float64Array)).toEqual([2 ** 63 - 1]);
  });

  test('bigints alone are int64, or uint64 past it; comparisons with integers past the type are refused, not rounded', () => {
    expect(da.array(5n).dtype).toBe('int64');
    expect(da.array(2n ** 63n).dtype).toBe('uint64');
    expect(() => da.array(2n ** 64n)).toThrow(/fits neither int64 nor uint64/);
    expect(() => da.add(2n ** 64n, 1)).toThrow(/fits neither int64 nor uint64/);
    expect(() => da.wrap(BigInt64Array.of(1n)).equal(2n ** 63n)).toThrow(/lies outside int64.*same answer for every element/);
    expect(da.wrap(Int32Array.of(1)).less(2 ** 40).dtype).toBe('bool');
  });

  test('results are stdlib ndarrays of dtype generic over the bigint array, and wrap back as int64', async () => {
    const r = await da.wrap(BigUint64Array.of(2n ** 64n - 1n)).reshape([1, 1]).execute() as da.StdNdarray;
    expect(r.dtype).toBe('generic');
    expect(r.get(0, 0)).toBe(2n ** 64n - 1n);
    const again = da.wrap(r as never);
    expect(again.dtype).toBe('uint64');
  });
});
