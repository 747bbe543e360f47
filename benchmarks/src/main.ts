// `npm run main`: the NEP examples, then a short bandwidth benchmark.
import * as da from 'deferred-array';
import { fooCase, sinCosCase } from './cases.js';
import { nepDemo } from './nep-demo.js';
import { printCase, runCase } from './report.js';
import { streamingLimits } from './streaming.js';

const N = Number(process.env['BENCH_N'] ?? 1e7);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 5);

async function main(): Promise<void> {
  console.log('# deferred-array: the NEP examples');
  await nepDemo();

  console.log(`\n# Short bandwidth benchmark (n = ${N}, median of ${RUNS} runs; BENCH_N and BENCH_RUNS change them)`);
  const limits = streamingLimits(N * 4, RUNS);
  console.log('Streaming limit, measured with our own WebAssembly kernels on one thread:');
  for (const s of limits) console.log(`  ${s.name.padEnd(12)} ${s.gbPerS.toFixed(2).padStart(6)} GB/s`);
  const readLimit = limits[0]!.gbPerS;
  for (const c of [fooCase(N), sinCosCase(N)]) console.log(`\n${printCase(c, runCase(c, RUNS), readLimit)}`);
  console.log(
    '\nOne thread so far: the worker pool (next milestone) spreads the same blocks over every core.\n' +
    'DEFERRED_ARRAY_BACKEND=reference runs the plain TypeScript oracle instead.',
  );
  await da.shutdown();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
