import { leafArray } from './small-copies.js';

describe('leafArray', () => {
  test('pieces of a shared block are zeroed, aligned for their element and apart from each other', () => {
    const kinds = [Float64Array, BigInt64Array, Float32Array, Int32Array, Uint16Array, Int8Array] as const;
    const got = kinds.flatMap((ctor) => Array.from({ length: 20 }, (_, k) => leafArray(ctor, 100 + k)));
    for (const a of got) {
      expect(a.byteOffset % a.BYTES_PER_ELEMENT).toBe(0);
      expect(Array.from(a as ArrayLike<number | bigint>).every((v) => v === 0 || v === 0n)).toBe(true);
    }
    // Filled one by one: no piece's values land in another's.
    got.forEach((a, k) => (a as Float64Array).fill((a instanceof BigInt64Array ? BigInt(k + 1) : k + 1) as number));
    got.forEach((a, k) => expect(Array.from(a as ArrayLike<number | bigint>).every((v) => Number(v) === k + 1)).toBe(true));
    expect(got.some((a) => a.buffer.byteLength > a.byteLength)).toBe(true);
  });

  test('a piece keeps at most 16 times its size rounded up to a power of two', () => {
    for (const n of [9, 100, 1000, 2048]) {
      const a = leafArray(Float64Array, n);
      expect(a.length).toBe(n);
      expect(a.buffer.byteLength).toBeLessThanOrEqual(16 * 2 ** Math.ceil(Math.log2(n * 8)));
    }
  });

  test('tiny and large arrays get a buffer of their own', () => {
    for (const n of [0, 1, 8, 2049, 100_000]) {
      const a = leafArray(Float64Array, n);
      expect(a.length).toBe(n);
      expect(a.byteOffset).toBe(0);
      expect(a.buffer.byteLength).toBe(n * 8);
    }
  });
});
