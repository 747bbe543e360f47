// What the decompositions share: the exact power-of-two scale the
// eigensolver and the SVD divide a matrix by first, and the dot product in
// four partial sums that the reference and the wasm kernels both make.

const EPS = 2 ** -52;

/**
 * The power of two nearest below a's largest |element| (1 for a zero
 * matrix), by which eigh and the SVD divide a first so that no sum of
 * squares overflows or underflows (exact: a power of two); NaN when a holds
 * NaN or an infinity, whose results are NaN (as LAPACK's come out).
 */
function scaleOf(a: Float64Array): number {
  let top = 0;
  for (let i = 0; i < a.length; i++) {
    const v = Math.abs(a[i]!);
    if (!(v < Infinity)) return NaN;
    if (v > top) top = v;
  }
  return top === 0 ? 1 : 2 ** Math.floor(Math.log2(top));
}

/**
 * The sum of term(k) for k = from .. to-1 in four partial sums, term k in
 * sum (k - from) mod 4, each from +0, then (s0 + s1) + (s2 + s3).
 */
function dot4(from: number, to: number, term: (k: number) => number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let k = from;
  for (; k + 4 <= to; k += 4) {
    s0 += term(k);
    s1 += term(k + 1);
    s2 += term(k + 2);
    s3 += term(k + 3);
  }
  if (k < to) s0 += term(k);
  if (k + 1 < to) s1 += term(k + 1);
  if (k + 2 < to) s2 += term(k + 2);
  return (s0 + s1) + (s2 + s3);
}

export { EPS, scaleOf, dot4 };
