// Runs groups (a case at a size, every system) side by side: each system in
// its own process, every answer checked against the reference evaluator
// before anything is timed, then rounds in which each system runs once in
// turn. Medians of the rounds are what is reported.
import os from 'node:os';
import { caseById } from './cases.js';
import type { CaseId } from './cases.js';
import { startProc } from './procs.js';
import type { Proc } from './procs.js';
import type { FromChild } from './protocol.js';
import { median } from '../timing.js';
import { disagreement } from './summary.js';
import type { Summary } from './summary.js';

interface Group {
  readonly caseId: CaseId;
  readonly n: number;
  readonly systems: readonly string[];
}

interface SystemInfo {
  readonly id: string;
  readonly label: string;
  readonly dtype?: 'float64' | 'float32';
  readonly version?: string;
  readonly note?: string;
  /** Why it did not run at all. */
  readonly skipped?: string;
}

type Status = 'ok' | 'wrong' | 'failed' | 'n/a';

interface Measurement {
  readonly caseId: CaseId;
  readonly n: number;
  readonly system: string;
  readonly status: Status;
  readonly detail?: string;
  /** ms per call: median over rounds, and each round's. */
  readonly medianMs?: number;
  readonly times?: readonly number[];
  readonly calls?: number;
}

interface RunOptions {
  readonly rounds: number;
  /** No timing: build, check, report. */
  readonly checkOnly: boolean;
  /** Seconds one system may spend on its rounds of one group; slower systems get fewer rounds (at least one). */
  readonly budgetS: number;
  readonly log: (line: string) => void;
}

/** A system is not run at a size where one call would take longer than this (extrapolated from the size before). */
const MAX_CALL_S = 15;

