// Random compiled functions against the same function run uncompiled at the
// sizes each call binds: the same backend, the same kernels over the same
// blocks, so the values must agree bit for bit (NaN payloads aside). The plan
// is made once, whatever sizes the calls bring.
import { expect, test } from '@jest/globals';
import fc from 'fast-check';
import * as da from '../index.js';

type DType = 'float64' | 'float32' | 'int32' | 'bool';

interface Arg {
  readonly dtype: DType;
  /** Axes: 'n' and 'm' are symbols, 1 a broadcast axis. */
  readonly dims: ReadonlyArray<'n' | 'm' | 1>;
}

interface Step {
  readonly op: string;
  readonly args: readonly [number, number, number];
}

interface Program {
  readonly args: readonly Arg[];
  readonly steps: readonly Step[];
  readonly final: 'none' | 'sum' | 'maxAxis0' | 'allLast';
  readonly calls: ReadonlyArray<{ readonly n: number; readonly m: number; readonly seed: number }>;
}

const OPS = ['add', 'subtract', 'multiply', 'divide', 'maximum', 'minimum', 'floorDivide', 'less', 'equal', 'logicalAnd',
  'negative', 'abs', 'sqrt', 'square', 'floor', 'isnan', 'logicalNot', 'sin', 'exp', 'where', 'astype:float32', 'astype:int32',
  'view:1:', 'view:::-1', 'view:T', 'scalar:2.5', 'scalar:-3'];
const SIZES = [0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 1000];

const program: fc.Arbitrary<Program> = fc.record({
  args: fc.array(fc.record({
    dtype: fc.constantFrom<DType>('float64', 'float64', 'float32', 'int32', 'bool'),
    dims: fc.constantFrom<Arg['dims']>(['n'], ['n', 'm'], ['n', 1], [1, 'm'], ['n', 'm']),
  }), { minLength: 1, maxLength: 3 }),
  steps: fc.array(fc.record({
    op: fc.constantFrom(...OPS),
    args: fc.tuple(fc.nat(20), fc.nat(20), fc.nat(20)),
  }), { minLength: 1, maxLength: 7 }),
  final: fc.constantFrom('none', 'none', 'sum', 'maxAxis0', 'allLast'),
  calls: fc.array(fc.record({ n: fc.constantFrom(...SIZES), m: fc.constantFrom(...SIZES.slice(0, -1)), seed: fc.nat(100) }), { minLength: 2, maxLength: 4 }),
});

const POOL: Record<DType, number[]> = {
  float64: [0, -0, 1, -1, 0.5, -2.5, 3, 7, -7, Infinity, -Infinity, NaN, 1e300, 5e-324, 100],
  float32: [0, -0, 1, -1, 0.5, -2.5, 3, 7, -7, Infinity, -Infinity, NaN, 3e38, 1e-45, 100],
  int32: [0, 1, -1, 2, -2, 7, -7, 100, 2147483647, -2147483648, 46341],
  bool: [0, 1, 1],
};

/**
 * The program's function. Steps undefined for their dtypes or shapes are
 * skipped, as a user would, and the steps the trace (at symbolic sizes) took
 * are the ones every later run takes: at sizes where two symbols happen to be
 * equal, a step the trace refused would build another function.
 */
