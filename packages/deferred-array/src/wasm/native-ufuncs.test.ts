// The first batch of issue 21's ufuncs written as WebAssembly instructions
// (fmax, fmin, copysign, heaviside, positive, deg2rad, rad2deg, signbit):
// every pair of special values, in the vector loop and in the scalar loop
// (a strided read), bit for bit the reference's scalar functions (NaN
// payloads aside), with no host call left in the kernel.
import * as da from '../index.js';
import { onBothBackends, sameNumber } from '../../test/against-reference.js';

const initial = da.configure().backend;
beforeAll(() => { da.configure({ backend: 'wasm' }); });
afterAll(() => { da.configure({ backend: initial }); });

const SPECIAL: Record<'float64' | 'float32' | 'int32', number[]> = {
  float64: [0, -0, 1, -1, 0.5, -2.5, 1e300, -1e300, 5e-324, -5e-324, Infinity, -Infinity, NaN, 180, -90],
  float32: [0, -0, 1, -1, 0.5, -2.5, 3e38, -3e38, 1e-45, -1e-45, Infinity, -Infinity, NaN, 180, -90],
  int32: [0, 1, -1, 7, -7, 2147483647, -2147483648],
};
const UNARY = ['positive', 'deg2rad', 'rad2deg', 'signbit'] as const;
const BINARY = ['fmax', 'fmin', 'copysign', 'heaviside'] as const;

type DType = keyof typeof SPECIAL;

/** All pairs of special values, each pair `repeat` times over (long enough for the vector loop). */
function pairs(dtype: DType): [da.DeferredArray, da.DeferredArray] {
  const v = SPECIAL[dtype];
  const a = v.flatMap((x) => v.map(() => x));
  const b = v.flatMap(() => v);
  const make = (xs: number[]): da.DeferredArray => da.array(xs, { dtype });
  return [make(a), make(b)];
}

const fn = da as unknown as Record<string, (...xs: da.DeferredArray[]) => da.DeferredArray>;

describe.each(['float64', 'float32', 'int32'] as const)('%s', (dtype) => {
  const ops = dtype === 'int32' ? ['positive', 'signbit', 'fmax', 'fmin'] : [...UNARY, ...BINARY];
  test.each(ops)('%s: vector and scalar loops agree with the reference bit for bit', (op) => {
    const unary = (UNARY as readonly string[]).includes(op);
    const [a, b] = pairs(dtype);
    const call = (x: da.DeferredArray, y: da.DeferredArray): da.DeferredArray => (unary ? fn[op]!(x) : fn[op]!(x, y));
    const text = call(a, b).explain({ kernels: true });
    expect(text).toMatch(/vectorised as (f64x2|f32x4|i32x4)/);
    expect(text).not.toMatch(/\bcall\b/);
    for (const make of [() => call(a, b), () => call(a.get('::-2'), b.get('::-2'))]) {
      const [got, want] = onBothBackends(make);
      const bad = got.flatMap((g, i) => (sameNumber(g, want[i]!) ? [] : [`#${i}: got ${g}, want ${want[i]}`]));
      expect(bad).toEqual([]);
    }
  });
});
