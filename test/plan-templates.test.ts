// Requests planned once per structure: a graph built afresh over other arrays
// and other constants binds the plan made for the first of its structure. A
// request must give what a plan made of its own graph gives (the oracle here:
// that plan run directly, as a compiled function's is, bypassing the cache),
// whatever graph of similar shape made the template it binds; a constant the
// planner rewrites around (x * 1, x / 4, x ** 2) is part of the structure,
// any other is bound.
import { afterAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import * as da from '../packages/deferred-array/src/index.js';
import { createLinker } from '../packages/deferred-array/src/api/default-linker.js';
import type { Outcome } from '../packages/deferred-array/src/execute/linker.js';
import { nodeOf } from '../packages/deferred-array/src/api/deferred-array.js';

const made: da.Runtime[] = [];
afterAll(async () => {
  await Promise.all(made.splice(0).map((rt) => rt.shutdown()));
});

/** A runtime of its own, so its plan cache starts empty. */
function fresh(): da.Runtime {
  const rt = da.createRuntime();
  made.push(rt);
  return rt;
}

const OPS = ['add', 'subtract', 'multiply', 'divide', 'power', 'maximum', 'minimum', 'arctan2', 'hypot', 'floorDivide', 'mod'] as const;
const DTYPES = ['float64', 'float32', 'int32', 'int16', 'uint8'] as const;
/** Constants the planner rewrites around, and others. */
const CONSTANTS = [0, -0, 1, -1, 2, 0.5, 4, 3, 8, -8, 0.3, -1.7, 1e-3, 123.25, Math.PI, NaN, Infinity, 1e300, 9, 100];

interface Step {
  readonly op: (typeof OPS)[number];
  readonly a: number;
  /** An earlier value's index, or a constant's (negative: -1 - k). */
  readonly b: number;
  readonly swap: boolean;
}

interface Program {
  readonly n: number;
  readonly dtypes: readonly (typeof DTYPES)[number][];
  readonly steps: readonly Step[];
  readonly reduce: boolean;
  readonly mark: number;
}

const wiring = fc.record({ a: fc.nat(8), b: fc.integer({ min: -4, max: 8 }), swap: fc.boolean() });

/**
 * A program, and another: the same, or the same but for how one step is
 * wired (most of its structure alike, so a key that missed the difference
 * would bind the wrong template).
 */
const pairs: fc.Arbitrary<[Program, Program]> = fc.record({
  n: fc.constantFrom(0, 1, 3, 8, 17, 1000, 5000),
  dtypes: fc.array(fc.constantFrom(...DTYPES), { minLength: 1, maxLength: 3 }),
  steps: fc.array(fc.record({ op: fc.constantFrom(...OPS), wiring }), { minLength: 1, maxLength: 6 }),
  rewire: fc.option(fc.record({ at: fc.nat(5), wiring })),
  reduce: fc.boolean(),
  mark: fc.tuple(fc.nat(8), fc.nat(8)),
}).map(({ n, dtypes, steps, rewire, reduce, mark }) => [
  { n, dtypes, steps: steps.map((s) => ({ op: s.op, ...s.wiring })), reduce, mark: mark[0] },
  { n, dtypes, steps: steps.map((s, i) => ({ op: s.op, ...(rewire && rewire.at % steps.length === i ? rewire.wiring : s.wiring) })), reduce, mark: mark[1] },
]);

/** The program over arrays made from `seed`, its k-th constant `constants[k]`; its roots. */
function build(p: Program, seed: number, constants: readonly number[]): da.DeferredArray[] {
  const values: da.DeferredArray[] = p.dtypes.map((dtype, i) =>
    da.array(Array.from({ length: p.n }, (_, j) => ((j * 7 + seed * 13 + i * 5) % 23) - 9), { dtype }));
  let k = 0;
  for (const s of p.steps) {
    const a = values[s.a % values.length]!;
    const b = s.b < 0 ? constants[k++ % constants.length]! : values[s.b % values.length]!;
    const [x, y] = s.swap && s.b < 0 ? [b, a] : [a, b];
    values.push((da as unknown as Record<string, (x: unknown, y: unknown) => da.DeferredArray>)[s.op]!(x, y));
  }
  const last = values[values.length - 1]!;
  values[p.mark % values.length]!.output('marked');
  return p.reduce ? [last, last.sum()] : [last];
}

/**
 * Each result's values, the record's marked output first where there is one;
 * or the error it raised. Every value exactly (String round-trips a double;
 * -0 kept), except the sign and payload of a NaN, which WebAssembly leaves
 * unspecified (a kernel's vector and scalar loops may differ).
 */
function outcome(run: () => Outcome | undefined): string[] {
  let r: Outcome | undefined;
  try {
    r = run();
  } catch (e) {
    return [`${(e as Error).name}: ${(e as Error).message}`];
  }
  const list = Array.isArray(r) ? r : [(r as da.OutputRecord)['marked'] as da.StdNdarray, ...((r as da.OutputRecord)['result'] as da.StdNdarray[])];
  return list.map((x) => Array.from(x.data as ArrayLike<number>, (v) => (Object.is(v, -0) ? '-0' : String(v))).join(' '));
}

describe('plan templates', () => {
  test('a request bound to a template made by another graph gives what a plan of its own graph gives', () => {
    const constants = fc.array(fc.constantFrom(...CONSTANTS), { minLength: 1, maxLength: 4 });
    fc.assert(fc.property(pairs, constants, constants, ([p, q], first, second) => {
      const linker = createLinker();
      linker.configure({ errors: { divide: 'ignore', invalid: 'ignore' } });
      outcome(() => linker.runNodes(build(p, 1, first).map(nodeOf), true));
      const roots = (): ReturnType<typeof nodeOf>[] => build(q, 2, second).map(nodeOf);
      const bound = outcome(() => linker.runNodes(roots(), true));
      const own = outcome(() => {
        const r = roots();
        return linker.runBound(linker.plan(r), new Map(), true);
      });
      expect(bound).toEqual(own);
    }), { numRuns: 150 });
  });

  test('1,000 graphs built afresh, with a constant that changes each time, make one plan', () => {
    const rt = fresh();
    const x = da.array(new Float64Array(1000).map((_, i) => i * 0.01));
    const y = da.array(new Float64Array(1000).fill(2));
    const want: number[] = [];
    const got: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const c = Math.PI + i;
      const r = rt.executeSync([da.sin(x.mul(c)).add(y).sum()]) as da.StdNdarray[];
      got.push(r[0]!.get() as number);
      if (i % 250 === 0) want.push(...((fresh().executeSync([da.sin(x.mul(c)).add(y).sum()]) as da.StdNdarray[]).map((v) => v.get() as number)));
    }
    expect(rt.stats().plans).toBe(1);
    expect(rt.stats().plansReused).toBe(999);
    expect(rt.stats().caches.plans).toBe(1);
    expect([0, 250, 500, 750].map((i) => got[i])).toEqual(want);
  });

  test('a constant the planner rewrites around is part of the structure: x / 4 and x / 3.3 plan apart, and each keeps its bits', () => {
    const rt = fresh();
    const data = new Float64Array(64).map((_, i) => i * 0.37 - 5);
    const x = da.array(data);
    const quarter = rt.executeSync([x.div(4)]) as da.StdNdarray[];
    const third = rt.executeSync([x.div(3.3)]) as da.StdNdarray[];
    const fifth = rt.executeSync([x.div(5.5)]) as da.StdNdarray[];
    expect(rt.stats().plans).toBe(2);
    const div = (c: number): number[] => Array.from(data, (v) => v / c);
    expect(Array.from(quarter[0]!.data as Float64Array)).toEqual(div(4));
    expect(Array.from(third[0]!.data as Float64Array)).toEqual(div(3.3));
    expect(Array.from(fifth[0]!.data as Float64Array)).toEqual(div(5.5));
  });

  test('the same array twice and two equal arrays are different structures', () => {
    const rt = fresh();
    const a = da.array([1, 2, 3]);
    const b = da.array([10, 20, 30]);
    expect(Array.from((rt.executeSync([a.sub(a)]) as da.StdNdarray[])[0]!.data as Float64Array)).toEqual([0, 0, 0]);
    expect(Array.from((rt.executeSync([a.sub(b)]) as da.StdNdarray[])[0]!.data as Float64Array)).toEqual([-9, -18, -27]);
    expect(rt.stats().plans).toBe(2);
  });

  test('constants are bound per request: equal ones are one leaf, different ones two', () => {
    const rt = fresh();
    const x = da.array([1, 2, 4]);
    const run = (c: number, d: number): number[] => Array.from((rt.executeSync([x.mul(c).add(d)]) as da.StdNdarray[])[0]!.data as Float64Array);
    expect(run(0.3, 0.3)).toEqual([1 * 0.3 + 0.3, 2 * 0.3 + 0.3, 4 * 0.3 + 0.3]);
    expect(run(0.3, 1.7)).toEqual([1 * 0.3 + 1.7, 2 * 0.3 + 1.7, 4 * 0.3 + 1.7]);
    expect(run(1.7, 0.3)).toEqual([1 * 1.7 + 0.3, 2 * 1.7 + 0.3, 4 * 1.7 + 0.3]);
    expect(run(Math.E, Math.E)).toEqual([1 * Math.E + Math.E, 2 * Math.E + Math.E, 4 * Math.E + Math.E]);
    expect([rt.stats().plans, rt.stats().plansReused]).toEqual([2, 2]);
  });

  test('the record of marked outputs follows the names and the order of marking', () => {
    const rt = fresh();
    const make = (names: [string, string]): da.OutputRecord => {
      const x = da.array([1, 2, 3]);
      const p = x.add(Math.PI);
      const q = p.mul(Math.E);
      p.output(names[0]);
      q.output(names[1]);
      return rt.executeSync([q.sub(1)]) as da.OutputRecord;
    };
    const r1 = make(['p', 'q']);
    const r2 = make(['q', 'p']);
    expect(Object.keys(r1)).toEqual(['p', 'q', 'result']);
    expect(Object.keys(r2)).toEqual(['q', 'p', 'result']);
    expect((r2['q'] as da.StdNdarray).get(0)).toBeCloseTo(1 + Math.PI);
  });
});
