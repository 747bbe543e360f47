import { InternalError, at } from './internal-error.js';
import { piFixed } from './math/two-over-pi.js';

describe('at', () => {
  test('returns the entry at an index in range, of arrays and typed arrays alike', () => {
    expect(at(['a', 'b', 'c'], 1)).toBe('b');
    expect(at(new Float64Array([0.5, -0]), 1)).toBe(-0);
  });

  test('throws an InternalError naming what was looked up, the index and the length', () => {
    expect(() => at([1, 2], 2, 'array')).toThrow(InternalError);
    expect(() => at([1, 2], 2, 'array')).toThrow('internal: no array 2 (of 2)');
    expect(() => at([1, 2], -1)).toThrow('internal: no entry -1 (of 2)');
  });

  test('an undefined entry counts as missing: a sparse array never hands out a hole', () => {
    const holes = new Array<number>(3);
    expect(() => at(holes, 0, 'value')).toThrow(InternalError);
  });
});

describe('piFixed', () => {
  test('is computed once and then handed out unchanged', () => {
    const first = piFixed();
    expect(piFixed()).toBe(first);
    // pi * 2^1400 starts with pi's leading bits: 3.14159... = 0b11.0010010000111111...
    expect(first.toString(2).slice(0, 20)).toBe('11001001000011111101');
  });
});
