// Timing helpers: medians of repeated runs, and bandwidth arithmetic.

interface Timing {
  readonly medianMs: number;
  readonly runs: number;
}

/** Runs `fn` once to warm up, then `runs` times; returns the median wall time. */
function time(fn: () => unknown, runs: number): Timing {
  fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    ms.push(performance.now() - t0);
  }
  return { medianMs: median(ms), runs };
}

/** The same for work that may be asynchronous (execute() on the pool). */
async function timeAsync(fn: () => unknown, runs: number): Promise<Timing> {
  await fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return { medianMs: median(ms), runs };
}

/**
 * Times each variant once per round, the variants taking turns in their
 * order within a round (so drift in the machine reaches all of them alike):
 * every variant's samples in ms.
 */
function inTurns<K extends string>(run: Readonly<Record<K, () => unknown>>, rounds: number): Record<K, number[]> {
  const keys = Object.keys(run) as K[];
  const samples = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < rounds; round++) {
    for (const k of keys) {
      const t0 = performance.now();
      run[k]();
      samples[k].push(performance.now() - t0);
    }
  }
  return samples;
}

/** inTurns for variants that may be asynchronous (execute()): each awaited before the next starts. */
async function inTurnsAsync<K extends string>(run: Readonly<Record<K, () => unknown>>, rounds: number): Promise<Record<K, number[]>> {
  const keys = Object.keys(run) as K[];
  const samples = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < rounds; round++) {
    for (const k of keys) {
      const t0 = performance.now();
      await run[k]();
      samples[k].push(performance.now() - t0);
    }
  }
  return samples;
}

function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

const gbPerS = (bytes: number, ms: number): number => bytes / (ms / 1000) / 1e9;

/**
 * Median ms of `a` and of `b` launched alternately `pairs` times, after `warm`
 * untimed pairs (V8 compiles each thread's kernel in a baseline tier first and
 * optimises it after some runs, and the JavaScript around it likewise), and
 * the median of the per-pair ratios of b's time to a's: a ratio per pair,
 * which a drifting machine does not skew.
 */
async function alternately(a: () => unknown, b: () => unknown, pairs: number, warm: number): Promise<{ a: number; b: number; ratio: number }> {
  for (let i = 0; i < warm; i++) {
    await a();
    await b();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < pairs; i++) {
    let t0 = performance.now();
    await a();
    ta.push(performance.now() - t0);
    t0 = performance.now();
    await b();
    tb.push(performance.now() - t0);
  }
  return { a: median(ta), b: median(tb), ratio: median(tb.map((v, i) => v / ta[i]!)) };
}

/** Worker counts a scaling measurement takes: 1, 2, 4, ... below `max`, then `max`. */
function workerCounts(max: number): number[] {
  const counts: number[] = [];
  for (let t = 1; t < max; t *= 2) counts.push(t);
  return [...counts, max];
}

export { time, timeAsync, inTurns, inTurnsAsync, alternately, gbPerS, median, workerCounts };
export type { Timing };
