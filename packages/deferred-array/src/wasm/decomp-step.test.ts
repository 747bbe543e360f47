// qr, eigh, svd and cholesky by kernels-wasm's Householder, tridiagonal,
// Jacobi and Cholesky routines give the reference evaluator's bits (NaNs alike): random stacks of
// square, tall and wide matrices around the lane and strip widths, across
// QR's panels of 32 columns and eigh's chunks of 128, every mode, float32 and
// integer operands, Infs and NaNs, and orders whose rows lie a power of two
// apart.
import fc from 'fast-check';
import * as da from '../index.js';
import { bitsOnBothBackends } from '../../test/against-reference.js';

const initial = da.configure();
beforeAll(() => { da.configure({ backend: 'wasm' }); });
afterAll(() => { da.configure({ backend: initial.backend, threads: initial.threads }); });

/** `length` values in [-1, 1) from a 32-bit mixing of their index and `seed`. */
function seeded(length: number, seed: number): Float64Array {
  return Float64Array.from({ length }, (_, i) => {
    const h = Math.imul(((Math.imul(i + seed, 2654435761) >>> 0) ^ (i >>> 7)) >>> 0, 1274126177) >>> 0;
    return h / 2 ** 31 - 1;
  });
}

const element = fc.oneof(
  { weight: 12, arbitrary: fc.double({ min: -100, max: 100, noNaN: true }) },
  { weight: 3, arbitrary: fc.integer({ min: -3, max: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(Infinity, -Infinity, NaN, -0) },
);

/** Every form of the three decompositions of `a`. */
function forms(a: da.DeferredArray): Array<() => da.DeferredArray | readonly da.DeferredArray[]> {
  return [
    () => da.linalg.qr(a), () => da.linalg.qr(a, { mode: 'complete' }), () => da.linalg.qr(a, { mode: 'r' }),
    () => da.linalg.svd(a), () => da.linalg.svd(a, { fullMatrices: false }), () => da.linalg.svd(a, { computeUV: false }),
  ];
}

function square(a: da.DeferredArray): Array<() => da.DeferredArray | readonly da.DeferredArray[]> {
  // Cholesky of a itself (mostly not positive definite: the same error) and of a a^T + n I.
  const n = a.shape[a.ndim - 1]!;
  const spd = da.matmul(a, da.transpose(a, [...Array(a.ndim - 2).keys(), a.ndim - 1, a.ndim - 2])).add(da.eye(n).mul(n));
  return [
    () => da.linalg.eigh(a), () => da.linalg.eigh(a, { UPLO: 'U' }), () => da.linalg.eigvalsh(a),
    () => da.linalg.cholesky(a), () => da.linalg.cholesky(spd), () => da.linalg.cholesky(spd, { upper: true }),
  ];
}

describe('the QR, eigh and SVD steps', () => {
  test("random stacks: the reference's bits for every mode", () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 1, max: 2 }),
      fc.constantFrom('float64', 'float32', 'int32'), fc.boolean(), fc.array(element, { minLength: 2 * 81, maxLength: 2 * 81 }),
      (m, n, stack, dtype, special, values) => {
        const v = values.map((e) => (!special && !Number.isFinite(e) ? 1 : dtype === 'int32' ? (Number.isFinite(e) ? Math.trunc(e) : 0) : e));
        const a = da.array(v.slice(0, stack * m * n), { dtype: dtype as 'float64' }).reshape([stack, m, n]);
        const s = da.array(v.slice(0, stack * m * m), { dtype: dtype as 'float64' }).reshape([stack, m, m]);
        for (const make of [...forms(a), ...square(s)]) {
          const [got, want] = bitsOnBothBackends(make);
          expect(got).toEqual(want);
        }
      },
    ), { numRuns: 80 });
  });

  test.each([[33, 33], [70, 40], [40, 70], [64, 64], [65, 97], [130, 20]])('%i x %i: across panels, strips and chunks, rows a power of two apart', (m, n) => {
    // Made here, not by da.random: its draws on the two backends agree only within ulps.
    const a = da.wrap(seeded(m * n, m)).reshape([m, n]);
    for (const make of forms(a)) {
      const [got, want] = bitsOnBothBackends(make);
      expect(got).toEqual(want);
    }
    const s = da.wrap(seeded(m * m, n)).reshape([m, m]);
    for (const make of square(s)) {
      const [got, want] = bitsOnBothBackends(make);
      expect(got).toEqual(want);
    }
  });

  test('columns already zero below the diagonal, a zero matrix, repeated columns', () => {
    const cases = [
      da.triu(da.wrap(seeded(12 * 9, 3)).reshape([12, 9])),
      da.zeros([6, 6]),
      da.tile(da.arange(1, 6).reshape([5, 1]).astype('float64'), [1, 7]),
    ];
    for (const a of cases) {
      for (const make of forms(a)) {
        const [got, want] = bitsOnBothBackends(make);
        expect(got).toEqual(want);
      }
    }
  });
});
