// What a pooled launch costs: a one-block kernel launched on the pool (the
// launch block written, the doorbell rung, the wait for DONE, the partials
// read back) against the same launch on the calling thread; sin over 2^17
// float64 through execute() on the pool against executeSync() on one thread,
// the two launched alternately; and the same for sum(sin(x)) with the graph
// built afresh each call, as code in a loop builds it.
import * as da from 'deferred-array';
import { randomData } from './data.js';
import { openStreams } from './streaming.js';
import { alternately, median } from './timing.js';

/** Untimed launches and sin pairs first. */
const WARM_LAUNCHES = 2000;
const WARM_PAIRS = 10;

interface DispatchReport {
  readonly threads: number;
  /** Launches timed each way, and sin pairs. */
  readonly launches: number;
  readonly pairs: number;
  /** Median µs of a one-block launch: on the pool, and on the calling thread. */
  readonly pooledUs: number;
  readonly inlineUs: number;
  /** Median ms of sin over 2^17 elements: execute() on the pool, executeSync(); and the median of their per-pair ratios. */
  readonly sinPoolMs: number;
  readonly sinSyncMs: number;
  readonly sinRatio: number;
  /** The same for da.sum(da.sin(x)), built afresh each call. */
  readonly sumSinPoolMs: number;
  readonly sumSinSyncMs: number;
  readonly sumSinRatio: number;
}


/** Median µs of `reps` pooled and inline launches of a 64-element copy (one block), alternating; pooled only without `withInline`. */
async function launchMicros(threads: number, reps = 2000, withInline = true): Promise<{ pooled: number; inline: number }> {
  const onPool = await openStreams(64, threads);
  const here = withInline ? await openStreams(64) : undefined;
  try {
    // Untimed first: the new workers' code (and the kernel's) starts in V8's baseline tiers.
    for (let i = 0; i < WARM_LAUNCHES; i++) await onPool.run.copy();
    const pooled: number[] = [];
    const inline: number[] = [];
    for (let i = 0; i < reps; i++) {
      let t0 = performance.now();
      await onPool.run.copy();
      pooled.push(performance.now() - t0);
      if (!here) continue;
      t0 = performance.now();
      here.run.copy();
      inline.push(performance.now() - t0);
    }
    return { pooled: median(pooled) * 1000, inline: here ? median(inline) * 1000 : NaN };
  } finally {
    await onPool.close();
    await here?.close();
  }
}

async function dispatchReport(threads: number, pairs = 101, launches = 2000): Promise<DispatchReport> {
  const { pooled, inline } = await launchMicros(threads, launches);
  const x = da.wrap(randomData(1 << 17, 7));
  const y = da.sin(x);
  // Results stay views inside the scopes: what is timed is the launch and the kernel.
  const sin = await alternately(() => da.scope(async () => { await y.execute(); }), () => da.scopeSync(() => { y.executeSync(); }), pairs, WARM_PAIRS);
  const sumSin = await alternately(() => da.sum(da.sin(x)).execute(), () => da.sum(da.sin(x)).executeSync(), pairs, WARM_PAIRS);
  return {
    threads, launches, pairs, pooledUs: pooled, inlineUs: inline,
    sinPoolMs: sin.a, sinSyncMs: sin.b, sinRatio: sin.ratio,
    sumSinPoolMs: sumSin.a, sumSinSyncMs: sumSin.b, sumSinRatio: sumSin.ratio,
  };
}

function printDispatch(r: DispatchReport): string {
  return [
    `Dispatch: a one-block kernel launched on ${r.threads} pool workers costs ${r.pooledUs.toFixed(1)} µs (median of ${r.launches}; on the calling thread ${r.inlineUs.toFixed(1)} µs)`,
    `  sin over 2^17 float64: execute() on ${r.threads} workers ${r.sinPoolMs.toFixed(3)} ms, executeSync() on one thread ${r.sinSyncMs.toFixed(3)} ms: ` +
      `${r.sinRatio.toFixed(2)}x (median of ${r.pairs} per-pair ratios, launched alternately)`,
    `  sum(sin(x)) over 2^17 float64, the graph built afresh each call: execute() ${r.sumSinPoolMs.toFixed(3)} ms, executeSync() ` +
      `${r.sumSinSyncMs.toFixed(3)} ms: ${r.sumSinRatio.toFixed(2)}x${r.threads >= 2 ? `  target >= 1.5x: ${r.sumSinRatio >= 1.5 ? 'met' : 'not met'}` : ''}`,
  ].join('\n');
}

export { dispatchReport, printDispatch, launchMicros };
