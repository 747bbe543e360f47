// The memory-bandwidth yardstick: read, copy and triad streaming loops.
// Today these are plain JS loops on one thread; the WebAssembly streaming
// kernels on every worker replace them when kernels-wasm lands, and the
// figures below then become the machine's real limit.
import { gbPerS, time } from './timing.js';

interface Stream {
  readonly name: string;
  readonly gbPerS: number;
}

function streamingLimits(n: number, runs: number): Stream[] {
  const a = new Float64Array(n).fill(1);
  const b = new Float64Array(n).fill(2);
  const c = new Float64Array(n);
  // Four independent sums, so the loop waits on memory rather than on one add chain.
  const read = time(() => {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let i = 0;
    for (; i + 3 < n; i += 4) {
      s0 += a[i]!;
      s1 += a[i + 1]!;
      s2 += a[i + 2]!;
      s3 += a[i + 3]!;
    }
    for (; i < n; i++) s0 += a[i]!;
    return s0 + s1 + s2 + s3;
  }, runs);
  const copy = time(() => c.set(a), runs);
  const triad = time(() => {
    for (let i = 0; i < n; i++) c[i] = a[i]! + 3 * b[i]!;
  }, runs);
  return [
    { name: 'read (sum)', gbPerS: gbPerS(n * 8, read.medianMs) },
    { name: 'copy', gbPerS: gbPerS(n * 16, copy.medianMs) },
    { name: 'triad', gbPerS: gbPerS(n * 24, triad.medianMs) },
  ];
}

export { streamingLimits };
export type { Stream };
