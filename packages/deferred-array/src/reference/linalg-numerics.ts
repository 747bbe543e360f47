// What the decompositions share: the exact power-of-two scale the
// eigensolver and the SVD divide a matrix by first, the dot product in
// four partial sums that the reference and the wasm kernels both make, and
// hypot.

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

/** 2^27 + 1: x * SPLIT splits x into two halves of 26 bits whose products are exact (Dekker). */
const SPLIT = 134217729;

/**
 * sqrt(x^2 + y^2) without overflow or underflow on the way, to within an ulp
 * (musl's hypot: each square made exactly as a sum of two doubles, then one
 * square root), hypot(+-Inf, NaN) being +Inf as IEEE 754 says. Math.hypot
 * takes about 75 ns a call in V8 against about 10 ns for this one, and the
 * QL iteration, QR's reflectors and the SVD's norms make O(n^2) calls: at
 * 512 x 512, 10-15 ms of each decomposition.
 */
function hypot(x: number, y: number): number {
  let a = Math.abs(x);
  let b = Math.abs(y);
  if (a === Infinity || b === Infinity) return Infinity;
  if (a !== a || b !== b) return NaN;
  if (a < b) {
    const t = a;
    a = b;
    b = t;
  }
  // b is lost in a's rounding: a + b is a (musl tests for exponents more than 64 apart; this test
  // takes a few more pairs, whose result is a all the same).
  if (b === 0 || b < a * 2 ** -64) return a + b;
  let z = 1;
  if (a >= 2 ** 511) {
    z = 2 ** 700;
    a *= 2 ** -700;
    b *= 2 ** -700;
  } else if (b < 2 ** -450) {
    z = 2 ** -700;
    a *= 2 ** 700;
    b *= 2 ** 700;
  }
  const ac = a * SPLIT;
  const ah = a - ac + ac;
  const al = a - ah;
  const ha = a * a;
  const la = ah * ah - ha + 2 * ah * al + al * al;
  const bc = b * SPLIT;
  const bh = b - bc + bc;
  const bl = b - bh;
  const hb = b * b;
  const lb = bh * bh - hb + 2 * bh * bl + bl * bl;
  return z * Math.sqrt(lb + la + hb + ha);
}

export { EPS, scaleOf, dot4, hypot };
