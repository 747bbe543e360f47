// What a pooled launch costs: a one-block kernel launched on the pool (the
// launch block written, the doorbell rung, the wait for DONE, the partials
// read back) against the same launch on the calling thread; and sin over
// 2^17 float64 through execute() on the pool against executeSync() on one
// thread, the two launched alternately.
import * as da from 'deferred-array';
import { randomData } from './data.js';
import { openStreams } from './streaming.js';
import { median } from './timing.js';

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
  const y = da.sin(da.wrap(randomData(1 << 17, 7)));
  // Results stay views inside the scopes: what is timed is the launch and the kernel.
  const pool = (): Promise<void> => da.scope(async () => { await y.execute(); });
  const sync = (): void => da.scopeSync(() => { y.executeSync(); });
  // Both warmed alike: V8 compiles each thread's kernel in a baseline tier first and optimises it
  // after some runs, and the async path's JavaScript likewise.
  for (let i = 0; i < WARM_PAIRS; i++) {
    await pool();
    sync();
  }
  const p: number[] = [];
  const s: number[] = [];
  for (let i = 0; i < pairs; i++) {
    let t0 = performance.now();
    await pool();
    p.push(performance.now() - t0);
    t0 = performance.now();
    sync();
    s.push(performance.now() - t0);
  }
  return { threads, launches, pairs, pooledUs: pooled, inlineUs: inline, sinPoolMs: median(p), sinSyncMs: median(s), sinRatio: median(s.map((v, i) => v / p[i]!)) };
}

function printDispatch(r: DispatchReport): string {
  return [
    `Dispatch: a one-block kernel launched on ${r.threads} pool workers costs ${r.pooledUs.toFixed(1)} µs (median of ${r.launches}; on the calling thread ${r.inlineUs.toFixed(1)} µs)`,
    `  sin over 2^17 float64: execute() on ${r.threads} workers ${r.sinPoolMs.toFixed(3)} ms, executeSync() on one thread ${r.sinSyncMs.toFixed(3)} ms: ` +
      `${r.sinRatio.toFixed(2)}x (median of ${r.pairs} per-pair ratios, launched alternately)`,
  ].join('\n');
}

export { dispatchReport, printDispatch, launchMicros };
