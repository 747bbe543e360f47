// Every float64 and float32 row of NumPy's umath validation sets must pass at
// the ulp bound the set lists.
import { createMathRunner } from './harness.js';
import { MATH_FNS, isMathAvailable } from './index.js';
import { ulpDistance } from './ulp.js';
import { measureVsReference } from './accuracy-report.js';
import { hasValidationData, readValidationSet, validationDir, SET_NAME } from './validation-sets.js';

const haveData = hasValidationData();
if (!haveData) {
  console.warn(`\n!!! NumPy validation sets NOT FOUND at ${validationDir()}\n!!! (expected ../shared/data beside the repository): ` +
    `each function is checked against the project's mpmath vectors instead (tests named 'FALLBACK').\n`);
}

const cases = MATH_FNS.filter((fn) => SET_NAME[fn] !== undefined).flatMap((fn) =>
  (['float64', 'float32'] as const).map((dtype) => [fn, dtype] as const),
).filter(([fn, dtype]) => isMathAvailable(fn, dtype === 'float64' ? 'f64x2' : 'f32x4'));

describe('NumPy umath validation sets', () => {
  if (!haveData) {
    // The sets live in ../shared/data and are not copied into the project (its README says so): without
    // them each function still runs, by name in the summary, against the correctly rounded vectors the
    // project generates (test/vectors, mpmath), at NumPy's tightest bound, 1 ulp (float32 2).
    test.each(cases)(`FALLBACK (${validationDir()} missing) %s %s: within NumPy's bound of the mpmath vectors`, (fn, dtype) => {
      const m = measureVsReference(fn, dtype);
      expect(m).toBeDefined();
      expect(m!.max).toBeLessThanOrEqual(dtype === 'float32' ? 2 : fn === 'tanh' ? 2 : 1);
    });
    return;
  }
  test.each(cases)('%s %s: every row within its ulp bound', (fn, dtype) => {
    const rows = readValidationSet(fn)?.filter((r) => r.dtype === dtype) ?? [];
    expect(rows.length).toBeGreaterThan(100);
    const runner = createMathRunner(fn, dtype === 'float64' ? 'f64x2' : 'f32x4');
    const input = dtype === 'float64' ? Float64Array.from(rows, (r) => r.input) : Float32Array.from(rows, (r) => r.input);
    const out = runner.run(input);
    const failures = rows.flatMap((r, i) => {
      const d = ulpDistance(out[i]!, r.expected, dtype);
      return d <= r.ulpBound ? [] : [`line ${r.line}: ${fn}(${r.input}) = ${out[i]}, expected ${r.expected} (${d} ulp > ${r.ulpBound})`];
    });
    expect(failures).toEqual([]);
  });
});

describe('without the shared folder', () => {
  test('VALIDATION_DIR elsewhere: the sets are reported missing, and none is read (the suite above then runs its FALLBACK tests)', () => {
    const was = process.env['VALIDATION_DIR'];
    process.env['VALIDATION_DIR'] = '/nonexistent/umath-validation';
    try {
      expect(validationDir()).toBe('/nonexistent/umath-validation/');
      expect(hasValidationData()).toBe(false);
      expect(readValidationSet('sin')).toBeUndefined();
    } finally {
      if (was === undefined) delete process.env['VALIDATION_DIR'];
      else process.env['VALIDATION_DIR'] = was;
    }
  });
});
