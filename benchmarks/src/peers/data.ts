// The inputs every system computes on, generated the same way in every
// process and language (peers/python/child.py repeats it with NumPy): a
// Weyl sequence, u(i) = frac(i * 0.6180339887...), taken as 32-bit integer
// arithmetic so that JS and NumPy produce identical doubles, then scaled to
// the case's range. No state, so any element is computed alone.

/** Element i of input `seed`, uniform in [lo, hi). */
function uniformAt(i: number, seed: number, lo: number, hi: number): number {
  const h = (Math.imul(i, 0x9e3779b1) ^ Math.imul(seed + 1, 0x85ebca77)) >>> 0;
  return lo + (h / 2 ** 32) * (hi - lo);
}

function uniform(n: number, seed: number, lo: number, hi: number): Float64Array {
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = uniformAt(i, seed, lo, hi);
  return x;
}

export { uniform };
