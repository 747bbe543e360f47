// Vector math per core: ns per element of sum(f(x)) through executeSync()
// (one fused kernel on the calling thread: the function, then the sum) for
// float64 and float32 inputs, against a hand-written JS loop summing V8's
// Math.f over the same Float64Array. Variants take turns round by round; the
// figures are medians over rounds.
import * as da from 'deferred-array';
import { randomData } from './data.js';
import { inTurns, median } from './timing.js';

type Fn = 'exp' | 'expm1' | 'exp2' | 'log' | 'log1p' | 'log2' | 'log10' | 'sin' | 'cos' | 'tan' | 'asin' | 'acos' | 'atan'
  | 'sinh' | 'cosh' | 'tanh' | 'asinh' | 'acosh' | 'atanh' | 'cbrt';

/** Each function over uniform inputs on a range a user meets (inside its domain); V8's form of it where that is not Math.fn(v). */
const FUNCTIONS: ReadonlyArray<{ readonly fn: Fn; readonly lo: number; readonly hi: number; readonly js?: string }> = [
  { fn: 'sin', lo: -100, hi: 100 },
  { fn: 'cos', lo: -100, hi: 100 },
  { fn: 'tan', lo: -100, hi: 100 },
  { fn: 'exp', lo: -100, hi: 100 },
  { fn: 'expm1', lo: -10, hi: 10 },
  { fn: 'exp2', lo: -100, hi: 100, js: '2 ** v' },
  { fn: 'log', lo: 1e-3, hi: 1e3 },
  { fn: 'log1p', lo: 0, hi: 1e3 },
  { fn: 'log2', lo: 1e-3, hi: 1e3 },
  { fn: 'log10', lo: 1e-3, hi: 1e3 },
  { fn: 'asin', lo: -1, hi: 1 },
  { fn: 'acos', lo: -1, hi: 1 },
  { fn: 'atan', lo: -100, hi: 100 },
  { fn: 'sinh', lo: -20, hi: 20 },
  { fn: 'cosh', lo: -20, hi: 20 },
  { fn: 'tanh', lo: -10, hi: 10 },
  { fn: 'asinh', lo: -100, hi: 100 },
  { fn: 'acosh', lo: 1, hi: 100 },
  { fn: 'atanh', lo: -0.999, hi: 0.999 },
  { fn: 'cbrt', lo: -1e3, hi: 1e3 },
];

/** The functions the issue's bars name: float64 at least 2.5x V8's Math, float32 at least 5x. */
const BARRED: ReadonlySet<Fn> = new Set(['sin', 'cos', 'exp', 'log', 'tanh', 'atan', 'expm1']);
const BAR_F64 = 2.5;
const BAR_F32 = 5;

interface MathRow {
  readonly fn: Fn;
  /** ns per element, medians over rounds. */
  readonly f64: number;
  readonly f32: number;
  readonly math: number;
  /** NumPy's ufunc over the same range (the peer benchmark measures it, in Python). */
  readonly numpyF64?: number | undefined;
  readonly numpyF32?: number | undefined;
}

/** A hand-written loop, its own code per function (as a user writes it), so V8 inlines Math.f. */
const jsLoop = (expr: string): ((a: Float64Array) => number) =>
  new Function('a', `let s = 0; for (let i = 0; i < a.length; i++) { const v = a[i]; s += ${expr}; } return s;`) as (a: Float64Array) => number;

/** Every function, float64 and float32, and V8's Math; `rounds` rounds of all variants in turn. */
function vectorMathReport(n = 1 << 21, rounds = 5): MathRow[] {
  const run: Record<string, () => unknown> = {};
  FUNCTIONS.forEach(({ fn, lo, hi, js }, k) => {
    const x = randomData(n, 17 + k, lo, hi);
    const f = da[fn] as (a: da.DeferredArray) => da.DeferredArray;
    const [s64, s32] = [da.sum(f(da.wrap(x))), da.sum(f(da.wrap(Float32Array.from(x))))];
    const loop = jsLoop(js ?? `Math.${fn}(v)`);
    run[`${fn}.f64`] = () => s64.executeSync();
    run[`${fn}.math`] = () => loop(x);
    run[`${fn}.f32`] = () => s32.executeSync();
  });
  // Warm: kernels compiled, plans cached, the loops optimised.
  for (const r of Object.values(run)) for (let i = 0; i < 3; i++) r();
  const times = inTurns(run, rounds);
  const ns = (fn: Fn, v: 'f64' | 'math' | 'f32'): number => (median(times[`${fn}.${v}`]!) * 1e6) / n;
  return FUNCTIONS.map(({ fn }) => ({ fn, f64: ns(fn, 'f64'), f32: ns(fn, 'f32'), math: ns(fn, 'math') }));
}

function printVectorMath(rows: readonly MathRow[], n: number, rounds: number): string {
  const cell = (v: number | undefined): string => (v === undefined ? '' : v.toFixed(1)).padStart(8);
  const ratio = (v: number): string => `${v.toFixed(2)}x`.padStart(9);
  const numpy = rows.some((r) => r.numpyF64 !== undefined);
  const lines = [
    `Vector math per core: sum(f(x)) by executeSync() over ${n} elements, ns per element (median of ${rounds} rounds, variants in turn);`,
    '  V8 Math: a hand-written JS loop summing Math.f over the same float64 values; inputs uniform on the range shown' +
      (numpy ? ';\n  NumPy: np.sum(np.f(x)) in Python, timed after (its own process)' : ''),
    `  ${'f'.padEnd(7)}${'f64'.padStart(8)}${'f32'.padStart(8)}${'V8 Math'.padStart(8)}${numpy ? `${'NumPy64'.padStart(8)}${'NumPy32'.padStart(8)}` : ''}` +
      `${'f64 vs V8'.padStart(11)}${'f32 vs V8'.padStart(11)}  inputs`,
    ...rows.map((r) => {
      const { lo, hi } = FUNCTIONS.find((f) => f.fn === r.fn)!;
      return `  ${r.fn.padEnd(7)}${cell(r.f64)}${cell(r.f32)}${cell(r.math)}${numpy ? `${cell(r.numpyF64)}${cell(r.numpyF32)}` : ''}` +
        `  ${ratio(r.math / r.f64)}  ${ratio(r.math / r.f32)}  [${lo}, ${hi}]`;
    }),
  ];
  const barred = rows.filter((r) => BARRED.has(r.fn));
  const f64Met = barred.filter((r) => r.math / r.f64 >= BAR_F64);
  const f32Met = barred.filter((r) => r.math / r.f32 >= BAR_F32);
  lines.push(
    `Targets (issue: vector math at SIMD speed), for ${[...BARRED].join(', ')}:`,
    `  ${f64Met.length === barred.length ? 'met    ' : 'not met'} float64 at least ${BAR_F64}x V8's Math: ${f64Met.length} of ${barred.length}`,
    `  ${f32Met.length === barred.length ? 'met    ' : 'not met'} float32 at least ${BAR_F32}x V8's Math: ${f32Met.length} of ${barred.length}`,
  );
  return lines.join('\n');
}

export { vectorMathReport, printVectorMath, FUNCTIONS as VECTOR_MATH_FUNCTIONS, BARRED, BAR_F64, BAR_F32 };
export type { MathRow };
