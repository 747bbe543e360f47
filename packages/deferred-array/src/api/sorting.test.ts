// sort, argsort, searchsorted, median, quantile and percentile (weighted too) against NumPy 2
// (test/vectors/sorting.json, made by scripts/numpy/gen_sorting.py), bit for
// bit (-0 and NaN told apart from 0 and numbers), on both backends and with 1
// and 2 workers; then the cases the vectors do not hold.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import type { DType } from '../ir/dtypes.js';

type Raw = string | number;
interface Arr { readonly dtype: string; readonly shape: readonly number[]; readonly data: readonly Raw[] }
type Q = { readonly number: number } | { readonly ints: readonly number[]; readonly shape: readonly number[] } | { readonly floats: readonly number[]; readonly shape: readonly number[] }
  | { readonly float32: readonly number[]; readonly shape: readonly number[] };
interface Case {
  readonly fn: 'sort' | 'argsort' | 'lexsort' | 'searchsorted' | 'median' | 'quantile' | 'percentile' | 'nanquantile' | 'nanpercentile' | 'nanmedian'
    | 'partition' | 'argpartition';
  readonly keys?: readonly Arr[];
  readonly x: Arr;
  readonly options: Readonly<Record<string, unknown>>;
  readonly v?: Arr;
  readonly q?: Q;
  readonly out: Arr;
}

const vectors = JSON.parse(readFileSync(new URL('../../test/vectors/sorting.json', import.meta.url), 'utf8')) as { readonly cases: readonly Case[] };

/** Floats decoded from the hex of their bits, integers from decimal strings. */
function decode(r: Raw, dtype: string): number | bigint {
  if (dtype === 'float64') return new Float64Array(new BigUint64Array([BigInt(`0x${r}`)]).buffer)[0]!;
  if (dtype === 'float32') return new Float32Array(new Uint32Array([Number(`0x${r}`)]).buffer)[0]!;
  if (dtype === 'int64' || dtype === 'uint64') return BigInt(r);
  return Number(r);
}

function input(a: Arr): da.DeferredArray {
  const values = a.data.map((r) => decode(r, a.dtype));
  if (a.dtype === 'bool') return da.array(values.map((v) => v !== 0), { dtype: 'bool' }).reshape(a.shape);
  const ctor = { float64: Float64Array, float32: Float32Array, int64: BigInt64Array, uint64: BigUint64Array, int32: Int32Array, uint32: Uint32Array, int16: Int16Array, uint16: Uint16Array, int8: Int8Array, uint8: Uint8Array }[a.dtype]!;
  return da.wrap((ctor as unknown as { from(v: unknown[]): Float64Array }).from(values)).reshape(a.shape);
}

/** A value as a string that tells -0 from 0 and any NaN from a number. */
const show = (v: unknown): string => (typeof v === 'number' && Object.is(v, -0) ? '-0' : typeof v === 'boolean' ? String(Number(v)) : String(v));

function valuesOf(r: da.StdNdarray): string[] {
  const n = r.shape.reduce((p: number, d: number) => p * d, 1);
  return Array.from({ length: n }, (_, i) => show(r.iget(i)));
}

/** NumPy's positions are intp (int64); ours are int32 (an axis is below 2^31). */
const ourDType = (fn: Case['fn'], numpy: string): string => (numpy === 'int64' && (fn === 'argsort' || fn === 'lexsort' || fn === 'searchsorted' || fn === 'argpartition') ? 'int32' : numpy);

function qOf(q: Q): number | da.DeferredArray | number[] {
  if ('number' in q) return q.number;
  // A list of integers, as NumPy's int64 array of them (q.shape is 1-d here).
  if ('ints' in q) return [...q.ints];
  if ('float32' in q) return da.wrap(Float32Array.from(q.float32)).reshape(q.shape);
  return da.wrap(Float64Array.from(q.floats)).reshape(q.shape);
}

