// `npm run bench`: deferred-array against the libraries a user would pick
// instead, every case checked against the reference evaluator first, then
// timed side by side (each system in its own process, interleaved round by
// round). Writes benchmarks/results/bench.{json,md} and SVG plots, and the
// section of docs/performance.md between its bench markers.
//
//   BENCH_QUICK=1        small sizes and 3 rounds (a few minutes)
//   BENCH_CHECK=1        check every system's answers at small sizes, time nothing, write nothing; exit 1 on a wrong one not in known.ts
//   BENCH_SYSTEMS=a,b    only these systems (ids: see SYSTEMS); BENCH_CASES=x,y only these cases
//   BENCH_ROUNDS, BENCH_MAX_N, BENCH_PYTHON (a python3 with numpy and numexpr)
//   BENCH_CHECK_OUT=file  the check's findings as JSON; BENCH_INJECT=system  that system's answers are perturbed (to test the check)
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { CASES, caseById, scalingId } from './cases.js';
import { workerCounts } from '../timing.js';
import type { CaseId } from './cases.js';
import { isKnownWrong } from './known.js';
import { Runner, fmtN } from './run.js';
import type { Group } from './run.js';
import { writeOutputs } from './outputs.js';
import type { BenchResult, Streaming, VectorMath } from './result-types.js';
import { pythonFor } from './procs.js';
import { printVectorMath } from '../vector-math.js';
import { VECTOR_MATH_FUNCTIONS } from '../vector-math-spec.js';
import type { MathRow } from '../vector-math-spec.js';

const SYSTEMS = ['ours', 'ours-views', 'js-fresh', 'js-owned', 'stdlib', 'ndarray-ops', 'tfjs-wasm', 'jax-f64', 'jax-f32', 'numpy', 'numexpr'] as const;

const env = process.env;
const quick = env['BENCH_QUICK'] === '1';
const checkOnly = env['BENCH_CHECK'] === '1';
const list = (v: string | undefined): string[] | undefined => v?.split(',').map((s) => s.trim()).filter(Boolean);

function plan(): { groups: Group[]; scaling: Group[] } {
  const systems = list(env['BENCH_SYSTEMS']) ?? [...SYSTEMS];
  const cases = (list(env['BENCH_CASES']) ?? CASES.map((c) => c.id)) as CaseId[];
  // 10^8 only when asked (BENCH_MAX_N=1e8): on 2 cores one such group takes minutes.
  const maxN = Number(env['BENCH_MAX_N'] ?? (quick ? 1e6 : 1e7));
  const sweepOf = (): number[] => (checkOnly ? [1000, 4099]
    : [1e3, 1e4, 1e5, 1e6, 1e7, 1e8].filter((n) => n <= maxN && (!quick || n !== 1e4)));
  const fixed: Record<string, number> = checkOnly
    ? { wave: 64, matmul: 33, matvec: 100, call: 1000, 'call-compiled': 1000 }
    : { wave: quick ? 256 : 1024, matmul: quick ? 128 : 512, matvec: quick ? 500 : 2000, call: 1000, 'call-compiled': 1000 };
  const groups: Group[] = [];
  for (const id of cases) {
    const c = caseById(id);
    for (const n of c.elementwise ? sweepOf() : [fixed[id]!]) groups.push({ caseId: id, n, systems });
  }
  const scaleN = quick ? 1e6 : 1e7;
  const scaling = checkOnly ? [] : (['foo-folded', 'chain', 'sincos'] as const).filter((id) => cases.includes(id))
    .map((id) => ({ caseId: id, n: scaleN, systems: workerCounts(os.availableParallelism()).map(scalingId) }));
  return { groups, scaling };
}

function streaming(n: number, rounds: number): Streaming {
  const script = fileURLToPath(new URL('./streams-child.js', import.meta.url));
  return JSON.parse(execFileSync(process.execPath, [script, String(n), String(rounds)], { encoding: 'utf8' })) as Streaming;
}

