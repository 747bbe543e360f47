// nextafter on both backends: special values bit for bit against C's rules
// and each other (vector and scalar loops), and NumPy's vectors
// (test/vectors/elementwise.json) bit for bit where NumPy computes in a float
// type we have.
import { describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { binaryVectors, exactly, runOn } from '../../test/binary-vectors.js';

const MAX32 = (2 - 2 ** -23) * 2 ** 127;
const SPECIAL = {
  float64: [0, -0, Number.MIN_VALUE, -Number.MIN_VALUE, 2 ** -1022, 2 ** -1022 - Number.MIN_VALUE, 1, -1, 1.5, -7,
    Number.MAX_VALUE, -Number.MAX_VALUE, Infinity, -Infinity, NaN],
  float32: [0, -0, 2 ** -149, -(2 ** -149), 2 ** -126, 1, -1, 1.5, -7, MAX32, -MAX32, Infinity, -Infinity, NaN],
} as const;

function allPairs(values: readonly number[]): [number[], number[]] {
  return [values.flatMap((x) => values.map(() => x)), values.flatMap(() => values)];
}

describe.each(['float64', 'float32'] as const)('nextafter in %s', (dtype) => {
  const [av, bv] = allPairs(SPECIAL[dtype]);
  const a = da.array(av, { dtype });
  const b = da.array(bv, { dtype });

  test('C and NumPy rules at zero, equality, NaN and the ends of the range', () => {
    const tiny = dtype === 'float64' ? Number.MIN_VALUE : 2 ** -149;
    const max = dtype === 'float64' ? Number.MAX_VALUE : MAX32;
    const cases: Array<[number, number, number]> = [
      [0, 1, tiny], [0, -1, -tiny], [-0, 1, tiny], [-0, -1, -tiny], [0, -0, -0], [-0, 0, 0], [1, 1, 1],
      [tiny, 0, 0], [-tiny, 0, -0], [max, Infinity, Infinity], [-max, -Infinity, -Infinity], [Infinity, 0, max],
      [-Infinity, 0, -max], [Infinity, Infinity, Infinity], [NaN, 1, NaN], [1, NaN, NaN],
      [1, 2, 1 + (dtype === 'float64' ? 2 ** -52 : 2 ** -23)], [1, 0, 1 - (dtype === 'float64' ? 2 ** -53 : 2 ** -24)],
      [-1, -2, -1 - (dtype === 'float64' ? 2 ** -52 : 2 ** -23)],
    ];
    const x = da.array(cases.map((c) => c[0]), { dtype });
    const y = da.array(cases.map((c) => c[1]), { dtype });
    for (const backend of ['wasm', 'reference'] as const) {
      const got = runOn(backend, () => da.nextafter(x, y));
      expect(got.dtype).toBe(dtype);
      expect(got.values).toEqual(cases.map((c) => exactly(c[2])));
    }
  });

  test('the WebAssembly vector and scalar loops agree with the reference on every pair of special values', () => {
    const want = runOn('reference', () => da.nextafter(a, b));
    expect(da.nextafter(a, b).explain({ kernels: true })).toMatch(dtype === 'float64' ? /vectorised as f64x2/ : /vectorised as f32x4/);
    expect(runOn('wasm', () => da.nextafter(a, b))).toEqual(want);
    // Reversed views are strided: the scalar loop.
    const reversed = runOn('wasm', () => da.nextafter(a.get('::-1'), b.get('::-1')));
    expect(reversed.values).toEqual([...want.values].reverse());
    // A fused chain and the method form.
    expect(runOn('wasm', () => a.nextafter(b).nextafter(a))).toEqual(runOn('reference', () => a.nextafter(b).nextafter(a)));
  });
});

describe("NumPy's vectors", () => {
  const cases = binaryVectors('nextafter');

  test('cover the float and integer dtypes', () => {
    expect(cases.map((c) => c.dtype).sort()).toEqual(['bool', 'float32', 'float64', 'int16', 'int32', 'int8', 'uint16', 'uint32', 'uint8']);
  });

  test.each(cases.map((c) => [c.dtype, c] as const))('%s: both backends bit for bit', (_, c) => {
    const make = (): da.DeferredArray => da.nextafter(da.array(c.a, { dtype: c.dtype }), da.array(c.b, { dtype: c.dtype }));
    const wasm = runOn('wasm', make);
    expect(wasm).toEqual(runOn('reference', make));
    // NumPy's float16 (8-bit integers and bool) we compute in float32: its step, not float16's (reference/numpy-elementwise.test.ts).
    if (c.outDtype === 'float16') {
      expect(wasm.dtype).toBe('float32');
      return;
    }
    expect(wasm.dtype).toBe(c.outDtype);
    expect(wasm.values).toEqual(c.out.map(exactly));
  });
});

test('refuses nothing numeric, and scalars are weak (NEP 50)', () => {
  expect(da.nextafter(da.array([1], { dtype: 'float32' }), 2).dtype).toBe('float32');
  expect(da.nextafter(da.array([1], { dtype: 'int32' }), 2).dtype).toBe('float64');
  expect(runOn('wasm', () => da.nextafter(da.array([1], { dtype: 'float32' }), 2)).values).toEqual([1 + 2 ** -23]);
});
