// hypot against exact arithmetic: within an ulp of sqrt(x^2 + y^2) for
// random pairs across the exponent range (subnormal to near overflow), and
// IEEE 754's special values (an infinity beats NaN).
import { hypot } from './linalg-numerics.js';

/** x as m * 2^e with m a BigInt (x finite). */
function exactly(x: number): [bigint, number] {
  if (x === 0) return [0n, 0];
  const bits = new BigUint64Array(new Float64Array([x]).buffer)[0]!;
  const exp = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  const m = exp === 0 ? frac : frac | (1n << 52n);
  return [x < 0 ? -m : m, (exp === 0 ? 1 : exp) - 1075];
}

/** Compares a^2 with b^2 + c^2 exactly: negative, zero or positive. */
function compareSquares(a: number, b: number, c: number): number {
  const terms = [a, b, c].map(exactly);
  const low = Math.min(...terms.map(([, e]) => e));
  const [sa, sb, sc] = terms.map(([m, e]) => (m * m) << BigInt(2 * (e - low)));
  const d = sa! - sb! - sc!;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

const next = (x: number, up: boolean): number => {
  const f = new Float64Array([x]);
  const u = new BigUint64Array(f.buffer);
  u[0] = up ? u[0]! + 1n : u[0]! - 1n;
  return f[0]!;
};

describe('hypot', () => {
  it('lies within an ulp of the exact value, across the exponent range', () => {
    for (let i = 0; i < 3000; i++) {
      const ex = Math.floor(Math.random() * 2090) - 1070;
      const ey = ex - Math.floor(Math.random() * 80);
      const x = (Math.random() + 0.5) * 2 ** ex * (i % 2 ? -1 : 1);
      const y = (Math.random() + 0.5) * 2 ** ey * (i % 3 ? 1 : -1);
      const r = hypot(x, y);
      expect(Number.isFinite(r)).toBe(Number.isFinite(Math.hypot(x, y)));
      if (!Number.isFinite(r) || r === 0) continue;
      // The exact value lies between the neighbours of r.
      expect(compareSquares(next(r, false), x, y)).toBeLessThanOrEqual(0);
      expect(compareSquares(next(r, true), x, y)).toBeGreaterThanOrEqual(0);
      expect(hypot(y, x)).toBe(r);
    }
  });

  it('special values as IEEE 754 and Math.hypot give them', () => {
    const cases: Array<[number, number]> = [
      [Infinity, NaN], [NaN, -Infinity], [NaN, 1], [2, NaN], [Infinity, 0], [-0, 0], [0, -0], [-3, 0], [0, -4],
      [3, 4], [-5e-324, 5e-324], [1e308, 1e308], [Number.MAX_VALUE, Number.MAX_VALUE], [1e-310, 3e-310], [1, 1e-30], [2 ** 600, 2 ** 540],
    ];
    for (const [x, y] of cases) expect(hypot(x, y)).toBe(Math.hypot(x, y));
  });
});
