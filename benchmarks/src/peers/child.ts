// One system in a process of its own (see ../isolated.ts for why): loads the
// system, then builds cases when the parent asks, checks nothing itself (the
// parent compares its summary with the reference's), warms up (WARM_MS), and times
// `calls` calls per 'run', collecting garbage, untimed, after each run.
import { caseById } from './cases.js';
import { MAX_CALLS, RUN_MS, WARM_MS } from './protocol.js';
import type { FromChild, ToChild } from './protocol.js';
import { summarize } from './summary.js';
import { systemById } from './systems/index.js';
import type { Built } from './systems/system.js';

const send = (m: FromChild): void => { process.send!(m); };
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const errorText = (e: unknown): string => String((e as Error)?.stack ?? e).split('\n').slice(0, 6).join('\n');

const id = process.argv[2]!;
const system = systemById(id);
let built: { run: Built['run']; calls: number; sync: boolean } | undefined;

async function build(caseId: string, n: number, check = false): Promise<FromChild> {
  built = undefined;
  gc();
  const b = await system.build(caseById(caseId), n);
  if (typeof b === 'string') return { na: b };
  let summary = summarize(await b.result());
  // A wrong answer on purpose, for the test that the check catches one.
  if (process.env['BENCH_INJECT'] === id) summary = { ...summary, samples: summary.samples.map((v) => v * (1 + 1e-9)) };
  if (check) return { built: true, summary, calls: 0, oneMs: 0, rss: process.memoryUsage().rss };
  // Warm up, then repeat calls inside a timed run until it lasts RUN_MS.
  const t0 = performance.now();
  const r = b.run();
  // Synchronous calls are timed without an await each, which would cost more than a small call.
  const sync = !(r instanceof Promise);
  await r;
  // Warmed by calls for WARM_MS (a slower first call is all the warm-up): a JS system's code reaches
  // the engine's optimizing tiers over its first thousands of calls, where a user's loop of small calls runs.
  while (performance.now() - t0 < WARM_MS) await b.run();
  const t1 = performance.now();
  await b.run();
  const one = Math.max(performance.now() - t1, 1e-4);
  const calls = Math.max(1, Math.min(MAX_CALLS, Math.ceil(RUN_MS / one)));
  built = { run: b.run, calls, sync };
  return { built: true, summary, calls, oneMs: one, rss: process.memoryUsage().rss };
}

async function timed(): Promise<FromChild> {
  if (!built) return { error: 'run before build' };
  const { run, calls, sync } = built;
  const t0 = performance.now();
  if (sync) for (let i = 0; i < calls; i++) run();
  else for (let i = 0; i < calls; i++) await run();
  const ms = (performance.now() - t0) / calls;
  gc();
  return { ms };
}

let queue = Promise.resolve();
process.on('message', (m: ToChild) => {
  if (m === 'exit') {
    process.disconnect();
    return;
  }
  queue = queue.then(async () => send(m === 'run' ? await timed() : await build(m.build, m.n, m.check)))
    .catch((e: unknown) => send({ error: errorText(e) }));
});

try {
  const { version, note } = await system.load();
  send({ loaded: true, version, label: system.label, dtype: system.dtype, ...(note ? { note } : {}) });
} catch (e) {
  send({ skipped: `failed to load: ${String((e as Error)?.message ?? e).split('\n')[0]}` });
}
