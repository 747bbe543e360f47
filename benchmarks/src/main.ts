// `npm run main`: the NEP examples, then a short bandwidth benchmark.
import * as da from 'deferred-array';
import { chainCase, fooCase, sinCosCase } from './cases.js';
import { nepDemo } from './nep-demo.js';
import { pairedFraction, printCase, printScaling, runCase } from './report.js';
import { memoryReport } from './memory.js';
import { diamondReport, printDiamond } from './diamond.js';
import { pinReport, printPin } from './pin.js';
import { printWave, waveReport } from './wave.js';
import { dispatchReport, printDispatch } from './dispatch.js';
import { compiledReport, printCompiled } from './compiled.js';
import { productsReport } from './products.js';
import { openStreams, streamingLimits } from './streaming.js';
import { printResults, printStartup, resultsReport, startupReport } from './results.js';
import { printVectorMath, vectorMathReport } from './vector-math.js';
import { mathTargetsReport, printMathTargets } from './math-targets.js';
import { columnsReport, printColumns } from './columns.js';
import { monteCarloReport, printMonteCarlo } from './monte-carlo.js';
import { callCostsReport, printCallCosts } from './call-costs-report.js';
import { npyReport, printNpy } from './npy-files.js';
import { bigFileReport, printBigFile } from './big-file.js';
import { printSidePaths, sidePathsReport } from './side-paths.js';
import { footprintReport, printFootprint } from './footprint.js';

const N = Number(process.env['BENCH_N'] ?? 1e7);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 5);
/** Elements per vector math function: enough to time a kernel in ms, with the inputs in memory. */
const MATH_N = 1 << 20;

async function main(): Promise<void> {
  console.log('# deferred-array: the NEP examples');
  await nepDemo();

  const { threads, backend } = da.configure();
  console.log(`\n# Short bandwidth benchmark (n = ${N}, median of ${RUNS} runs; BENCH_N and BENCH_RUNS change them)`);
  const one = await streamingLimits(N * 2, RUNS);
  const all = await streamingLimits(N * 2, RUNS, threads);
  console.log('Streaming limit, measured now with our own WebAssembly kernels:');
  console.log(`  ${''.padEnd(12)} ${'1 thread'.padStart(11)} ${`${threads} workers`.padStart(11)}`);
  one.forEach((s, i) => console.log(`  ${s.name.padEnd(12)} ${s.gbPerS.toFixed(2).padStart(6)} GB/s ${all[i]!.gbPerS.toFixed(2).padStart(6)} GB/s`));
  const [read, , triad] = all.map((s) => ({ name: s.name.split(' ')[0]!, gbPerS: s.gbPerS }));
  const cases = [
    { c: fooCase(N), limit: read! },
    { c: chainCase(N), limit: triad! },
    { c: sinCosCase(N), limit: triad! },
  ];
  for (const { c, limit } of cases) console.log(`\n${printCase(c, await runCase(c, RUNS), limit)}`);
  if (backend === 'wasm') {
    // The limits above and the cases were measured seconds apart; this shared machine drifts
    // meanwhile, so the fractions the bars are judged by come from launches paired one by one.
    const pairs = Math.max(RUNS, 9);
    console.log(`\nexecute() on ${threads} workers against our streaming kernel on ${threads} workers, launched alternately (median of ${pairs} pairs):`);
    const streams = await openStreams(N, threads);
    try {
      for (const [{ c }, name] of [[cases[0]!, 'read'], [cases[1]!, 'triad'], [cases[2]!, 'triad']] as const) {
        const p = await pairedFraction(c, streams.run[name], streams.bytes[name], pairs);
        const pct = (x: number): string => `${(x * 100).toFixed(0)}%`;
        console.log(`  ${c.name.padEnd(44)} ${pct(p.median).padStart(4)} of ${name} (lowest ${pct(p.low)}, highest ${pct(p.high)})`);
      }
    } finally {
      await streams.close();
    }
  }
  if (backend === 'wasm') {
    console.log(`\n${printResults(await resultsReport(N, Math.max(RUNS, 7)))}`);
    console.log(`\n${printStartup(startupReport(5), 5)}`);
    console.log(`\n${printDispatch(await dispatchReport(threads))}`);
    console.log(`\n${await printScaling(cases.slice(0, 2), threads, RUNS)}`);
    console.log(`\n${memoryReport(N)}`);
    console.log(`\n${printFootprint(footprintReport())}`);
    console.log(`\n${await productsReport(RUNS)}`);
    console.log(`\n${printDiamond(await diamondReport(2000, Math.max(2 * RUNS, 15)))}`);
    console.log(`\n${printPin(await pinReport(2000, Math.max(2 * RUNS, 15)))}`);
    console.log(`\n${printWave(await waveReport(1024, 100, Math.max(RUNS, 3)))}`);
    console.log(`\n${printCompiled(await compiledReport(1000, 2000, Math.max(2 * RUNS, 11)))}`);
    for (const n of [1000, 100_000]) console.log(`\n${printCallCosts(await callCostsReport(n, Math.max(RUNS, 7)))}`);
    console.log(`\n${printColumns(columnsReport(2000, 10000, Math.max(RUNS, 7)))}`);
    console.log(`\n${printSidePaths(await sidePathsReport(Math.max(RUNS, 7)))}`);
    console.log(`\n${printNpy(await npyReport(N, RUNS))}`);
    console.log(`\n${printBigFile(await bigFileReport(Number(process.env['BIG_GB'] ?? 1), 1, true))}`);
    console.log(`\n${printVectorMath(vectorMathReport(MATH_N, RUNS), MATH_N, RUNS)}`);
    console.log(`\n${printMathTargets(mathTargetsReport(MATH_N, Math.max(RUNS, 7)), MATH_N, Math.max(RUNS, 7))}`);
    console.log(`\n${printMonteCarlo(await monteCarloReport(Number(process.env['MC_N'] ?? 1e8), 3))}`);
  }
  console.log(
    `\nFractions are of the ${threads}-worker streaming limit. execute() runs kernels on ${threads} worker(s) ` +
    '(configure({ threads })); executeSync() on the calling thread.\nDEFERRED_ARRAY_BACKEND=reference runs the plain TypeScript oracle instead.',
  );
  await da.shutdown();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
