// The report's text: docs/performance.md's section (machine, systems, plots, one
// table at the headline size) and the full markdown with every size.
import { CASES, scalingWorkers } from './cases.js';
import { KNOWN_WRONG } from './known.js';
import type { BenchResult } from './result-types.js';
import { fmtMs, fmtN } from './run.js';
import type { Measurement } from './run.js';
import { BARRED, BAR_F32, BAR_F64, inputsOf, targets } from '../vector-math-spec.js';

/** A system's name in tables and legends, marking float32 ones. */
const systemLabel = (r: BenchResult, id: string): string => {
  const s = r.systems.find((x) => x.id === id);
  return s ? `${s.label}${s.dtype === 'float32' ? ' (f32)' : ''}` : id;
};

/** The measurement of `system` on a case at size n, if any. */
const measurementOf = (list: readonly Measurement[], caseId: string, n: number | undefined, system: string): Measurement | undefined =>
  list.find((m) => m.caseId === caseId && m.n === n && m.system === system);

/** The size each case is shown at in the summary table: 10^7 for the elementwise sweeps, or the case's one size. */
const headlineN = (r: BenchResult, caseId: string): number | undefined => {
  const sizes = [...new Set(r.measurements.filter((m) => m.caseId === caseId).map((m) => m.n))].sort((a, b) => a - b);
  return sizes.includes(1e7) ? 1e7 : sizes[sizes.length - 1];
};

const cell = (m: Measurement | undefined, ours: Measurement | undefined): string => {
  if (!m) return '';
  if (m.status === 'n/a') return 'n/a';
  if (m.status !== 'ok') return `**${m.status}**`;
  const x = ours?.status === 'ok' && ours.medianMs ? m.medianMs! / ours.medianMs : undefined;
  const ratio = x === undefined ? '' : ` (${x.toFixed(x >= 10 ? 0 : x >= 0.1 ? 1 : 3)}x)`;
  return `${fmtMs(m.medianMs!)}${m.system === 'ours' ? '' : ratio}`;
};

function table(r: BenchResult, pick: (caseId: string) => number | undefined): string {
  const cases = CASES.filter((c) => pick(c.id) !== undefined);
  const systems = r.systems.filter((s) => !s.skipped && !isScaling(s.id));
  const find = (caseId: string, system: string): Measurement | undefined => measurementOf(r.measurements, caseId, pick(caseId), system);
  const head = `| system | ${cases.map((c) => `${c.id} ${c.elementwise ? `n=${fmtN(pick(c.id)!)}` : `(${fmtN(pick(c.id)!)})`}`).join(' | ')} |`;
  return [head, `|---|${cases.map(() => '---:').join('|')}|`,
    ...systems.map((s) => `| ${systemLabel(r, s.id)} | ${cases.map((c) => cell(find(c.id, s.id), find(c.id, 'ours'))).join(' | ')} |`)].join('\n');
}

/** The systems of the worker-scaling groups (ours-t1, ours-t2, ...): plotted apart, not peers. */
const isScaling = (id: string): boolean => scalingWorkers(id) !== undefined;

function systemsList(r: BenchResult): string {
  return r.systems.filter((s) => !isScaling(s.id)).map((s) => (s.skipped ? `- ${s.label}: **skipped**, ${s.skipped}` : `- ${s.label} ${s.version ?? ''}${s.note ? ` (${s.note})` : ''}`)).join('\n');
}

function problems(r: BenchResult): string {
  const bad = r.measurements.filter((m) => m.status === 'wrong' || m.status === 'failed');
  if (bad.length === 0) return 'Every answer timed agreed with the reference evaluator within its case\'s tolerance.';
  const label = (id: string): string => systemLabel(r, id);
  const known = Object.entries(KNOWN_WRONG).filter(([id]) => bad.some((m) => m.system === id))
    .map(([id, k]) => `- ${label(id)}, ${k.cases.join(', ')}: ${k.why}.`);
  return ['Answers not timed, because they disagree with the reference evaluator (beyond the case\'s tolerance: 1e-10 to 1e-12 relative in float64, 1e-4 to 1e-3 in float32) or failed:', '',
    ...[...new Set(bad.map((m) => `${m.system} ${m.caseId}`))].map((key) => {
      const ms = bad.filter((m) => `${m.system} ${m.caseId}` === key);
      const worst = ms[ms.length - 1]!;
      return `- ${worst.caseId}, ${label(worst.system)}: ${worst.status} at n=${ms.map((m) => fmtN(m.n)).join(', ')}; at n=${fmtN(worst.n)}: ${(worst.detail ?? '').split('\n')[0]}`;
    }),
    ...(known.length ? ['', 'Why, where we looked:', '', ...known] : [])].join('\n');
}

