// The paths beside the fused elementwise one, each against the JS loop a user
// would write instead (into a fresh array and into one it owns), in one run,
// variants in turn round by round, medians. Ours is the whole trip: a graph
// built each call, planned (or found planned), run, and its result handed back.
import * as da from 'deferred-array';
import { randomData } from './data.js';
import { inTurnsAsync, median } from './timing.js';

interface PathRow {
  readonly name: string;
  /** ms, medians over rounds. */
  readonly ours: number;
  readonly oursSync: number;
  readonly jsFresh: number;
  readonly jsOwned: number;
  /** The target: execute() at least this many times as fast as the JS loop into an owned array. */
  readonly bar: number;
}

interface SidePaths {
  readonly rounds: number;
  readonly threads: number;
  readonly rows: readonly PathRow[];
}

/** Times ours (execute() and executeSync()) against a JS loop into a fresh array and into an owned one. */
async function pathRow(name: string, bar: number, ours: () => da.DeferredArray, js: (out: Float64Array) => Float64Array, n: number, rounds: number): Promise<PathRow> {
  const owned = new Float64Array(n);
  const run = {
    ours: () => ours().execute(),
    oursSync: () => ours().executeSync(),
    jsFresh: () => js(new Float64Array(n)),
    jsOwned: () => js(owned),
  };
  for (const f of Object.values(run)) for (let i = 0; i < 2; i++) await f();
  const t = await inTurnsAsync(run, rounds);
  return { name, bar, ours: median(t.ours), oursSync: median(t.oursSync), jsFresh: median(t.jsFresh), jsOwned: median(t.jsOwned) };
}

/** take(x, idx) over n float64 with n uniformly random int32 indices. */
function takeRow(n: number, rounds: number): Promise<PathRow> {
  const x = randomData(n, 7, -1, 1);
  const idx = Int32Array.from(randomData(n, 11, 0, n), (v) => Math.floor(v));
  const [dx, di] = [da.wrap(x), da.wrap(idx)];
  return pathRow(`take, 2^${Math.log2(n)} random indices`, 1.5, () => da.take(dx, di), (out) => {
    for (let i = 0; i < n; i++) out[i] = x[idx[i]!]!;
    return out;
  }, n, rounds);
}

async function sidePathsReport(rounds = 7): Promise<SidePaths> {
  return { rounds, threads: da.configure().threads, rows: [await takeRow(1 << 23, rounds)] };
}

function printSidePaths(r: SidePaths): string {
  const ms = (v: number): string => `${v.toFixed(1)} ms`.padStart(11);
  const lines = [
    `Paths beside the fused one, float64, against JS loops (median of ${r.rounds} rounds, variants in turn; execute() on ${r.threads} worker(s))`,
    `  ${''.padEnd(30)}${'execute()'.padStart(11)}${'sync'.padStart(11)}${'JS fresh'.padStart(11)}${'JS owned'.padStart(11)}`,
  ];
  for (const p of r.rows) {
    const ratio = p.jsOwned / p.ours;
    lines.push(`  ${p.name.padEnd(30)}${ms(p.ours)}${ms(p.oursSync)}${ms(p.jsFresh)}${ms(p.jsOwned)}`);
    lines.push(`    ${ratio >= p.bar ? 'met    ' : 'not met'} execute() at least ${p.bar}x the JS loop into an owned array: ${ratio.toFixed(2)}x`);
  }
  return lines.join('\n');
}

export { sidePathsReport, printSidePaths };
export type { SidePaths };
