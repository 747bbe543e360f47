// Vector math per core: ns per element of sum(f(x)) through executeSync()
// (one fused kernel on the calling thread: the function, then the sum) for
// float64 and float32 inputs, against a hand-written JS loop summing V8's
// Math.f over the same Float64Array. Variants take turns round by round; the
// figures are medians over rounds.
import * as da from 'deferred-array';
import { randomData } from './data.js';
import { inTurns, median } from './timing.js';
import { VECTOR_MATH_FUNCTIONS as FUNCTIONS, BARRED, BAR_F32, BAR_F64, inputsOf, targets } from './vector-math-spec.js';
import type { Fn, MathRow } from './vector-math-spec.js';

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
    ...rows.map((r) => `  ${r.fn.padEnd(7)}${cell(r.f64)}${cell(r.f32)}${cell(r.math)}${numpy ? `${cell(r.numpyF64)}${cell(r.numpyF32)}` : ''}` +
      `  ${ratio(r.math / r.f64)}  ${ratio(r.math / r.f32)}  ${inputsOf(r.fn)}`),
  ];
  const { barred, met64, met32 } = targets(rows);
  lines.push(
    `Targets (vector math at SIMD speed), for ${[...BARRED].join(', ')}:`,
    `  ${met64 === barred.length ? 'met    ' : 'not met'} float64 at least ${BAR_F64}x V8's Math: ${met64} of ${barred.length}`,
    `  ${met32 === barred.length ? 'met    ' : 'not met'} float32 at least ${BAR_F32}x V8's Math: ${met32} of ${barred.length}`,
  );
  return lines.join('\n');
}

export { vectorMathReport, printVectorMath, jsLoop };
