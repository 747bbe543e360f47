import { describe, expect, test } from '@jest/globals';
import * as da from '../index.js';

const values = (x: unknown): number[] => Array.from((x as da.StdNdarray).data as Float64Array);

describe('executing one array again reuses its plan', () => {
  test('ten executes plan once, and give the same values', async () => {
    const y = da.wrap(new Float64Array([1, 2, 3, 4])).mul(3).sin();
    const first = values(y.executeSync());
    const plans = da.stats().plans;
    for (let i = 0; i < 5; i++) expect(values(y.executeSync())).toEqual(first);
    for (let i = 0; i < 5; i++) expect(values(await y.execute())).toEqual(first);
    expect(da.stats().plans).toBe(plans);
  });

  test('from its third execute, an array executed again finds its plan without binding its structure\'s template', () => {
    const y = da.wrap(new Float64Array([1, 2, 3, 4])).mul(3).sin();
    const want = values(y.executeSync());
    // The second request binds the template (a graph executed once keeps nothing of its own); later ones find the plan.
    const before = da.stats().plansReused;
    expect(values(y.executeSync())).toEqual(want);
    const bound = da.stats().plansReused;
    expect(bound).toBe(before + 1);
    for (let i = 0; i < 5; i++) expect(values(y.executeSync())).toEqual(want);
    expect(da.stats().plansReused).toBe(bound);
  });

  test('an output() marked after the first execute is in the next record', () => {
    const x = da.wrap(new Float64Array([1, 2, 3]));
    const t = x.mul(2);
    const y = t.add(1);
    expect(values(y.executeSync())).toEqual([3, 5, 7]);
    t.output('twice');
    const r = y.executeSync() as unknown as { result: da.StdNdarray; twice: da.StdNdarray };
    expect(values(r.result)).toEqual([3, 5, 7]);
    expect(values(r.twice)).toEqual([2, 4, 6]);
  });

  test('a pin() set after the first execute is planned in', () => {
    const x = da.wrap(new Float64Array([0.5, 1.5, 2.5]));
    const s = x.sin();
    const y = s.mul(x);
    const want = values(y.executeSync());
    s.pinCse();
    const plans = da.stats().plans;
    expect(values(y.executeSync())).toEqual(want);
    expect(da.stats().plans).toBe(plans + 1);
    expect(y.explain()).toMatch(/pinCse/);
  });

  test('a request reading a mutable array is planned afresh, and sees the version it was made from', () => {
    const m = da.array([1, 2, 3]);
    const y = m.mul(10);
    m.iadd(1);
    const z = m.mul(10);
    const plans = da.stats().plans;
    expect(values(y.executeSync())).toEqual([10, 20, 30]);
    expect(values(z.executeSync())).toEqual([20, 30, 40]);
    expect(values(y.executeSync())).toEqual([10, 20, 30]);
    expect(da.stats().plans).toBeGreaterThan(plans + 2);
  });
});
