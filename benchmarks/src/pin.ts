// lappy's pin() on a broadcast value: y = x * sin(v), x n x n, v of length n
// broadcast along x's rows, three ways launched in turn round by round so all
// see the same machine: the default plan (sin(v) a kernel and an array of its
// own, read by the product kernel), pin() (sin(v) computed per block into the
// product kernel's scratch: no second kernel, no array), and sin inlined per
// element (sin of the broadcast view: n*n sines). Each execute() also hands
// back the n x n result, which costs the same for all three.
import * as da from 'deferred-array';
import { median } from './timing.js';

interface PinReport {
  readonly n: number;
  /** ms per variant: median and fastest. */
  readonly variants: ReadonlyArray<{ readonly name: string; readonly median: number; readonly min: number }>;
}

async function pinReport(n: number, rounds: number): Promise<PinReport> {
  const x = da.wrap(Float64Array.from({ length: n * n }, (_, i) => (i % 1000) * 1e-3)).reshape([n, n]);
  const v = da.wrap(Float64Array.from({ length: n }, (_, i) => i * 1e-3));
  const variants: Array<[string, () => da.DeferredArray]> = [
    ['default: sin(v) its own kernel and array', () => x.mul(v.sin())],
    ['pin(): sin(v) per block in scratch', () => x.mul(v.sin().pin())],
    ['inlined: sin per element of the n x n space', () => x.mul(v.reshape([1, n]).broadcastTo([n, n]).add(0).sin())],
  ];
  const times = variants.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    for (const [k, [, build]] of variants.entries()) {
      const y = build();
      const t0 = performance.now();
      await y.execute();
      times[k]!.push(performance.now() - t0);
    }
  }
  return { n, variants: variants.map(([name], k) => ({ name, median: median(times[k]!), min: Math.min(...times[k]!) })) };
}

function printPin(r: PinReport): string {
  return [
    `lappy's pin() on a broadcast value, y = x * sin(v), n = ${r.n}, float64, execute() (ms, median and fastest of rounds):`,
    ...r.variants.map((v) => `  ${v.name.padEnd(46)} ${v.median.toFixed(2).padStart(7)}  (fastest ${v.min.toFixed(2)})`),
  ].join('\n');
}

export { pinReport, printPin };
export type { PinReport };
