// add.at against a plain loop: repeated and negative indices accumulate in
// order, in each element type (integers wrapping, float32 rounding once an
// add), rows of one and several elements, values per row or one for all;
// and the index check names the first index out of range.
import { afterAll, describe, expect, it } from '@jest/globals';
import { addAt, checkedAddAt, countJob, firstIndexOutside } from './scatter.js';
import type { AddAtType, CountJob } from './scatter.js';
import { createPool } from '../pool/create-pool.js';
import type { KernelPool } from '../pool/pool.js';
import { testHeap } from '../lower/test-heap.js';

const VIEWS = { f64: Float64Array, f32: Float32Array, i64: BigInt64Array, i32: Int32Array, i16: Int16Array, i8: Int8Array } as const;

function check(type: AddAtType, rows: number, inner: number, indices: number[], broadcast: boolean, checked = false): void {
  const heap = testHeap();
  const View = VIEWS[type] as unknown as new (b: ArrayBufferLike, o: number, n: number) => ArrayLike<number | bigint> & { [i: number]: number | bigint; BYTES_PER_ELEMENT: number };
  const bytes = new View(new ArrayBuffer(8), 0, 1).BYTES_PER_ELEMENT;
  const big = type === 'i64';
  const value = (x: number): number | bigint => (big ? BigInt(x) : x);
  const out = heap.alloc(rows * inner * bytes);
  const o = new View(heap.memory.buffer, out, rows * inner);
  for (let i = 0; i < rows * inner; i++) o[i] = value(((i * 37) % 200) - 100 + (type.startsWith('f') ? 0.1 : 0));
  const idx = heap.alloc(indices.length * 4);
  new Int32Array(heap.memory.buffer, idx, indices.length).set(indices);
  const count = broadcast ? 1 : indices.length * inner;
  const vals = heap.alloc(count * bytes);
  const v = new View(heap.memory.buffer, vals, count);
  for (let i = 0; i < count; i++) v[i] = value(((i * 53) % 250) + (type.startsWith('f') ? 0.3 : 0));
  // The plain loop, in a copy, rounding or wrapping as the type does.
  const want = new View(new ArrayBuffer(rows * inner * bytes), 0, rows * inner);
  for (let i = 0; i < rows * inner; i++) want[i] = o[i]!;
  for (let k = 0; k < indices.length; k++) {
    const r = indices[k]! < 0 ? indices[k]! + rows : indices[k]!;
    for (let j = 0; j < inner; j++) {
      const add = broadcast ? v[0]! : v[k * inner + j]!;
      want[r * inner + j] = big ? (want[r * inner + j] as bigint) + (add as bigint) : (want[r * inner + j] as number) + (add as number);
    }
  }
  if (checked) {
    let calls = 0;
    expect(checkedAddAt(heap, type, out, rows, inner, idx, indices.length, vals, broadcast ? -1 : inner, () => { calls++; })).toBe(-1);
    expect(calls).toBe(1);
  } else {
    expect(firstIndexOutside(heap.memory, idx, indices.length, rows)).toBe(-1);
    addAt(heap.memory, type, out, rows, inner, idx, indices.length, vals, broadcast ? -1 : inner);
  }
  expect(Array.from(o, String)).toEqual(Array.from(want, String));
}