function run(c: Case): da.DeferredArray {
  const x = input(c.x);
  const o = { ...c.options } as Record<string, unknown>;
  if (o['weights']) o['weights'] = input(o['weights'] as Arr);
  switch (c.fn) {
    case 'sort': return da.sort(x, o);
    case 'argsort': return da.argsort(x, o);
    case 'lexsort': return da.lexsort(c.keys!.map(input), o);
    case 'searchsorted': {
      if (o['sorter']) o['sorter'] = input(o['sorter'] as Arr);
      return da.searchsorted(x, input(c.v!), o);
    }
    case 'median': return da.median(x, o);
    case 'quantile': return da.quantile(x, qOf(c.q!), o);
    case 'percentile': return da.percentile(x, qOf(c.q!), o);
    case 'nanquantile': return da.nanquantile(x, qOf(c.q!), o);
    case 'nanmedian': return da.nanmedian(x, o);
    case 'nanpercentile': return da.nanpercentile(x, qOf(c.q!), o);
    case 'partition': case 'argpartition': {
      const { kth, ...rest } = o;
      return da[c.fn](x, kth as number[], rest);
    }
  }
}

/**
 * A partition's lines as NumPy would check them: the kth elements, and each
 * part's elements as a sorted multiset (NumPy's order within a part is its
 * introselect's, ours the line's: both are partitions). Positions
 * (argpartition) are read as the elements of x they name.
 */
function partitionParts(c: Case, flat: readonly string[], xs?: readonly string[]): string[][] {
  const shape = c.options['axis'] === null ? [flat.length] : c.x.shape;
  const axis = c.options['axis'] === null ? 0 : ((c.options['axis'] as number) + shape.length) % shape.length;
  const n = shape[axis]!;
  const inner = shape.slice(axis + 1).reduce((p, d) => p * d, 1);
  const outer = flat.length / (n * inner);
  const kth = [...new Set((c.options['kth'] as number[]).map((k) => (k < 0 ? k + n : k)))].sort((a, b) => a - b);
  const parts: string[][] = [];
  for (let a = 0; a < outer; a++) {
    for (let k = 0; k < inner; k++) {
      const at = (i: number): number => a * n * inner + i * inner + k;
      // A position names the element of x at it along the same line.
      const line = Array.from({ length: n }, (_, i) => (xs ? xs[at(Number(flat[at(i)]))]! : flat[at(i)]!));
      let from = 0;
      for (const p of kth) {
        parts.push(line.slice(from, p).sort(), [line[p]!]);
        from = p + 1;
      }
      parts.push(line.slice(from).sort());
    }
  }
  return parts;
}

const label = (c: Case): string => `${c.fn} ${c.x.dtype} [${c.x.shape.join(',')}] ${JSON.stringify(c.options).slice(0, 60)}${c.q ? ` q ${JSON.stringify(c.q).slice(0, 40)}` : ''}`;

describe.each([
  ['wasm, 1 worker', { backend: 'wasm', threads: 1 }],
  ['wasm, 2 workers', { backend: 'wasm', threads: 2 }],
  ['reference', { backend: 'reference' }],
] as const)('sorting and quantiles against NumPy (%s)', (_, config) => {
  const before = da.configure();
  afterAll(() => { da.configure({ backend: before.backend, threads: before.threads }); });

  test.each(vectors.cases.map((c, i) => [i, label(c), c] as const))('case %i: %s', async (_i, _l, c) => {
    da.configure(config);
    const y = run(c);
    expect(y.dtype).toBe(ourDType(c.fn, c.out.dtype));
    expect(y.shape).toEqual(c.out.shape);
    // A quantile or median picked from among equal -0 and +0 has NumPy's partition's sign, which its
    // unstable selection leaves unspecified; sorts are stable, and their zeros are compared by sign.
    const zero = c.fn === 'sort' || c.fn === 'argsort' || c.fn === 'lexsort' || c.fn === 'searchsorted' ? show : (v: unknown): string => (v === 0 ? '0' : show(v));
    const expected = c.out.data.map((r) => zero(c.out.dtype === 'bool' ? Number(r) : decode(r, c.out.dtype)));
    const got = await y.execute() as da.StdNdarray;
    if (c.fn === 'partition' || c.fn === 'argpartition') {
      // Values compared with -0 as 0 (which of equal zeros NumPy's unstable selection puts at a kth is its
      // own); positions through the elements of x they name.
      const unsigned = (v: string): string => (v === '-0' ? '0' : v);
      const xs = c.x.data.map((r) => unsigned(show(c.x.dtype === 'bool' ? Number(r) : decode(r, c.x.dtype))));
      const names = c.fn === 'argpartition' ? xs : undefined;
      const theirs = c.out.data.map((r) => unsigned(show(c.out.dtype === 'bool' ? Number(r) : decode(r, c.out.dtype))));
      expect(partitionParts(c, valuesOf(got).map(unsigned), names)).toEqual(partitionParts(c, theirs, names));
      if (c.fn === 'argpartition') expect(valuesOf(got).map(Number).sort((p, q) => p - q)).toEqual(c.out.data.map(Number).sort((p, q) => p - q));
      return;
    }
    expect(valuesOf(got).map((v) => (v === '-0' ? zero(-0) : v))).toEqual(expected);
  });
});

