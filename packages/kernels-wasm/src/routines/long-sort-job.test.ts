// Long lines sorted by launches over their blocks against sortLines: the
// same bits for every kind, values and positions, with zeros of both signs
// and NaNs, lines around a block's length, several lines in turn, data whose passes are skipped
// (narrow ranges, one value), run on the calling thread and on pools of
// two workers, also where the launches were made for fewer threads than
// the pool has.
import { afterAll, describe, expect, jest, test } from '@jest/globals';
import { sortLines } from './radix-sort.js';
import type { SortKind, SortOutput } from './radix-sort.js';
import { longSortJobs } from './long-sort-job.js';
import type { RoutineJob } from './routine-kernel.js';
import { testHeap } from '../lower/test-heap.js';
import { createPool } from '../pool/create-pool.js';
import type { KernelPool } from '../pool/pool.js';

jest.setTimeout(120000);

const heap = testHeap(4096);
const BYTES: Record<SortKind, number> = { f64: 8, f32: 4, i64: 8, u64: 8, i32: 4, u32: 4, i16: 2, u16: 2, i8: 1, u8: 1 };
const KIND_NAMES = ['f64', 'f32', 'i64', 'u64', 'i32', 'u32', 'i16', 'u16', 'i8', 'u8'] as const;

type Fill = 'random' | 'narrow' | 'one';

/** Random bytes (zeros of both signs and NaNs with payloads among floats), values in a narrow range, or one value. */
function fill(kind: SortKind, ptr: number, count: number, how: Fill): void {
  const bytes = new Uint8Array(heap.memory.buffer, ptr, count * BYTES[kind]);
  for (let i = 0; i < bytes.length; i++) bytes[i] = how === 'one' ? 7 : Math.floor(Math.random() * 256);
  if (how === 'narrow' && kind !== 'f64' && kind !== 'f32') {
    // The low byte alone varies: every pass past the first is skipped.
    for (let i = 0; i < count; i++) for (let j = 1; j < BYTES[kind]; j++) bytes[i * BYTES[kind] + j] = 0;
  }
  if (kind === 'f64' || kind === 'f32') {
    const v = kind === 'f64' ? new Float64Array(heap.memory.buffer, ptr, count) : new Float32Array(heap.memory.buffer, ptr, count);
    for (let i = 0; i < count; i++) {
      const r = i % 11;
      if (how === 'one') v[i] = 1.5;
      else if (how === 'narrow') v[i] = 1 + (i % 97) / 128;
      else v[i] = r === 0 ? 0 : r === 1 ? -0 : r === 2 ? NaN : (Math.random() - 0.5) * 1e3;
    }
    if (how === 'random') {
      // NaNs of other payloads and signs.
      const u = new Uint8Array(heap.memory.buffer, ptr, count * BYTES[kind]);
      for (let i = 2; i < count; i += 22) u[i * BYTES[kind] + BYTES[kind] - 1]! |= 0x80;
    }
  }
}

const read = (ptr: number, bytes: number): Buffer => Buffer.from(new Uint8Array(heap.memory.buffer, ptr, bytes).slice());

type Run = (job: RoutineJob) => Promise<void>;
const here: Run = async (job) => { job.runHere(); };

/** Sorts with longSortJobs and with sortLines, expects the same bits, and returns the launches made and the blocks of each. */
async function check(kind: SortKind, n: number, output: SortOutput, run: Run, threads: number, how: Fill = 'random', lines = 1): Promise<{ launches: number; blocks: number }> {
  const src = heap.alloc(n * lines * BYTES[kind]);
  const outBytes = n * lines * (output === 'positions' ? 4 : BYTES[kind]);
  const want = heap.alloc(outBytes);
  const got = heap.alloc(outBytes);
  let launches = 0;
  let blocks = 0;
  try {
    fill(kind, src, n * lines, how);
    const before = read(src, n * lines * BYTES[kind]);
    sortLines(heap, kind, src, want, n, lines, output);
    const jobs = longSortJobs(heap, kind, src, got, n, lines, output, threads);
    try {
      for (let job = jobs.next(); job; job = jobs.next()) {
        launches++;
        blocks = job.blocks;
        await run(job);
      }
    } finally {
      jobs.release();
    }
    expect(read(got, outBytes).equals(read(want, outBytes))).toBe(true);
    // The line itself is left as it was.
    expect(read(src, n * lines * BYTES[kind]).equals(before)).toBe(true);
  } finally {
    for (const p of [src, want, got]) heap.free(p);
  }
  return { launches, blocks };
}

describe('longSortJobs', () => {
  test.each(KIND_NAMES)('%s: the calling thread, values and positions, as sortLines sorts one line', async (kind) => {
    for (const output of ['values', 'positions'] as const) {
      for (const n of [1, 40, 65536, 65537, 140001]) await check(kind, n, output, here, 2);
    }
  });

  test('passes that would move nothing are skipped, the bits still sortLines\'', async () => {
    // 64-bit keys: a launch for the keys, 6 scatters and 5 counts between them, one for the out.
    expect(await check('u64', 150000, 'values', here, 2)).toEqual({ launches: 13, blocks: 3 });
    // One value: no pass moves a key.
    expect((await check('f64', 150000, 'values', here, 2, 'one')).launches).toBe(2);
    expect((await check('i32', 150000, 'positions', here, 2, 'one')).launches).toBe(2);
    // Only the low byte varies: the first pass alone.
    expect((await check('i64', 150000, 'positions', here, 2, 'narrow')).launches).toBe(3);
    for (const kind of KIND_NAMES) await check(kind, 100000, 'values', here, 2, 'narrow');
  });

  test('several lines, one after another, each a launch a pass; no lines or no elements, no launch', async () => {
    // A 32-bit key's three passes: keys, scatter, then count and scatter twice, out: 7 launches a line.
    expect((await check('i32', 70000, 'positions', here, 2, 'random', 3)).launches).toBe(21);
    await check('f64', 66000, 'values', here, 2, 'random', 2);
    expect((await check('f32', 0, 'values', here, 2, 'random', 3)).launches).toBe(0);
    expect((await check('f32', 5000, 'values', here, 2, 'random', 0)).launches).toBe(0);
  });

  test('a line of many blocks: blocks grow with the line, never past 256 a line', async () => {
    // 2^24 elements fill 256 blocks of 2^16; one more, and blocks of 2^17 (a u8's keys move in the first pass alone).
    expect(await check('u8', 1 << 24, 'values', here, 1)).toEqual({ launches: 3, blocks: 256 });
    expect(await check('u8', (1 << 24) + 1, 'positions', here, 1)).toEqual({ launches: 3, blocks: 129 });
  });

  const pools: KernelPool[] = [];
  afterAll(async () => { await Promise.all(pools.map((p) => p.close())); });

  test.each(['piscina', 'comlink'] as const)('on a %s pool of two workers: the blocks shared out, the same bits', async (poolKind) => {
    const pool = await createPool({ threads: 2, memory: heap.memory, kind: poolKind });
    pools.push(pool);
    const onPool: Run = async (job) => { await pool.run({ kernel: job.module, argsPtr: job.argsPtr, blocks: job.blocks, label: 'long sort' }); };
    for (const [kind, output] of [['f64', 'values'], ['f32', 'positions'], ['i64', 'positions'], ['i16', 'values']] as const) await check(kind, 300001, output, onPool, 2);
    // Made for one thread, run by two: the second finds no part and claims no block.
    await check('f64', 300001, 'values', onPool, 1);
    expect(pool.stats().blocksPerWorker.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });
});
