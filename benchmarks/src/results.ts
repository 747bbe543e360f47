// How results reach the user, timed whole (planning, dispatch, kernel, and
// the way the result comes back): the 10-op chain over two float64 inputs of
// n elements, each variant in its own process, interleaved round by round
// (isolated.ts), against JS loops and our own streaming kernel. Also the
// first result from a fresh process: import plus the first executeSync().
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as da from 'deferred-array';
import { runIsolated } from './isolated.js';
import { gbPerS, median } from './timing.js';

const VARIANTS = [
  ['execute', 'execute(): a fresh ordinary array (the default)'],
  ['executeSync', 'executeSync(): the same, on this thread'],
  ['scope', 'views in da.scope(), execute()'],
  ['scopeSync', 'views in da.scopeSync(), executeSync()'],
  ['out', 'execute({ out }) into a reused Float64Array'],
  ['outSync', 'executeSync({ out }), the same'],
  ['outView', 'execute({ out }) into a reused view'],
  ['loopFresh', 'JS loop into a fresh Float64Array'],
  ['loopOwned', 'JS loop into an array it owns'],
  ['triad', 'streaming limit: our triad kernel'],
] as const;

type Variant = typeof VARIANTS[number][0];

interface ResultsReport {
  readonly n: number;
  readonly rounds: number;
  readonly threads: number;
  readonly ms: ReadonlyMap<Variant, number>;
}

async function resultsReport(n: number, rounds: number): Promise<ResultsReport> {
  const times = await runIsolated(new URL('./results-child.js', import.meta.url), VARIANTS.map(([v]) => v), [String(n)], rounds);
  return { n, rounds, threads: da.configure().threads, ms: new Map([...times].map(([v, t]) => [v as Variant, median(t)])) };
}

function printResults(r: ResultsReport): string {
  const ms = (v: Variant): number => r.ms.get(v)!;
  const bytes = r.n * 24;
  const lines = [
    `How results reach you: the 10-op chain, 2 float64 inputs of ${r.n.toExponential(0)} -> 1 result (${(bytes / 1e6).toFixed(0)} MB moved by one pass);`,
    `  each variant in a process of its own, medians of ${r.rounds} rounds, interleaved; ${r.threads} worker(s) for execute()`,
    `  ${''.padEnd(46)} ${'ms'.padStart(7)} ${'GB/s'.padStart(6)} ${'vs owned loop'.padStart(14)} ${'vs execute()'.padStart(13)}`,
  ];
  for (const [v, label] of VARIANTS) {
    lines.push(`  ${label.padEnd(46)} ${ms(v).toFixed(1).padStart(7)} ${gbPerS(bytes, ms(v)).toFixed(2).padStart(6)} ` +
      `${(ms('loopOwned') / ms(v)).toFixed(2).padStart(13)}x ${(ms('execute') / ms(v)).toFixed(2).padStart(12)}x`);
  }
  const check = (what: string, ratio: number, ok: boolean, want: string): string =>
    `  ${ok ? 'met    ' : 'NOT MET'} ${what}: ${ratio.toFixed(2)}x (${want})`;
  const views = ms('scope');
  lines.push('Targets (results without copies), from this run:');
  lines.push(check('views in a scope vs the JS loop into an array it owns', ms('loopOwned') / views, ms('loopOwned') / views >= 1.5, 'at least 1.5x faster'));
  lines.push(check('views in a scope vs execute() into a fresh array', ms('execute') / views, ms('execute') / views >= 4, 'at least 4x faster'));
  lines.push(check('execute({ out }) into a reused Float64Array vs that loop', ms('out') / ms('loopOwned'), ms('out') / ms('loopOwned') <= 1.5, 'at most 1.5x its time'));
  return lines.join('\n');
}

interface Startup {
  readonly importMs: number;
  readonly firstMs: number;
}

/** import plus the first executeSync() of a small graph, each from a fresh process: medians of `runs`. */
function startupReport(runs: number): Startup {
  const script = fileURLToPath(new URL('./startup-child.js', import.meta.url));
  const all: Startup[] = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`startup-child failed: ${r.stderr}`);
    all.push(JSON.parse(r.stdout) as Startup);
  }
  const sorted = all.sort((a, b) => (a.importMs + a.firstMs) - (b.importMs + b.firstMs));
  return sorted[Math.floor(sorted.length / 2)]!;
}

function printStartup(s: Startup, runs: number): string {
  const total = s.importMs + s.firstMs;
  return `The first result, from a fresh process (median of ${runs}): import ${s.importMs.toFixed(0)} ms + ` +
    `first executeSync() of a 1,000-element sum ${s.firstMs.toFixed(0)} ms = ${total.toFixed(0)} ms ` +
    `(target: under 150 ms: ${total < 150 ? 'met' : 'NOT MET'})`;
}

export { resultsReport, printResults, startupReport, printStartup };
export type { ResultsReport, Startup };
