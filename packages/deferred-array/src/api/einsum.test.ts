// einsum against NumPy (test/vectors/einsum.json, from scripts/numpy/gen_einsum.py)
// on both backends, the greedy order against NumPy's einsum_path, random
// subscripts against a direct sum over every label, and bad input.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import * as da from '../index.js';
import { keepBackend } from '../../test/keep-backend.js';
import { greedyPath } from './einsum-path.js';

interface Arr { readonly shape: number[]; readonly dtype: da.DType; readonly values: Array<number | boolean> }
interface Case extends Arr { readonly subscripts: string; readonly operands: Arr[]; readonly rounds: boolean; readonly magnitude?: number[] }
interface SublistCase extends Arr { readonly operands: Arr[]; readonly sublists: da.Sublist[]; readonly output: da.Sublist | null }
const V = JSON.parse(readFileSync(new URL('../../test/vectors/einsum.json', import.meta.url), 'utf8')) as {
  cases: Case[];
  sublists: SublistCase[];
  paths: Array<{ subscripts: string; shapes: number[][]; path: number[][] }>;
};

const of = (a: Arr): da.DeferredArray => da.array(a.values as number[], { dtype: a.dtype }).reshape(a.shape);
const got = (x: da.DeferredArray): Arr => {
  const r = x.executeSync() as da.StdNdarray;
  return { shape: [...x.shape], dtype: x.dtype, values: Array.from({ length: x.size }, (_, i) => r.iget(i) as number | boolean) };
};
const want = (c: Arr): Arr => ({ shape: c.shape, dtype: c.dtype, values: c.values });
const EPS: Partial<Record<da.DType, number>> = { float64: 2 ** -52, float32: 2 ** -23 };

keepBackend();

describe.each(['reference', 'wasm'] as const)('against NumPy on the %s backend', (b) => {
  test(`${V.cases.length} cases, ${new Set(V.cases.map((c) => c.subscripts)).size} subscript strings`, () => {
    da.configure({ backend: b });
    for (const c of V.cases) {
      const r = got(da.einsum(c.subscripts, ...c.operands.map(of)));
      const label = `${c.subscripts} ${c.operands.map((o) => `${o.dtype}(${o.shape.join(',')})`).join(' ')}`;
      if (!c.rounds) {
        expect([label, r]).toEqual([label, want(c)]);
        continue;
      }
      // Another order of summation: within a few eps of the sum of |terms|.
      expect([label, r.shape, r.dtype]).toEqual([label, c.shape, c.dtype]);
      r.values.forEach((v, i) => {
        const bound = 64 * EPS[c.dtype]! * c.magnitude![i]!;
        expect([label, i, Math.abs((v as number) - (c.values[i] as number)) <= bound]).toEqual([label, i, true]);
      });
    }
  });

  test('the interleaved form: operand, sublist, …, output sublist', () => {
    da.configure({ backend: b });
    for (const c of V.sublists) {
      const args = c.operands.flatMap((o, i) => [of(o), c.sublists[i]!]);
      const r = got(c.output === null ? da.einsum(...args) : da.einsum(...args, c.output));
      expect([c.sublists, r]).toEqual([c.sublists, want(c)]);
    }
  });
});

test("the greedy order is NumPy's einsum_path(optimize='greedy') where a label is summed", () => {
  for (const p of V.paths) {
    const [inputs, output] = p.subscripts.split('->') as [string, string];
    const terms = inputs.split(',').map((t) => [...t]);
    const sizes = new Map<string, number>();
    terms.forEach((t, k) => t.forEach((l, i) => sizes.set(l, p.shapes[k]![i]!)));
    const summed = [...sizes.keys()].some((l) => !output.includes(l));
    if (summed) expect([p.subscripts, greedyPath(terms, [...output], sizes)]).toEqual([p.subscripts, p.path]);
  }
});

