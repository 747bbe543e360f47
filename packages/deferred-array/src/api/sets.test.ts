// unique, isin, intersect1d, union1d, setdiff1d, bincount and histogram
// against NumPy 2 (test/vectors/sets.json, made by scripts/numpy/gen_sets.py),
// on both backends and with 1 and 2 workers; then what the vectors do not hold.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import * as da from '../index.js';

type Raw = string | number;
interface Arr { readonly dtype: string; readonly shape: readonly number[]; readonly data?: readonly Raw[]; readonly lcg?: readonly number[] }
interface Case {
  readonly fn: 'unique' | 'isin' | 'intersect1d' | 'union1d' | 'setdiff1d' | 'bincount' | 'histogram' | 'addAt' | 'interp';
  readonly args: readonly Arr[];
  readonly options: Readonly<Record<string, unknown>>;
  readonly out: readonly Arr[];
}

const vectors = JSON.parse(readFileSync(new URL('../../test/vectors/sets.json', import.meta.url), 'utf8')) as { readonly cases: readonly Case[] };

function decode(r: Raw, dtype: string): number | bigint {
  if (dtype === 'float64') return new Float64Array(new BigUint64Array([BigInt(`0x${r}`)]).buffer)[0]!;
  if (dtype === 'float32') return new Float32Array(new Uint32Array([Number(`0x${r}`)]).buffer)[0]!;
  if (dtype === 'int64' || dtype === 'uint64') return BigInt(r);
  return Number(r);
}

/** The generator's long arrays, made again: ((i + seed) * 2654435761 mod 2^32) / 2^32 * scale + offset. */
function lcg([n, seed, scale, offset]: readonly number[]): Float64Array {
  return Float64Array.from({ length: n! }, (_, i) => (((i + seed!) * 2654435761) % 2 ** 32) / 2 ** 32 * scale! + offset!);
}

function valuesIn(a: Arr): Array<number | bigint> {
  return a.lcg ? Array.from(lcg(a.lcg)) : a.data!.map((r) => decode(r, a.dtype));
}

function input(a: Arr): da.DeferredArray {
  const values = valuesIn(a);
  if (a.dtype === 'bool') return da.array(values.map((v) => v !== 0), { dtype: 'bool' }).reshape(a.shape);
  const ctor = { float64: Float64Array, float32: Float32Array, int64: BigInt64Array, uint64: BigUint64Array, int32: Int32Array, uint32: Uint32Array, int16: Int16Array, uint16: Uint16Array, int8: Int8Array, uint8: Uint8Array }[a.dtype]!;
  return da.wrap((ctor as unknown as { from(v: unknown[]): Float64Array }).from(values)).reshape(a.shape);
}

const show = (v: unknown): string => (typeof v === 'number' && Object.is(v, -0) ? '-0' : typeof v === 'boolean' ? String(Number(v)) : String(v));

/** NumPy's positions and counts are intp (int64); ours are int32. Output k of fn is one of those, or values. */
const ourDType = (fn: Case['fn'], k: number, d: string): string => {
  const counts = fn === 'bincount' || (fn === 'histogram' && k === 0) || ((fn === 'unique' || fn === 'intersect1d') && k > 0);
  return counts && d === 'int64' ? 'int32' : d;
};

function run(c: Case): da.DeferredArray[] {
  const args = c.args.map(input);
  // Options given as arrays: 0-d ones are numbers (JSON has no NaN or infinity), others arrays.
  const option = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object' || !('dtype' in (v as object))) return v;
    const a = v as Arr;
    return a.shape.length === 0 ? valuesIn(a)[0] : input(a);
  };
  const o = Object.fromEntries(Object.entries(c.options).map(([k, v]) => [k, option(v)]));
  let r: da.DeferredArray | da.DeferredArray[];
  switch (c.fn) {
    case 'unique': r = da.unique(args[0]!, o); break;
    case 'isin': r = da.isin(args[0]!, args[1]!, o); break;
    case 'intersect1d': r = da.intersect1d(args[0]!, args[1]!, o); break;
    case 'union1d': r = da.union1d(args[0]!, args[1]!); break;
    case 'setdiff1d': r = da.setdiff1d(args[0]!, args[1]!, o); break;
    case 'bincount': r = da.bincount(args[0]!, o); break;
    case 'histogram': r = da.histogram(args[0]!, o as da.HistogramOptions); break;
    case 'addAt': r = da.addAt(args[0]!, args[1]!, args[2]!); break;
    case 'interp': r = da.interp(args[0]!, args[1]!, args[2]!, o); break;
  }
  return Array.isArray(r) ? r : [r];
}

