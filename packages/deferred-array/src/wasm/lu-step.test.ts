// solve, inv, det and slogdet by kernels-wasm's LU give the reference
// evaluator's bits (NaNs alike): random stacks of every size around the lane
// width, float32 and integer operands, b broadcast against a stack, vectors
// and matrices of right-hand sides, Infs and NaNs; and a singular matrix
// fails with the reference's LinAlgError.
import fc from 'fast-check';
import * as da from '../index.js';
import { bitsOnBothBackends } from '../../test/against-reference.js';

const initial = da.configure();
beforeAll(() => { da.configure({ backend: 'wasm' }); });
afterAll(() => { da.configure({ backend: initial.backend, threads: initial.threads }); });

const element = fc.oneof(
  { weight: 8, arbitrary: fc.double({ min: -100, max: 100, noNaN: true }) },
  { weight: 2, arbitrary: fc.integer({ min: -3, max: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(Infinity, -Infinity, NaN, -0) },
);

describe('the LU steps', () => {
  test("random stacks: the reference's bits for solve, inv, det and slogdet", () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 7 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 3 }),
      fc.constantFrom('float64', 'float32', 'int32'), fc.array(element, { minLength: 3 * 49 + 21, maxLength: 3 * 49 + 21 }),
      (n, stack, k, dtype, values) => {
        const v = dtype === 'int32' ? values.map((e) => (Number.isFinite(e) ? Math.trunc(e) : 0)) : values;
        const a = da.array(v.slice(0, stack * n * n), { dtype: dtype as 'float64' }).reshape([stack, n, n]);
        const b = k === 0 ? da.array(v.slice(3 * 49, 3 * 49 + n), { dtype: 'float64' }) : da.array(v.slice(3 * 49, 3 * 49 + n * k), { dtype: 'float64' }).reshape([n, k]);
        for (const make of [() => da.linalg.solve(a, b), () => da.linalg.inv(a), () => da.linalg.det(a), () => da.linalg.slogdet(a)[1], () => da.linalg.slogdet(a)[0]]) {
          const [got, want] = bitsOnBothBackends(make);
          expect(got).toEqual(want);
        }
      },
    ), { numRuns: 150 });
  });

  test.each([2, 17, 64])('a %i x %i system solved to a residual of rounding, as the reference solves it', (n) => {
    const a = da.random.defaultRng(7).random([n, n]).add(da.eye(n).mul(n));
    const b = da.arange(n).astype('float64');
    const [got, want] = bitsOnBothBackends(() => da.linalg.solve(a, b));
    expect(got).toEqual(want);
  });

  test('a singular matrix fails as the reference fails', () => {
    const a = da.array([[1, 2], [2, 4]], { dtype: 'float64' });
    expect(() => da.linalg.solve(a, da.array([1, 2])).executeSync()).toThrow(/linalg.solve: singular matrix/);
    expect(() => da.linalg.inv(a).executeSync()).toThrow(da.LinAlgError);
    expect(Number((da.linalg.det(a).executeSync() as da.StdNdarray).get())).toBe(0);
  });
});
