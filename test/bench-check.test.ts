// The peer benchmark computes what it claims: every system's answer on every
// case agrees with the reference evaluator within the case's tolerance
// (BENCH_CHECK=1 runs each system at small sizes in its own process, as the
// timed benchmark does), and a wrong answer is caught.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bench = join(root, 'benchmarks', 'dist', 'peers', 'bench.js');

interface Finding {
  readonly caseId: string;
  readonly n: number;
  readonly system: string;
  readonly status: 'ok' | 'wrong' | 'failed' | 'n/a';
  readonly detail?: string;
}

function check(extra: Record<string, string>): { rc: number; systems: Array<{ id: string; skipped?: string }>; measurements: Finding[]; output: string } {
  if (!existsSync(bench)) throw new Error(`${bench} is missing: run npm run build first`);
  const out = join(mkdtempSync(join(tmpdir(), 'bench-check-')), 'check.json');
  let rc = 0;
  let output = '';
  try {
    output = execFileSync(process.execPath, [bench], { cwd: root, encoding: 'utf8', env: { ...process.env, BENCH_CHECK: '1', BENCH_CHECK_OUT: out, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    rc = (e as { status: number }).status;
    output = String((e as { stdout: string }).stdout);
  }
  return { rc, output, ...(JSON.parse(readFileSync(out, 'utf8')) as { systems: Array<{ id: string; skipped?: string }>; measurements: Finding[] }) };
}

describe('the peer benchmark checks its answers', () => {
  it('every system agrees with the reference evaluator on every case, but for the listed peer inaccuracies', async () => {
    const { rc, systems, measurements, output } = check({});
    const { isKnownWrong } = await import('../benchmarks/src/peers/known');
    // The npm peers are devDependencies, so they load everywhere; NumPy and numexpr are optional.
    for (const id of ['ours', 'ours-views', 'js-fresh', 'js-owned', 'stdlib', 'ndarray-ops', 'tfjs-wasm', 'jax-f64', 'jax-f32']) {
      expect(systems.find((s) => s.id === id)?.skipped).toBeUndefined();
    }
    const unexpected = measurements.filter((m) => m.status === 'failed' || (m.status === 'wrong' && !isKnownWrong(m.system, m.caseId)));
    expect(unexpected).toEqual([]);
    expect(rc).toBe(0);
    // Each case is checked on ours and on at least three other systems.
    for (const caseId of new Set(measurements.map((m) => m.caseId))) {
      const ok = measurements.filter((m) => m.caseId === caseId && m.status === 'ok');
      expect(ok.some((m) => m.system === 'ours')).toBe(true);
      expect(new Set(ok.map((m) => m.system)).size).toBeGreaterThanOrEqual(caseId === 'call-compiled' ? 2 : 4);
    }
    expect(output).toMatch(/every other answer agrees/);
  }, 300_000);

  it('reports an answer off by one part in 10^9 as wrong, not as fast', () => {
    const { rc, measurements } = check({ BENCH_SYSTEMS: 'js-fresh,ours', BENCH_CASES: 'chain', BENCH_INJECT: 'js-fresh' });
    expect(rc).toBe(1);
    expect(measurements.filter((m) => m.system === 'js-fresh').map((m) => m.status)).toEqual(['wrong', 'wrong']);
    expect(measurements.filter((m) => m.system === 'ours').map((m) => m.status)).toEqual(['ok', 'ok']);
  }, 120_000);
});
