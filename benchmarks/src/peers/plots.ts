// The plots, drawn by Vega-Lite and rendered to SVG by Vega in Node (no
// browser): bandwidth against n per case with the streaming limits drawn
// in, speed-up bars per case against each peer, and worker scaling.
import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { TopLevelSpec } from 'vega-lite';
import { CASES, caseById, scalingId, scalingWorkers } from './cases.js';
import { headlineN, isScaling, measurementOf, systemLabel as labelOf } from './markdown.js';
import type { BenchResult } from './result-types.js';
import { fmtN } from './run.js';
import { gbPerS } from '../timing.js';

/** Legends long enough for the systems' names. */
const LEGEND = { legend: { labelLimit: 320 } };
/** Our own lines are drawn thicker. */
const OURS = "indexof(datum.system, 'deferred-array') === 0";

/** One colour per system, the same in every plot (a scheme wide enough that none repeats). */
function systemColors(r: BenchResult): object {
  const domain = r.systems.filter((s) => s.id !== 'reference' && !isScaling(s.id)).map((s) => labelOf(r, s.id));
  return { field: 'system', type: 'nominal', title: null, scale: { domain, scheme: 'tableau20' } };
}

async function render(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

function gbpsSpec(r: BenchResult, caseId: string): TopLevelSpec {
  const c = caseById(caseId);
  const rows = r.measurements.filter((m) => m.caseId === caseId && m.status === 'ok' && m.medianMs).map((m) => {
    const bytes = (r.systems.find((s) => s.id === m.system)?.dtype === 'float32' ? 4 : 8) * c.arraysMoved * m.n;
    return { system: labelOf(r, m.system), n: m.n, gbps: gbPerS(bytes, m.medianMs!) };
  });
  const limits = [
    { limit: `${c.limit} limit, ${r.streaming.threads} workers`, gbps: r.streaming.all[c.limit]! },
    { limit: `${c.limit} limit, 1 thread`, gbps: r.streaming.one[c.limit]! },
  ];
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: `${c.title}: effective bandwidth`, subtitle: `bytes one fused pass must move / time; ${r.date.slice(0, 10)}, ${r.machine.cpus} cores` },
    width: 560, height: 340,
    layer: [
      {
        data: { values: rows },
        mark: { type: 'line', point: true },
        encoding: {
          x: { field: 'n', type: 'quantitative', scale: { type: 'log' }, title: 'elements (n)', axis: { format: '.0e' } },
          y: { field: 'gbps', type: 'quantitative', scale: { type: 'log' }, title: 'GB/s' },
          color: systemColors(r),
          strokeWidth: { condition: { test: OURS, value: 3 }, value: 1.5 },
        },
      },
      {
        data: { values: limits },
        mark: { type: 'rule', strokeDash: [6, 4], color: 'black' },
        encoding: { y: { field: 'gbps', type: 'quantitative' } },
      },
      // The two limits are often close: one label above its line, the other below.
      ...limits.map((l, i) => ({
        data: { values: [l] },
        mark: { type: 'text', align: 'left', dx: 4, dy: i === 0 ? -6 : 10, fontSize: 10 },
        encoding: { y: { field: 'gbps', type: 'quantitative' }, x: { datum: Math.min(...rows.map((x) => x.n)) }, text: { field: 'limit' } },
      })),
    ],
    config: LEGEND,
  } as TopLevelSpec;
}

function speedupSpec(r: BenchResult): TopLevelSpec {
  const rows = CASES.flatMap((c) => {
    const n = headlineN(r, c.id);
    const ours = measurementOf(r.measurements, c.id, n, 'ours');
    if (ours?.status !== 'ok') return [];
    return r.measurements.filter((m) => m.caseId === c.id && m.n === n && m.status === 'ok' && m.system !== 'ours' && m.medianMs)
      .map((m) => ({ case: `${c.id}${c.elementwise ? ` ${fmtN(n!)}` : ''}`, system: labelOf(r, m.system), speedup: m.medianMs! / ours.medianMs! }));
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: 'deferred-array execute(): speed-up over each system', subtitle: 'their time / ours; above 1: we are faster (log scale)' },
    data: { values: rows },
    width: 1100, height: 340,
    layer: [
      {
        // Bars grow from 1 (a log scale has no zero): up where we are faster, down where slower.
        mark: 'bar',
        encoding: {
          x: { field: 'case', type: 'nominal', title: null, axis: { labelAngle: -30 } },
          xOffset: { field: 'system' },
          y: { field: 'speedup', type: 'quantitative', scale: { type: 'log' }, title: 'speed-up (x)' },
          y2: { datum: 1 },
          color: systemColors(r),
        },
      },
      { mark: { type: 'rule', color: 'black' }, encoding: { y: { datum: 1 } } },
    ],
    config: LEGEND,
  } as TopLevelSpec;
}

interface ScalingPoint {
  readonly case: string;
  readonly workers: number;
  readonly speedup: number;
}

/** Speed-up over one worker against the workers, a line per case, with the ideal drawn dashed; `dashed` cases are drawn dashed too. */
function workersSpec(points: readonly ScalingPoint[], subtitle: string, size: { width: number; height: number }, dashed?: string): TopLevelSpec {
  const max = Math.max(1, ...points.map((x) => x.workers));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: 'execute() against the number of workers', subtitle },
    ...size,
    layer: [
      {
        data: { values: points },
        mark: { type: 'line', point: true },
        encoding: {
          x: { field: 'workers', type: 'quantitative', scale: { domain: [1, max] } },
          y: { field: 'speedup', type: 'quantitative', title: 'speed-up (x)' },
          color: { field: 'case', type: 'nominal', title: null },
          ...(dashed ? { strokeDash: { condition: { test: `indexof(datum.case, '${dashed}') === 0`, value: [4, 3] }, value: [1, 0] } } : {}),
        },
      },
      {
        data: { values: [{ workers: 1, speedup: 1 }, { workers: max, speedup: max }] },
        mark: { type: 'line', strokeDash: [4, 4], color: 'gray' },
        encoding: { x: { field: 'workers', type: 'quantitative' }, y: { field: 'speedup', type: 'quantitative' } },
      },
    ],
    config: LEGEND,
  } as TopLevelSpec;
}

function scalingSpec(r: BenchResult): TopLevelSpec {
  const rows = r.scaling.filter((m) => m.status === 'ok' && m.medianMs).map((m) => {
    const one = measurementOf(r.scaling, m.caseId, m.n, scalingId(1));
    return { case: `${m.caseId} ${fmtN(m.n)}`, workers: scalingWorkers(m.system)!, speedup: one?.medianMs ? one.medianMs / m.medianMs! : NaN };
  });
  return workersSpec(rows, `speed-up over one worker; ${r.machine.cpus} cores`, { width: 420, height: 300 });
}

/** Every plot as [file name, SVG text]. */
async function plots(r: BenchResult): Promise<Array<[string, string]>> {
  const specs: Array<[string, TopLevelSpec]> = [
    ...CASES.filter((c) => c.elementwise && r.measurements.some((m) => m.caseId === c.id)).map((c): [string, TopLevelSpec] => [`gbps-${c.id}.svg`, gbpsSpec(r, c.id)]),
    ['speedup.svg', speedupSpec(r)],
    ...(r.scaling.length ? [['scaling.svg', scalingSpec(r)] as [string, TopLevelSpec]] : []),
  ];
  const out: Array<[string, string]> = [];
  for (const [name, spec] of specs) out.push([name, await render(spec)]);
  return out;
}

export { plots, render, workersSpec };
