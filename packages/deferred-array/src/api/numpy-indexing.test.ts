// flip, roll, diff, tile, repeat, take, compress, nonzero, x.get(mask),
// x.get(indices), x.set(mask, v), cumsum, cumprod and nancumsum against
// NumPy 1.24.2 (test/vectors/indexing.json and scans.json, from
// scripts/numpy/gen_vectors.py): values,
// shapes and dtypes over five dtypes, special values, empty and 0-d arrays,
// every axis, and inputs that are transposed or reversed views. These move
// values (diff subtracts, exactly) or accumulate in NumPy's order, so both
// backends must agree with NumPy to the bit.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { decodeValue } from '../../test/numpy-values.js';
import type { Raw } from '../../test/numpy-values.js';
import type { DType } from '../ir/dtypes.js';

type NpDType = DType | 'int64' | 'uint64';
type FnName = 'flip' | 'roll' | 'diff' | 'tile' | 'repeat' | 'take' | 'compress' | 'nonzero' | 'getMask' | 'getIndex' | 'setMask'
  | 'cumsum' | 'cumprod' | 'nancumsum';

interface ArrayArg { readonly array: { readonly dtype: DType; readonly shape: readonly number[]; readonly values: readonly Raw[] } }
type Option = number | boolean | string | null | readonly number[] | ArrayArg;

interface Case {
  readonly label: string;
  readonly view: 'plain' | 'T' | 'rev';
  readonly inDtype: DType;
  readonly inShape: readonly number[];
  readonly in: readonly Raw[];
  readonly options: Readonly<Record<string, Option>>;
  readonly out?: ReadonlyArray<{ readonly dtype: NpDType; readonly shape: readonly number[]; readonly values: readonly Raw[] }>;
  readonly error?: string;
}

const load = (name: string): Record<FnName, readonly Case[]> =>
  (JSON.parse(readFileSync(new URL(`../../test/vectors/${name}`, import.meta.url), 'utf8')) as { cases: Record<FnName, readonly Case[]> }).cases;
const vectors = { cases: { ...load('indexing.json'), ...load('scans.json') } };

const decode = (raw: Raw, dtype: NpDType): number => decodeValue(raw, dtype);

function arrayOf(raw: readonly Raw[], dtype: DType, shape: readonly number[]): da.DeferredArray {
  const values = raw.map((r) => decode(r, dtype));
  const flat = dtype === 'bool' ? da.array(values.map((v) => v !== 0), { dtype: 'bool' }) : da.array(values, { dtype });
  return shape.length === 1 ? flat : flat.reshape([...shape]);
}

const isArrayArg = (o: Option | undefined): o is ArrayArg => typeof o === 'object' && o !== null && !Array.isArray(o);
const argOf = (o: Option | undefined): unknown =>
  (isArrayArg(o) ? arrayOf(o.array.values, o.array.dtype, o.array.shape) : o);

function inputOf(c: Case): da.DeferredArray {
  const x = arrayOf(c.in, c.inDtype, c.inShape);
  if (c.view === 'T') return x.T;
  if (c.view === 'rev') return x.get(':,::-1');
  return x;
}

type Opts = Record<string, unknown>;
const opts = (c: Case, keys: readonly string[]): Opts =>
  Object.fromEntries(keys.filter((k) => k in c.options).map((k) => [k, argOf(c.options[k])]));

/** Builds what the case asks for; the arrays to read back. */
const CALLS: Record<FnName, (x: da.DeferredArray, c: Case) => da.DeferredArray[]> = {
  flip: (x, c) => [da.flip(x, opts(c, ['axis']))],
  roll: (x, c) => [da.roll(x, c.options['shift'] as number, opts(c, ['axis']))],
  diff: (x, c) => [da.diff(x, opts(c, ['n', 'axis', 'prepend', 'append']))],
  tile: (x, c) => [da.tile(x, c.options['reps'] as number)],
  repeat: (x, c) => [da.repeat(x, c.options['repeats'] as number, opts(c, ['axis']))],
  take: (x, c) => [da.take(x, argOf(c.options['indices']) as da.DeferredArray, opts(c, ['axis', 'mode']))],
  compress: (x, c) => [da.compress(argOf(c.options['condition']) as da.DeferredArray, x, opts(c, ['axis']))],
  nonzero: (x) => da.nonzero(x),
  getMask: (x, c) => [x.get(argOf(c.options['mask']) as da.DeferredArray)],
  getIndex: (x, c) => [x.get(argOf(c.options['indices']) as da.DeferredArray)],
  setMask: (x, c) => [x.set(argOf(c.options['mask']) as da.DeferredArray, argOf(c.options['value']) as number)],
  cumsum: (x, c) => [da.cumsum(x, opts(c, ['axis']))],
  cumprod: (x, c) => [x.cumprod(opts(c, ['axis']))],
  nancumsum: (x, c) => [da.nancumsum(x, opts(c, ['axis']))],
};

