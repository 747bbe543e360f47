// How execute() scales with the number of workers (node benchmarks/dist/scaling.js):
// for 1, 2, 4, ... workers up to every core, the median time of a pooled
// launch of a one-block kernel, our streaming triad on that many workers, NEP
// foo, the 10-op chain (written into an array the caller owns), sin(a)^2 +
// cos(b)^2 and the PyOP2 wave (one flush for all steps). Thread counts take
// turns round by round, so a drifting machine does not favour one of them.
// SCALING_N sets the elements of the elementwise cases (default 2^24),
// SCALING_ROUNDS the rounds (default 5), SCALING_OUT a JSON file to write.
import { availableParallelism } from 'node:os';
import { writeFileSync } from 'node:fs';
import * as da from 'deferred-array';
import { makeWave, step } from 'deferred-array-examples/wave';
import { compileKernel, createPool, defaultHeap, launchOnPool } from 'kernels-wasm';
import type { KernelSpec } from 'kernels-wasm';
import { chain, fooCase, randomData, sinCosCase } from './cases.js';
import { openStreams } from './streaming.js';
import { median } from './timing.js';

const COPY1: KernelSpec = {
  ndim: 1, slots: 0,
  arrays: [{ dtype: 'float64', role: 'in', inner: 'contiguous' }, { dtype: 'float64', role: 'out', inner: 'contiguous' }],
  body: [{ op: 'load', array: 0, type: 'float64' }, { op: 'store', array: 1, arg: 0, type: 'float64' }],
};

interface Row {
  readonly threads: number;
  /** Median ms per call, by measurement. */
  readonly ms: Record<string, number>;
}

const threadCounts = (max: number): number[] => [...new Set([1, 2, 4, 8, 12, 16, 24, 32, 48, 64].filter((t) => t < max).concat(max))];

/** Median over `reps` calls of `fn`, in ms, after one call to warm up. */
async function timed(fn: () => unknown, reps: number): Promise<number> {
  await fn();
  const ms: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

/** Median µs of a pooled launch of a one-block copy of 64 elements (prepare, ring, wait, finish). */
async function launchMicros(threads: number): Promise<number> {
  const heap = defaultHeap();
  const [a, b] = [heap.alloc(512), heap.alloc(512)];
  const pool = await createPool({ threads, memory: heap.memory });
  try {
    await pool.start();
    const compiled = compileKernel(COPY1);
    const l = { shape: [64], arrays: [{ ptr: a, strides: [1] }, { ptr: b, strides: [1] }] };
    return (await timed(() => launchOnPool(pool, compiled, heap, l, 'copy'), 2000)) * 1000;
  } finally {
    await pool.close();
    heap.free(a);
    heap.free(b);
  }
}

async function main(): Promise<void> {
  const n = Number(process.env['SCALING_N'] ?? 1 << 24);
  const rounds = Number(process.env['SCALING_ROUNDS'] ?? 5);
  const cores = availableParallelism();
  const counts = threadCounts(Number(process.env['SCALING_MAX'] ?? cores));
  const wave = Number(process.env['SCALING_WAVE'] ?? 1024);
  const waveSteps = 20;
  console.log(`execute() against the number of workers: ${cores} cores, n = ${n} float64, wave ${wave}^2 x ${waveSteps} steps, ${rounds} rounds, thread counts taking turns`);

  const foo = fooCase(n);
  const sincos = sinCosCase(n);
  const A = da.wrap(randomData(n, 4));
  const B = da.wrap(randomData(n, 5));
  const chained = chain(A, B);
  const owned = new Float64Array(n);
  const cases: Record<string, () => Promise<unknown>> = {
    foo: () => foo.deferred(),
    chain: () => chained.execute({ out: owned }),
    sincos: () => sincos.deferred(),
    wave: async () => {
      const w = makeWave(wave);
      for (let s = 0; s < waveSteps; s++) step(w);
      await da.flush();
    },
  };
  const samples = new Map<number, Record<string, number[]>>(counts.map((t) => [t, {}]));
  const add = (t: number, key: string, v: number): void => { (samples.get(t)![key] ??= []).push(v); };
  for (let r = 0; r < rounds; r++) {
    for (const t of counts) {
      add(t, 'launch µs', await launchMicros(t));
      const streams = await openStreams(n, t);
      add(t, 'triad GB/s', streams.bytes.triad / (await timed(streams.run.triad, 5)) / 1e6);
      await streams.close();
      da.configure({ threads: t, inlineThreshold: 0 });
      for (const [name, fn] of Object.entries(cases)) add(t, `${name} ms`, await timed(fn, name === 'wave' ? 2 : 5));
      await da.shutdown();
      process.stdout.write(`  round ${r + 1}/${rounds}, ${t} worker(s) done\n`);
    }
  }
  const rows: Row[] = counts.map((t) => ({ threads: t, ms: Object.fromEntries(Object.entries(samples.get(t)!).map(([k, v]) => [k, median(v)])) }));
  const keys = Object.keys(rows[0]!.ms);
  console.log(`\n${'workers'.padStart(8)}${keys.map((k) => k.padStart(14)).join('')}`);
  for (const row of rows) console.log(`${String(row.threads).padStart(8)}${keys.map((k) => row.ms[k]!.toFixed(k.endsWith('µs') ? 1 : 2).padStart(14)).join('')}`);
  const out = process.env['SCALING_OUT'];
  if (out) {
    writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), cores, n, wave, waveSteps, rounds, node: process.version, rows }, null, 2));
    console.log(`Wrote ${out}`);
  }
}

await main();
