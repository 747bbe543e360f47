// The constants whose values plans depend on (strength.ts): a power of two is
// told from its bits, subnormals included, and a reciprocal is offered only
// where it is exact in the dtype.
import { describe, expect, test } from '@jest/globals';
import { exactReciprocal, isPowerOfTwo, valueMatters } from './strength.js';

describe('powers of two', () => {
  test('every power of two from 2^-1074 to 2^1023 is one; its float64 neighbours are not', () => {
    for (let k = -1074; k <= 1023; k++) {
      const p = 2 ** k;
      expect([k, isPowerOfTwo(p)]).toEqual([k, true]);
      // Neighbours one ulp away (above; below, where the binade below is not a power itself).
      const up = p + (k > -1022 ? 2 ** (k - 52) : 2 ** -1074);
      if (Number.isFinite(up) && up !== 2 * p) expect([k, 'up', isPowerOfTwo(up)]).toEqual([k, 'up', false]);
      if (k > -1021) expect([k, 'down', isPowerOfTwo(p - 2 ** (k - 53))]).toEqual([k, 'down', false]);
    }
  });

  test('values that are not powers of two: sums of two powers, across the subnormal boundary and the words', () => {
    for (const v of [3, 5, 6, 0.75, 1.5, 3 * 2 ** -1074, 2 ** -1074 + 2 ** -1040, 2 ** -1022 + 2 ** -1074, 2 ** -1030 + 2 ** -1060, 1 + 2 ** -52, 1 + 2 ** -20, Number.MAX_VALUE]) {
      expect([v, isPowerOfTwo(v)]).toEqual([v, false]);
    }
  });

  test('exactReciprocal: powers of two of either sign whose reciprocal the dtype holds; nothing for integers, 0, Inf or NaN', () => {
    expect(exactReciprocal(4, 'float64')).toBe(0.25);
    expect(exactReciprocal(-0.5, 'float64')).toBe(-2);
    expect(exactReciprocal(2 ** -1023, 'float64')).toBe(2 ** 1023);
    // 2^1074 overflows; 2^-149 is float32's smallest, but its reciprocal is past float32's largest.
    expect(exactReciprocal(2 ** -1074, 'float64')).toBeUndefined();
    expect(exactReciprocal(2 ** -149, 'float32')).toBeUndefined();
    expect(exactReciprocal(2 ** -126, 'float32')).toBe(2 ** 126);
    for (const c of [3, 0, -0, Infinity, -Infinity, NaN]) expect(exactReciprocal(c, 'float64')).toBeUndefined();
    expect(exactReciprocal(4, 'int32')).toBeUndefined();
  });

  test('valueMatters: -0, small integers and exact reciprocals; an ordinary constant does not', () => {
    for (const c of [-0, 0, 1, -8, 8, 0.5, 2 ** -30]) expect([c, valueMatters(c, 'float64')]).toEqual([c, true]);
    for (const c of [1.5, 9.5, Math.PI, 0.1, NaN]) expect([c, valueMatters(c, 'float64')]).toEqual([c, false]);
  });
});
