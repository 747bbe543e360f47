// selectLines against sortLines: the element a sort puts at each position,
// bit for bit (among equal zeros and NaNs, the one the stable sort puts
// there), for every element kind, lines short and long, positions in any
// order with repeats, several lines at once, special values, and inputs laid
// out to be hard for a quickselect (sorted, reversed, all equal, organ pipe).
import fc from 'fast-check';
import { selectLines } from './select.js';
import { sortLines } from './radix-sort.js';
import type { SortKind } from './radix-sort.js';
import { testHeap } from '../lower/test-heap.js';
import { BITS, BYTES, KINDS, VALUES } from './test-kinds.js';

function check(kind: SortKind, values: ArrayLike<number>, lines: number, positions: readonly number[], partitions?: number): void {
  const heap = testHeap();
  const b = BYTES[kind];
  const total = values.length;
  const n = total / lines;
  const src = heap.alloc(total * b);
  const x = new VALUES[kind](heap.memory.buffer, src, total);
  for (let i = 0; i < total; i++) x[i] = kind === 'i64' || kind === 'u64' ? BigInt(Math.trunc(values[i]!)) : values[i]!;
  const sorted = heap.alloc(total * b);
  const dst = heap.alloc(lines * positions.length * b);
  sortLines(heap, kind, src, sorted, n, lines, 'values');
  selectLines(heap, kind, src, dst, n, lines, positions, partitions);
  const want = new BITS[b]!(heap.memory.buffer, sorted, total);
  const got = new BITS[b]!(heap.memory.buffer, dst, lines * positions.length);
  for (let l = 0; l < lines; l++) {
    expect(positions.map((_, j) => got[l * positions.length + j])).toEqual(positions.map((p) => want[l * n + p]));
  }
}


describe('selectLines', () => {
  it.each(KINDS)('%s: random lines of every length, positions at the ends, the middle and repeated', (kind) => {
    for (const n of [1, 2, 3, 16, 17, 33, 100, 1001, 5000]) {
      const v = Array.from({ length: 2 * n }, () => Math.floor((Math.random() - 0.5) * 200));
      check(kind, v, 2, [n >> 1, 0, n - 1, (n - 1) >> 1, n >> 1]);
    }
  });

  it('inputs laid out against a quickselect: sorted, reversed, all equal, organ pipe, few values', () => {
    const n = 4099;
    const layouts = [
      (i: number) => i, (i: number) => n - i, () => 7, (i: number) => (i < n / 2 ? i : n - i), (i: number) => i % 3, (i: number) => (i * 7919) % n,
    ];
    for (const layout of layouts) {
      const v = Array.from({ length: n }, (_, i) => layout(i));
      for (const kind of ['f64', 'i32', 'u16'] as const) check(kind, v, 1, [0, 1, n >> 1, n - 2, n - 1]);
    }
  });

  it('a line that runs out of partitions is sorted instead, with the same result', () => {
    for (const kind of ['f64', 'f32', 'i64', 'u8'] as const) {
      const v = Array.from({ length: 3 * 500 }, (_, i) => (i % 7 === 0 ? 0 : Math.floor((Math.random() - 0.5) * 100)));
      check(kind, v, 3, [250, 0, 499], 0);
      check(kind, v, 3, [250, 0, 499], 2);
    }
  });

  it('a position outside the line is refused', () => {
    const heap = testHeap();
    const src = heap.alloc(64);
    expect(() => selectLines(heap, 'f64', src, heap.alloc(64), 4, 1, [4])).toThrow(/position 4 is not in 0..3/);
    expect(() => selectLines(heap, 'f64', src, heap.alloc(64), 4, 1, [-1])).toThrow(RangeError);
  });

  it('floats: zeros of both signs and NaNs with payloads keep the bits the stable sort gives them', () => {
    const f64 = new Float64Array(64);
    const w = new BigUint64Array(f64.buffer);
    for (let i = 0; i < 64; i++) w[i] = i % 4 === 0 ? 0x7ff8000000000000n + BigInt(i) : i % 4 === 1 ? (i % 8 === 1 ? 1n << 63n : 0n) : BigInt(i % 5) << 52n;
    check('f64', f64, 1, [...Array(64).keys()]);
    const f32 = new Float32Array(64);
    const u = new Uint32Array(f32.buffer);
    for (let i = 0; i < 64; i++) u[i] = i % 4 === 0 ? 0x7fc00000 + i : i % 4 === 1 ? (i % 8 === 1 ? 0x80000000 : 0) : (i % 5) << 23;
    check('f32', f32, 1, [...Array(64).keys()]);
  });

  it('random float lines with repeats, zeros, infinities and NaNs, random positions', () => {
    const element = fc.oneof(fc.constantFrom(0, -0, NaN, Infinity, -Infinity), fc.integer({ min: -20, max: 20 }).map((i) => i / 4), fc.double());
    fc.assert(fc.property(fc.array(element, { minLength: 1, maxLength: 300 }), fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), fc.boolean(), (v, ps, f32) => {
      check(f32 ? 'f32' : 'f64', v, 1, ps.map((p) => p % v.length));
    }), { numRuns: 200 });
  });
});
