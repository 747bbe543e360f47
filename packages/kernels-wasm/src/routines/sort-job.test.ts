// The sorting module's pool kernel against sortLines: the same bits for
// every kind, values and positions, short lines (insertion), lines sorted
// with 8- and 11-bit digits, zeros of both signs and NaNs, run on the
// calling thread and shared out over a pool of two workers of each kind,
// also where the launch was made for fewer threads than the pool has.
import { afterAll, describe, expect, jest, test } from '@jest/globals';
import { sortLines } from './radix-sort.js';
import type { SortKind, SortOutput } from './radix-sort.js';
import { selectJob, sortJob } from './sort-job.js';
import { selectLines } from './select.js';
import { testHeap } from '../lower/test-heap.js';
import { createPool } from '../pool/create-pool.js';
import type { KernelPool } from '../pool/pool.js';

jest.setTimeout(60000);

const heap = testHeap(1024);
const BYTES: Record<SortKind, number> = { f64: 8, f32: 4, i64: 8, u64: 8, i32: 4, u32: 4, i16: 2, u16: 2, i8: 1, u8: 1 };

/** Random bytes, with zeros of both signs and NaNs among floats. */
function fill(kind: SortKind, ptr: number, count: number): void {
  const bytes = new Uint8Array(heap.memory.buffer, ptr, count * BYTES[kind]);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  if (kind === 'f64' || kind === 'f32') {
    const v = kind === 'f64' ? new Float64Array(heap.memory.buffer, ptr, count) : new Float32Array(heap.memory.buffer, ptr, count);
    for (let i = 0; i < count; i++) {
      const r = i % 7;
      v[i] = r === 0 ? 0 : r === 1 ? -0 : r === 2 ? NaN : r === 3 ? -NaN : (Math.random() - 0.5) * 1e3;
    }
  }
}

const read = (ptr: number, bytes: number): Uint8Array => new Uint8Array(heap.memory.buffer, ptr, bytes).slice();

type Run = (job: ReturnType<typeof sortJob>) => Promise<void>;

async function check(kind: SortKind, n: number, lines: number, output: SortOutput, run: Run, threads: number): Promise<void> {
  const src = heap.alloc(n * lines * BYTES[kind]);
  fill(kind, src, n * lines);
  const outBytes = n * lines * (output === 'positions' ? 4 : BYTES[kind]);
  const want = heap.alloc(outBytes);
  const got = heap.alloc(outBytes);
  sortLines(heap, kind, src, want, n, lines, output);
  const job = sortJob(heap, kind, src, got, n, lines, output, threads);
  try {
    await run(job);
  } finally {
    job.release();
  }
  expect(Buffer.from(read(got, outBytes)).equals(Buffer.from(read(want, outBytes)))).toBe(true);
}

const here: Run = async (job) => { job.runHere(); };

async function checkSelect(kind: SortKind, n: number, lines: number, positions: number[], run: Run, threads: number, partitions?: number, values?: (i: number) => number): Promise<void> {
  const src = heap.alloc(n * lines * BYTES[kind]);
  fill(kind, src, n * lines);
  if (values) {
    const v = kind === 'f64' ? new Float64Array(heap.memory.buffer, src, n * lines) : new Float32Array(heap.memory.buffer, src, n * lines);
    for (let i = 0; i < n * lines; i++) v[i] = values(i);
  }
  const outBytes = positions.length * lines * BYTES[kind];
  const want = heap.alloc(outBytes);
  const got = heap.alloc(outBytes);
  selectLines(heap, kind, src, want, n, lines, positions, partitions);
  const job = selectJob(heap, kind, src, got, n, lines, positions, threads, partitions);
  try {
    await run(job);
  } finally {
    job.release();
  }
  expect(Buffer.from(read(got, outBytes)).equals(Buffer.from(read(want, outBytes)))).toBe(true);
}

describe('sortJob', () => {
  test.each(['f64', 'f32', 'i64', 'u64', 'i32', 'u32', 'i16', 'u16', 'i8', 'u8'] as const)('%s: the calling thread, values and positions, short and long lines', async (kind) => {
    for (const output of ['values', 'positions'] as const) {
      for (const [n, lines] of [[1, 5], [7, 3], [32, 4], [33, 4], [500, 9], [20000, 2]] as const) await check(kind, n, lines, output, here, 2);
    }
  });

  test.each(['f64', 'f32', 'i64', 'u64', 'i32', 'u32', 'i16', 'u16', 'i8', 'u8'] as const)('%s: selections as selectLines makes them, here', async (kind) => {
    for (const [n, lines] of [[1, 3], [7, 5], [40, 6], [1000, 4]] as const) {
      const positions = [n - 1, 0, Math.floor(n / 2), Math.floor(n / 2), Math.floor((n - 1) / 2)];
      await checkSelect(kind, n, lines, positions, here, 2);
      // A line that defeats the quickselect: sorted instead.
      await checkSelect(kind, n, lines, positions, here, 2, 0);
    }
  });

  test('selected zeros and NaNs keep their own bits, as the stable sort orders them', async () => {
    for (const kind of ['f64', 'f32'] as const) {
      // Only zeros of both signs and NaNs with payloads: every selected element needs its bits found.
      const values = (i: number): number => (i % 3 === 0 ? -0 : i % 3 === 1 ? 0 : NaN);
      await checkSelect(kind, 301, 3, [0, 50, 100, 150, 200, 250, 300], here, 2, undefined, values);
    }
    expect(() => selectJob(heap, 'f64', 0, 0, 5, 1, [5], 1)).toThrow(/position 5 is not in 0..4/);
  });

  test('no lines, and lines of no elements', async () => {
    await check('f64', 0, 5, 'values', here, 2);
    await check('f64', 10, 0, 'positions', here, 2);
  });

  const pools: KernelPool[] = [];
  afterAll(async () => { await Promise.all(pools.map((p) => p.close())); });

  test.each(['piscina', 'comlink'] as const)('on a %s pool of two workers: blocks of lines shared out, the same bits', async (poolKind) => {
    const pool = await createPool({ threads: 2, memory: heap.memory, kind: poolKind });
    pools.push(pool);
    const onPool: Run = async (job) => { await pool.run({ kernel: job.module, argsPtr: job.argsPtr, blocks: job.blocks, label: 'sort' }); };
    for (const kind of ['f64', 'i32', 'u8'] as const) {
      for (const output of ['values', 'positions'] as const) {
        await check(kind, 4096, 40, output, onPool, 2);
        await check(kind, 20, 9000, output, onPool, 2);
      }
    }
    for (const kind of ['f64', 'i16'] as const) await checkSelect(kind, 4096, 40, [2047, 2048], onPool, 2);
    // Made for one thread (one scratch part), run by two: the second finds no part and claims no block.
    await check('f64', 4096, 40, 'values', onPool, 1);
    expect(pool.stats().blocksPerWorker.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });
});
