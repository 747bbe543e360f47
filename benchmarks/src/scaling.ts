// How execute() scales with the number of workers (node benchmarks/dist/scaling.js):
// for 1, 2, 4, ... workers up to every core, the median time of a pooled
// launch of a one-block kernel, our streaming triad on that many workers, NEP
// foo, the 10-op chain and sin(a)^2 + cos(b)^2 (each taken as a heap view in
// a scope, so that no copy on the calling thread hides the kernels), and the
// PyOP2 wave per step (one flush for all steps). Every kernel runs on the
// pool, even the small ones. Thread counts take turns round by round, so a
// drifting machine does not favour one of them. SCALING_N sets the elements
// of the elementwise cases (default 2^24), SCALING_ROUNDS the rounds
// (default 5), SCALING_MAX the most workers (default: every core),
// SCALING_WAVE the wave's side (1024), SCALING_OUT a JSON file to write.
import { availableParallelism } from 'node:os';
import { writeFileSync } from 'node:fs';
import * as da from 'deferred-array';
import { makeWave, step } from 'deferred-array-examples/wave';
import { chain, randomData } from './data.js';
import { launchMicros } from './dispatch.js';
import { openStreams } from './streaming.js';
import { gbPerS, median, timeAsync } from './timing.js';

interface Row {
  readonly threads: number;
  /** Median ms per call, by measurement. */
  readonly ms: Record<string, number>;
}

/** More points than timing.ts's workerCounts (12, 24, 48 too): the curve on a many-core machine bends between powers of two. */
const threadCounts = (max: number): number[] => [...new Set([1, 2, 4, 8, 12, 16, 24, 32, 48, 64].filter((t) => t < max).concat(max))];

async function main(): Promise<void> {
  const n = Number(process.env['SCALING_N'] ?? 1 << 24);
  const rounds = Number(process.env['SCALING_ROUNDS'] ?? 5);
  const cores = availableParallelism();
  const counts = threadCounts(Number(process.env['SCALING_MAX'] ?? cores));
  const wave = Number(process.env['SCALING_WAVE'] ?? 1024);
  const waveSteps = 50;
  console.log(`execute() against the number of workers: ${cores} cores, n = ${n} float64, wave ${wave}^2 x ${waveSteps} steps, ${rounds} rounds, thread counts taking turns`);

  const [x, a, b] = [1, 2, 3].map((seed) => da.wrap(randomData(n, seed))) as [da.DeferredArray, da.DeferredArray, da.DeferredArray];
  const foo = da.sum(da.square(x.mul(Math.PI / 180)));
  const chained = chain(a, b);
  const sincos = da.add(da.square(da.sin(a)), da.square(da.cos(b)));
  const cases: Record<string, () => Promise<unknown>> = {
    foo: () => foo.execute(),
    // Nothing returned from the scope: a view leaving the outermost scope is copied.
    chain: () => da.scope(async () => { await chained.execute(); }),
    sincos: () => da.scope(async () => { await sincos.execute(); }),
  };
  /** ms per step of the wave: its steps recorded and one flush, after a first step and flush. */
  const waveStep = async (): Promise<number> => {
    const w = makeWave(wave);
    step(w);
    await da.flush();
    const t0 = performance.now();
    for (let s = 0; s < waveSteps; s++) step(w);
    await da.flush();
    return (performance.now() - t0) / waveSteps;
  };
  const samples = new Map<number, Record<string, number[]>>(counts.map((t) => [t, {}]));
  const add = (t: number, key: string, v: number): void => { (samples.get(t)![key] ??= []).push(v); };
  for (let r = 0; r < rounds; r++) {
    for (const t of counts) {
      add(t, 'launch µs', (await launchMicros(t, 2000, false)).pooled);
      const streams = await openStreams(n, t);
      add(t, 'triad GB/s', gbPerS(streams.bytes.triad, (await timeAsync(streams.run.triad, 5)).medianMs));
      await streams.close();
      da.configure({ threads: t, inlineThreshold: 0 });
      for (const [name, fn] of Object.entries(cases)) add(t, `${name} ms`, (await timeAsync(fn, 5)).medianMs);
      add(t, 'wave ms/step', median([await waveStep(), await waveStep(), await waveStep()]));
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
