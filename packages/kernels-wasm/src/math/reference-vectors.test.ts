// Against correctly rounded results (test/vectors/, from mpmath): float64
// within 1 ulp (tanh, pow and hypot within 2; logaddexp and logaddexp2 see
// BAR_64), float32 within 2 ulp.
import { MATH_FNS, isMathAvailable } from './index.js';
import { measureVsReference } from './accuracy-report.js';
import type { MathFn } from './index.js';

/**
 * logaddexp and logaddexp2 follow NumPy's formula, max(a, b) + log1p(exp(-|a - b|)):
 * where max(a, b) is near -ln 2 (-1) the sum cancels and the log1p term's error
 * grows against the result, as NumPy's does (measured: 7 and 18 ulp).
 */
const BAR_64: Partial<Record<MathFn, number>> = { tanh: 2, pow: 2, hypot: 2, logaddexp: 7, logaddexp2: 18 };

const cases = MATH_FNS.flatMap((fn) => (['float64', 'float32'] as const).map((dtype) => [fn, dtype] as const))
  .filter(([fn, dtype]) => isMathAvailable(fn, dtype === 'float64' ? 'f64x2' : 'f32x4'));

describe('correctly rounded reference vectors (mpmath)', () => {
  test.each(cases)('%s %s', (fn, dtype) => {
    const m = measureVsReference(fn, dtype);
    expect(m).toBeDefined();
    const bar = dtype === 'float32' ? 2 : BAR_64[fn] ?? 1;
    expect({ fn, dtype, max: m!.max <= bar ? 'ok' : m!.max, at: m!.max <= bar ? [] : m!.at }).toEqual({ fn, dtype, max: 'ok', at: [] });
  });
});