const label = (c: Case): string => `${c.fn} ${c.args.map((a) => `${a.dtype}[${a.shape.join(',')}]`).join(' ')} ${JSON.stringify(c.options, (k, v) => (k === 'data' || k === 'lcg' ? undefined : v)).slice(0, 70)}`;

describe.each([
  ['wasm, 1 worker', { backend: 'wasm', threads: 1 }],
  ['wasm, 2 workers', { backend: 'wasm', threads: 2 }],
  ['reference', { backend: 'reference' }],
] as const)('sets and counting against NumPy (%s)', (_, config) => {
  const before = da.configure();
  afterAll(() => { da.configure({ backend: before.backend, threads: before.threads }); });

  test.each(vectors.cases.map((c, i) => [i, label(c), c] as const))('case %i: %s', async (_i, _l, c) => {
    da.configure(config);
    const got = run(c);
    expect(got.length).toBe(c.out.length);
    for (const [k, want] of c.out.entries()) {
      const y = got[k]!;
      expect([k, y.dtype]).toEqual([k, ourDType(c.fn, k, want.dtype)]);
      expect([k, y.shape]).toEqual([k, want.shape]);
      // A value picked from among equal -0 and +0 follows NumPy's unstable sort: its sign is not compared.
      const zero = (v: string): string => (c.fn !== 'histogram' && c.fn !== 'bincount' && c.fn !== 'addAt' && c.fn !== 'interp' && v === '-0' ? '0' : v);
      const r = (await y.execute()) as da.StdNdarray;
      const n = want.shape.reduce((p, d) => p * d, 1);
      const values = Array.from({ length: n }, (_, i) => zero(show(r.iget(i))));
      expect([k, values]).toEqual([k, valuesIn(want).map((v) => zero(show(want.dtype === 'bool' ? Number(v) : v)))]);
    }
  });
});