/** The vector-math table: ours against V8's Math (one process, variants in turn), then NumPy's ufuncs (its own process). */
function vectorMath(n: number, rounds: number): VectorMath {
  const script = fileURLToPath(new URL('./math-child.js', import.meta.url));
  const ours = JSON.parse(execFileSync(process.execPath, [script, String(n), String(rounds)], { encoding: 'utf8', maxBuffer: 1 << 24 })) as { rows: MathRow[] };
  const py = pythonFor('numpy');
  let numpy: Record<string, { f64: number; f32: number }> = {};
  let numpySkipped: string | undefined;
  if (py) {
    const pyScript = fileURLToPath(new URL('../../src/peers/python/math_peers.py', import.meta.url));
    const specs = VECTOR_MATH_FUNCTIONS.map(({ fn, lo, hi }) => ({ fn, lo, hi }));
    numpy = JSON.parse(execFileSync(py, [pyScript, String(n), String(rounds), JSON.stringify(specs)], { encoding: 'utf8' })) as typeof numpy;
  } else {
    numpySkipped = 'no python3 here can import numpy (Debian: apt install python3-numpy)';
  }
  const rows = ours.rows.map((r) => ({ ...r, numpyF64: numpy[r.fn]?.f64, numpyF32: numpy[r.fn]?.f32 }));
  return { n, rounds, rows, ...(numpySkipped ? { numpySkipped } : {}) };
}

async function main(): Promise<void> {
  const rounds = Number(env['BENCH_ROUNDS'] ?? (quick ? 3 : 5));
  const { groups, scaling } = plan();
  const log = (line: string): void => console.log(line);
  console.log(checkOnly
    ? `# Checking every system's answers against the reference evaluator (${groups.length} case sizes)`
    : `# deferred-array against its peers: ${groups.length + scaling.length} case sizes, ${rounds} interleaved rounds each${quick ? ' (BENCH_QUICK)' : ''}`);
  const started = new Date();
  let limits: Streaming | undefined;
  if (!checkOnly) {
    console.log('Streaming limits (our read/copy/triad kernels, 1 thread and every worker)...');
    limits = streaming(quick ? 4e6 : 2e7, rounds);
    console.log(`  1 thread: read ${limits.one['read']!.toFixed(1)}, copy ${limits.one['copy']!.toFixed(1)}, triad ${limits.one['triad']!.toFixed(1)} GB/s; ` +
      `${limits.threads} workers: read ${limits.all['read']!.toFixed(1)}, copy ${limits.all['copy']!.toFixed(1)}, triad ${limits.all['triad']!.toFixed(1)} GB/s`);
  }
  let math: VectorMath | undefined;
  if (!checkOnly) {
    console.log('Vector math per core (ours and V8 Math, then NumPy)...');
    math = vectorMath(quick ? 1 << 18 : 1 << 21, rounds);
    console.log(printVectorMath(math.rows, math.n, math.rounds));
  }
  const runner = new Runner({ rounds, checkOnly, budgetS: quick ? 4 : 12, log });
  const peers = await runner.runAll(groups);
  if (scaling.length) console.log('Worker scaling of execute()...');
  const scaled = scaling.length ? await runner.runAll(scaling) : [];
  if (checkOnly) {
    const skipped = [...runner.systems.values()].filter((s) => s.skipped);
    for (const s of skipped) console.log(`skipped ${s.id}: ${s.skipped}`);
    const bad = peers.filter((m) => m.status === 'failed' || (m.status === 'wrong' && !isKnownWrong(m.system, m.caseId)));
    const known = peers.filter((m) => m.status === 'wrong' && isKnownWrong(m.system, m.caseId));
    if (known.length) console.log(`${known.length} known peer inaccuracies (known.ts): ${[...new Set(known.map((m) => `${m.system} ${m.caseId}`))].join(', ')}`);
    console.log(bad.length === 0 ? `every other answer agrees (${peers.filter((m) => m.status === 'ok').length} checked)` :
      `${bad.length} answers disagree or failed:\n${bad.map((m) => `  ${m.caseId} n=${fmtN(m.n)} ${m.system}: ${m.status}: ${m.detail}`).join('\n')}`);
    if (env['BENCH_CHECK_OUT']) writeFileSync(env['BENCH_CHECK_OUT'], JSON.stringify({ systems: [...runner.systems.values()], measurements: peers }));
    process.exitCode = bad.length === 0 ? 0 : 1;
    return;
  }
  const result: BenchResult = {
    date: started.toISOString(),
    minutes: (Date.now() - started.getTime()) / 60000,
    machine: { cpus: os.availableParallelism(), model: os.cpus()[0]?.model ?? 'unknown', memoryGiB: os.totalmem() / 2 ** 30, node: process.version, platform: `${os.platform()} ${os.arch()}` },
    quick, rounds,
    systems: [...runner.systems.values()].filter((s) => s.id !== 'reference'),
    streaming: limits!,
    ...(math ? { vectorMath: math } : {}),
    measurements: peers,
    scaling: scaled,
  };
  const written = await writeOutputs(result);
  console.log(`\nWrote ${written.join(', ')} in ${result.minutes.toFixed(1)} min.`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