/** einsum by its definition: every assignment of the labels, the product of the operands there, summed into the output. */
function direct(terms: string[], output: string, arrays: Array<{ shape: number[]; values: number[] }>): { shape: number[]; values: number[] } {
  const sizes = new Map<string, number>();
  // A label's length is the one other than 1, where an operand has one (0 included): 1 broadcasts.
  terms.forEach((t, k) => [...t].forEach((l, i) => {
    if ((sizes.get(l) ?? 1) === 1) sizes.set(l, arrays[k]!.shape[i]!);
  }));
  const labels = [...sizes.keys()];
  const shape = [...output].map((l) => sizes.get(l)!);
  const values = new Array<number>(shape.reduce((p, n) => p * n, 1)).fill(0);
  const at = new Map<string, number>();
  const walk = (d: number): void => {
    if (d === labels.length) {
      let p = 1;
      terms.forEach((t, k) => {
        const a = arrays[k]!;
        let flat = 0;
        [...t].forEach((l, i) => {
          flat = flat * a.shape[i]! + (a.shape[i] === 1 ? 0 : at.get(l)!);
        });
        p *= a.values[flat]!;
      });
      let o = 0;
      [...output].forEach((l, i) => {
        o = o * shape[i]! + at.get(l)!;
      });
      values[o] = values[o]! + p;
      return;
    }
    for (let v = 0; v < sizes.get(labels[d]!)!; v++) {
      at.set(labels[d]!, v);
      walk(d + 1);
    }
  };
  walk(0);
  return { shape, values };
}

interface RandomSpec {
  readonly terms: string[];
  readonly output: string | undefined;
  readonly shapes: number[][];
}

const LABELS = 'abcdE';
const randomSpec: fc.Arbitrary<RandomSpec> = fc.record({
  sizes: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: LABELS.length, maxLength: LABELS.length }),
  terms: fc.array(fc.array(fc.record({ label: fc.integer({ min: 0, max: LABELS.length - 1 }), broadcast: fc.integer({ min: 0, max: 4 }) }), { maxLength: 3 }), { minLength: 1, maxLength: 4 }),
  implicit: fc.boolean(),
  pick: fc.array(fc.boolean(), { minLength: LABELS.length, maxLength: LABELS.length }),
  rotate: fc.nat(LABELS.length),
}).map(({ sizes, terms, implicit, pick, rotate }) => {
  const texts = terms.map((t) => t.map((a) => LABELS[a.label]!).join(''));
  const shapes = terms.map((t, k) => t.map((a) => {
    const l = LABELS[a.label]!;
    // A length-1 axis broadcasts, but not where the label repeats in this operand (that takes a diagonal).
    const repeated = texts[k]!.split(l).length > 2;
    return a.broadcast === 0 && !repeated ? 1 : sizes[a.label]!;
  }));
  const used = [...new Set(texts.join(''))];
  const chosen = used.filter((l) => pick[LABELS.indexOf(l)]);
  const output = implicit ? undefined : [...chosen.slice(rotate % Math.max(1, chosen.length)), ...chosen.slice(0, rotate % Math.max(1, chosen.length))].join('');
  return { terms: texts, output, shapes };
});

describe.each([['reference', 1], ['wasm', 1], ['wasm', 2]] as const)('random subscripts on %s, %i thread(s), against the direct sum', (b, threads) => {
  test('float64 and int32, small integers: bit for bit', () => {
    const before = da.configure();
    da.configure({ backend: b, threads });
    try {
      fc.assert(fc.property(randomSpec, fc.constantFrom('float64', 'int32') as fc.Arbitrary<da.DType>, fc.nat(50), (s, dtype, seed) => {
        const arrays = s.shapes.map((shape, k) => {
          const n = shape.reduce((p, x) => p * x, 1);
          return { shape, values: Array.from({ length: n }, (_, i) => ((i * 5 + seed + k * 3) % 7) - 3) };
        });
        const implicitOutput = [...new Set(s.terms.join(''))].filter((l) => s.terms.join('').split(l).length === 2).sort().join('');
        const output = s.output ?? implicitOutput;
        const subscripts = `${s.terms.join(',')}${s.output === undefined ? '' : `->${s.output}`}`;
        const r = da.einsum(subscripts, ...arrays.map((a) => da.array(a.values, { dtype }).reshape(a.shape)));
        const d = direct(s.terms, output, arrays);
        expect([subscripts, s.shapes, got(r)]).toEqual([subscripts, s.shapes, { shape: d.shape, dtype, values: d.values }]);
      }), { numRuns: 120, seed: 20261126 });
    } finally {
      da.configure({ threads: before.threads });
    }
  });
});