/** The vector-math table: ns per element per core, ours against V8's Math (and NumPy's ufuncs when measured). */
function vectorMathTable(r: BenchResult): string {
  const v = r.vectorMath;
  if (!v) return '';
  const ns = (x: number | undefined): string => (x === undefined ? '' : x.toFixed(1));
  const ratio = (x: number, bar: number, barred: boolean): string => `${barred && x >= bar ? '**' : ''}${x.toFixed(2)}x${barred && x >= bar ? '**' : ''}`;
  const rows = v.rows.map((row) => {
    const barred = BARRED.has(row.fn);
    return `| ${row.fn}${barred ? ' *' : ''} | ${ns(row.f64)} | ${ns(row.f32)} | ${ns(row.math)} | ${ns(row.numpyF64)} | ${ns(row.numpyF32)} | ` +
      `${ratio(row.math / row.f64, BAR_F64, barred)} | ${ratio(row.math / row.f32, BAR_F32, barred)} | ${inputsOf(row.fn)} |`;
  });
  const { barred, met64, met32 } = targets(v.rows);
  return [
    `Vector math per core: ns per element of sum(f(x)) over ${fmtN(v.n)} elements (ours: \`executeSync()\`, one fused kernel on the calling thread; ` +
    `V8 Math: a hand-written JS loop summing \`Math.f\`, taking turns with ours; NumPy: \`np.sum(np.f(x))\`, timed after in Python` +
    `${v.numpySkipped ? `, **skipped**: ${v.numpySkipped}` : ''}); medians of ${v.rounds} rounds. ` +
    `\\* the targets: float64 at least ${BAR_F64}x V8, float32 at least ${BAR_F32}x (bold where met): ${met64} and ${met32} of ${barred.length} met.`,
    '',
    '| f | ours f64 | ours f32 | V8 Math | NumPy f64 | NumPy f32 | f64 vs V8 | f32 vs V8 | inputs |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
}

function markdown(r: BenchResult, plotDir: string): { section: string; full: string } {
  const when = `${r.date.slice(0, 10)}, ${r.machine.cpus} cores (${r.machine.model}), ${r.machine.memoryGiB.toFixed(0)} GiB, Node ${r.machine.node}, ${r.machine.platform}`;
  const s = r.streaming;
  const intro = [
    `Measured ${when}${r.quick ? ' (BENCH_QUICK: small sizes)' : ''}: ${r.rounds} rounds, each system in its own process, ` +
    `systems taking turns round by round; medians per call, in ${r.minutes.toFixed(0)} minutes. ` +
    `Streaming limits measured in the same run with our own kernels: read ${s.one['read']!.toFixed(1)} / triad ${s.one['triad']!.toFixed(1)} GB/s on one thread, ` +
    `${s.all['read']!.toFixed(1)} / ${s.all['triad']!.toFixed(1)} GB/s on ${s.threads} workers. ` +
    'In parentheses: the time as a multiple of deferred-array\'s (above 1: we are faster). f32: the system computes in float32 (half the bytes).',
  ].join('\n');
  const plotsMd = [
    `![Effective bandwidth against n, 10-op chain](${plotDir}gbps-chain.svg)`,
    `![Speed-up over each peer](${plotDir}speedup.svg)`,
    ...(r.scaling.length ? [`![Worker scaling](${plotDir}scaling.svg)`] : []),
  ].join('\n');
  const math = vectorMathTable(r);
  const section = [intro, '', plotsMd, '', table(r, (id) => headlineN(r, id)), '', ...(math ? [math, ''] : []), problems(r), '', 'Systems:', '', systemsList(r), '',
    `More plots (bandwidth against n for every case), every size and the raw figures: [benchmarks/results/bench.md](${plotDir}bench.md), [bench.json](${plotDir}bench.json).`].join('\n');
  const sizes = [...new Set(r.measurements.map((m) => m.n))];
  const perSize = CASES.filter((c) => c.elementwise).flatMap((c) => [`### ${c.title}`, '',
    ...sizes.filter((n) => r.measurements.some((m) => m.caseId === c.id && m.n === n)).sort((a, b) => a - b)
      .map((n) => `- n=${fmtN(n)}: ${r.systems.filter((x) => !x.skipped && !isScaling(x.id)).map((x) => {
        const m = measurementOf(r.measurements, c.id, n, x.id);
        return m ? `${x.id} ${cell(m, measurementOf(r.measurements, c.id, n, 'ours'))}` : '';
      }).filter(Boolean).join(', ')}`), '', `![${c.title}](${plotDir}gbps-${c.id}.svg)`, '']);
  const full = ['# deferred-array against its peers', '', intro, '', table(r, (id) => headlineN(r, id)), '', ...(math ? ['## Vector math', '', math, ''] : []), problems(r), '', '## Systems', '', systemsList(r), '',
    '## Every size', '', ...perSize, '## Plots', '', plotsMd, ''].join('\n');
  return { section, full };
}

export { markdown, headlineN, measurementOf, systemLabel, isScaling };
