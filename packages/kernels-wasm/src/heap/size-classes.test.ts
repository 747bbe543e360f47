import { CLASS_COUNT, MAX_UNITS, classMin, classOf } from './size-classes.js';

describe('size classes', () => {
  test('every size falls between its class minimum and the next class minimum', () => {
    const sizes = [...Array.from({ length: 5000 }, (_, i) => i + 1), MAX_UNITS - 1, MAX_UNITS, 2 ** 20 + 12345, 2 ** 27 - 1];
    for (const u of sizes) {
      const c = classOf(u);
      expect(c).toBeLessThan(CLASS_COUNT);
      expect(classMin(c)).toBeLessThanOrEqual(u);
      expect(classMin(c + 1)).toBeGreaterThan(u);
    }
  });

  test('class minima strictly increase and map back to their class', () => {
    for (let c = 1; c < CLASS_COUNT; c++) {
      expect(classOf(classMin(c))).toBe(c);
      if (c > 1) expect(classMin(c)).toBeGreaterThan(classMin(c - 1));
    }
  });

  test('small blocks get exact classes; larger ones four per power of two', () => {
    expect([1, 2, 7].map(classOf)).toEqual([1, 2, 7]);
    expect([8, 9, 10, 12, 14, 15, 16].map(classOf)).toEqual([8, 8, 9, 10, 11, 11, 12]);
    // A class never spans more than 25% of its minimum, which bounds good-fit waste.
    for (let c = 8; c < CLASS_COUNT - 1; c++) expect(classMin(c + 1) / classMin(c)).toBeLessThanOrEqual(1.25);
  });

  test('the whole 4 GiB memory has a class', () => {
    expect(classOf(MAX_UNITS)).toBe(CLASS_COUNT - 1);
  });
});
