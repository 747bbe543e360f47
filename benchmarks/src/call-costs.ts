// `node benchmarks/dist/call-costs.js`: what one call costs around the kernel,
// for the 10-op chain over two float64 arrays of 1,000 elements (CALL_N
// changes it): a JS loop into an array it owns, the graph built afresh with
// executeSync() (with the same constants, and with one that changes every
// call), one graph object executed again, and a compiled call. The variants
// take turns in every round (each a batch of calls); medians of the rounds.
import * as da from 'deferred-array';
import { chain, chainJs, chainWith, randomData } from './data.js';
import { inTurns, median } from './timing.js';

const N = Number(process.env['CALL_N'] ?? 1000);
const ROUNDS = Number(process.env['CALL_ROUNDS'] ?? 9);
const BATCH = 500;

async function main(): Promise<void> {
  const a = randomData(N, 4);
  const b = randomData(N, 5);
  const A = da.wrap(a);
  const B = da.wrap(b);
  const owned = new Float64Array(N);
  const once = chain(A, B);
  const compiled = da.compile((x: da.DeferredArray, y: da.DeferredArray) => chain(x, y), [da.placeholder([N], 'float64'), da.placeholder([N], 'float64')]);
  let k = 0;
  const batch = (call: () => unknown) => (): void => {
    for (let i = 0; i < BATCH; i++) call();
  };
  const variants = {
    'JS loop into an array it owns': batch(() => {
      for (let i = 0; i < N; i++) owned[i] = chainJs(a[i]!, b[i]!);
    }),
    'graph built afresh, executeSync()': batch(() => chain(A, B).executeSync()),
    'the same, a constant changing every call': batch(() => chainWith(A, B, 1.5 + (k++ % 1000) * 1e-3).executeSync()),
    'one graph executed again, executeSync()': batch(() => once.executeSync()),
    'compiled, f.sync(a, b)': batch(() => compiled.sync(a, b)),
  };
  inTurns(variants, 2);
  const plansBefore = da.stats().plans;
  const samples = inTurns(variants, ROUNDS);
  const plans = da.stats().plans - plansBefore;
  const us = (name: keyof typeof variants): number => (median(samples[name]) * 1000) / BATCH;
  const loopUs = us('JS loop into an array it owns');
  console.log(`Per call, the 10-op chain over two float64 arrays of ${N} (µs, median of ${ROUNDS} rounds of ${BATCH} calls, variants in turn):`);
  for (const name of Object.keys(variants) as (keyof typeof variants)[]) {
    console.log(`  ${name.padEnd(44)} ${us(name).toFixed(1).padStart(8)} µs  ${(us(name) / loopUs).toFixed(1).padStart(6)}x the loop`);
  }
  console.log(`  plans made while timing: ${plans} (${ROUNDS * BATCH * 2} graphs built afresh, of one structure)`);
  await da.shutdown();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
