// `node benchmarks/dist/call-costs.js`: what one call costs around the kernel
// (call-costs-report.ts), at 1,000 elements and at 10^5; CALL_N picks one
// size, CALL_ROUNDS the rounds.
import * as da from 'deferred-array';
import { callCostsReport, printCallCosts } from './call-costs-report.js';

const ROUNDS = Number(process.env['CALL_ROUNDS'] ?? 9);
const SIZES = process.env['CALL_N'] ? [Number(process.env['CALL_N'])] : [1000, 100_000];

async function main(): Promise<void> {
  for (const n of SIZES) console.log(printCallCosts(await callCostsReport(n, ROUNDS)));
  await da.shutdown();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
