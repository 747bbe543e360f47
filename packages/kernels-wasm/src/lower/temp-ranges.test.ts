import fc from 'fast-check';
import { blockRange } from './temp-ranges.js';

/** The range by visiting every element. */
function bruteRange(shape: readonly number[], s: readonly number[], a: number, b: number): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (let flat = a; flat < b; flat++) {
    let rest = flat;
    let at = 0;
    for (let d = shape.length - 1; d >= 0; d--) { at += (rest % shape[d]!) * s[d]!; rest = Math.floor(rest / shape[d]!); }
    lo = Math.min(lo, at);
    hi = Math.max(hi, at);
  }
  return [lo, hi + 1];
}

describe('pinned temporaries: the range a block reads', () => {
  test('same shape: exactly the block', () => {
    expect(blockRange([4, 5], [5, 1], 3, 13)).toEqual([3, 13]);
  });

  test('a row broadcast over several rows needs the whole row; within one row, its part', () => {
    expect(blockRange([4, 5], [0, 1], 3, 13)).toEqual([0, 5]);
    expect(blockRange([4, 5], [0, 1], 6, 9)).toEqual([1, 4]);
  });

  test('a column broadcast needs the rows the block touches', () => {
    expect(blockRange([4, 5], [1, 0], 3, 13)).toEqual([0, 3]);
  });

  test('agrees with visiting every element (random shapes, broadcasts, axis orders and runs)', () => {
    const shapeAndStrides = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }).chain((shape) => {
      // A row-major temporary over the kept axes, with its axes in any order.
      return fc.tuple(fc.constant(shape), fc.array(fc.boolean(), { minLength: shape.length, maxLength: shape.length }),
        fc.shuffledSubarray(shape.map((_, d) => d), { minLength: shape.length, maxLength: shape.length }));
    });
    fc.assert(fc.property(shapeAndStrides, fc.nat(), fc.nat(), ([shape, kept, perm], x, y) => {
      const s = new Array<number>(shape.length).fill(0);
      let stride = 1;
      for (const d of [...perm].reverse()) if (kept[d]) { s[d] = stride; stride *= shape[d]!; }
      const total = shape.reduce((p, q) => p * q, 1);
      const a = x % total;
      const b = a + 1 + (y % (total - a));
      expect(blockRange(shape, s, a, b)).toEqual(bruteRange(shape, s, a, b));
    }), { numRuns: 2000 });
  });
});
