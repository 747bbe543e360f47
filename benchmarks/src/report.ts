// Runs cases side by side and prints one readable table per case.
import * as da from 'deferred-array';
import type { Case } from './cases.js';
import { gbPerS, median, time, timeAsync, workerCounts } from './timing.js';

interface Row {
  readonly who: string;
  readonly ms: number;
}

async function runCase(c: Case, runs: number): Promise<Row[]> {
  const { backend, threads } = da.configure();
  return [
    { who: `deferred-array execute(), ${threads} worker(s)`, ms: (await timeAsync(c.deferred, runs)).medianMs },
    { who: `deferred-array executeSync(), 1 thread`, ms: time(c.deferredSync, runs).medianMs },
    { who: 'eager @stdlib/ndarray', ms: time(c.eager, runs).medianMs },
    { who: 'hand-fused JS loop', ms: time(c.fusedJs, runs).medianMs },
  ].map((r) => (backend === 'wasm' ? r : { ...r, who: r.who.replace('deferred-array', `deferred-array (${backend})`) }));
}

/** One table per case; `limit` is the streaming limit that fits the case (read for reductions, triad for two inputs and an output). */
function printCase(c: Case, rows: readonly Row[], limit: { name: string; gbPerS: number }): string {
  const ours = rows[0]!.ms;
  const lines = [`${c.name}  (one fused pass moves ${(c.bytes / 1e6).toFixed(0)} MB)`];
  for (const r of rows) {
    const gb = gbPerS(c.bytes, r.ms);
    lines.push(
      `  ${r.who.padEnd(40)} ${r.ms.toFixed(1).padStart(9)} ms  ${gb.toFixed(2).padStart(6)} GB/s  ` +
      `${((gb / limit.gbPerS) * 100).toFixed(1).padStart(5)}% of ${limit.name} limit  ${(r.ms / ours).toFixed(2).padStart(6)}x our time`,
    );
  }
  return lines.join('\n');
}

interface Paired {
  readonly median: number;
  readonly low: number;
  readonly high: number;
}

/**
 * execute() of a case as a fraction of a streaming kernel's bandwidth, the two
 * launched alternately so that each pair sees the same machine (this one is
 * shared, and its bandwidth drifts by a third between seconds): the median,
 * lowest and highest of the per-pair fractions.
 */
async function pairedFraction(c: Case, limit: () => unknown, limitBytes: number, runs: number): Promise<Paired> {
  await limit();
  await c.deferred();
  const fractions: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await limit();
    const t1 = performance.now();
    await c.deferred();
    const t2 = performance.now();
    fractions.push(gbPerS(c.bytes, t2 - t1) / gbPerS(limitBytes, t1 - t0));
  }
  return { median: median(fractions), low: Math.min(...fractions), high: Math.max(...fractions) };
}

/** execute() of each case with 1, 2, 4, ... workers up to `maxThreads`: time, GB/s, speed-up over one worker. */
async function printScaling(cases: readonly { c: Case; limit: { name: string; gbPerS: number } }[], maxThreads: number, runs: number): Promise<string> {
  const counts = workerCounts(maxThreads);
  const before = da.configure();
  const lines = ['Scaling of execute() with the number of workers (every kernel on the pool):'];
  try {
    for (const { c, limit } of cases) {
      lines.push(`  ${c.name}`);
      let one = 0;
      for (const threads of counts) {
        da.configure({ threads, inlineThreshold: 0 });
        const ms = (await timeAsync(c.deferred, runs)).medianMs;
        one ||= ms;
        const gb = gbPerS(c.bytes, ms);
        lines.push(
          `    ${String(threads).padStart(2)} worker(s) ${ms.toFixed(1).padStart(8)} ms  ${gb.toFixed(2).padStart(6)} GB/s  ` +
          `${((gb / limit.gbPerS) * 100).toFixed(1).padStart(5)}% of ${limit.name} limit  ${(one / ms).toFixed(2)}x one worker`,
        );
      }
    }
  } finally {
    da.configure({ threads: before.threads, inlineThreshold: before.inlineThreshold });
  }
  return lines.join('\n');
}

export { runCase, printCase, printScaling, pairedFraction };
export type { Paired };
