// lappy's diamond, k = A @ x; y = outer(sin(k), cos(k)), at n = 2000. The
// plan is two kernels: the matvec with sin and cos as its epilogue, then the
// n x n product reading both. The bar: no more than 1.5x a matvec plus an
// outer product executed separately (each its own execute()), the two sides
// launched alternately pair by pair so that both see the same machine. Also
// against a hand-written JS loop doing the same work.
import * as da from 'deferred-array';
import { median } from './timing.js';

interface DiamondReport {
  readonly n: number;
  /** Medians in ms. */
  readonly diamond: number;
  readonly matvec: number;
  readonly outer: number;
  readonly jsLoop: number;
  /** Median over pairs of diamond / (matvec + outer), and its range. */
  readonly ratio: { readonly median: number; readonly low: number; readonly high: number };
  readonly kernels: number;
}

function jsDiamond(A: Float64Array, x: Float64Array, n: number): Float64Array {
  const s = new Float64Array(n);
  const c = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let acc = 0;
    for (let k = 0; k < n; k++) acc += A[i * n + k]! * x[k]!;
    s[i] = Math.sin(acc);
    c[i] = Math.cos(acc);
  }
  const y = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) y[i * n + j] = s[i]! * c[j]!;
  return y;
}

async function diamondReport(n: number, pairs: number): Promise<DiamondReport> {
  const a = Float64Array.from({ length: n * n }, (_, i) => Math.sin(i) / n);
  const xs = Float64Array.from({ length: n }, (_, i) => Math.cos(i));
  const A = da.wrap(a).reshape([n, n]);
  const x = da.wrap(xs);
  const k = A.matmul(x);
  const diamond = da.outer(k.sin(), k.cos());
  const matvec = A.matmul(x);
  const s = da.wrap(Float64Array.from({ length: n }, (_, i) => Math.sin(i)));
  const c = da.wrap(Float64Array.from({ length: n }, (_, i) => Math.cos(i)));
  const outer = da.outer(s, c);
  const kernels = (diamond.explain().match(/^ {2}kernel /gm) ?? []).length;

  const timed = async (y: da.DeferredArray): Promise<number> => {
    const t0 = performance.now();
    await y.execute();
    return performance.now() - t0;
  };
  for (const y of [diamond, matvec, outer]) await timed(y);
  const d: number[] = [];
  const m: number[] = [];
  const o: number[] = [];
  const ratios: number[] = [];
  // Each side allocates a 32 MB result; whichever runs first in a pair tends to pay for the
  // collection of the previous pair's, so the order alternates.
  for (let i = 0; i < pairs; i++) {
    if (i % 2 === 0) d.push(await timed(diamond));
    m.push(await timed(matvec));
    o.push(await timed(outer));
    if (i % 2 === 1) d.push(await timed(diamond));
    ratios.push(d[i]! / (m[i]! + o[i]!));
  }
  const js: number[] = [];
  for (let i = 0; i < Math.min(pairs, 5); i++) {
    const t0 = performance.now();
    jsDiamond(a, xs, n);
    js.push(performance.now() - t0);
  }
  return {
    n,
    diamond: median(d),
    matvec: median(m),
    outer: median(o),
    jsLoop: median(js),
    ratio: { median: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) },
    kernels,
  };
}

function printDiamond(r: DiamondReport): string {
  const ms = (v: number): string => `${v.toFixed(2)} ms`;
  return [
    `lappy's diamond k = A @ x; outer(sin(k), cos(k)), n = ${r.n}, float64, execute() (${r.kernels} kernels; medians):`,
    `  diamond ${ms(r.diamond)}; separately: matvec ${ms(r.matvec)} + outer ${ms(r.outer)} = ${ms(r.matvec + r.outer)}`,
    `  diamond / (matvec + outer) = ${r.ratio.median.toFixed(2)}x per pair (lowest ${r.ratio.low.toFixed(2)}, highest ${r.ratio.high.toFixed(2)}); bar: <= 1.5x`,
    `  hand-written JS loop ${ms(r.jsLoop)} (${(r.jsLoop / r.diamond).toFixed(2)}x the diamond's time)`,
  ].join('\n');
}

export { diamondReport, printDiamond };
export type { DiamondReport };
