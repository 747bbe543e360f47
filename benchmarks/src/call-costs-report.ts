// What one call costs around the kernel, for the 10-op chain over two float64
// arrays: a JS loop into an array it owns against building the graph alone,
// the graph built afresh each
// call (executeSync({ out }) and execute({ out }), with the same constants and
// with one that changes every call), the graph over arrays wrapped afresh each
// call returning a fresh array (the peers benchmark's `call` case), and a
// compiled call into the same out and into a fresh array; and, beside its own
// JS loop, x - mean(x) built afresh (two kernels: the mean, then the
// subtraction reading it). The variants take turns in every round (each a
// batch of calls); medians of the rounds. The targets are those the package
// holds itself to at 1,000 elements.
import * as da from 'deferred-array';
import { chain, chainJs, chainWith, randomData } from './data.js';
import { inTurnsAsync, median } from './timing.js';

interface CallCosts {
  readonly n: number;
  readonly rounds: number;
  readonly batch: number;
  /** Per call, µs, by variant. */
  readonly us: Readonly<Record<Variant | Centred, number>>;
  /** Plans made while timing, and graphs built afresh meanwhile (all of one structure). */
  readonly plans: number;
  readonly graphs: number;
}

const VARIANTS = [
  'JS loop into an array it owns',
  'building the graph alone',
  'graph built afresh, executeSync({ out })',
  'graph built afresh, execute({ out })',
  'the same, a constant changing every call',
  'arrays wrapped afresh, execute(), a fresh result',
  'compiled, f.sync(a, b, { out })',
  'compiled, f.sync(a, b), a fresh result',
] as const;

/** x - mean(x), against its own loop (the mean, then the subtraction). */
const CENTRED = ['JS loop: x - mean(x) into an array it owns', 'x - mean(x) built afresh, executeSync({ out })'] as const;
type Centred = (typeof CENTRED)[number];
type Variant = (typeof VARIANTS)[number];

/** Per-call targets against the loop, at 1,000 elements. */
const TARGETS: Partial<Record<Variant, number>> = {
  'graph built afresh, executeSync({ out })': 10,
  'graph built afresh, execute({ out })': 20,
  'compiled, f.sync(a, b, { out })': 3.5,
};

/** The building variant's target: µs per elementwise op (the chain has 10). */
const BUILD_TARGET_PER_OP = 0.5;
const CHAIN_OPS = 10;

/** Calls per timed batch: a millisecond or more of the slowest variant (20 at 10^5, where five were noisy). */
const batchFor = (n: number): number => Math.max(5, Math.min(500, Math.round(2e7 / Math.max(n, 1) / 10)));

async function callCostsReport(n: number, rounds: number): Promise<CallCosts> {
  const a = randomData(n, 4);
  const b = randomData(n, 5);
  const A = da.wrap(a);
  const B = da.wrap(b);
  const owned = new Float64Array(n);
  const out = new Float64Array(n);
  const compiled = da.compile((x: da.DeferredArray, y: da.DeferredArray) => chain(x, y), [da.placeholder([n], 'float64'), da.placeholder([n], 'float64')]);
  const batch = batchFor(n);
  let k = 0;
  const sync = (call: () => unknown) => (): void => {
    for (let i = 0; i < batch; i++) call();
  };
  const variants: Record<Variant | Centred, () => unknown> = {
    'JS loop into an array it owns': sync(() => {
      for (let i = 0; i < n; i++) owned[i] = chainJs(a[i]!, b[i]!);
    }),
    'building the graph alone': sync(() => chain(A, B)),
    'graph built afresh, executeSync({ out })': sync(() => chain(A, B).executeSync({ out })),
    'graph built afresh, execute({ out })': async () => {
      for (let i = 0; i < batch; i++) await chain(A, B).execute({ out });
    },
    'the same, a constant changing every call': sync(() => chainWith(A, B, 1.5 + (k++ % 1000) * 1e-3).executeSync({ out })),
    'arrays wrapped afresh, execute(), a fresh result': async () => {
      for (let i = 0; i < batch; i++) await chain(da.wrap(a), da.wrap(b)).execute();
    },
    'compiled, f.sync(a, b, { out })': sync(() => compiled.sync(a, b, { out })),
    'compiled, f.sync(a, b), a fresh result': sync(() => compiled.sync(a, b)),
    'JS loop: x - mean(x) into an array it owns': sync(() => {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += a[i]!;
      const mean = sum / n;
      for (let i = 0; i < n; i++) owned[i] = a[i]! - mean;
    }),
    'x - mean(x) built afresh, executeSync({ out })': sync(() => A.sub(da.mean(A)).executeSync({ out })),
  };
  await inTurnsAsync(variants, 2);
  const plansBefore = da.stats().plans;
  const samples = await inTurnsAsync(variants, rounds);
  const plans = da.stats().plans - plansBefore;
  const us = Object.fromEntries([...VARIANTS, ...CENTRED].map((v) => [v, (median(samples[v]) * 1000) / batch])) as Record<Variant | Centred, number>;
  return { n, rounds, batch, us, plans, graphs: rounds * batch * 5 };
}

function printCallCosts(r: CallCosts): string {
  const loop = r.us['JS loop into an array it owns'];
  const lines = [`Per call, the 10-op chain over two float64 arrays of ${r.n} (µs, median of ${r.rounds} rounds of ${r.batch} calls, variants in turn):`];
  for (const v of VARIANTS) {
    const ratio = r.us[v] / loop;
    const target = r.n === 1000 ? TARGETS[v] : undefined;
    const perOp = r.us[v] / CHAIN_OPS;
    const judged = v === 'building the graph alone'
      ? `  ${perOp.toFixed(2)} µs an op, target <= ${BUILD_TARGET_PER_OP}: ${perOp <= BUILD_TARGET_PER_OP ? 'met' : 'not met'}`
      : target === undefined ? '' : `  target <= ${target}x: ${ratio <= target ? 'met' : 'not met'}`;
    lines.push(`  ${v.padEnd(50)} ${r.us[v].toFixed(1).padStart(9)} µs ${ratio.toFixed(1).padStart(6)}x the loop${judged}`);
  }
  lines.push(`  plans made while timing: ${r.plans} (${r.graphs} graphs built afresh and executed, of two structures)`);
  const own = r.us[CENTRED[0]];
  for (const v of CENTRED) lines.push(`  ${v.padEnd(50)} ${r.us[v].toFixed(1).padStart(9)} µs ${(r.us[v] / own).toFixed(1).padStart(6)}x its loop`);
  return lines.join('\n');
}

export { callCostsReport, printCallCosts };
export type { CallCosts };
