// The Monte Carlo estimate of pi: u = rng.random([n]); v = rng.random([n]);
// mean(u*u + v*v < 1) * 4, one kernel computing the random numbers where it
// reads them (no array of n points anywhere), against the JS loop a user would
// write with Math.random. Variants take turns within each round; medians.
import * as da from 'deferred-array';
import { median } from './timing.js';

interface MonteCarloReport {
  readonly n: number;
  readonly rounds: number;
  readonly threads: number;
  readonly ms: { readonly pool: number; readonly sync: number; readonly js: number };
  readonly pi: { readonly ours: number; readonly js: number };
  readonly kernels: number;
}

function jsLoop(n: number): number {
  let inside = 0;
  for (let i = 0; i < n; i++) {
    const u = Math.random();
    const v = Math.random();
    if (u * u + v * v < 1) inside++;
  }
  return (4 * inside) / n;
}

async function monteCarloReport(n: number, rounds: number): Promise<MonteCarloReport> {
  const rng = da.random.defaultRng(20261123);
  const u = rng.random([n]);
  const v = rng.random([n]);
  const pi = u.mul(u).add(v.mul(v)).lt(1).mean().mul(4);
  const kernels = pi.explain().split('\n').filter((l) => l.includes(`kernel`) && l.includes(`over (${n},)`)).length;
  const samples = { pool: [] as number[], sync: [] as number[], js: [] as number[] };
  // Warm: kernels compiled, pool started.
  let ours = ((await pi.execute()) as da.StdNdarray).get() as number;
  let js = NaN;
  pi.executeSync();
  for (let r = 0; r < rounds; r++) {
    let t = performance.now();
    ours = ((await pi.execute()) as da.StdNdarray).get() as number;
    samples.pool.push(performance.now() - t);
    t = performance.now();
    pi.executeSync();
    samples.sync.push(performance.now() - t);
    t = performance.now();
    js = jsLoop(n);
    samples.js.push(performance.now() - t);
  }
  return {
    n, rounds, threads: da.configure().threads, kernels,
    ms: { pool: median(samples.pool), sync: median(samples.sync), js: median(samples.js) },
    pi: { ours, js },
  };
}

function printMonteCarlo(r: MonteCarloReport): string {
  const line = (name: string, ms: number, pi?: number): string =>
    `  ${name.padEnd(44)} ${ms.toFixed(0).padStart(6)} ms  ${(r.ms.js / ms).toFixed(2).padStart(5)}x the JS loop${pi === undefined ? '' : `  pi ~ ${pi.toFixed(5)}`}`;
  return [
    `Monte Carlo pi over ${r.n.toExponential(0)} points (rng.random twice, mean(u*u + v*v < 1) * 4; median of ${r.rounds} rounds, in turns):`,
    `  ${r.kernels} kernel over the points; it reads and writes no array (the random numbers are made where they are used)`,
    line(`execute() on ${r.threads} workers`, r.ms.pool, r.pi.ours),
    line('executeSync() on this thread', r.ms.sync),
    line('JS loop with Math.random', r.ms.js, r.pi.js),
  ].join('\n');
}

export { monteCarloReport, printMonteCarlo };
export type { MonteCarloReport };