describe('addAt', () => {
  it.each(['f64', 'f32', 'i64', 'i32', 'i16', 'i8'] as const)('%s: repeated and negative indices, rows of 1 and 3, values per row or one for all', (type) => {
    const indices = [0, 4, -1, 2, 2, 2, -5, 4, 0, 3];
    for (const inner of [1, 3]) for (const broadcast of [false, true]) check(type, 5, inner, indices, broadcast);
    check(type, 7, 1, [], false);
    // Wraps (and rounds) as the type does: many adds to one row.
    check(type, 2, 2, Array.from({ length: 400 }, (_, k) => k % 2), false);
  });

  it.each(['f64', 'f32', 'i64', 'i32', 'i16', 'i8'] as const)('%s, checkedAddAt: many indices into few rows (integers spread over copies), tails of 0 to 3', (type) => {
    for (const rows of [1, 3, 50]) {
      for (const extra of [0, 1, 2, 3]) {
        const m = 16 * 4 * rows + extra;
        const indices = Array.from({ length: m }, (_, k) => ((k * 7919) % (2 * rows)) - rows);
        for (const broadcast of [false, true]) check(type, rows, 1, indices, broadcast, true);
      }
    }
    // Few indices, and rows of several elements: checked, then added in order.
    check(type, 5, 3, [0, 4, -1, 2, 2], false, true);
    check(type, 5, 1, [0, 4, -1, 2, 2], true, true);
  });

  it.each(['i32', 'i8', 'f64'] as const)('%s, checkedAddAt: the first index out of range is named and nothing is written', (type) => {
    const heap = testHeap();
    const rows = 3;
    const bytes = { i32: 4, i8: 1, f64: 8 }[type];
    const out = heap.alloc(rows * bytes);
    const before = new Uint8Array(heap.memory.buffer, out, rows * bytes).fill(7).slice();
    const vals = heap.alloc(8);
    new Uint8Array(heap.memory.buffer, vals, 8).fill(1);
    for (const [bad, at] of [[3, 150], [-4, 199], [2147483647, 0], [-2147483648, 57]] as const) {
      const indices = Array.from({ length: 200 }, (_, k) => (k === at ? bad : k === 170 ? 9 : (k % 5) - 2));
      const idx = heap.alloc(indices.length * 4);
      new Int32Array(heap.memory.buffer, idx, indices.length).set(indices);
      let calls = 0;
      expect(checkedAddAt(heap, type, out, rows, 1, idx, indices.length, vals, -1, () => { calls++; })).toBe(Math.min(at, 170));
      expect(calls).toBe(0);
      expect(new Uint8Array(heap.memory.buffer, out, rows * bytes)).toEqual(before);
    }
  });

  it('the index check names the first index outside [-rows, rows)', () => {
    const heap = testHeap();
    const idx = heap.alloc(64 * 4);
    const at = (values: number[]): number => {
      new Int32Array(heap.memory.buffer, idx, values.length).set(values);
      return firstIndexOutside(heap.memory, idx, values.length, 5);
    };
    expect(at([0, 4, -5, -1])).toBe(-1);
    expect(at([0, 5, -6])).toBe(1);
    expect(at([1, -6, 7])).toBe(1);
    expect(at([-2147483648])).toBe(0);
    expect(at([2147483647])).toBe(0);
    // Past the groups of four: the first bad one in a later group, and in the tail.
    const long = Array.from({ length: 37 }, (_, k) => (k % 9) - 4);
    expect(at(long)).toBe(-1);
    expect(at(long.map((v, k) => (k === 30 || k === 33 ? 5 : v)))).toBe(30);
    expect(at(long.map((v, k) => (k === 29 ? -6 : k === 30 ? 9 : v)))).toBe(29);
    expect(at(long.map((v, k) => (k === 36 ? -6 : v)))).toBe(36);
  });
});

describe('countJob', () => {
  const heap = testHeap(1024);
  const pools: KernelPool[] = [];
  afterAll(async () => { await Promise.all(pools.map((p) => p.close())); });

  /** checkedAddAt's result, and countJob's run by `run`, over the same random indices and values. */
  async function compare(type: 'i64' | 'i32' | 'i16' | 'i8', rows: number, m: number, broadcast: boolean, run: (job: CountJob) => Promise<void>, bad?: number): Promise<void> {
    const bytes = { i64: 8, i32: 4, i16: 2, i8: 1 }[type];
    const idx = heap.alloc(m * 4);
    const indices = new Int32Array(heap.memory.buffer, idx, m);
    for (let k = 0; k < m; k++) indices[k] = Math.floor(Math.random() * 2 * rows) - rows;
    if (bad !== undefined) indices[bad] = rows + 3;
    const vals = heap.alloc(m * bytes);
    new Uint8Array(heap.memory.buffer, vals, m * bytes).forEach((_, i, a) => { a[i] = (i * 131) & 255; });
    const want = heap.alloc(rows * bytes);
    const got = heap.alloc(rows * bytes);
    for (const t of [want, got]) new Uint8Array(heap.memory.buffer, t, rows * bytes).forEach((_, i, a) => { a[i] = (i * 7) & 255; });
    const vstride = broadcast ? -1 : 1;
    const wantBad = checkedAddAt(heap, type, want, rows, 1, idx, m, vals, vstride, () => {});
    const job = countJob(heap, type, rows, 1, idx, m, vals, vstride, 2)!;
    try {
      await run(job);
      const gotBad = job.firstBad();
      expect(gotBad).toBe(wantBad);
      if (gotBad < 0) job.addInto(got);
    } finally {
      job.release();
    }
    expect(Buffer.from(new Uint8Array(heap.memory.buffer, got, rows * bytes))).toEqual(Buffer.from(new Uint8Array(heap.memory.buffer, want, rows * bytes)));
  }

  const here = async (job: CountJob): Promise<void> => { job.runHere(); };

  it.each(['i64', 'i32', 'i16', 'i8'] as const)('%s: the counts of several blocks, here, as checkedAddAt makes them', async (type) => {
    for (const rows of [1, 7, 1000]) for (const broadcast of [false, true]) await compare(type, rows, 150001, broadcast, here);
    // The first bad index of all, in the second block, with others after it; nothing added.
    await compare(type, 50, 150001, false, here, 70000);
    expect(countJob(heap, 'f64', 5, 1, 0, 1000, 0, 1, 2)).toBeUndefined();
  });

  it.each(['piscina', 'comlink'] as const)('shared out over a %s pool of two workers: the same bits, and the first bad index', async (kind) => {
    const pool = await createPool({ threads: 2, memory: heap.memory, kind });
    pools.push(pool);
    const onPool = async (job: CountJob): Promise<void> => { await pool.run({ kernel: job.module, argsPtr: job.argsPtr, blocks: job.blocks, label: 'count' }); };
    for (const type of ['i32', 'i8', 'i64'] as const) await compare(type, 300, 400000, false, onPool);
    await compare('i32', 300, 400000, true, onPool, 250000);
  });
});
