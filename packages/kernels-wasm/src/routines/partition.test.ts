// partitionLines against the arrangement its doc defines, built from
// sortLines' stable order: each kth rank in its place, every other element
// in the next free place of its part, the line read in order; values moved
// with their bits. Every element kind, several lines at once, many equal
// elements, zeros of both signs and NaNs, and inputs laid out against a
// quickselect, and lines whose quickselect falls back to sorting the keys;
// each found by radix selection and by quickselect, and short lines sorted
// and placed from their order.
import { partitionLines } from './partition.js';
import type { PartitionOptions } from './partition.js';
import { sortLines } from './radix-sort.js';
import type { SortKind } from './radix-sort.js';
import { testHeap } from '../lower/test-heap.js';
import { BITS, BYTES, KINDS, VALUES } from './test-kinds.js';

/** The arrangement of one line from its stable order (sorted position r holds element order[r]). */
function arrangement(order: ArrayLike<number>, kth: readonly number[]): number[] {
  const n = order.length;
  const rank = new Array<number>(n);
  for (let r = 0; r < n; r++) rank[order[r]!] = r;
  const free = [0, ...kth.map((k) => k + 1)];
  const placed = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const r = rank[i]!;
    const s = kth.filter((k) => k < r).length;
    placed[kth[s] === r ? r : free[s]!++] = i;
  }
  return placed;
}

/** Checks each way of finding the kth keys and the way chosen unasked (short lines: sorted, then placed), or the one `options` names. */
function check(kind: SortKind, values: ArrayLike<number>, lines: number, kth: readonly number[], options?: PartitionOptions): void {
  for (const finder of options?.finder ? [options.finder] : ([undefined, 'radix', 'quickselect'] as const)) {
    checkWith(kind, values, lines, kth, finder ? { ...options, finder } : { ...options });
  }
}

function checkWith(kind: SortKind, values: ArrayLike<number>, lines: number, kth: readonly number[], options: PartitionOptions): void {
  const heap = testHeap();
  const b = BYTES[kind];
  const total = values.length;
  const n = total / lines;
  const src = heap.alloc(total * b);
  const x = new VALUES[kind](heap.memory.buffer, src, total);
  for (let i = 0; i < total; i++) x[i] = kind === 'i64' || kind === 'u64' ? BigInt(Math.trunc(values[i]!)) : values[i]!;
  const order = heap.alloc(total * 4);
  const positions = heap.alloc(total * 4);
  const partitioned = heap.alloc(total * b);
  sortLines(heap, kind, src, order, n, lines, 'positions');
  partitionLines(heap, kind, src, positions, n, lines, kth, 'positions', options);
  partitionLines(heap, kind, src, partitioned, n, lines, kth, 'values', options);
  const stable = new Int32Array(heap.memory.buffer, order, total);
  const got = new Int32Array(heap.memory.buffer, positions, total);
  const bits = new BITS[b]!(heap.memory.buffer, src, total);
  const gotBits = new BITS[b]!(heap.memory.buffer, partitioned, total);
  for (let l = 0; l < lines; l++) {
    const want = arrangement(stable.subarray(l * n, (l + 1) * n), kth);
    expect(Array.from(got.subarray(l * n, (l + 1) * n))).toEqual(want);
    expect(Array.from({ length: n }, (_, j) => gotBits[l * n + j])).toEqual(want.map((i) => bits[l * n + i]));
  }
}

