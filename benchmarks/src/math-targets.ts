// The slower math functions against their targets, per core: ns per element
// of sum(f(x)) through executeSync() (one fused kernel on the calling thread)
// for float64 and float32, against a hand-written JS loop summing V8's Math.f
// over the same values, variants in turn round by round, medians.
import * as da from 'deferred-array';
import { randomData } from './data.js';
import { inTurns, median } from './timing.js';
import { SLOW_TARGETS } from './vector-math-spec.js';
import { jsLoop } from './vector-math.js';

interface TargetRow {
  readonly fn: string;
  readonly lo: number;
  readonly hi: number;
  /** ns per element, medians. */
  readonly f64: number;
  readonly f32: number;
  readonly math: number;
  readonly bar64: number | undefined;
  readonly bar32: number;
}

function mathTargetsReport(n = 1 << 20, rounds = 7): TargetRow[] {
  const run: Record<string, () => unknown> = {};
  SLOW_TARGETS.forEach(({ fn, lo, hi }, k) => {
    const x = randomData(n, 71 + k, lo, hi);
    const f = da[fn] as (a: da.DeferredArray) => da.DeferredArray;
    const [s64, s32] = [da.sum(f(da.wrap(x))), da.sum(f(da.wrap(Float32Array.from(x))))];
    const loop = jsLoop(`Math.${fn}(v)`);
    run[`${k}.f64`] = () => s64.executeSync();
    run[`${k}.math`] = () => loop(x);
    run[`${k}.f32`] = () => s32.executeSync();
  });
  for (const r of Object.values(run)) for (let i = 0; i < 3; i++) r();
  const times = inTurns(run, rounds);
  const ns = (k: number, v: string): number => (median(times[`${k}.${v}`]!) * 1e6) / n;
  return SLOW_TARGETS.map(({ fn, lo, hi, f64, f32 }, k) => ({
    fn, lo, hi, f64: ns(k, 'f64'), f32: ns(k, 'f32'), math: ns(k, 'math'), bar64: f64, bar32: f32,
  }));
}

function printMathTargets(rows: readonly TargetRow[], n: number, rounds: number): string {
  const cell = (v: number): string => v.toFixed(1).padStart(8);
  const ratio = (v: number, bar: number | undefined): string =>
    (bar === undefined ? '' : `${v.toFixed(2)}x ${v >= bar ? '>=' : '< '} ${bar}x`).padStart(16);
  const met = rows.flatMap((r) => [r.bar64 === undefined ? [] : [r.math / r.f64 >= r.bar64], [r.math / r.f32 >= r.bar32]].flat());
  return [
    `The slower math functions against their targets: sum(f(x)) by executeSync() over ${n} elements, ns per element`,
    `  (median of ${rounds} rounds, variants in turn; V8 Math: a JS loop summing Math.f over the same float64 values)`,
    `  ${'f'.padEnd(7)}${'inputs'.padEnd(14)}${'f64'.padStart(8)}${'f32'.padStart(8)}${'V8 Math'.padStart(8)}${'f64 vs V8'.padStart(16)}${'f32 vs V8'.padStart(16)}`,
    ...rows.map((r) => `  ${r.fn.padEnd(7)}${`[${r.lo}, ${r.hi}]`.padEnd(14)}${cell(r.f64)}${cell(r.f32)}${cell(r.math)}` +
      `${ratio(r.math / r.f64, r.bar64)}${ratio(r.math / r.f32, r.bar32)}`),
    `  ${met.every(Boolean) ? 'met    ' : 'not met'} ${met.filter(Boolean).length} of ${met.length} targets`,
  ].join('\n');
}

export { mathTargetsReport, printMathTargets };
export type { TargetRow };