const fmtN = (n: number): string => (n >= 1e3 && Number.isInteger(Math.log10(n)) ? `1e${Math.log10(n)}` : String(n));
const fmtMs = (ms: number): string => (ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(ms >= 0.1 ? 0 : 1)} µs`);
const elements = (g: Group): number => caseById(g.caseId).elements(g.n);

/** Big groups start from fresh processes and leave none behind: a heap grown for 10^8 elements stays grown. */
const isBig = (g: Group): boolean => elements(g) >= 2e7;

class Runner {
  readonly systems = new Map<string, SystemInfo>();
  readonly measurements: Measurement[] = [];
  #procs = new Map<string, Proc>();
  #t0 = performance.now();
  #doneWeight = 0;
  /** ms of one call at the last size each system ran a case at, to skip sizes it would take too long at. */
  #lastCall = new Map<string, { n: number; ms: number }>();

  constructor(readonly opts: RunOptions) {}

  async #proc(id: string): Promise<Proc | undefined> {
    const known = this.systems.get(id);
    if (known?.skipped) return undefined;
    let p = this.#procs.get(id);
    if (p) return p;
    p = startProc(id);
    const m = await p.next();
    if ('skipped' in m || 'error' in m || !('loaded' in m)) {
      const reason = 'skipped' in m ? m.skipped : 'error' in m ? m.error : `unexpected ${JSON.stringify(m)}`;
      this.systems.set(id, { id, label: known?.label ?? id, skipped: reason });
      this.opts.log(`  ${id}: skipped, ${reason}`);
      p.kill();
      return undefined;
    }
    this.systems.set(id, { id, label: m.label, dtype: m.dtype, version: m.version, ...(m.note ? { note: m.note } : {}) });
    this.#procs.set(id, p);
    return p;
  }

  #stop(ids?: Iterable<string>): void {
    for (const id of ids ?? [...this.#procs.keys()]) {
      this.#procs.get(id)?.kill();
      this.#procs.delete(id);
    }
  }

  /** Builds case and size `g` in system `id`'s process; `check`: its answer only, for nothing will time it. */
  async #build(id: string, g: Group, check = this.opts.checkOnly): Promise<FromChild | undefined> {
    const p = await this.#proc(id);
    if (!p) return undefined;
    p.send({ build: g.caseId, n: g.n, check });
    const m = await p.next();
    if ('error' in m && /process exited/.test(m.error)) this.#procs.delete(id);
    return m;
  }

  /** Runs every group, printing a line per group with an estimate of the time left; returns what it measured. */
  async runAll(groups: readonly Group[]): Promise<Measurement[]> {
    const first = this.measurements.length;
    // Time grows with size, but slower than n at the top: big sizes get fewer rounds (the budget).
    const weight = (g: Group): number => g.systems.length * (1 + Math.sqrt(elements(g) / 1e5));
    const total = groups.reduce((s, g) => s + weight(g), 0);
    this.#t0 = performance.now();
    this.#doneWeight = 0;
    try {
      for (const [i, g] of groups.entries()) {
        const big = isBig(g);
        if (big) this.#stop();
        await this.#group(g, `[${i + 1}/${groups.length}]`, () => {
          const done = this.#doneWeight;
          const elapsed = (performance.now() - this.#t0) / 1000;
          return done > 0 ? ` ~${Math.ceil((elapsed * (total - done)) / done / 60)} min left` : '';
        });
        if (big) this.#stop();
        this.#doneWeight += weight(g);
      }
    } finally {
      this.#stop();
    }
    return this.measurements.slice(first);
  }

  async #group(g: Group, tag: string, left: () => string): Promise<void> {
    const c = caseById(g.caseId);
    const name = `${g.caseId} n=${fmtN(g.n)}`;
    const ref = await this.#build('reference', g, true);
    if (!ref || !('built' in ref)) throw new Error(`${name}: the reference evaluator gave no answer: ${JSON.stringify(ref)}`);
    if (isBig(g)) this.#stop(['reference']);
    const record = (m: Measurement): void => { this.measurements.push(m); };
    const timed: Array<{ id: string; proc: Proc; rounds: number; times: number[]; calls: number }> = [];
    let maxRss = 0;
    const timeBatch = async (): Promise<void> => {
      const rounds = Math.max(0, ...timed.map((t) => t.rounds));
      for (let r = 0; r < rounds; r++) {
        for (const t of timed) {
          if (r >= t.rounds) continue;
          if (process.stdout.isTTY) process.stdout.write(`\r\x1b[K${tag} ${name}  ${t.id}  round ${r + 1}/${t.rounds}${left()}`);
          t.proc.send('run');
          const m = await t.proc.next();
          if ('ms' in m) t.times.push(m.ms);
          else t.rounds = r; // a failure mid-rounds ends that system's rounds; what it timed stands
        }
      }
      if (process.stdout.isTTY) process.stdout.write('\r\x1b[K');
      for (const t of timed) {
        if (t.times.length === 0) record({ caseId: g.caseId, n: g.n, system: t.id, status: 'failed', detail: 'failed while timed' });
        else record({ caseId: g.caseId, n: g.n, system: t.id, status: 'ok', medianMs: median(t.times), times: t.times, calls: t.calls });
      }
    };
    const parts: string[] = [];
    for (const id of g.systems) {
      const before = this.#lastCall.get(`${g.caseId} ${id}`);
      const estimate = before ? (before.ms * g.n) / before.n : 0;
      if (estimate > MAX_CALL_S * 1000) {
        record({ caseId: g.caseId, n: g.n, system: id, status: 'n/a', detail: `not run: one call would take about ${(estimate / 1000).toFixed(0)} s (${fmtMs(before!.ms)} at n=${fmtN(before!.n)})` });
        continue;
      }
      const m = await this.#build(id, g);
      if (!m) continue;
      if ('na' in m) {
        record({ caseId: g.caseId, n: g.n, system: id, status: 'n/a', detail: m.na });
        continue;
      }
      if (!('built' in m)) {
        const detail = 'error' in m ? m.error : JSON.stringify(m);
        record({ caseId: g.caseId, n: g.n, system: id, status: 'failed', detail });
        parts.push(`${id} FAILED`);
        this.opts.log(`  ${name} ${id}: failed: ${detail.split('\n')[0]}`);
        continue;
      }
      const dtype = this.systems.get(id)?.dtype ?? 'float64';
      const wrong = disagreement(ref.summary as Summary, m.summary, c.tol[dtype]);
      if (wrong) {
        record({ caseId: g.caseId, n: g.n, system: id, status: 'wrong', detail: wrong });
        parts.push(`${id} WRONG`);
        this.opts.log(`  ${name} ${id}: WRONG, not timed: ${wrong}`);
        continue;
      }
      if (this.opts.checkOnly) {
        record({ caseId: g.caseId, n: g.n, system: id, status: 'ok' });
        continue;
      }
      this.#lastCall.set(`${g.caseId} ${id}`, { n: g.n, ms: m.oneMs });
      const runMs = m.oneMs * m.calls;
      const rounds = Math.max(1, Math.min(this.opts.rounds, Math.floor((this.opts.budgetS * 1000) / runMs)));
      timed.push({ id, proc: this.#procs.get(id)!, rounds, times: [], calls: m.calls });
      // Where the next system might not fit beside those built, time these now and let them go.
      maxRss = Math.max(maxRss, m.rss);
      if (os.freemem() < 2 * maxRss) {
        await timeBatch();
        this.#stop(timed.map((t) => t.id));
        timed.length = 0;
      }
    }
    await timeBatch();
    const mine = this.measurements.filter((x) => x.caseId === g.caseId && x.n === g.n && x.status === 'ok');
    const line = this.opts.checkOnly
      ? [`${mine.length} systems agree with the reference`, ...parts]
      : [...mine.map((x) => `${x.system} ${fmtMs(x.medianMs!)}`), ...parts];
    this.opts.log(`${tag} ${name}: ${line.join(', ')}${left()}`);
  }
}

export { Runner, fmtN, fmtMs };
export type { Group, Measurement, SystemInfo };