describe('what einsum gives back', () => {
  test('a new array even when nothing moves, and fused work after it', () => {
    const x = da.arange(6).astype('float64').reshape([2, 3]);
    const y = da.einsum('ij->ij', x);
    expect(y).not.toBe(x);
    expect(got(y.mul(2).add(1))).toEqual(got(x.mul(2).add(1)));
  });

  test('dtypes: promotion as NumPy, integers wrap, bools are or-of-ands', () => {
    const f32 = da.ones([3], { dtype: 'float32' });
    expect(da.einsum('i,i', f32, f32).dtype).toBe('float32');
    expect(da.einsum('i,i', f32, da.ones([3], { dtype: 'int32' })).dtype).toBe('float64');
    expect(da.einsum('i,i->i', da.ones([2], { dtype: 'uint8' }), da.ones([2], { dtype: 'bool' })).dtype).toBe('uint8');
    expect(got(da.einsum('i->', da.array([2 ** 31 - 1, 1], { dtype: 'int32' }))).values).toEqual([-(2 ** 31)]);
    expect(got(da.einsum('ij->', da.array([[false, false], [false, true]]))).values).toEqual([true]);
  });

  test("-0 as NumPy's: a product comes out +0 (NumPy adds it into zeros), a lone operand's view keeps -0", () => {
    const signs = (x: da.DeferredArray): boolean[] => got(x).values.map((v) => Object.is(v, -0));
    const z = da.array([0, -0, 1]);
    const n = da.array([-1, 1, -0]);
    expect(signs(da.einsum('i,i->i', z, n))).toEqual([false, false, false]);
    expect(signs(da.einsum('i,j->ij', z, n))).toEqual(Array<boolean>(9).fill(false));
    expect(signs(da.einsum('i,i', z, n))).toEqual([false]);
    expect(signs(da.einsum('ij,jk', z.reshape([3, 1]), n.reshape([1, 3])))).toEqual(Array<boolean>(9).fill(false));
    expect(signs(da.einsum('i->i', z))).toEqual([false, true, false]);
    expect(signs(da.einsum('ii->i', da.array([[-0, 1], [2, -0]])))).toEqual([true, true]);
    expect(signs(da.einsum('i->', da.array([-0, -0])))).toEqual([false]);
  });

  test('a label of length 1 broadcasts against one of length 0, as NumPy', () => {
    expect(got(da.einsum('ij,jk->ik', da.ones([2, 1]), da.ones([0, 3])))).toEqual({ shape: [2, 3], dtype: 'float64', values: [0, 0, 0, 0, 0, 0] });
    expect(got(da.einsum('bi,bi->b', da.ones([1, 2]), da.ones([0, 2])))).toEqual({ shape: [0], dtype: 'float64', values: [] });
  });

  test('JS numbers are 0-d operands', () => {
    expect(got(da.einsum(',i->i', 2, da.array([1, 2, 3])))).toEqual({ shape: [3], dtype: 'float64', values: [2, 4, 6] });
  });
});

describe('bad input says what was wrong', () => {
  const m = da.ones([2, 3]);
  const cases: Array<[string, () => unknown, RegExp]> = [
    ['no arguments', () => (da.einsum as (...a: unknown[]) => unknown)(), /give the subscripts and the operands/],
    ['no operands', () => da.einsum('ij'), /is given no operands/],
    ['too few operands', () => da.einsum('ij,jk', m), /names 2 operands but 1 was given/],
    ['a stray character', () => da.einsum('ij,jk->ik->', m, m), /more than one '->'/],
    ['a digit', () => da.einsum('i1', m), /has "1"; subscripts are letters/],
    ['a lone dot', () => da.einsum('i.j', m), /'\.' that is not part of an ellipsis/],
    ['two ellipses', () => da.einsum('...i...', m), /more than one ellipsis/],
    ['too few labels', () => da.einsum('i', m), /operand 0 has 2 axes but its subscripts .* name 1; add '\.\.\.'/],
    ['too many labels', () => da.einsum('ijk', m), /operand 0 has 2 axes but its subscripts .* name 3; give one letter per axis/],
    ['an output label twice', () => da.einsum('ij->ii', m), /names 'i' twice/],
    ['an output label no input has', () => da.einsum('ij->k', m), /names 'k', which no input has/],
    ['ellipsis axes dropped', () => da.einsum('...i->i', da.ones([2, 3])), /no '\.\.\.'; write '\.\.\.' in the output/],
    ['lengths that differ', () => da.einsum('ij,jk', m, da.ones([4, 2])), /'j' in "ij,jk" has length 3 in operand 0 and 4 in operand 1/],
    ['a diagonal of a non-square pair', () => da.einsum('ii', m), /label 'i' repeats in operand 0 over axes of lengths 2 and 3/],
    ['a bad sublist', () => da.einsum(m, [0, 60]), /holds number 60; a sublist holds integers in \[0, 52\)/],
    ['a sublist that is not a list', () => da.einsum(m, 'ij' as unknown as da.Sublist, m, [0]), /must be a list of integers/],
    ['an operand without its sublist', () => da.einsum(m, [0, 1], m), /operand 1 has no sublist after it/],
  ];
  test.each(cases)('%s', (_, f, message) => {
    expect(f).toThrow(message);
  });
});
