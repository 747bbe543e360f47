// Matrix products: a float64 matmul (n = 512) and matvec (n = 2000) through
// execute() and executeSync(), against @stdlib's BLAS (dgemm, dgemv: plain JS)
// and a hand-written JS loop in the cache-friendly i-k-j order. The matvec
// streams its matrix once, so it is also given as GB/s.
import * as da from 'deferred-array';
import { dgemm, dgemv } from './stdlib.js';
import { timeAsync } from './timing.js';

const medianMs = async (fn: () => unknown, runs: number): Promise<number> => (await timeAsync(fn, runs)).medianMs;

function jsMatmul(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const c = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < n; k++) {
      const aik = a[i * n + k]!;
      for (let j = 0; j < n; j++) c[i * n + j]! += aik * b[k * n + j]!;
    }
  }
  return c;
}

function jsMatvec(a: Float64Array, x: Float64Array, n: number): Float64Array {
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let k = 0; k < n; k++) s += a[i * n + k]! * x[k]!;
    y[i] = s;
  }
  return y;
}

async function productsReport(runs: number): Promise<string> {
  const lines: string[] = [];
  const row = (name: string, ms: number, extra: string): void => { lines.push(`  ${name.padEnd(30)} ${ms.toFixed(2).padStart(8)} ms  ${extra}`); };
  {
    const n = 512;
    const a = Float64Array.from({ length: n * n }, (_, i) => Math.sin(i));
    const b = Float64Array.from({ length: n * n }, (_, i) => Math.cos(i));
    const y = da.wrap(a).reshape([n, n]).matmul(da.wrap(b).reshape([n, n]));
    const flops = 2 * n ** 3;
    const gf = (ms: number): string => `${(flops / ms / 1e6).toFixed(2)} GFLOP/s`;
    lines.push(`matmul ${n} x ${n} @ ${n} x ${n}, float64 (medians of ${runs}):`);
    const ours = await medianMs(() => y.execute(), runs);
    row('execute()', ours, gf(ours));
    const sync = await medianMs(() => y.executeSync(), runs);
    row('executeSync()', sync, gf(sync));
    const blas = await medianMs(() => dgemm('row-major', 'no-transpose', 'no-transpose', n, n, n, 1, a, n, b, n, 0, new Float64Array(n * n), n), Math.min(runs, 3));
    row('@stdlib dgemm', blas, `${gf(blas)}, ${(blas / ours).toFixed(1)}x execute()'s time`);
    const js = await medianMs(() => jsMatmul(a, b, n), Math.min(runs, 3));
    row('hand-written JS loop (i-k-j)', js, `${gf(js)}, ${(js / ours).toFixed(1)}x execute()'s time`);
  }
  {
    const n = 2000;
    const a = Float64Array.from({ length: n * n }, (_, i) => Math.sin(i));
    const x = Float64Array.from({ length: n }, (_, i) => Math.cos(i));
    const y = da.wrap(a).reshape([n, n]).matmul(da.wrap(x));
    const gb = (ms: number): string => `${(n * n * 8 / ms / 1e6).toFixed(1)} GB/s of matrix`;
    lines.push(`matvec ${n} x ${n} @ ${n}, float64:`);
    const ours = await medianMs(() => y.execute(), runs);
    row('execute()', ours, gb(ours));
    const blas = await medianMs(() => dgemv('row-major', 'no-transpose', n, n, 1, a, n, x, 1, 0, new Float64Array(n), 1), runs);
    row('@stdlib dgemv', blas, `${gb(blas)}, ${(blas / ours).toFixed(1)}x execute()'s time`);
    const js = await medianMs(() => jsMatvec(a, x, n), runs);
    row('hand-written JS loop', js, `${gb(js)}, ${(js / ours).toFixed(1)}x execute()'s time`);
  }
  return lines.join('\n');
}

export { productsReport, jsMatvec };
