import { FreeBlocks } from './free-blocks.js';

describe('FreeBlocks', () => {
  test('indexes blocks by start, by end and by size, and keeps byte totals', () => {
    const f = new FreeBlocks();
    f.add(4096, 64);
    f.add(8192, 1024);
    expect(f.count).toBe(2);
    expect(f.bytes).toBe(1088);
    expect(f.startingAt(4096)).toEqual({ start: 4096, size: 64 });
    expect(f.endingAt(9216)).toEqual({ start: 8192, size: 1024 });
    expect(f.endingAt(9200)).toBeUndefined();
    expect(f.remove(4096)).toBe(64);
    expect(f.startingAt(4096)).toBeUndefined();
    expect(f.endingAt(4160)).toBeUndefined();
    expect(f.bytes).toBe(1024);
    expect(() => f.remove(4096)).toThrow(/no free block/);
  });

  test('find takes a block of a class that surely fits before searching the exact class', () => {
    const f = new FreeBlocks();
    f.add(10_000 * 16, 20 * 16); // class of 20 units: [20, 24)
    f.add(20_000 * 16, 23 * 16); // same class
    f.add(30_000 * 16, 40 * 16); // a higher class
    // 21 units: its own class may not fit, so the higher class is preferred.
    expect(f.find(21 * 16)).toEqual({ start: 30_000 * 16, size: 40 * 16 });
    f.remove(30_000 * 16);
    // Nothing above: the own class is searched block by block.
    expect(f.find(21 * 16)).toEqual({ start: 20_000 * 16, size: 23 * 16 });
    expect(f.find(24 * 16)).toBeUndefined();
    // A size that is exactly a class minimum takes any block of that class.
    expect(f.find(20 * 16)).toEqual({ start: 10_000 * 16, size: 20 * 16 });
  });

  test('largest, containing and list report the current blocks', () => {
    const f = new FreeBlocks();
    expect(f.largest()).toBe(0);
    f.add(9000 * 16, 33 * 16);
    f.add(5000 * 16, 35 * 16);
    f.add(7000 * 16, 16);
    expect(f.largest()).toBe(35 * 16);
    expect(f.containing(5000 * 16 + 100)).toEqual({ start: 5000 * 16, size: 35 * 16 });
    expect(f.containing(7000 * 16 + 16)).toBeUndefined();
    expect(f.list().map((b) => b.start)).toEqual([5000 * 16, 7000 * 16, 9000 * 16]);
  });
});
