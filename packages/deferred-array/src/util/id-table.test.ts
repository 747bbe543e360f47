// The reused id table of the request walks (id-table.ts): it agrees with a
// Map over random inserts, ids past 2^32 and growth, empties in O(1), and
// lends a walk inside a walk a table of its own.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { IdTable, borrowIdTable, giveBackIdTable } from './id-table.js';

describe('IdTable', () => {
  test('agrees with a Map over random ids and values, across clears and growth', () => {
    const t = new IdTable();
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.oneof(fc.nat(2000), fc.integer({ min: 2 ** 32 - 5, max: 2 ** 32 + 5 }), fc.constant(2 ** 40 + 7)), fc.nat()), { maxLength: 1500 }),
      fc.array(fc.nat(3000), { maxLength: 50 }),
      (entries, probes) => {
        t.clear();
        const m = new Map<number, number>();
        for (const [id, v] of entries) {
          t.set(id, v);
          m.set(id, v);
        }
        expect(t.size).toBe(m.size);
        for (const [id] of entries) expect(t.get(id)).toBe(m.get(id));
        for (const id of probes) expect(t.get(id)).toBe(m.get(id) ?? -1);
      },
    ));
  });

  test('ids equal in their low 32 bits stay apart', () => {
    const t = new IdTable();
    t.set(5, 1);
    t.set(5 + 2 ** 32, 2);
    expect([t.get(5), t.get(5 + 2 ** 32), t.has(5 + 2 ** 33)]).toEqual([1, 2, false]);
  });

  test('a cleared table is empty, however many walks came before', () => {
    const t = new IdTable();
    for (let walk = 0; walk < 1000; walk++) {
      t.clear();
      expect(t.has(walk - 1)).toBe(false);
      t.set(walk, walk);
    }
    expect(t.size).toBe(1);
  });

  test('a table is lent to one walk at a time; a huge one is not kept', () => {
    const a = borrowIdTable();
    const b = borrowIdTable();
    expect(a).not.toBe(b);
    a.set(1, 1);
    giveBackIdTable(a);
    const c = borrowIdTable();
    expect(c).toBe(a);
    expect(c.size).toBe(0);
    for (let i = 0; i < 70_000; i++) c.set(i, i);
    giveBackIdTable(c);
    giveBackIdTable(b);
    expect(borrowIdTable()).toBe(b);
  });
});