describe('partitionLines', () => {
  it.each(KINDS)('%s: lines of many lengths, kth at the ends, the middle and in clusters, many equal elements', (kind) => {
    for (const n of [1, 2, 3, 16, 17, 33, 100, 1001]) {
      const v = Array.from({ length: 3 * n }, () => Math.floor((Math.random() - 0.5) * (n > 30 ? 40 : 6)));
      check(kind, v, 3, [...new Set([0, n >> 1, n - 1])].sort((a, b) => a - b));
      check(kind, v, 3, [...new Set([n >> 2, (n >> 2) + 1, n >> 1])].filter((k) => k < n).sort((a, b) => a - b));
    }
  });

  it('floats: zeros of both signs, NaNs with payloads, infinities, all kth at once', () => {
    const specials = [0, -0, NaN, -NaN, Infinity, -Infinity, 1, -1, 5e-324, 0, -0, NaN];
    const v = Array.from({ length: 240 }, (_, i) => specials[(i * 7) % specials.length]!);
    for (const kind of ['f64', 'f32'] as const) {
      check(kind, v, 2, [3, 40, 41, 119]);
      check(kind, v.slice(0, 24), 2, Array.from({ length: 12 }, (_, i) => i));
    }
  });

  it('inputs laid out against a quickselect: sorted, reversed, all equal, organ pipe', () => {
    const n = 3000;
    const layouts = [
      Array.from({ length: n }, (_, i) => i),
      Array.from({ length: n }, (_, i) => n - i),
      Array.from({ length: n }, () => 7),
      Array.from({ length: n }, (_, i) => Math.min(i, n - 1 - i)),
    ];
    for (const v of layouts) check('f64', v, 1, [1, n >> 1, n - 2]);
  });

  it('radix selection descending several digits: keys alike in their top bits, and more equal keys than it gathers', () => {
    const n = 6000;
    const narrow = Array.from({ length: 2 * n }, () => 1 + Math.random());
    const ints = Array.from({ length: 2 * n }, () => Math.floor(Math.random() * 2 ** 20));
    const equal = Array.from({ length: 2 * n }, (_, i) => (i % 3 === 0 ? 1.5 : 1 + Math.random()));
    for (const kind of ['f64', 'f32'] as const) {
      check(kind, narrow, 2, [0, 1, n >> 1, n - 1], { finder: 'radix' });
      check(kind, equal, 2, [5, n >> 1, n - 3], { finder: 'radix' });
    }
    for (const kind of ['i64', 'u64', 'i32', 'u32'] as const) check(kind, ints, 2, [7, n >> 1], { finder: 'radix' });
  });

  it('a line whose selection runs out of partitions has its keys sorted instead: the same arrangement', () => {
    const v = Array.from({ length: 2 * 500 }, (_, i) => ((i * 7919) % 263) - (i % 5 === 0 ? 0.5 : 0));
    for (const kind of ['f64', 'i32', 'u64'] as const) {
      for (const partitions of [0, 1]) {
        check(kind, v, 2, [0, 17, 250, 499], { finder: 'quickselect', partitions });
        check(kind, v.slice(0, 40), 2, [3, 19], { finder: 'quickselect', partitions });
      }
    }
  });

  it('many positions: quickselect gives way to sorting the keys, radix selection makes its passes for each', () => {
    const n = 5000;
    const v = Array.from({ length: n }, () => Math.floor((Math.random() - 0.5) * 300));
    const many = Array.from({ length: 40 }, (_, i) => i * 120 + 7);
    for (const kind of ['f64', 'i32', 'u16'] as const) check(kind, v, 1, many);
    check('f64', v.slice(0, 30), 1, Array.from({ length: 30 }, (_, i) => i));
  });

  it('at the thresholds: lines of 256 and 257 (sorted, or selected), 8 and 9 positions (selected, or the keys sorted)', () => {
    for (const n of [256, 257]) {
      const v = Array.from({ length: 3 * n }, () => Math.floor((Math.random() - 0.5) * 50));
      check('f64', v, 3, [0, n >> 1, n - 1]);
      check('i8', v, 3, [1, 2, n - 2]);
    }
    const v = Array.from({ length: 900 }, () => Math.floor((Math.random() - 0.5) * 90));
    for (const m of [8, 9]) check('f32', v, 1, Array.from({ length: m }, (_, i) => 50 + 90 * i), { finder: 'quickselect' });
    // More lines than placeByOrder's block of orders (2^16 elements): 600 lines of 200.
    check('u16', Array.from({ length: 600 * 200 }, (_, i) => (i * 7919) % 1000), 600, [10, 199], {});
  });

  it('refuses kth that are not ascending positions in the line, each once', () => {
    const heap = testHeap();
    const p = heap.alloc(64);
    expect(() => partitionLines(heap, 'f64', p, p + 32, 4, 1, [4], 'values')).toThrow(/kth must be ascending positions in 0..3, each once; got 4/);
    expect(() => partitionLines(heap, 'f64', p, p + 32, 4, 1, [2, 1], 'values')).toThrow(/ascending/);
    expect(() => partitionLines(heap, 'f64', p, p + 32, 4, 1, [1, 1], 'values')).toThrow(/each once/);
    expect(() => partitionLines(heap, 'f64', p, p + 32, 4, 1, [], 'values')).toThrow(/at least one position/);
  });
});
