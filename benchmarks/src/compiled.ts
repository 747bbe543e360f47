// Per-call cost of a compiled function (da.compile): a 10-op elementwise
// function of one float64 array of n elements, called over and over, against
// the same function built and run with executeSync() each call (planning
// every time), against the same graph executed again, and against a plain,
// hand-fused JS loop. Variants take turns round by round so all see the same
// machine; each round times a batch of calls; the figure is the median round.
// The fixed per-call overhead (bind, run, return) is the intercept of the
// time at n and 2n: what a call costs beyond the work that grows with n.
import * as da from 'deferred-array';
import { median } from './timing.js';

const OPS = 10;

/** The function every variant computes: 10 elementwise ops. */
const fn = (x: da.DeferredArray): da.DeferredArray => x.mul(2).add(1).mul(x).sub(0.5).abs().sqrt().add(x).mul(3).neg().maximum(0.1);

function loop(x: Float64Array): Float64Array {
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const v = x[i]!;
    out[i] = Math.max(-((Math.sqrt(Math.abs((v * 2 + 1) * v - 0.5)) + v) * 3), 0.1);
  }
  return out;
}

interface Variant {
  readonly name: string;
  /** Microseconds per call at n and at 2n (median round). */
  readonly us: number;
  readonly us2n: number;
}

interface CompiledReport {
  readonly n: number;
  readonly calls: number;
  readonly rounds: number;
  readonly variants: readonly Variant[];
  /** Plans made and kernels compiled by compiled calls at sizes n, 2n, 3, 17, 0 and 1 after the first call (0 and 0 by design). */
  readonly plansAfterFirst: number;
  readonly kernelsAfterFirst: number;
  /** Largest difference between the compiled result and the loop's. */
  readonly maxDiff: number;
}

async function compiledReport(n: number, calls: number, rounds: number): Promise<CompiledReport> {
  const size = da.size('n');
  const f = da.compile(fn, [da.placeholder([size], 'float64')]);
  const data = (len: number) => Float64Array.from({ length: len }, (_, i) => Math.sin(i) * 2);
  const sizes = [n, 2 * n].map((len) => ({ typed: data(len), wrapped: da.wrap(data(len)) }));
  const graphs = sizes.map((s) => fn(s.wrapped));
  await f(sizes[0]!.typed);
  type Run = (k: number) => unknown;
  const variants: Array<[string, Run, boolean]> = [
    ['compiled, f.sync(x), x a wrapped DeferredArray', (k) => f.sync(sizes[k]!.wrapped), false],
    ['compiled, f.sync(x), x a Float64Array', (k) => f.sync(sizes[k]!.typed), false],
    ['compiled, await f(x)', (k) => f(sizes[k]!.wrapped), true],
    ['uncompiled, fn(x).executeSync() (build, plan, run)', (k) => fn(sizes[k]!.wrapped).executeSync(), false],
    ['uncompiled, one graph, y.executeSync() (plan, run)', (k) => graphs[k]!.executeSync(), false],
    ['plain JS loop, fused by hand', (k) => loop(sizes[k]!.typed), false],
  ];
  const times = variants.map(() => [[], []] as [number[], number[]]);
  for (let r = 0; r < rounds; r++) {
    for (const [v, [, run, isAsync]] of variants.entries()) {
      for (const k of [0, 1]) {
        const t0 = performance.now();
        if (isAsync) for (let c = 0; c < calls; c++) await run(k);
        else for (let c = 0; c < calls; c++) run(k);
        times[v]![k]!.push(((performance.now() - t0) / calls) * 1000);
      }
    }
  }
  // Counted apart from the uncompiled variants, which plan at every call.
  const before = da.stats();
  for (const len of [n, 2 * n, 3, 17, n, 0, 1]) f.sync(data(len));
  const after = da.stats();
  const got = (f.sync(sizes[0]!.typed) as da.StdNdarray);
  const want = loop(sizes[0]!.typed);
  let maxDiff = 0;
  for (let i = 0; i < n; i++) maxDiff = Math.max(maxDiff, Math.abs((got.get(i) as number) - want[i]!));
  return {
    n, calls, rounds,
    variants: variants.map(([name], v) => ({ name, us: median(times[v]![0]!), us2n: median(times[v]![1]!) })),
    plansAfterFirst: after.plans - before.plans,
    kernelsAfterFirst: after.kernelsCompiled - before.kernelsCompiled,
    maxDiff,
  };
}

function printCompiled(r: CompiledReport): string {
  const loopUs = r.variants[r.variants.length - 1]!.us;
  // The loop's only fixed cost is its output array: no intercept worth the name.
  const overhead = (v: Variant): string => (v === r.variants[r.variants.length - 1] ? '-' : (2 * v.us - v.us2n).toFixed(1));
  return [
    `Compiled function: ${OPS} elementwise ops on n = ${r.n} float64 elements, µs per call ` +
      `(median of ${r.rounds} rounds of ${r.calls} calls; overhead = the fixed cost per call, from n and 2n):`,
    `  ${''.padEnd(52)} ${'per call'.padStart(9)} ${'at 2n'.padStart(9)} ${'overhead'.padStart(9)} ${'vs loop'.padStart(8)}`,
    ...r.variants.map((v) => `  ${v.name.padEnd(52)} ${v.us.toFixed(1).padStart(9)} ${v.us2n.toFixed(1).padStart(9)} ` +
      `${overhead(v).padStart(9)} ${`${(v.us / loopUs).toFixed(1)}x`.padStart(8)}`),
    `  compiled calls at n, 2n, 3, 17, 0 and 1 after the first: ${r.plansAfterFirst} plans made, ${r.kernelsAfterFirst} kernels compiled; ` +
      `largest difference from the loop: ${r.maxDiff}`,
  ].join('\n');
}

export { compiledReport, printCompiled };
export type { CompiledReport };