describe('sorting: beyond the vectors', () => {
  test('sorted values keep their bits: each -0 and NaN payload in its place among its equals', () => {
    const bits = new BigUint64Array([0x7ff8000000000001n, 0x8000000000000000n, 0x3ff0000000000000n, 0n, 0xfff8000000000002n, 0x8000000000000000n]);
    const x = new Float64Array(bits.buffer);
    const r = da.sort(da.wrap(x)).executeSync();
    const out = new BigUint64Array(Float64Array.from(r.data as Float64Array).buffer);
    // -0, 0, -0 in their order, then 1, then the NaNs in their order (the payload and sign kept).
    expect(Array.from(out, (b) => b.toString(16))).toEqual(['8000000000000000', '0', '8000000000000000', '3ff0000000000000', '7ff8000000000001', 'fff8000000000002']);
  });

  test.each([2, 47, 48, 49, 1000, 5000])('argsort of %i elements is stable and orders as sort does (radix and insertion paths)', (n) => {
    const x = Float64Array.from({ length: n }, (_, i) => ((i * 7919) % 13) - 6 + (i % 5 === 0 ? -0 : 0));
    x[n >> 1] = NaN;
    const order = Array.from(da.argsort(da.wrap(x)).executeSync().data as Int32Array);
    const expected = Array.from(x.keys()).sort((i, j) => {
      const a = x[i]!;
      const b = x[j]!;
      if (a !== a) return b !== b ? i - j : 1;
      if (b !== b) return -1;
      return a === b ? i - j : a - b;
    });
    expect(order).toEqual(expected);
    const sorted = Array.from(da.sort(da.wrap(x)).executeSync().data as Float64Array, show);
    expect(sorted).toEqual(expected.map((i) => show(x[i])));
  });

  test('sorting fuses with the work around it, and its result feeds more work', async () => {
    const x = da.wrap(Float64Array.of(3, 1, 2, 5, 4));
    const y = da.sort(x.mul(-1)).add(10);
    expect(Array.from((await y.execute()).data as Float64Array)).toEqual([5, 6, 7, 8, 9]);
    expect(Array.from((await da.take(x, da.argsort(x)).execute()).data as Float64Array)).toEqual([1, 2, 3, 4, 5]);
  });

  test('a compiled function sorts and takes quantiles at each size it is called with', async () => {
    const n = da.size('n');
    const f = da.compile((x: da.DeferredArray) => da.median(da.sort(x)), [da.placeholder([n], 'float64')]);
    expect(Number(((await f(Float64Array.of(3, 1, 2))) as da.StdNdarray).get())).toBe(2);
    expect(Number(((await f(Float64Array.of(4, 1, 3, 2))) as da.StdNdarray).get())).toBe(2.5);
  });

  test('errors say what was wrong', () => {
    const x = da.wrap(Float64Array.of(1, 2, 3));
    expect(() => da.sort(x, { axis: 1 })).toThrow(/axis 1 is out of bounds/);
    expect(() => da.sort(x, { kind: 'bogus' as never })).toThrow(/kind must be one of/);
    expect(() => da.sort(x, { order: 'x' } as never)).toThrow(/unknown option 'order'/);
    expect(() => da.searchsorted(x.reshape([3, 1]), 1)).toThrow(/must be 1-d/);
    expect(() => da.searchsorted(x, 1, { side: 'middle' as never })).toThrow(/side must be 'left' or 'right'/);
    expect(() => da.searchsorted(x, 1, { sorter: da.wrap(Int32Array.of(0, 1)) })).toThrow(/sorter must be 1-d and as long as a \(3\)/);
    expect(() => da.quantile(x, 1.5)).toThrow(/quantiles must be in \[0, 1\]; got 1.5/);
    expect(() => da.percentile(x, [10, 101])).toThrow(/percentiles must be in \[0, 100\]; got 101/);
    expect(() => da.quantile(x, NaN)).toThrow(/must be in \[0, 1\]/);
    expect(() => da.quantile(x, 0.5, { method: 'invertedCdf' as never })).toThrow(/method must be one of/);
    expect(() => da.quantile(da.wrap(new Float64Array(0)), 0.5)).toThrow(/empty array/);
    expect(() => da.quantile(da.array([true, false]), 0.5)).toThrow(/bool array.*astype\('int32'\)/);
    expect(() => da.median(x, { axis: [0, 0] })).toThrow(/axis/);
  });

  test('weighted quantiles: errors as NumPy raises them, weights as lists, and the nan variants with weights along the axis', () => {
    const x = da.wrap(Float64Array.of(3, 1, 2, 5, 4, 0)).reshape([2, 3]);
    const W = { method: 'inverted_cdf' } as const;
    expect(() => da.quantile(x, 0.5, { weights: [1, 1, 1, 1, 1, 1] })).toThrow(/weights need method 'inverted_cdf'.*got method 'linear'/);
    expect(() => da.quantile(x, 0.5, { ...W, weights: [1, 2, 3] })).toThrow(/weights of shape \(3,\) differ from a's \(2, 3\); .*give axis/);
    expect(() => da.quantile(x, 0.5, { ...W, axis: 1, weights: [1, 2] })).toThrow(/weights of shape \(2,\) fit neither a's shape \(2, 3\) nor its lengths \(3,\) along axis 1/);
    const w = (v: number[]): da.DeferredArray => da.wrap(Float64Array.from(v)).reshape([2, 3]);
    expect(() => da.quantile(x, 0.5, { ...W, axis: 1, weights: w([1, -1, 1, 1, 1, 1]) })).toThrow(/weights must be non-negative/);
    expect(() => da.quantile(x, 0.5, { ...W, axis: 1, weights: w([1, 1, 1, 0, 0, 0]) })).toThrow(/weights of line 1 are all zero/);
    expect(() => da.quantile(x, 0.5, { ...W, axis: 1, weights: w([1, NaN, 1, 1, 1, 1]) })).toThrow(/weights of line 0 include NaN/);
    expect(() => da.quantile(x, 0.5, { ...W, axis: 1, weights: w([1, Infinity, 1, 1, 1, 1]) })).toThrow(/include inf/);
    expect(() => da.compile((y: da.DeferredArray) => da.quantile(y, 0.5, { ...W, weights: y }), [da.placeholder([4], 'float64')])).toThrow(/checks its weights' values when called/);
    // Lines of no element are NaN in the nan variants, once the weights' shape is checked.
    const none = da.wrap(new Float64Array(0)).reshape([3, 0]);
    expect(() => da.nanquantile(none, 0.5, { ...W, axis: 1, weights: [1, 1] })).toThrow(/fit neither/);
    expect(Array.from(da.nanquantile(none, 0.5, { ...W, axis: 1, weights: da.wrap(new Float64Array(0)) }).executeSync().data as Float64Array)).toEqual([NaN, NaN, NaN]);
    // Weights along axis 1 (the axis's length): each row weighs its columns alike. Row 0 sorted: 1 (w 2), 2 (w 3),
    // 3 (w 1), its cdf 1/3, 5/6, 1; row 1: 0 (w 3), 4 (w 2), 5 (w 1), its cdf 1/2, 5/6, 1 (NumPy's answer).
    const r = da.quantile(x, [0, 0.3, 0.34, 0.9, 1], { ...W, axis: 1, weights: [1, 2, 3] }).executeSync() as da.StdNdarray;
    expect(Array.from(r.data as Float64Array)).toEqual([1, 0, 1, 0, 2, 0, 3, 5, 3, 5]);
    // A NaN leaves with its weight (a NaN weight at a NaN element is no error); a row of NaN alone gives NaN.
    const y = da.wrap(Float64Array.of(NaN, 1, 2, NaN, NaN, NaN)).reshape([2, 3]);
    const n = da.nanquantile(y, 0.5, { ...W, axis: 1, weights: w([NaN, 1, 3, 1, 1, 1]) }).executeSync() as da.StdNdarray;
    expect(Array.from(n.data as Float64Array)).toEqual([2, NaN]);
    // The same weights for every line (NumPy 2.4's nanquantile fails on these).
    const m = da.nanquantile(y, 0.2, { ...W, axis: 1, weights: [5, 1, 3] }).executeSync() as da.StdNdarray;
    expect(Array.from(m.data as Float64Array)).toEqual([1, NaN]);
  });

  test('partition and argpartition: each kth element where a stable sort puts it, the others in their part in line order', async () => {
    // The arrangement, from a plain stable sort: a kth rank goes to its place, every other element to
    // the next free place of its part (between kth positions), the line read in order.
    const before = (x: number | bigint, y: number | bigint): boolean => x < y || (y !== y && x === x);
    const model = (line: ArrayLike<number | bigint>, kth: readonly number[]): number[] => {
      const n = line.length;
      const ks = [...new Set(kth.map((k) => (k < 0 ? k + n : k)))].sort((a, b) => a - b);
      const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (before(line[a]!, line[b]!) ? -1 : before(line[b]!, line[a]!) ? 1 : a - b));
      const rank = new Array<number>(n);
      order.forEach((i, r) => { rank[i] = r; });
      const free = [0, ...ks.map((k) => k + 1)];
      const placed = new Array<number>(n);
      for (let i = 0; i < n; i++) {
        const r = rank[i]!;
        const s = ks.filter((k) => k < r).length;
        placed[ks[s] === r ? r : free[s]!++] = i;
      }
      return placed;
    };
    let seed = 11;
    const next = (): number => { seed = (seed * 16807) % 2147483647; return seed / 2147483647; };
    const pool = [0, -0, 1, -1, 2.5, NaN, -NaN, Infinity, -Infinity, 1e-310, 3, 3, 3];
    for (let t = 0; t < 120; t++) {
      const n = t < 20 ? t + 1 : 1 + Math.floor(next() * (t % 3 === 0 ? 700 : 60));
      const dtype = (['float64', 'float32', 'int32', 'int64', 'uint8', 'bool', 'int16'] as const)[t % 7]!;
      const raw = Array.from({ length: n }, () => (next() < 0.4 ? pool[Math.floor(next() * pool.length)]! : Math.round((next() - 0.5) * 40) / 4));
      const x = dtype === 'float64' || dtype === 'float32' ? da.array(raw, { dtype }) : da.array(raw.map((v) => (Number.isFinite(v) ? Math.trunc(v) : 7)), { dtype: 'int32' }).astype(dtype);
      // Read with iget: a bool result's data is @stdlib's BooleanArray, which indexing does not read.
      const elements = (r: da.StdNdarray): Array<number | bigint> => Array.from({ length: n }, (_, i) => r.iget(i) as number | bigint | boolean).map((v) => (typeof v === 'boolean' ? Number(v) : v));
      const line = elements(x.executeSync() as da.StdNdarray);
      const kth = Array.from({ length: 1 + Math.floor(next() * 3) }, () => Math.floor(next() * 2 * n) - n);
      const want = model(line, kth);
      const order = Array.from(da.argpartition(x, kth).executeSync().data as Int32Array);
      expect(order).toEqual(want);
      const got = elements(da.partition(x, kth).executeSync() as da.StdNdarray);
      expect(got.map(show)).toEqual(want.map((i) => show(line[i]!)));
    }
    // Along a leading axis, and flattened.
    const values = Float64Array.from({ length: 100 }, (_, i) => ((i * 37) % 101) / 4 - (i % 7 === 0 ? NaN : 0));
    const m = da.wrap(values).reshape([10, 10]);
    const columns = da.partition(m, [2, -3], { axis: 0 }).executeSync() as da.StdNdarray;
    const byArg = da.argpartition(m, [2, -3], { axis: 0 }).executeSync() as da.StdNdarray;
    for (let c = 0; c < 10; c++) {
      const column = Array.from({ length: 10 }, (_, r) => values[r * 10 + c]!);
      const want = model(column, [2, -3]);
      expect(Array.from({ length: 10 }, (_, r) => byArg.get(r, c))).toEqual(want);
      expect(Array.from({ length: 10 }, (_, r) => show(columns.get(r, c)))).toEqual(want.map((i) => show(column[i])));
    }
    const flat = da.argpartition(m, 50, { axis: null }).executeSync();
    expect(Array.from(flat.data as Int32Array)).toEqual(model(Array.from(values), [50]));
    // -0 and +0 and NaN payloads keep their bits; the signalling float32 NaN too.
    const f32 = new Float32Array(new Uint32Array([0x7f800001, 0x80000000, 0, 0x3f800000, 0xffc00002, 0x80000000]).buffer);
    const p32 = da.partition(da.wrap(f32), [1, 4]).executeSync();
    const got32 = new Uint32Array((p32.data as Float32Array).slice().buffer);
    expect(Array.from(got32)).toEqual(model(Array.from(f32), [1, 4]).map((i) => new Uint32Array(f32.buffer)[i]!));
    // A compiled function carries the kth as given to each new length: -2 is the second from the end of each.
    const f = da.compile((a: da.DeferredArray) => da.argpartition(a, [0, -2]), [da.placeholder([da.size('n')], 'float64')]);
    for (const length of [5, 40]) {
      const line = Array.from({ length }, (_, i) => ((i * 13) % length) - length / 2);
      const got = (await f(Float64Array.from(line))) as da.StdNdarray;
      expect(Array.from(got.data as Int32Array)).toEqual(model(line, [0, -2]));
    }
    const x = da.wrap(values.subarray(0, 100).slice(0, 101));
    expect(() => da.partition(x, 100)).toThrow(/kth 100 is out of bounds for an axis of length 100/);
    expect(() => da.partition(x, -101)).toThrow(/kth -101 is out of bounds/);
    expect(() => da.partition(x, 1.5)).toThrow(/kth must be an integer/);
    expect(() => da.partition(x, 'a' as never)).toThrow(/kth must be an integer or a list of them/);
    expect(() => da.argpartition(x, 0, { kind: 'quick' as never })).toThrow(/kind must be 'introselect'/);
    expect(() => da.partition(da.zeros([0]), 0)).toThrow(/kth 0 is out of bounds for an axis of length 0/);
    expect(() => da.partition(x, [])).toThrow(/kth must be an integer or a non-empty list of them; got an empty list/);
    // A kth that does not fit the small lengths a compiled function is first carried to: it compiles, and
    // a call at a length it does not fit raises the API's error.
    const g = da.compile((a: da.DeferredArray) => da.partition(a, [3, -5]), [da.placeholder([da.size('n')], 'float64')]);
    const ten = Array.from({ length: 10 }, (_, i) => (i * 7) % 10);
    expect(Array.from(((await g(Float64Array.from(ten))) as da.StdNdarray).data as Float64Array)).toEqual(model(ten, [3, -5]).map((i) => ten[i]));
    await expect(g(Float64Array.of(1, 2, 3, 4))).rejects.toThrow(RangeError);
    await expect(g(Float64Array.of(1, 2, 3, 4))).rejects.toThrow(/^partition: kth -5 is out of bounds for an axis of length 4$/);
    expect(() => da.partition(da.array(3), 0)).toThrow(/axis/);
  });

  test('a float32 signalling NaN keeps its bits through a sort, along any axis', () => {
    const bits = new Uint32Array([0x7f800001, 0x3f800000, 0xff800002, 0x80000000, 0x7f800001, 0]);
    const x = da.wrap(new Float32Array(bits.buffer));
    const sorted = da.sort(x).executeSync();
    expect(Array.from(new Uint32Array(Float32Array.from(sorted.data as Float32Array).buffer), (b) => b.toString(16)))
      .toEqual(['80000000', '0', '3f800000', '7f800001', 'ff800002', '7f800001']);
    const columns = da.sort(x.reshape([3, 2]), { axis: 0 }).executeSync();
    const raw = new Uint32Array(Float32Array.from(columns.data as Float32Array).buffer);
    // Column 0 holds three NaNs (kept in their order), column 1 sorts to -0, 0, 1.
    expect(Array.from(raw, (b) => b.toString(16))).toEqual(['7f800001', '80000000', 'ff800002', '0', '7f800001', '3f800000']);
  });

  test("searchsorted: a sorter as a list, checked now; a JS integer compared in the sorted array's integer type", () => {
    const a = da.wrap(Float64Array.of(3, 1, 2));
    expect(Number((da.searchsorted(a, 2, { sorter: [1, 2, 0] }).executeSync() as da.StdNdarray).get())).toBe(1);
    expect(() => da.searchsorted(a, 2, { sorter: [-2, -1, 0] })).toThrow(/sorter holds -2, which is not a position in a \(0..2\)/);
    expect(() => da.searchsorted(a, 2, { sorter: da.wrap(Float64Array.of(1, 2, 0)) })).toThrow(/sorter must hold integer positions/);
    // Against float32 a, NumPy makes a JS number a float64 array: compared in float64.
    expect(Number((da.searchsorted(da.wrap(Float32Array.of(0.1, 0.2)), 0.1, { side: 'right' }).executeSync() as da.StdNdarray).get())).toBe(0);
    expect(Number((da.searchsorted(da.wrap(Float32Array.of(16777216, 16777218)), 16777217).executeSync() as da.StdNdarray).get())).toBe(1);
    const big = da.wrap(BigInt64Array.of(2n ** 53n + 1n));
    expect(Number((da.searchsorted(big, 2 ** 53, { side: 'right' }).executeSync() as da.StdNdarray).get())).toBe(0);
  });

  test('a list q compiles; an array q read from the graph says to pass a list', async () => {
    const n = da.size('n');
    const f = da.compile((x: da.DeferredArray) => da.quantile(x, [0.25, 0.5]), [da.placeholder([n], 'float64')]);
    expect(Array.from(((await f(Float64Array.of(1, 2, 3, 4, 5))) as da.StdNdarray).data as Float64Array)).toEqual([2, 3]);
    expect(() => da.compile((x: da.DeferredArray) => da.quantile(x, x.get('0:1').mul(0)), [da.placeholder([n], 'float64')])).toThrow(/pass q as a number or a list/);
    expect(() => da.quantile(da.wrap(Float64Array.of(1, 2)), da.wrap(new Float64Array(8)).reshape([2, 2, 2]))).toThrow(/q has 3 axes/);
    expect(() => da.sort(da.wrap(Float64Array.of(1)), { kind: 'stable', stable: true })).toThrow(/kind or stable, not both/);
  });

  test('nanquantile of lines with no elements, or only NaN, is NaN (NumPy: nanmean of an empty slice)', () => {
    const r = da.nanquantile(da.wrap(new Float64Array(0)).reshape([3, 0]), 0.5, { axis: 1 }).executeSync() as da.StdNdarray;
    expect(r.shape).toEqual([3]);
    expect(Array.from(r.data as Float64Array)).toEqual([NaN, NaN, NaN]);
    const n = da.nanpercentile(da.wrap(Float32Array.of(NaN, NaN)), 50).executeSync() as da.StdNdarray;
    expect([n.dtype, Number.isNaN(Number(n.get()))]).toEqual(['float32', true]);
  });

  test('lexsort errors: no keys, keys of different shapes', () => {
    expect(() => da.lexsort([])).toThrow(/at least one key/);
    expect(() => da.lexsort([da.array([1, 2]), da.array([1, 2, 3])])).toThrow(/every key must have one shape/);
    expect(() => da.lexsort(da.array(3))).toThrow(/0-d array holds no keys/);
  });

  test('sort of a 0-d array: axis null gives one element, an axis is out of bounds (as NumPy)', () => {
    expect(Array.from(da.sort(da.array(5), { axis: null }).executeSync().data as Float64Array)).toEqual([5]);
    expect(() => da.sort(da.array(5))).toThrow(/out of bounds/);
  });

  test('every dtype sorts (one check per dtype that the vectors do not cover)', () => {
    for (const dtype of ['uint16'] as DType[]) {
      const y = da.sort(da.array([3, 65535, 0, 7], { dtype }));
      expect(Array.from(y.executeSync().data as Uint16Array)).toEqual([0, 3, 7, 65535]);
    }
  });
});
