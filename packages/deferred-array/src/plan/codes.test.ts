// Structure codes (codes.ts, template.ts): equal graphs get equal codes,
// graphs that differ anywhere the planner looks get different ones, a hash
// collision never binds the wrong template, and codes made on either side of
// the name table's reset never compare equal.
import { describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { nodeOf } from '../api/deferred-array.js';
import { Names, sameCode } from './codes.js';
import { Templates, structureOf } from './template.js';

const x = da.array([1, 2, 3, 4]);
const y = da.array([5, 6, 7, 8]);
const names = new Names();
// Copied: a structure's code is the walks' shared list, good until the next walk.
const codeOf = (r: da.DeferredArray): { code: readonly number[]; hash: number } => {
  const s = structureOf([nodeOf(r)], 'kernels', names)!;
  return { code: [...s.code], hash: s.hash };
};

describe('structure codes', () => {
  test('graphs built apart alike have one code; a different op, constant the planner reads, shape, dtype or wiring changes it', () => {
    const base = codeOf(x.mul(1.5).add(y));
    expect(sameCode(codeOf(x.mul(1.5).add(y)).code, base.code)).toBe(true);
    // A constant the planner does not read is a leaf: its value is not in the code. Nor are
    // the arrays themselves: leaves are numbered by first reading.
    expect(sameCode(codeOf(x.mul(2.5).add(y)).code, base.code)).toBe(true);
    expect(sameCode(codeOf(y.mul(1.5).add(x)).code, base.code)).toBe(true);
    for (const other of [
      x.mul(1.5).sub(y), // op
      x.mul(1).add(y), // a constant the planner rewrites around
      x.mul(1.5).add(x), // which leaves are the same array
      y.add(x.mul(1.5)), // wiring: the same ops, the add's inputs the other way round
      x.astype('float32').mul(1.5).add(y), // dtype
      da.array([[1, 2], [3, 4]]).mul(1.5).add(da.array([[5, 6], [7, 8]])), // shape
    ]) expect(sameCode(codeOf(other).code, base.code)).toBe(false);
  });

  test('equal free constants are one leaf, found by a search while few and by a map past eight', () => {
    // 12 constants a plan does not read: their values are not in the code, which of them are equal is.
    const sums = (vals: readonly number[]): da.DeferredArray => vals.reduce<da.DeferredArray>((a, v) => a.add(v), x);
    const distinct = (k: number): number[] => Array.from({ length: 12 }, (_, i) => k + i + 0.5);
    const withRepeat = (at: number, of: number): number[] => distinct(1).map((v, i, all) => (i === at ? all[of]! : v));
    const base = codeOf(sums(distinct(1)));
    expect(sameCode(codeOf(sums(distinct(100))).code, base.code)).toBe(true);
    const repeats = [withRepeat(3, 1), withRepeat(10, 1), withRepeat(10, 2), withRepeat(11, 9)].map((v) => codeOf(sums(v)).code);
    for (const [i, c] of repeats.entries()) {
      expect(sameCode(c, base.code)).toBe(false);
      repeats.forEach((d, j) => expect([i, j, sameCode(c, d)]).toEqual([i, j, i === j]));
    }
    // The same pattern of repeats with other values: one code.
    expect(sameCode(codeOf(sums(withRepeat(10, 2).map((v) => v + 50))).code, repeats[2]!)).toBe(true);
    // Every NaN is one leaf, as a map's keys are.
    expect(sameCode(codeOf(x.add(NaN).mul(NaN)).code, codeOf(x.add(1.5).mul(1.5)).code)).toBe(true);
    // And the values are bound right on a hit, repeats included.
    const vals = withRepeat(10, 2).map((v) => v + 7);
    const want = [1, 2, 3, 4].map((v) => vals.reduce((a, c) => a + c, v));
    expect(Array.from(sums(vals).executeSync().data as Float64Array)).toEqual(want);
  });

  test('two structures of one hash each get their own template: the code is compared in full', () => {
    const templates = new Templates<{ id: number }>(8);
    const a = { code: [0, 1, 2, 3], hash: 42 };
    const b = { code: [0, 1, 2, 4], hash: 42 };
    expect(templates.get(a, () => ({ id: 1 })).id).toBe(1);
    expect(templates.get(b, () => ({ id: 2 })).id).toBe(2);
    expect(templates.get(a, () => ({ id: 3 })).id).toBe(1);
    expect(templates.get(b, () => ({ id: 4 })).id).toBe(2);
    expect(templates.stats()).toEqual({ templates: 2, reused: 2 });
  });

  test('when the table of names fills it starts a new epoch, and no code of the old one equals a new one', () => {
    const graph = (): da.DeferredArray => x.get('1:').mul(1.5).sum({ axis: 0 });
    const before = codeOf(graph());
    const epoch = names.epoch;
    // Fill the table with names never seen (one per call), until it starts over.
    for (let i = 0; names.epoch === epoch; i++) names.name(`filler ${i} ${Math.random()}`);
    const after = codeOf(graph());
    expect(after.code[0]).toBe(epoch + 1);
    expect(sameCode(after.code, before.code)).toBe(false);
    const templates = new Templates<{ made: string }>(8);
    templates.get(before, () => ({ made: 'before' }));
    expect(templates.get(after, () => ({ made: 'after' })).made).toBe('after');
    // Within the new epoch, the same graph has the same code again.
    expect(sameCode(codeOf(graph()).code, after.code)).toBe(true);
  });
});
