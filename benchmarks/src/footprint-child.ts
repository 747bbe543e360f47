// The process footprint.ts measures (run with --expose-gc): resident memory
// with a wrapped source of 10^7 float64, after a burst of six execute()s of
// it at once whose results are dropped (and full collections), after 10 s
// idle with the default settings (no collection asked for), and after
// shutdown() with full collections; the heap's size at
// each, and the first run after the trim against the same run before it.
// Prints one line of JSON.
import * as da from 'deferred-array';

const N = 1e7;
const IDLE_MS = 10_000;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('footprint-child: run with --expose-gc');

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** Full collections, a turn of the event loop between them (finalizers, workers' exits). */
async function collect(): Promise<void> {
  for (let i = 0; i < 4; i++) {
    gc!();
    await sleep(50);
  }
}
const mib = (): number => process.memoryUsage().rss / 2 ** 20;
const heapMib = (): number => da.heapStats().heapBytes / 2 ** 20;

interface Point { readonly rss: number; readonly heap: number }
const point = (): Point => ({ rss: mib(), heap: heapMib() });

const x = Float64Array.from({ length: N }, (_, i) => i);
const a = da.wrap(x);
/** The burst; its results are dropped as it returns. */
async function burst(): Promise<number> {
  const results = await Promise.all([1, 2, 3, 4, 5, 6].map((k) => a.mul(k).add(1).execute() as Promise<da.StdNdarray>));
  return sum(results[2]!.data as Float64Array);
}
/** One run of the burst's third graph, timed; its result dropped as it returns. */
async function timed(): Promise<{ ms: number; total: number }> {
  const t = performance.now();
  const r = await a.mul(3).add(1).execute() as da.StdNdarray;
  return { ms: performance.now() - t, total: sum(r.data as Float64Array) };
}
const sum = (d: Float64Array): number => d.reduce((s, v) => s + v, 0);

await collect();
const source = point();
const expected = await burst();
const beforeTrimMs = (await timed()).ms;
await collect();
const afterBurst = point();
// No collection asked for here: what an idle process holds, as a server would.
await sleep(IDLE_MS);
const afterIdle = point();
const trims = da.heapStats().shrinks;
const after = await timed();
const afterTrimMs = after.ms;
const same = after.total === expected;
await da.shutdown();
await collect();
const afterShutdown = point();
console.log(JSON.stringify({ source, afterBurst, afterIdle, afterShutdown, trims, same, beforeTrimMs, afterTrimMs }));
