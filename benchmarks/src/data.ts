// The benchmarks' inputs and the 10-op chain, apart from the cases so that a
// script needing only these loads no @stdlib code.
import type * as da from 'deferred-array';

/** n values uniform on [lo, hi) from a seeded LCG (the same values on every run). */
function randomData(n: number, seed: number, lo = -180, hi = 180): Float64Array {
  const x = new Float64Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    x[i] = lo + (s / 2 ** 32) * (hi - lo);
  }
  return x;
}

/** The 10 elementwise operations of the chain case, on deferred arrays, with `c` for its first constant. */
const chainWith = (A: da.DeferredArray, B: da.DeferredArray, c: number): da.DeferredArray =>
  A.mul(c).add(B).sub(0.25).mul(A).add(2).mul(0.5).sub(B).abs().sqrt().add(1);

/** The chain case's chain. */
const chain = (A: da.DeferredArray, B: da.DeferredArray): da.DeferredArray => chainWith(A, B, 1.5);

/** The same chain as one JS expression per element. */
const chainJs = (x: number, y: number): number => Math.sqrt(Math.abs(((x * 1.5 + y - 0.25) * x + 2) * 0.5 - y)) + 1;

export { randomData, chain, chainWith, chainJs };
