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
  const read = time(() => {
    let s = 0;
    for (let i = 0; i < n; i++) s += a[i]!;
    return s;
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