/** Where NumPy raises, what we throw: every one of these is known from shapes and constant indices, so at definition. */
const ERRORS: Readonly<Record<string, string>> = {
  'error:IndexError': 'ShapeError', // an index past the axis (take, x[indices], compress), a mask of the wrong shape
  'error:ValueError': 'ShapeError', // diff of a 0-d array; x[mask] = v where v does not broadcast to the selection
};

/**
 * No int64: nonzero's coordinates are int32, as argmin's are (a wasm32 heap
 * holds fewer than 2^31 elements); integer scans accumulate in float64, as
 * sum does, exact below 2^53.
 */
const ourDType = (fn: FnName, d: NpDType): DType =>
  (d === 'int64' || d === 'uint64' ? (fn === 'nonzero' ? 'int32' : 'float64') : d);

/** An integer running product past 2^53 is rounded in our float64 (NumPy's int64 is exact, then wraps). */
const roundedProduct = (fn: FnName, ours: number): boolean => fn === 'cumprod' && Math.abs(ours) >= 2 ** 53;

/** NumPy 1.24 deprecates nonzero of a 0-d array (NumPy 2 raises); we raise. */
const zeroDNonzero = (fn: FnName, c: Case): boolean => fn === 'nonzero' && c.inShape.length === 0;

function read(y: da.DeferredArray): { dtype: string; shape: number[]; values: number[] } {
  const nd = y.executeSync() as da.StdNdarray;
  const n = nd.shape.reduce((p, d) => p * d, 1);
  return { dtype: nd.dtype, shape: [...nd.shape], values: Array.from({ length: n }, (_, i) => Number(nd.iget(i))) };
}

/**
 * NumPy's x[indices] does not check the indices when the selection holds no
 * elements (x of shape (2, 0) indexed by [2] gives shape (1, 0)); we check
 * them as np.take does, and raise.
 */
const uncheckedEmpty = (fn: FnName, c: Case): boolean =>
  fn === 'getIndex' && c.inShape.includes(0) && c.out !== undefined && c.out[0]!.values.length === 0;

const same = (a: number, b: number): boolean => Object.is(a, b) || (a !== a && b !== b);
const hits = { zeroDNonzero: 0, uncheckedEmpty: 0, roundedProduct: 0 };

const initial = da.configure().backend;
afterAll(() => { da.configure({ backend: initial }); });

const FNS = Object.keys(vectors.cases) as FnName[];

describe.each(['reference', 'wasm'] as const)('against NumPy on the %s backend', (backend) => {
  test('the vectors cover every function', () => {
    expect(FNS.sort()).toEqual(Object.keys(CALLS).sort());
  });

  test.each(FNS)('%s', (fn) => {
    da.configure({ backend });
    const bad: string[] = [];
    for (const [i, c] of vectors.cases[fn].entries()) {
      const where = `${fn} #${i} ${c.inDtype} ${c.label}${c.view === 'plain' ? '' : ` (${c.view})`} ${JSON.stringify(c.options).slice(0, 120)}`;
      let ys: da.DeferredArray[];
      try {
        ys = CALLS[fn](inputOf(c), c);
      } catch (e) {
        const name = (e as Error).name;
        if (zeroDNonzero(fn, c) && name === 'ShapeError') { hits.zeroDNonzero++; continue; }
        if (uncheckedEmpty(fn, c) && name === 'ShapeError') { hits.uncheckedEmpty++; continue; }
        if (!c.error || ERRORS[c.error] !== name) bad.push(`${where}: threw ${name}: ${(e as Error).message}`);
        continue;
      }
      if (c.error) { bad.push(`${where}: NumPy raises ${c.error}, we gave a result`); continue; }
      const outs = c.out!;
      if (ys.length !== outs.length) { bad.push(`${where}: ${ys.length} arrays, NumPy ${outs.length}`); continue; }
      ys.forEach((y, k) => {
        const want = outs[k]!;
        const got = read(y);
        const values = want.values.map((r) => decode(r, want.dtype));
        const integral = want.dtype === 'int64' || want.dtype === 'uint64';
        const agree = (v: number, j: number): boolean => {
          if (integral && roundedProduct(fn, v)) { hits.roundedProduct++; return true; }
          return same(v, values[j]!);
        };
        if (got.dtype !== ourDType(fn, want.dtype)) bad.push(`${where}: dtype ${got.dtype}, NumPy ${want.dtype}`);
        else if (JSON.stringify(got.shape) !== JSON.stringify(want.shape)) bad.push(`${where}: shape ${JSON.stringify(got.shape)}, NumPy ${JSON.stringify(want.shape)}`);
        else if (!got.values.every(agree)) bad.push(`${where}: got ${got.values.slice(0, 12).join(', ')}; NumPy ${values.slice(0, 12).join(', ')}`);
      });
    }
    expect(bad.slice(0, 20)).toEqual([]);
  });

  test('each deviation is reached (one nothing reaches is stale)', () => {
    expect(hits.zeroDNonzero).toBeGreaterThan(0);
    expect(hits.uncheckedEmpty).toBeGreaterThan(0);
    expect(hits.roundedProduct).toBeGreaterThan(0);
  });
});