function fnOf(p: Program): (...xs: da.DeferredArray[]) => da.DeferredArray {
  let taken: boolean[] | undefined;
  return (...xs) => {
    const vals = [...xs];
    const first = !taken;
    const took: boolean[] = [];
    for (const [k, s] of p.steps.entries()) {
      if (!first && !taken![k]) continue;
      const pick = (i: 0 | 1 | 2) => vals[s.args[i] % vals.length]!;
      const [kind, what] = s.op.includes(':') ? [s.op.slice(0, s.op.indexOf(':')), s.op.slice(s.op.indexOf(':') + 1)] : [s.op, ''];
      try {
        let v: da.DeferredArray;
        if (kind === 'astype') v = pick(0).astype(what as DType);
        else if (kind === 'view') v = what === 'T' ? pick(0).T : pick(0).get(pick(0).ndim === 2 ? `${what}, ::-1` : what);
        else if (kind === 'scalar') v = da.add(pick(0), Number(what));
        else if (kind === 'where') v = da.where(pick(0).astype('bool'), pick(1), pick(2));
        else if (['negative', 'abs', 'sqrt', 'square', 'floor', 'isnan', 'logicalNot', 'sin', 'exp'].includes(kind)) {
          v = (da as unknown as Record<string, (x: unknown) => da.DeferredArray>)[kind]!(pick(0));
        } else v = (da as unknown as Record<string, (x: unknown, y: unknown) => da.DeferredArray>)[kind]!(pick(0), pick(1));
        vals.push(v);
        took.push(true);
      } catch (e) {
        if (!first || !(e instanceof da.DTypeError || e instanceof da.ShapeError)) throw e;
        took.push(false);
      }
    }
    if (first) taken = took;
    const out = vals[vals.length - 1]!;
    if (p.final === 'sum') return out.astype('float64').sum();
    if (p.final === 'maxAxis0' && out.ndim > 0) return out.astype('float64').max({ axis: 0, keepdims: true }).get('::1');
    if (p.final === 'allLast' && out.ndim > 0) return out.all({ axis: -1 });
    return out;
  };
}

function argValues(a: Arg, n: number, m: number, seed: number): da.DeferredArray {
  const shape = a.dims.map((d) => (d === 'n' ? n : d === 'm' ? m : 1));
  const size = shape.reduce((x, y) => x * y, 1);
  const pool = POOL[a.dtype];
  const values = Array.from({ length: size }, (_, i) => pool[(i * 7 + seed) % pool.length]!);
  return da.array(a.dtype === 'bool' ? values.map(Boolean) : values, { dtype: a.dtype }).reshape(shape);
}

const bits = (x: da.StdNdarray): unknown[] => {
  const out: unknown[] = [];
  const walk = (idx: number[]): void => {
    if (idx.length === x.shape.length) out.push(x.get(...idx));
    else for (let i = 0; i < x.shape[idx.length]!; i++) walk([...idx, i]);
  };
  walk([]);
  // NaN is NaN; every other value, -0 included, exactly.
  return out.map((v) => (typeof v === 'number' && Number.isNaN(v) ? 'NaN' : Object.is(v, -0) ? '-0' : v));
};

test('random compiled functions equal the same functions run uncompiled, at every size a call binds', () => {
  const n = da.size('n');
  const m = da.size('m');
  const runs = Number(process.env['COMPILE_RUNS'] ?? 150);
  const seed = process.env['COMPILE_SEED'] === 'random' ? {} : { seed: Number(process.env['COMPILE_SEED'] ?? 20261121) };
  fc.assert(fc.property(program, (p) => {
    const fn = fnOf(p);
    const placeholders = p.args.map((a) => da.placeholder(a.dims.map((d) => (d === 'n' ? n : d === 'm' ? m : 1)), a.dtype));
    let f: da.CompiledFunction;
    try {
      f = da.compile(fn, placeholders);
    } catch (e) {
      // fn fails at any size (a max over an axis fixed at length 0): so does every uncompiled run.
      expect(e).toBeInstanceOf(da.ShapeError);
      for (const c of p.calls) expect(() => fn(...p.args.map((a, i) => argValues(a, c.n, c.m, c.seed + i)))).toThrow(da.ShapeError);
      return;
    }
    for (const c of p.calls) {
      const args = p.args.map((a, i) => argValues(a, c.n, c.m, c.seed + i));
      let expected: da.DeferredArray;
      try {
        expected = fn(...args);
      } catch (e) {
        // Undefined at these sizes (a max over an empty axis): the call says so as the uncompiled function does.
        expect(e).toBeInstanceOf(da.ShapeError);
        expect(() => f.sync(...args)).toThrow(da.ShapeError);
        continue;
      }
      const want = bits(expected.executeSync() as da.StdNdarray);
      const plans = da.stats().plans;
      const got = f.sync(...args) as da.StdNdarray;
      expect(da.stats().plans).toBe(plans);
      expect(got.shape).toEqual(expected.shape);
      expect(bits(got)).toEqual(want);
    }
  }), { numRuns: runs, ...seed });
});
