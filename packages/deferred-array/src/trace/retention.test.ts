// What the trace and the kernel caches keep alive. A pending write lives as
// long as its array can be read: an array nothing reads any longer takes its
// pending writes (forced and failed, or never forced) and its heap blocks with
// it, while one still read keeps them, so that a retry can run them. Runs on
// every backend (the reference and pool projects too).
import { afterEach, describe, expect, jest, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { defaultHeap } from 'kernels-wasm';
import * as da from '../index.js';
import { source } from '../ir/build-elementwise.js';
import { nodeOf } from '../api/deferred-array.js';
import { sourcesOf } from '../core/source-cache.js';
import { processHeap } from '../core/heap.js';
import type { CacheEntry } from '../core/source-cache.js';
import { toList as list } from '../../test/to-list.js';

// Each test runs full collections, whose cost grows with what the jest worker
// has loaded before this file: a second alone, past the 5 s default in a cold
// full run on two busy cores. Nothing here is timed.
jest.setTimeout(60_000);

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const tick = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Collects until `done` holds. A WeakRef read in a task holds its target to
 * the task's end (reading the trace reads them all), so each collection waits
 * for a new task; blocks are freed in a task of their own after it, which a
 * busy machine may run late: past the first rounds, each waits 20 ms more.
 */
async function collectUntil(done: () => boolean, rounds = 40): Promise<void> {
  for (let i = 0; i < rounds && !done(); i++) {
    await tick();
    gc();
    await tick(i < 10 ? 0 : 20);
  }
}

const N = 1 << 16;

/**
 * The heap bytes in use less the source cache's: copies of sources read
 * once have no finalizer record each (source-cache.ts), so they stay cached
 * after their source is collected, within their budget (past it only for
 * the latest run's own first reads), until the cache needs room; the
 * arrays' own blocks must go with them. (The tests' sizes
 * are multiples of 16, the heap's block size, so the two figures agree.)
 */
const held = (): number => {
  const s = da.heapStats();
  return s.bytesInUse - s.cachedBytes;
};

afterEach(async () => {
  da.configure({ errors: { divide: 'warn', invalid: 'warn' } });
  await da.flush();
});

describe('pending writes live as long as their array', () => {
  test('arrays nothing reads any longer take their failed and never-forced writes, and their blocks, with them', async () => {
    await collectUntil(() => false, 3);
    const pending = da.trace().pending;
    const bytes = held();
    // In a function of its own, so that nothing here holds the arrays after it returns.
    await (async () => {
      da.configure({ errors: { divide: 'raise' } });
      for (let i = 0; i < 8; i++) {
        const x = da.arange(N, { dtype: 'int32' });
        x.iadd(1);
        x.assign(x.floorDivide(0));
        await expect(x.execute()).rejects.toThrow(da.ExecutionError);
        const y = da.zeros([N]);
        y.iadd(2); // never forced
      }
      da.configure({ errors: { divide: 'warn' } });
      expect(da.trace().pending).toBe(pending + 24);
    })();
    await collectUntil(() => da.trace().pending === pending && held() === bytes);
    expect(da.trace().pending).toBe(pending);
    expect(held()).toBe(bytes);
  });

  test('a failed write stays pending while its array is held, and a retry runs it', async () => {
    da.configure({ errors: { divide: 'raise' } });
    const x = da.arange(4, { dtype: 'int32' });
    x.iadd(1);
    x.assign(x.floorDivide(da.array([1, 0, 1, 1], { dtype: 'int32' })));
    await expect(x.execute()).rejects.toThrow(da.ExecutionError);
    await collectUntil(() => false, 3);
    expect(da.trace().pending).toBe(2);
    da.configure({ errors: { divide: 'ignore' } });
    expect(list(da.wrap((await x.execute()) as da.StdNdarray))).toEqual([1, 0, 3, 4]);
    expect(da.trace().pending).toBe(0);
  });

  test('an array read only by another array\'s pending write keeps its own writes for it', async () => {
    const z = da.zeros([4]);
    (() => {
      const x = da.arange(4, { dtype: 'float64' });
      x.iadd(10);
      z.iadd(x); // reads x after its write; x's handle is dropped
      x.imul(0); // after z's read: not needed for z, but x is still read
    })();
    await collectUntil(() => false, 3);
    expect(da.trace().pending).toBe(3);
    expect(list(da.wrap((await z.execute()) as da.StdNdarray))).toEqual([10, 11, 12, 13]);
    // z's write ran; nothing reads x now, so its last write goes with it.
    await collectUntil(() => da.trace().pending === 0);
    expect(da.trace().pending).toBe(0);
  });

  test('an expression reading an array keeps it, and reads the version it was built on', async () => {
    const y = (() => {
      const x = da.arange(4, { dtype: 'float64' });
      x.iadd(1);
      const read = x.mul(2); // version 1
      x.iadd(100);
      return read;
    })();
    await collectUntil(() => false, 3);
    expect(list(da.wrap((await y.execute()) as da.StdNdarray))).toEqual([2, 4, 6, 8]);
  });
});

describe('the kernel caches', () => {
  test('a stage kernel kept for later stages does not keep the arrays of the run that built it', async () => {
    await collectUntil(() => false, 3);
    const bytes = held();
    // The sources' nodes: held() leaves their cached copies out, so their going is checked apart.
    const sources: Array<WeakRef<object>> = [];
    // Stages of one structure share a plan and its kernel; each run here reads a JS array, copied onto the heap.
    await (async () => {
      for (let i = 0; i < 3; i++) {
        const x = da.zeros([N]);
        const v = da.array(new Float64Array(N).fill(i));
        sources.push(new WeakRef(nodeOf(v)));
        x.iadd(v);
        x.imul(2);
        await x.execute();
      }
    })();
    await collectUntil(() => held() === bytes && sources.every((r) => r.deref() === undefined));
    expect(held()).toBe(bytes);
    expect(sources.filter((r) => r.deref() !== undefined)).toHaveLength(0);
  });
});

describe('heap copies of sources', () => {
  // The soak found these piling up (1,500 over 8,000 programs): each heap fault evicted every copy, and a
  // long-lived source copied in again was watched once more, its evicted copies held until it died.
  test('a source copied in again after each eviction keeps no evicted copy alive', async () => {
    const node = source(new Float64Array(64).fill(1), [64], 'float64');
    const evicted: Array<WeakRef<CacheEntry>> = [];
    for (let i = 0; i < 4; i++) {
      const pinned = new Set<CacheEntry>();
      sourcesOf(processHeap()).residentAddress(node, pinned);
      evicted.push(new WeakRef([...pinned][0]!));
      sourcesOf(processHeap()).unpin(pinned);
      // A request no heap can hold evicts every unpinned copy before it gives up.
      expect(() => sourcesOf(processHeap()).allocEvicting(defaultHeap().limitBytes + 16)).toThrow(expect.objectContaining({ code: 'HEAP' }));
    }
    // The newest copy's record stays with its source (one per source); the earlier ones must go.
    const earlier = evicted.slice(0, -1);
    await collectUntil(() => earlier.every((r) => r.deref() === undefined));
    expect(earlier.filter((r) => r.deref() !== undefined)).toHaveLength(0);
    expect(node.op).toBe('source');
  });
});

// The trace's list and the compiled functions' list hold WeakRefs, compacted when read; these
// check that a program that never forces or asks for stats() still keeps them bounded.
describe.each(['writes', 'compiled'])('the weak list behind %s', (what) => {
  test('stays bounded when its targets are dropped unread', () => {
    const script = fileURLToPath(new URL('../../test/fixtures/weak-lists.mjs', import.meta.url));
    const r = spawnSync(process.execPath, ['--expose-gc', '--no-warnings', script, what, '2000'], { timeout: 60000, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    // 20,000 made, at most 2,000 alive at once: uncompacted, all 20,000 would be left.
    const left = Number(/weakrefs left (-?\d+)/.exec(r.stdout)?.[1]);
    expect(left).toBeLessThan(6000);
  });
});
