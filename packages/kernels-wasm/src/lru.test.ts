import { Lru } from './lru.js';

describe('Lru', () => {
  test('a hit becomes the most recent; past the bound the least recent goes, and dispose hears of it', () => {
    const gone: string[] = [];
    const c = new Lru<string, number>({ max: 3, dispose: (v, k) => gone.push(`${k}=${v}`) });
    c.set('a', 1).set('b', 2).set('c', 3);
    expect(c.get('a')).toBe(1);
    c.set('d', 4);
    expect(gone).toEqual(['b=2']);
    expect(c.has('b')).toBe(false);
    expect(c.values()).toEqual([4, 1, 3]);
    c.set('c', 30);
    c.set('e', 5);
    expect(gone).toEqual(['b=2', 'a=1']);
    expect(c.values()).toEqual([5, 30, 4]);
    expect(c.size).toBe(3);
    expect(c.delete('e')).toBe(true);
    c.clear();
    expect(c.size).toBe(0);
    expect(gone).toHaveLength(2);
    expect(c.get('c')).toBeUndefined();
  });

  test('a bad bound is refused', () => {
    expect(() => new Lru({ max: 0 })).toThrow(/max must be a positive integer/);
    expect(() => new Lru({ max: 1.5 })).toThrow(RangeError);
  });
});