describe('sets and counting: beyond the vectors', () => {
  test('unique by hashing: random values (thousands of groups; tiny, huge, -0, NaN), every return, against a plain oracle', () => {
    const element = fc.oneof(
      fc.integer({ min: -3000, max: 3000 }).map((i) => i / 2),
      fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 1e-300, -1e-300, 5e-324, 1e300, 2 ** 60, 2 ** 60 + 2 ** 8, 2 ** -40, 3 * 2 ** -40),
      // Families arithmetic on a value's parts would put in one slot: multiples of 2^32, close fractions, tiny values.
      fc.integer({ min: 1, max: 500 }).map((k) => k * 2 ** 32),
      fc.integer({ min: 1, max: 500 }).map((k) => 1 + k * 2 ** -40),
      fc.integer({ min: 1, max: 500 }).map((k) => k * 1e-11),
      fc.double({ noNaN: true }),
    );
    fc.assert(fc.property(fc.array(element, { maxLength: 4000 }), fc.boolean(), (v, equalNan) => {
      const x = Float64Array.from(v);
      const key = (e: number): string => (e !== e ? 'NaN' : String(e === 0 ? 0 : e));
      // The oracle: groups in first-occurrence order, NaNs one group with equalNan, each its own without.
      const groups: { value: number; first: number; count: number; nan: boolean }[] = [];
      const byKey = new Map<string, number>();
      const member: number[] = [];
      x.forEach((e, i) => {
        let g = e !== e && !equalNan ? undefined : byKey.get(key(e));
        if (g === undefined) {
          g = groups.length;
          groups.push({ value: e, first: i, count: 0, nan: e !== e });
          if (e === e || equalNan) byKey.set(key(e), g);
        }
        groups[g]!.count++;
        member.push(g);
      });
      const order = groups.map((_, g) => g).sort((a, b) => {
        const p = groups[a]!;
        const q = groups[b]!;
        if (p.nan || q.nan) return p.nan === q.nan ? a - b : p.nan ? 1 : -1;
        return p.value - q.value || a - b;
      });
      const rank = new Map(order.map((g, r) => [g, r]));
      const [values, index, inverse, counts] = da.unique(da.wrap(x), { returnIndex: true, returnInverse: true, returnCounts: true, equalNan }) as da.DeferredArray[];
      const show = (a: da.DeferredArray): string[] => Array.from(a!.executeSync().data as ArrayLike<number>, (e) => (Object.is(e, -0) ? '-0' : String(e)));
      expect(show(values!)).toEqual(order.map((g) => (Object.is(groups[g]!.value, -0) ? '-0' : String(groups[g]!.value))));
      expect(show(index!)).toEqual(order.map((g) => String(groups[g]!.first)));
      expect(show(inverse!)).toEqual(member.map((g) => String(rank.get(g))));
      expect(show(counts!)).toEqual(order.map((g) => String(groups[g]!.count)));
      expect(show(da.unique(da.wrap(x), { equalNan }) as da.DeferredArray)).toEqual(show(values!));
    }), { numRuns: 60 });
  });

  test('results are ordinary arrays that feed more work, and operands with pending work run first', async () => {
    const x = da.wrap(Float64Array.of(3, 1, 3, 2, 1));
    const u = da.unique(x.mul(2)) as da.DeferredArray;
    expect(Array.from((await u.add(1).execute()).data as Float64Array)).toEqual([3, 5, 7]);
    const [counts] = [da.bincount(da.wrap(Int32Array.of(1, 1, 4)))];
    expect(Array.from((await counts!.mul(10).execute()).data as Float64Array)).toEqual([0, 20, 0, 0, 10]);
  });

  test('errors say what was wrong', () => {
    const f = da.wrap(Float64Array.of(1.5, 2));
    const i = da.wrap(Int32Array.of(1, -2));
    expect(() => da.bincount(f)).toThrow(/must hold integers.*astype\('int32'\)/);
    expect(() => da.bincount(i)).toThrow(/non-negative integers; got -2 at position 1/);
    expect(() => da.bincount(da.wrap(Int32Array.of(1)), { minlength: -1 })).toThrow(/minlength must be a non-negative integer/);
    expect(() => da.bincount(da.wrap(Int32Array.of(1, 2)), { weights: f.get('0:1') })).toThrow(/weights must be 1-d and as long as x \(2\)/);
    expect(() => da.bincount(da.wrap(Int32Array.of(1, 2)).reshape([2, 1]))).toThrow(/must be 1-d/);
    expect(() => da.histogram(f, { bins: 0 })).toThrow(/bins must be a positive integer/);
    expect(() => da.histogram(f, { range: [2, 1] })).toThrow(/lower edge first/);
    expect(() => da.histogram(da.wrap(Float64Array.of(1, NaN)))).toThrow(/not finite; give range/);
    expect(() => da.histogram(f, { bins: [3, 1, 2] })).toThrow(/increase monotonically/);
    expect(() => da.histogram(da.wrap(Float64Array.of(1, 2, 3, 4)).reshape([2, 2]), { weights: da.wrap(new Float64Array(4)).reshape([4, 1]) })).toThrow(/weights must have a's shape, \(2, 2\)/);
    expect(() => da.histogram(da.array([true]))).toThrow(/bool data is not supported/);
    expect(() => da.histogram(f, { bins: 10, range: [1, 1 + 2e-16] })).toThrow(/too many bins/);
    expect(() => da.unique(f, { axis: 1 })).toThrow(/axis 1 is out of bounds/);
    expect(() => da.unique(f, { sorted: true } as never)).toThrow(/unknown option 'sorted'/);
  });

  test('addAt: in place, in program order with other writes; bad input refused when called, or when the update runs', async () => {
    const x = da.array([1, 2, 3]);
    const before = x.mul(1);
    da.addAt(x, [0, 0], 1);
    x.iadd(10);
    expect(Array.from((await x.execute()).data as Float64Array)).toEqual([13, 12, 13]);
    expect(Array.from((await before.execute()).data as Float64Array)).toEqual([1, 2, 3]);
    expect(() => da.addAt(new Float64Array(2) as never, [0], 1)).toThrow(/must be a DeferredArray/);
    expect(() => da.addAt(x, [0.5], 1)).toThrow(/indices must be integers; got float64/);
    expect(() => da.addAt(x, da.array([true]), 1)).toThrow(/for a mask, write x.set/);
    expect(() => da.addAt(x, [0, 1], da.array([1, 2, 3]))).toThrow(/do not broadcast to the rows named, \(2,\)/);
    expect(() => da.addAt(x, [3], 1)).toThrow(/index 3 is out of bounds for axis 0 with size 3/);
    expect(() => da.addAt(da.array(5), [0], 1)).toThrow(/0-d array has no rows/);
    const y = da.array([1, 2]);
    da.addAt(y, da.wrap(Int32Array.of(1)).add(4), 1);
    expect(() => y.executeSync()).toThrow(da.ExecutionError);
  });

  test('inside a compiled function, a function that reads values says to call it outside', () => {
    const n = da.size('n');
    expect(() => da.compile((x: da.DeferredArray) => da.unique(x) as da.DeferredArray, [da.placeholder([n], 'float64')])).toThrow(/outside da.compile/);
  });
});
