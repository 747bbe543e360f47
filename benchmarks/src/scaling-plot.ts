// Draws what scaling.js wrote (node benchmarks/dist/scaling-plot.js FILE.json):
// the speed-up over one worker of each case against the workers, with our
// streaming triad's for the memory limit, as FILE.svg, and writes the table
// into the scaling section of docs/performance.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkFromPage, writeSection } from './generated-section.js';
import { render, workersSpec } from './peers/plots.js';

interface Scaling {
  readonly date: string;
  readonly cores: number;
  readonly n: number;
  readonly wave: number;
  readonly waveSteps: number;
  readonly rounds: number;
  readonly rows: ReadonlyArray<{ readonly threads: number; readonly ms: Record<string, number> }>;
}

const CASES: ReadonlyArray<readonly [string, string]> = [
  ['foo ms', 'NEP foo'], ['chain ms', '10-op chain'], ['sincos ms', 'sin(a)^2 + cos(b)^2'], ['wave ms/step', 'wave, per step'],
];

async function main(): Promise<void> {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const file = relative(root, resolve(process.argv[2] ?? join(root, 'benchmarks/results/scaling-16-cores.json')));
  const s = JSON.parse(readFileSync(join(root, file), 'utf8')) as Scaling;
  const one = s.rows[0]!.ms;
  const points = s.rows.flatMap((r) => [
    ...CASES.map(([key, label]) => ({ case: label, workers: r.threads, speedup: one[key]! / r.ms[key]! })),
    { case: 'streaming triad (the memory limit)', workers: r.threads, speedup: r.ms['triad GB/s']! / one['triad GB/s']! },
  ]);
  const subtitle = `speed-up over one worker; ${s.cores} cores, n = 2^${Math.log2(s.n)} float64, wave ${s.wave}^2; ${s.date.slice(0, 10)}`;
  const spec = workersSpec(points, subtitle, { width: 460, height: 320 }, 'streaming');
  const svg = file.replace(/\.json$/, '.svg');
  writeFileSync(join(root, svg), await render(spec));
  const keys = ['launch µs', 'triad GB/s', ...CASES.map(([k]) => k)];
  const head = ['workers', 'pooled launch', 'triad', ...CASES.map(([, l]) => l)];
  const cell = (k: string, v: number): string => (k === 'launch µs' ? `${v.toFixed(1)} µs` : k === 'triad GB/s' ? `${v.toFixed(0)} GB/s` : `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms (${(one[k]! / v).toFixed(1)}x)`);
  const table = [
    `![Scaling on ${s.cores} cores](${linkFromPage(svg)})`,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...s.rows.map((r) => `| ${r.threads} | ${keys.map((k) => cell(k, r.ms[k]!)).join(' | ')} |`),
    '',
    `Measured ${s.date.slice(0, 10)}: n = 2^${Math.log2(s.n)} float64 (${(s.n * 8) / 2 ** 20} MiB per array), the wave ${s.wave} x ${s.wave} with ${s.waveSteps} steps and one flush, medians of ${s.rounds} rounds.`,
  ].join('\n');
  const page = writeSection('scaling', `node benchmarks/dist/scaling-plot.js from ${file}`, table);
  console.log(`Wrote ${svg} and the scaling section of ${page}`);
}

await main();
