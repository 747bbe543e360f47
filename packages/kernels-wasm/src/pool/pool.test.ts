import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, jest, test } from '@jest/globals';
import { compileKernel } from '../lower/compile.js';
import { instantiate, launch } from '../lower/launch.js';
import { fixLaunch } from '../lower/fixed-launch.js';
import type { HostModule, LaunchResult } from '../lower/launch.js';
import type { KernelSpec } from '../lower/kernel-spec.js';
import { noHost, testHeap } from '../lower/test-heap.js';
import { createPool } from './create-pool.js';
import type { PoolKind } from './create-pool.js';
import { PoolStartError, WorkerFailure } from './errors.js';
import { launchFixedOnPool, launchOnPool } from './pool.js';
import type { KernelPool } from './pool.js';

jest.setTimeout(60000);

const fixture = (name: string): string => new URL(`../../test/fixtures/${name}`, import.meta.url).href;
const heap = testHeap(1024);
const KINDS: readonly PoolKind[] = ['piscina', 'comlink'];
const open: KernelPool[] = [];

async function pool(kind: PoolKind, threads: number, hostModule?: string): Promise<KernelPool> {
  const p = await createPool({ threads, memory: heap.memory, kind, ...(hostModule ? { hostModule } : {}) });
  open.push(p);
  return p;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

const f64 = { dtype: 'float64', role: 'in', inner: 'contiguous' } as const;
const out64 = { dtype: 'float64', role: 'out', inner: 'contiguous' } as const;

/** y = sin(x) * x, with sum(y) and max(y): outputs and reductions. */
const SIN_SPEC: KernelSpec = {
  ndim: 1,
  arrays: [f64, out64],
  body: [
    { op: 'load', array: 0, type: 'float64' },
    { op: 'unary', fn: 'sin', arg: 0, type: 'float64' },
    { op: 'binary', fn: 'multiply', args: [1, 0], type: 'float64' },
    { op: 'store', array: 1, arg: 2, type: 'float64' },
    { op: 'reduce', fn: 'sum', arg: 2, slot: 0, type: 'float64' },
    { op: 'reduce', fn: 'max', arg: 2, slot: 1, type: 'float64' },
  ],
  slots: 2,
};

/**
 * z = power(int32(x), int32(y)) through the host function `power.int32` (the
 * fault fixture's): integer power is a host call per element, where float ops
 * all run as instructions.
 */
const POWER_SPEC: KernelSpec = {
  ndim: 1,
  arrays: [f64, f64, out64],
  body: [
    { op: 'load', array: 0, type: 'float64' },
    { op: 'load', array: 1, type: 'float64' },
    { op: 'cast', arg: 0, type: 'int32' },
    { op: 'cast', arg: 1, type: 'int32' },
    { op: 'binary', fn: 'power', args: [2, 3], type: 'int32' },
    { op: 'cast', arg: 4, type: 'float64' },
    { op: 'store', array: 2, arg: 5, type: 'float64' },
  ],
  slots: 0,
};

function array(values: ArrayLike<number>): number {
  const p = heap.alloc(values.length * 8);
  new Float64Array(heap.memory.buffer, p, values.length).set(values);
  return p;
}

const read = (ptr: number, n: number): Float64Array => new Float64Array(heap.memory.buffer, ptr, n).slice();
const bits = (a: Float64Array): BigUint64Array => new BigUint64Array(a.buffer, a.byteOffset, a.length);

const POWER_N = 200_000;

/** How a worker fails on the fault fixture's cues, and what its error says. */
const FAULTS = [
  ['throws', 13, /injected failure in a host function/],
  ['exits', 17, /exit/i],
  ['traps', 19, /unreachable/],
] as const;

/** A full garbage collection (V8's gc(), reached without --expose-gc). */
const collectGarbage = ((): (() => void) => {
  v8.setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

const NO_HOST = { hostFunction: noHost };

/**
 * The calling thread's host functions when it joins a power launch: a ** b
 * (integer power, for the small operands here), its first call held for `holdMs`, so the
 * workers meanwhile claim every block but the one it holds.
 */
function callerHost(holdMs: number, fail = false) {
  let first = true;
  return {
    /** Whether the calling thread ran a block (under load the workers may claim every block first). */
    ran: (): boolean => !first,
    hostFunction: () => {
      return (a: number, b: number): number => {
        if (first) {
          first = false;
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, holdMs);
          if (fail) throw new Error('injected failure on the calling thread');
        }
        return a ** b;
      };
    },
  };
}

/**
 * A started pool on the fault fixture, and the power kernel, x squared, over x = (i % 7) + 0.5
 * or over x with `cue` (what the fixture fails on) at element `at`.
 */
async function faultRig(kind: PoolKind, threads: number, cue: number, at: number) {
  const p = await pool(kind, threads, fixture('fault-host.mjs'));
  await p.start();
  const x = Float64Array.from({ length: POWER_N }, (_, i) => (i % 7) + 0.5);
  const bad = Float64Array.from(x);
  bad[at] = cue;
  const [xp, badp, yp] = [array(x), array(bad), array(new Float64Array(POWER_N).fill(2))];
  const compiled = compileKernel(POWER_SPEC);
  const job = (input: number, out: number, label = 'power', join?: { host: HostModule }): Promise<LaunchResult> =>
    launchOnPool(p, compiled, heap, { shape: [POWER_N], arrays: [{ ptr: input, strides: [1] }, { ptr: yp, strides: [1] }, { ptr: out, strides: [1] }] }, label, join);
  return { p, xp, badp, job, expected: x.map((v) => Math.trunc(v) ** 2) };
}

/** Waits up to 2 s for the pool to have `threads` workers again, and expects it has. */
async function healed(p: KernelPool, threads: number): Promise<void> {
  for (let t = 0; p.stats().workers < threads && t < 100; t++) await new Promise((r) => setTimeout(r, 20));
  expect(p.stats().workers).toBe(threads);
}

describe.each(KINDS)('%s pool', (kind) => {
  test('gives the calling thread\'s results bit for bit with 1, 2, 4 and 16 workers, from a launch or a fixed launch block', async () => {
    const n = 300_001;
    let seed = 7;
    const x = Float64Array.from({ length: n }, () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 1e3);
    const xp = array(x);
    const compiled = compileKernel(SIN_SPEC);
    const yInline = heap.alloc(n * 8);
    const fn = instantiate(compiled, heap.memory, NO_HOST);
    const inline = launch(compiled, heap, fn, { shape: [n], arrays: [{ ptr: xp, strides: [1] }, { ptr: yInline, strides: [1] }] });
    expect(inline.blocks).toBeGreaterThan(16);
    const fixed = fixLaunch(compiled, { shape: [n], arrays: [{ ptr: 0, strides: [1] }, { ptr: 0, strides: [1] }] });
    const block = heap.alloc(fixed.bytes);
    for (const threads of [1, 2, 4, 16]) {
      const p = await pool(kind, threads);
      // On the workers alone, then with the calling thread taking a worker's place.
      for (const join of [undefined, { host: NO_HOST }]) {
        const y = heap.alloc(n * 8);
        const tasks = p.stats().tasks;
        const r = await launchOnPool(p, compiled, heap, { shape: [n], arrays: [{ ptr: xp, strides: [1] }, { ptr: y, strides: [1] }] }, 'sin', join);
        expect(p.stats().tasks - tasks).toBe(join ? threads - 1 : threads);
        expect(bits(r.partials)).toEqual(bits(inline.partials));
        expect(bits(read(y, n))).toEqual(bits(read(yInline, n)));
        // The same launch from a fixed launch block, written again over the last launch's (its claims spent).
        new Float64Array(heap.memory.buffer, y, n).fill(0);
        const fixedRun = await launchFixedOnPool(p, fixed, heap.memory, block, [xp, y], 'sin', join);
        expect(bits(fixedRun.partials)).toEqual(bits(inline.partials));
        expect(bits(read(y, n))).toEqual(bits(read(yInline, n)));
        expect(fixedRun.flags).toEqual(inline.flags);
        heap.free(y);
      }
      await p.close();
    }
    heap.free(block);
  });

  test('a kernel with a pinned temporary: each worker computes it in its own part of the scratch', async () => {
    // out = x * sin(v), v (length n) pinned and broadcast over m rows: every block recomputes all of it.
    const [m, n] = [64, 4099];
    const x = array(Float64Array.from({ length: m * n }, (_, i) => (i % 101) - 50));
    const v = array(Float64Array.from({ length: n }, (_, i) => i * 0.37 + Math.floor(i / 7)));
    const spec: KernelSpec = {
      ndim: 2,
      arrays: [f64, { ...f64, inner: 'contiguous' }, out64],
      body: [
        { op: 'load', array: 0, type: 'float64' },
        { op: 'load', array: 1, type: 'float64' },
        { op: 'binary', fn: 'multiply', args: [0, 1], type: 'float64' },
        { op: 'store', array: 2, arg: 2, type: 'float64' },
      ],
      slots: 0,
      temps: [{
        array: 1,
        out: 1,
        kernel: { ndim: 1, arrays: [f64, out64], body: [
          { op: 'load', array: 0, type: 'float64' },
          { op: 'unary', fn: 'sin', arg: 0, type: 'float64' },
          { op: 'store', array: 1, arg: 1, type: 'float64' },
        ], slots: 0 },
      }],
    };
    const compiled = compileKernel(spec);
    const launchOf = (out: number) => ({
      shape: [m, n],
      arrays: [{ ptr: x, strides: [n, 1] }, { ptr: 0, strides: [0, 1] }, { ptr: out, strides: [n, 1] }],
      temps: [{ shape: [n], arrays: [{ ptr: v, strides: [1] }, { ptr: 0, strides: [1] }] }],
    });
    const yInline = heap.alloc(m * n * 8);
    const fn = instantiate(compiled, heap.memory, { hostFunction: () => { throw new Error('none'); } });
    const inline = launch(compiled, heap, fn, launchOf(yInline));
    expect(inline.blocks).toBeGreaterThan(8);
    for (const threads of [2, 4]) {
      const p = await pool(kind, threads);
      const y = heap.alloc(m * n * 8);
      for (let round = 0; round < 3; round++) {
        await launchOnPool(p, compiled, heap, launchOf(y), 'pinned');
        expect(bits(read(y, m * n))).toEqual(bits(read(yInline, m * n)));
      }
      await p.close();
    }
  });

  test('sends each worker a kernel\'s compiled module once, not per launch', async () => {
    const p = await pool(kind, 2);
    const n = 100_000;
    const xp = array(new Float64Array(n).fill(0.5));
    const y = heap.alloc(n * 8);
    const compiled = compileKernel(SIN_SPEC);
    const go = (): Promise<LaunchResult> => launchOnPool(p, compiled, heap, { shape: [n], arrays: [{ ptr: xp, strides: [1] }, { ptr: y, strides: [1] }] }, 'sin');
    await go();
    const first = p.stats().modulesSent;
    expect(first).toBe(2);
    for (let i = 0; i < 20; i++) await go();
    expect(p.stats()).toMatchObject({ modulesSent: first, jobs: 21, tasks: 42, workers: 2 });
  });

  describe.each(FAULTS)('a worker that %s mid-launch', (_, cue, cause) => {
    test('rejects within a second with a WorkerFailure naming the kernel, settles the other jobs, heals, and the next 100 launches succeed', async () => {
      const threads = 2;
      const { p, xp, badp, job, expected } = await faultRig(kind, threads, cue, 150_000);
      const z = heap.alloc(POWER_N * 8);
      const z2 = heap.alloc(POWER_N * 8);

      const t0 = performance.now();
      const failing = job(badp, z, 'power-kernel #1');
      const other = job(xp, z2, 'power-kernel #2');
      const error = await failing.then(() => undefined, (e: unknown) => e);
      expect(performance.now() - t0).toBeLessThan(1000);
      expect(error).toBeInstanceOf(WorkerFailure);
      expect((error as WorkerFailure).code).toBe('WORKER');
      expect((error as WorkerFailure).kernel).toBe('power-kernel #1');
      expect((error as Error).message).toMatch(/kernel power-kernel #1/);
      expect((error as Error).message).toMatch(cause);
      await Promise.allSettled([other]);

      await healed(p, threads);
      for (let i = 0; i < 100; i++) {
        await job(xp, z, `power-kernel ok ${i}`);
      }
      expect(read(z, POWER_N)).toEqual(expected);
    });
  });

  describe.each(FAULTS)('a worker that %s while the calling thread runs blocks of the same launch', (_, cue, cause) => {
    test('rejects with its WorkerFailure once the calling thread is done, heals, and the next 20 joined launches succeed', async () => {
      const threads = 2;
      const { p, xp, badp, job, expected } = await faultRig(kind, threads, cue, 150_000);
      const z = heap.alloc(POWER_N * 8);
      // The calling thread holds its first block for 300 ms, so that a worker claims the bad one. On a
      // loaded machine the worker may not wake in that time, and the calling thread runs every block
      // (the launch then succeeds, no worker having met the fault): try again, up to 5 times.
      let error: unknown;
      for (let attempt = 1; attempt <= 5 && error === undefined; attempt++) {
        const t0 = performance.now();
        error = await job(badp, z, 'power-kernel joined', { host: callerHost(300) }).then(() => undefined, (e: unknown) => e);
        expect(performance.now() - t0).toBeLessThan(1500);
      }
      expect(error).toBeInstanceOf(WorkerFailure);
      expect((error as WorkerFailure).kernel).toBe('power-kernel joined');
      expect((error as Error).message).toMatch(cause);
      await healed(p, threads);
      for (let i = 0; i < 20; i++) await job(xp, z, `power-kernel ok ${i}`, { host: callerHost(0) });
      expect(read(z, POWER_N)).toEqual(expected);
    });
  });

  test('the calling thread\'s own failure rejects the launch with its error, before a worker\'s, and the pool goes on', async () => {
    const threads = 2;
    const { p, xp, badp, job, expected } = await faultRig(kind, threads, 13, 150_000);
    const z = heap.alloc(POWER_N * 8);
    // Where the calling thread ran no block (the worker took them all first, on a loaded machine),
    // the launch is the worker's alone: try again, up to 5 times.
    const callerFails = async (input: number, holdMs: number): Promise<void> => {
      for (let attempt = 1; ; attempt++) {
        const host = callerHost(holdMs, true);
        const tasks = p.stats().tasks;
        const error = await job(input, z, 'power', { host }).then(() => undefined, (e: unknown) => e);
        expect(p.stats().tasks - tasks).toBe(1);
        if (!host.ran() && attempt < 5) continue;
        expect(host.ran()).toBe(true);
        expect((error as Error | undefined)?.message).toBe('injected failure on the calling thread');
        return;
      }
    };
    await callerFails(xp, 50);
    // The worker throws too (on the 13 at 150,000) while the calling thread holds its first block.
    await callerFails(badp, 300);
    for (let i = 0; i < 20; i++) await job(xp, z, 'power', i % 2 ? { host: callerHost(0) } : undefined);
    expect(read(z, POWER_N)).toEqual(expected);
    expect(p.stats().workers).toBe(threads);
  });

  test('workers outlive garbage collection: none exits or is replaced', async () => {
    // comlink releases the endpoint of a proxy the collector takes; a pool that dropped its
    // proxies lost its Node workers (exit code 0) at the next collections.
    const p = await pool(kind, 2);
    const compiled = compileKernel(SIN_SPEC);
    const n = 100_000;
    const [xp, y] = [array(new Float64Array(n).fill(0.5)), heap.alloc(n * 8)];
    const go = (): Promise<LaunchResult> => launchOnPool(p, compiled, heap, { shape: [n], arrays: [{ ptr: xp, strides: [1] }, { ptr: y, strides: [1] }] }, 'sin');
    await go();
    const sent = p.stats().modulesSent;
    for (let i = 0; i < 5; i++) {
      collectGarbage();
      await new Promise((r) => setTimeout(r, 100));
    }
    await go();
    expect(p.stats()).toMatchObject({ workers: 2, modulesSent: sent });
  });

  test('a launch of one block is left to a worker, join or not', async () => {
    const p = await pool(kind, 2);
    const compiled = compileKernel(SIN_SPEC);
    const [xp, y] = [array(new Float64Array(100).fill(0.5)), heap.alloc(800)];
    const tasks = p.stats().tasks;
    const r = await launchOnPool(p, compiled, heap, { shape: [100], arrays: [{ ptr: xp, strides: [1] }, { ptr: y, strides: [1] }] }, 'sin', { host: NO_HOST });
    expect(r.blocks).toBe(1);
    expect(p.stats().tasks - tasks).toBe(1);
    expect(read(y, 1)[0]).toBe(Math.sin(0.5) * 0.5);
  });

  test('a worker killed while parked is replaced, and launches given meanwhile neither hang nor fail', async () => {
    const threads = 2;
    // Block 0 holds the 23: whichever worker runs it exits 100 ms after the launch, parked.
    const { p, xp, badp, job, expected } = await faultRig(kind, threads, 23, 0);
    const z = heap.alloc(POWER_N * 8);
    await job(badp, z);
    const sent = p.stats().modulesSent;
    const t0 = performance.now();
    // Launches keep coming while the worker dies and its replacement parks, until the replacement
    // has run one (it is sent the kernel): on a loaded machine the exit may come well after 100 ms.
    while (p.stats().modulesSent === sent && performance.now() - t0 < 10_000) {
      await job(xp, z);
      expect(read(z, POWER_N)).toEqual(expected);
      await new Promise((r) => setTimeout(r, 5));
    }
    await healed(p, threads);
    await job(xp, z);
    expect(read(z, POWER_N)).toEqual(expected);
    // The replacement, and only it, was sent the kernel: the worker did die.
    expect(p.stats().modulesSent).toBe(sent + 1);
  });

  test('a pool whose workers cannot start rejects start() once with the reason, and does not respawn them', async () => {
    const p = await pool(kind, 2, fixture('broken-host.mjs'));
    await expect(p.start()).rejects.toThrow(PoolStartError);
    await expect(p.start()).rejects.toThrow(/fails to load \(injected\)/);
    await new Promise((r) => setTimeout(r, 300));
    expect(p.stats().workers).toBeLessThanOrEqual(2);
  });

  test('an idle pool does not keep a Node process alive', () => {
    const script = fileURLToPath(fixture('idle-pool.mjs'));
    const r = spawnSync(process.execPath, [script, kind], { timeout: 20000, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('launched');
    expect(r.status).toBe(0);
  });
});

describe.each(KINDS)('%s pool closed while its workers start', (kind) => {
  test('start() settles: started, or a PoolStartError saying the pool closed', async () => {
    const p = await createPool({ threads: 2, memory: heap.memory, kind });
    const started = p.start().then(() => 'started', (e: unknown) => e);
    await p.close();
    const got = await started;
    if (got !== 'started') {
      expect(got).toBeInstanceOf(PoolStartError);
      expect((got as Error).message).toMatch(/closed while its workers were starting/);
    }
  });

  // A child process: the failure this guards against aborted the whole process. SOAK=1 closes 3,000 pools.
  test('never aborts the process', () => {
    const rounds = process.env['SOAK'] ? 3000 : 40;
    const script = fileURLToPath(fixture('close-while-starting.mjs'));
    const r = spawnSync(process.execPath, [script, kind, String(rounds)], { timeout: process.env['SOAK'] ? 1_200_000 : 30000, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`closed ${rounds} pools`);
    expect(r.status).toBe(0);
  });
});

test('createPool checks its options', async () => {
  await expect(createPool({ threads: 0, memory: heap.memory })).rejects.toThrow(/threads must be an integer of at least 1/);
  await expect(createPool({ threads: 1, memory: new WebAssembly.Memory({ initial: 1 }) })).rejects.toThrow(/shared WebAssembly.Memory/);
  await expect(createPool({ threads: 1, memory: heap.memory, kind: 'threads' as PoolKind })).rejects.toThrow(/kind must be/);
});
