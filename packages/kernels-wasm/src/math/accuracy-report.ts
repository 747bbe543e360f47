// Measured accuracy per function, for docs/correctness.md and for tests: the largest
// ulp distance from V8's Math (random inputs over the domain, see
// sample-inputs.ts), from the correctly rounded vectors of test/vectors
// (mpmath), and from the correctly rounded outputs of NumPy's validation
// sets, per lane type.
import { createMathRunner } from './harness.js';
import { isMathAvailable } from './math-function.js';
import { JS_REFERENCE } from './js-reference.js';
import { MATH_FNS } from './registry.js';
import type { MathFn, MathLanes } from './registry.js';
import { sampleInputs } from './sample-inputs.js';
import { ulpDistance } from './ulp.js';
import { readValidationSet } from './validation-sets.js';
import { readReferenceVectors } from './reference-vectors.js';
import { at } from '../internal-error.js';

type Dtype = 'float64' | 'float32';

interface UlpMeasure {
  readonly max: number;
  /** The input (or input pair) where it occurred. */
  readonly at: readonly number[];
  readonly count: number;
}

interface UlpReportRow {
  readonly fn: MathFn;
  readonly dtype: Dtype;
  readonly vsMath: UlpMeasure;
  /** Against the committed correctly rounded vectors; undefined if they are missing. */
  readonly vsCorrectlyRounded: UlpMeasure | undefined;
  /** undefined when NumPy has no set for fn or the shared data is missing. */
  readonly validation: UlpMeasure | undefined;
}

const lanesOf = (d: Dtype): MathLanes => (d === 'float64' ? 'f64x2' : 'f32x4');
const arrayOf = (d: Dtype, xs: ArrayLike<number>): Float64Array | Float32Array =>
  d === 'float64' ? Float64Array.from(xs) : Float32Array.from(xs);

/** Runs fn over inputs and measures against expected values. */
function measure(fn: MathFn, dtype: Dtype, a: ArrayLike<number>, b: ArrayLike<number> | undefined,
  expected: (i: number) => number): UlpMeasure {
  const runner = createMathRunner(fn, lanesOf(dtype));
  const out = runner.run(arrayOf(dtype, a), b ? arrayOf(dtype, b) : undefined);
  let max = 0;
  let worst: number[] = [];
  for (let i = 0; i < out.length; i++) {
    const d = ulpDistance(at(out, i, 'output'), expected(i), dtype);
    if (d > max) {
      max = d;
      worst = b ? [at(a, i, 'input'), at(b, i, 'input')] : [at(a, i, 'input')];
    }
  }
  return { max, at: worst, count: out.length };
}

/** Max ulp distance from Math.* over `count` random inputs (Math's result rounded to float32 for float32). */
function measureVsMath(fn: MathFn, dtype: Dtype, count: number, seed = 1): UlpMeasure {
  const [a, b] = sampleInputs(fn, dtype, count, seed);
  const ref = JS_REFERENCE[fn];
  const round = dtype === 'float32' ? Math.fround : (x: number): number => x;
  return measure(fn, dtype, a, b, (i) => round(ref(at(a, i, 'input'), b?.[i] ?? Number.NaN)));
}

/** Max ulp distance over the rows of NumPy's validation set for fn and dtype, if there is one. */
function measureValidation(fn: MathFn, dtype: Dtype): UlpMeasure | undefined {
  const rows = readValidationSet(fn)?.filter((r) => r.dtype === dtype);
  if (!rows || rows.length === 0) return undefined;
  return measure(fn, dtype, rows.map((r) => r.input), undefined, (i) => at(rows, i, 'row').expected);
}

/** Max ulp distance from the correctly rounded vectors of test/vectors, if present. */
function measureVsReference(fn: MathFn, dtype: Dtype): UlpMeasure | undefined {
  const v = readReferenceVectors(fn, dtype);
  if (!v) return undefined;
  return measure(fn, dtype, v.a, v.b, (i) => at(v.expected, i, 'value'));
}

/** The table docs/correctness.md quotes: every available function, both lane types. */
function measureMaxUlp(count = 20000): UlpReportRow[] {
  const rows: UlpReportRow[] = [];
  for (const fn of MATH_FNS) {
    for (const dtype of ['float64', 'float32'] as const) {
      if (!isMathAvailable(fn, lanesOf(dtype))) continue;
      rows.push({
        fn, dtype, vsMath: measureVsMath(fn, dtype, count), vsCorrectlyRounded: measureVsReference(fn, dtype),
        validation: measureValidation(fn, dtype),
      });
    }
  }
  return rows;
}

function formatUlpReport(rows: readonly UlpReportRow[]): string {
  const lines = [
    '| function | dtype | max ulp vs correctly rounded (mpmath vectors) | max ulp on NumPy validation set | max ulp vs Math.* |',
    '|---|---|---|---|---|',
  ];
  const show = (m: UlpMeasure | undefined): string => (m ? `${m.max} (${m.count} rows)` : 'n/a');
  for (const r of rows) {
    lines.push(`| ${r.fn} | ${r.dtype} | ${show(r.vsCorrectlyRounded)} | ${show(r.validation)} | ${show(r.vsMath)} |`);
  }
  return lines.join('\n');
}

export { measureMaxUlp, measureVsMath, measureVsReference, measureValidation, formatUlpReport };
export type { UlpReportRow, UlpMeasure };
