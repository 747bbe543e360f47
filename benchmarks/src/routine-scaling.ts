// How the routines on the pool scale with the number of workers
// (node benchmarks/dist/routine-scaling.js): for 1, 2, 4, ... workers up to
// every core, taking turns round by round, the median time of execute() for
// one line of 2^23 float64 sorted and argsorted (a launch a pass, shared out
// by blocks of the line), the rows of 1024 x 4096 float64 sorted and their
// medians (blocks of rows), and bincount of 2^23 int32 into 1,000 bins
// (blocks of indices); and executeSync() on the calling thread, the same
// rounds. Each thread count's pool is started afresh, and each case run once
// untimed on it first. ROUTINE_ROUNDS sets the rounds (default 3), ROUTINE_MAX the most
// workers (default: every core), ROUTINE_OUT a JSON file to write.
import { availableParallelism } from 'node:os';
import { writeFileSync } from 'node:fs';
import * as da from 'deferred-array';
import { randomData } from './data.js';
import { median } from './timing.js';

const threadCounts = (max: number): number[] => [...new Set([1, 2, 4, 8, 12, 16, 24, 32, 48, 64].filter((t) => t < max).concat(max))];

async function main(): Promise<void> {
  const rounds = Number(process.env['ROUTINE_ROUNDS'] ?? 3);
  const cores = availableParallelism();
  const counts = threadCounts(Number(process.env['ROUTINE_MAX'] ?? cores));
  console.log(`Routines on the pool against the number of workers: ${cores} cores, ${rounds} rounds, thread counts taking turns`);
  const x = da.wrap(randomData(1 << 23, 3));
  const M = da.wrap(randomData(1024 * 4096, 23)).reshape([1024, 4096]);
  const I = da.wrap(Int32Array.from(randomData(1 << 23, 9), (v) => Math.floor((v + 180) / 360 * 1000)));
  const cases: Record<string, () => da.DeferredArray> = {
    'sort 2^23': () => da.sort(x),
    'argsort 2^23': () => da.argsort(x),
    'sort rows': () => da.sort(M, { axis: 1 }),
    'median rows': () => da.median(M, { axis: 1 }),
    bincount: () => da.bincount(I),
  };
  const samples = new Map<number, Record<string, number[]>>([0, ...counts].map((t) => [t, {}]));
  const add = (t: number, key: string, v: number): void => { (samples.get(t)![key] ??= []).push(v); };
  for (let r = 0; r <= rounds; r++) {
    // Thread count 0: executeSync() on the calling thread. Round 0 is untimed (compiles, pools started, heap grown).
    for (const t of [0, ...counts]) {
      if (t > 0) da.configure({ threads: t });
      for (const [name, make] of Object.entries(cases)) {
        // A pool started afresh: one untimed run first, so that its workers' kernels are warm.
        if (t > 0) await make().execute();
        const t0 = performance.now();
        if (t === 0) make().executeSync();
        else await make().execute();
        if (r > 0) add(t, name, performance.now() - t0);
      }
      if (t > 0) await da.shutdown();
    }
    if (r > 0) process.stdout.write(`  round ${r}/${rounds} done\n`);
  }
  const rows = [0, ...counts].map((t) => ({ threads: t, ms: Object.fromEntries(Object.entries(samples.get(t)!).map(([k, v]) => [k, median(v)])) }));
  const keys = Object.keys(cases);
  const base = rows[0]!.ms;
  console.log(`\n${'workers'.padStart(14)}${keys.map((k) => k.padStart(20)).join('')}`);
  for (const row of rows) {
    const label = row.threads === 0 ? 'executeSync()' : String(row.threads);
    console.log(`${label.padStart(14)}${keys.map((k) => `${row.ms[k]!.toFixed(1)} ms (${(base[k]! / row.ms[k]!).toFixed(2)}x)`.padStart(20)).join('')}`);
  }
  const out = process.env['ROUTINE_OUT'];
  if (out) {
    writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), cores, rounds, node: process.version, rows }, null, 2));
    console.log(`Wrote ${out}`);
  }
}

await main();
