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

function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

const gbPerS = (bytes: number, ms: number): number => bytes / (ms / 1000) / 1e9;

export { time, timeAsync, gbPerS, median };
export type { Timing };
