// gcd on both backends: NumPy's vectors (test/vectors/elementwise.json) bit
// for bit, the extremes of each integer type, and the dtypes NumPy refuses.
import { describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import type { DType } from '../ir/dtypes.js';
import { binaryVectors, runOn } from '../../test/binary-vectors.js';

const INTS: readonly DType[] = ['int32', 'uint32', 'int16', 'uint16', 'int8', 'uint8'];

describe("NumPy's vectors", () => {
  const cases = binaryVectors('gcd');

  test('cover every integer dtype (NumPy has no bool or float loop)', () => {
    expect(cases.map((c) => c.dtype).sort()).toEqual([...INTS].sort());
  });

  test.each(cases.map((c) => [c.dtype, c] as const))('%s: both backends bit for bit', (_, c) => {
    const make = (): da.DeferredArray => da.gcd(da.array(c.a, { dtype: c.dtype }), da.array(c.b, { dtype: c.dtype }));
    for (const backend of ['wasm', 'reference'] as const) {
      const got = runOn(backend, make);
      expect(got.dtype).toBe(c.outDtype);
      expect(got.values).toEqual(c.out);
    }
    // Reversed views and the method form, in a fused chain.
    const chain = (): da.DeferredArray => {
      const a = da.array(c.a, { dtype: c.dtype }).get('::-1');
      return a.gcd(da.array(c.b, { dtype: c.dtype }).get('::-1')).gcd(a);
    };
    expect(runOn('wasm', chain)).toEqual(runOn('reference', chain));
  });
});

describe('values', () => {
  test('non-negative, gcd(0, 0) = 0, and the most negative value as NumPy wraps it', () => {
    const min = { int32: -(2 ** 31), int16: -(2 ** 15), int8: -(2 ** 7) } as const;
    for (const [dtype, m] of Object.entries(min)) {
      const a = da.array([m, m, m, 0, -6, 12, -12, 7], { dtype: dtype as DType });
      const b = da.array([0, m, 6, 0, 4, -18, -18, -13], { dtype: dtype as DType });
      for (const backend of ['wasm', 'reference'] as const) {
        expect(runOn(backend, () => da.gcd(a, b)).values).toEqual([m, m, 2, 0, 2, 6, 6, 1]);
      }
    }
    const u = da.array([4294967295, 4294967295, 0], { dtype: 'uint32' });
    expect(runOn('wasm', () => da.gcd(u, da.array([3, 0, 0], { dtype: 'uint32' }))).values).toEqual([3, 4294967295, 0]);
  });

  test('bool with an integer computes in the integer type; a JS number is weak', () => {
    const flags = da.array([true, false, true]);
    const y = da.gcd(flags, da.array([4, 5, 0], { dtype: 'int8' }));
    expect(y.dtype).toBe('int8');
    expect(runOn('wasm', () => y).values).toEqual([1, 5, 1]);
    expect(da.gcd(da.array([12], { dtype: 'uint8' }), 18).dtype).toBe('uint8');
    expect(runOn('wasm', () => da.gcd(da.array([12], { dtype: 'uint8' }), 18)).values).toEqual([6]);
  });
});

describe('refused dtypes, at definition', () => {
  test('floats: a DTypeError that says to cast whole numbers to an integer type', () => {
    expect(() => da.gcd(da.array([4.0]), da.array([6.0]))).toThrow(da.DTypeError);
    expect(() => da.gcd(da.array([4], { dtype: 'float32' }), 6)).toThrow(/integer operands only.*astype\('int32'\)/);
    expect(() => da.gcd(da.array([4], { dtype: 'int32' }), 1.5)).toThrow(da.DTypeError);
  });

  test('bool operands alone, as NumPy finds no loop for them', () => {
    expect(() => da.gcd(da.array([true]), da.array([false]))).toThrow(/bool operands alone.*astype\('int8'\)/);
  });

  test("uint32 with a signed type needs NumPy's int64", () => {
    expect(() => da.gcd(da.array([4], { dtype: 'uint32' }), da.array([6], { dtype: 'int32' }))).toThrow(/int64/);
  });
});
