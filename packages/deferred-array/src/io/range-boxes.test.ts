import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { rangeBoxes } from './range-boxes.js';

/** The C-order flat indices a box covers, in order. */
function indicesOf(shape: readonly number[], box: { fixed: readonly number[]; start: number; stop: number }): number[] {
  const a = box.fixed.length;
  const out: number[] = [];
  const strides = shape.map((_, k) => shape.slice(k + 1).reduce((p, d) => p * d, 1));
  const base = box.fixed.reduce((s, i, k) => s + i * strides[k]!, 0);
  for (let i = box.start; i < box.stop; i++) {
    for (let j = 0; j < strides[a]!; j++) out.push(base + i * strides[a]! + j);
  }
  return out;
}

describe('rangeBoxes', () => {
  test('the boxes tile the range, in order, each within the array', () => {
    fc.assert(fc.property(
      fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 }),
      fc.nat(), fc.nat(),
      (shape, p, q) => {
        const n = shape.reduce((s, d) => s * d, 1);
        const [from, to] = [p % (n + 1), q % (n + 1)].sort((x, y) => x - y) as [number, number];
        const boxes = rangeBoxes(shape, from, to);
        for (const b of boxes) {
          b.fixed.forEach((i, k) => expect(i).toBeLessThan(shape[k]!));
          expect(b.stop).toBeLessThanOrEqual(shape[b.fixed.length]!);
          expect(b.start).toBeLessThan(b.stop);
        }
        expect(boxes.flatMap((b) => indicesOf(shape, b))).toEqual(Array.from({ length: to - from }, (_, i) => from + i));
        // At most two boxes per axis but the first: the parts before and after the whole rows.
        expect(boxes.length).toBeLessThanOrEqual(2 * shape.length - 1);
      },
    ));
  });

  test('whole rows make one box; a 0-d array and an empty range none', () => {
    expect(rangeBoxes([4, 3], 3, 9)).toEqual([{ fixed: [], start: 1, stop: 3 }]);
    expect(rangeBoxes([4, 3], 2, 10)).toEqual([
      { fixed: [0], start: 2, stop: 3 }, { fixed: [], start: 1, stop: 3 }, { fixed: [3], start: 0, stop: 1 },
    ]);
    expect(rangeBoxes([], 0, 1)).toEqual([]);
    expect(rangeBoxes([5], 2, 2)).toEqual([]);
  });
});
