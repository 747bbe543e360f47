// Theano's lazy cond: the predicate runs first, then only the branch taken.
import { afterEach, describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { toList as list } from '../../test/to-list.js';
import type { Nested } from '../../test/to-list.js';

const values = async (x: da.DeferredArray): Promise<Nested> => list(da.wrap((await x.execute()) as da.StdNdarray));

afterEach(() => {
  da.configure({ errors: { divide: 'warn', invalid: 'warn' } });
});

describe('cond', () => {
  test('takes the branch its predicate names, with execute() and executeSync()', async () => {
    const x = da.array([1, -2, 3]);
    const pos = da.cond(x.sum().gt(0), x.mul(10), x.neg());
    const neg = da.cond(x.sum().lt(0), x.mul(10), x.neg());
    expect(await values(pos)).toEqual([10, -20, 30]);
    expect(list(neg)).toEqual([-1, 2, -3]);
    expect(await values(da.cond(false, x, x.add(1)))).toEqual([2, -1, 4]);
    expect(pos.shape).toEqual([3]);
    expect(pos.dtype).toBe('float64');
  });

  test('branches must agree in shape and dtype; the predicate must be a 0-d bool (checked when built)', () => {
    const a = da.zeros([3]);
    expect(() => da.cond(true, a, da.zeros([4]))).toThrow(da.ShapeError);
    expect(() => da.cond(true, a, da.zeros([3], { dtype: 'float32' }))).toThrow(da.DTypeError);
    expect(() => da.cond(a.gt(0), a, a)).toThrow(/0-d/);
    expect(() => da.cond(a.sum(), a, a)).toThrow(da.DTypeError);
    expect(() => da.cond(1 as unknown as boolean, a, a)).toThrow(TypeError);
  });

  test('nothing of the branch not taken runs: no kernel, no error', async () => {
    da.configure({ errors: { divide: 'raise' } });
    const i = da.arange(4);
    const bad = i.floorDivide(0).mul(3);
    const y = da.cond(i.sum().gt(0), i.add(1), bad);
    const before = da.stats();
    const r = (await y.execute()) as da.StdNdarray;
    const after = da.stats();
    expect([0, 1, 2, 3].map((k) => r.get(k))).toEqual([1, 2, 3, 4]);
    // The predicate's run and the branch's run: two plans.
    expect(after.runs - before.runs).toBe(2);
    await expect(da.cond(i.sum().lt(0), i.add(1), bad).execute()).rejects.toThrow(da.ExecutionError);
  });

  test('20 nested conds run 20 predicates and the taken branches only (linear, not exponential)', async () => {
    const x = da.linspace(0, 1, 50_000);
    let acc = x.add(1);
    const heavy = (k: number) => x.mul(k).sin().exp().add(x.cos()).sqrt().mul(2).sub(1).abs().add(k);
    for (let k = 0; k < 20; k++) acc = da.cond(x.sum().gt(-k), acc.add(1), heavy(k));
    const before = da.stats();
    const r = (await acc.execute()) as da.StdNdarray;
    const after = da.stats();
    expect(r.get(0)).toBe(21);
    expect(after.runs - before.runs).toBe(21);
    if (after.backend === 'wasm') {
      // Two kernels per predicate (the sum, then the compare of its 0-d result) and one for the taken chain of 21 adds.
      expect(after.steps - before.steps).toBe(41);
    } else {
      // The reference evaluator counts nodes: the predicates' and the taken chain's, never a heavy branch's.
      expect(after.steps - before.steps).toBeLessThan(20 * 3 + 50);
    }
  });

  test('marked outputs count only in the branch taken; explain() and printing run nothing', async () => {
    const x = da.array([1, 2]);
    const a = x.mul(2).output('a');
    const b = x.mul(3).output('b');
    const y = da.cond(x.sum().gt(0), a.add(1), b.add(1));
    const runs = da.stats().runs;
    expect(String(y)).toContain('cond(');
    expect(y.explain()).toContain('cond(');
    expect(da.stats().runs).toBe(runs);
    const r = (await y.execute()) as Record<string, da.StdNdarray>;
    expect(Object.keys(r).sort()).toEqual(['a', 'result']);
    expect([r['a']!.get(0), r['result']!.get(1)]).toEqual([2, 5]);
  });

  test('a predicate reading a mutable array forces the writes it needs', async () => {
    const x = da.zeros([3]);
    const y = da.cond(x.sum().gt(0), x.add(1), x.sub(1));
    expect(await values(y)).toEqual([-1, -1, -1]);
    x.iadd(1);
    const z = da.cond(x.sum().gt(0), x.add(1), x.sub(1));
    expect(await values(z)).toEqual([2, 2, 2]);
    expect(da.trace().pending).toBe(0);
  });

  test('a cond in an in-place write is decided when the write is recorded, in program order; the other branch never runs', async () => {
    const m = da.array([1, 2, 3]);
    m.iadd(1);
    // The predicate reads m after the pending iadd(1): sum 9 > 8, so the first branch.
    const c = da.cond(m.sum().gt(8), m.mul(10), m.mul(-1));
    m.iadd(c);
    expect(await values(m)).toEqual([22, 33, 44]);
    const n = da.array([5, 5]);
    n.assign(da.cond(n.sum().lt(0), n.mul(100), n.mul(2)));
    n.iadd(da.cond(true, da.ones([2]), n));
    expect(await values(n)).toEqual([11, 11]);
  });
});
