// The paths beside the fused elementwise one, each against the JS loop a user
// would write instead (into a fresh array and into one it owns), in one run,
// variants in turn round by round, medians. Ours is the whole trip: a graph
// built each call, planned (or found planned), run, and its result handed back
// as a fresh array (execute()), into an array the caller owns ({ out }), or as
// a view of the heap inside a scope. Each bar is judged on { out } against the
// loop into an owned array: both write into memory the caller already has.
import * as da from 'deferred-array';
import { randomData } from './data.js';
import { inTurnsAsync, median } from './timing.js';

interface PathRow {
  readonly name: string;
  /** ms, medians over rounds. */
  readonly ours: number;
  readonly oursOut: number;
  readonly oursView: number;
  readonly oursSync: number;
  readonly jsFresh: number;
  readonly jsOwned: number;
  /** The target: execute({ out }) at least this many times as fast as the JS loop into an owned array. */
  readonly bar: number;
}

interface SidePaths {
  readonly rounds: number;
  readonly threads: number;
  readonly rows: readonly PathRow[];
}

/** Times ours (execute(), into an out, as a view, executeSync()) against a JS loop into a fresh array and into an owned one. */
async function pathRow(name: string, bar: number, ours: () => da.DeferredArray, js: (out: Float64Array) => Float64Array, n: number, rounds: number): Promise<PathRow> {
  const owned = new Float64Array(n);
  const out = new Float64Array(n);
  const run = {
    ours: () => ours().execute(),
    oursOut: () => ours().execute({ out }),
    oursView: () => da.scope(async () => { await ours().execute(); }),
    oursSync: () => ours().executeSync(),
    jsFresh: () => js(new Float64Array(n)),
    jsOwned: () => js(owned),
  };
  for (const f of Object.values(run)) for (let i = 0; i < 2; i++) await f();
  const t = await inTurnsAsync(run, rounds);
  // The loop and ours must agree, so that no row times a wrong answer.
  await ours().execute({ out });
  js(owned);
  if (!sameWithin(out, owned)) throw new Error(`side paths: ${name} differs from the JS loop`);
  return {
    name, bar, ours: median(t.ours), oursOut: median(t.oursOut), oursView: median(t.oursView), oursSync: median(t.oursSync),
    jsFresh: median(t.jsFresh), jsOwned: median(t.jsOwned),
  };
}

/** Equal, or within 1e-9 of the largest magnitude (scans cut into pieces round apart from one long loop). */
function sameWithin(a: Float64Array, b: Float64Array): boolean {
  let scale = 0;
  for (const v of b) scale = Math.max(scale, Math.abs(v));
  return a.every((v, i) => Object.is(v, b[i]) || Math.abs(v - b[i]!) <= 1e-9 * scale);
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

/** cumsum over n float64: one line. */
function cumsumRow(n: number, rounds: number): Promise<PathRow> {
  const x = randomData(n, 13, -1, 1);
  const dx = da.wrap(x);
  return pathRow(`cumsum, 2^${Math.log2(n)}`, 1.5, () => da.cumsum(dx), (out) => {
    let acc = 0;
    for (let i = 0; i < n; i++) {
      acc += x[i]!;
      out[i] = acc;
    }
    return out;
  }, n, rounds);
}

/** cumsum along axis 0 of a rows x cols float64 matrix: the loop a user would write, row after row. */
function columnCumsumRow(rows: number, cols: number, rounds: number): Promise<PathRow> {
  const x = randomData(rows * cols, 17, -1, 1);
  const dx = da.wrap(x).reshape([rows, cols]);
  return pathRow(`cumsum axis 0, ${rows} x ${cols}`, 2, () => da.cumsum(dx, { axis: 0 }), (out) => {
    for (let j = 0; j < cols; j++) out[j] = x[j]!;
    for (let r = 1; r < rows; r++) {
      const [at, before] = [r * cols, (r - 1) * cols];
      for (let j = 0; j < cols; j++) out[at + j] = out[before + j]! + x[at + j]!;
    }
    return out;
  }, rows * cols, rounds);
}

async function sidePathsReport(rounds = 7): Promise<SidePaths> {
  return {
    rounds, threads: da.configure().threads,
    rows: [await takeRow(1 << 23, rounds), await cumsumRow(1 << 23, rounds), await columnCumsumRow(4096, 2048, rounds)],
  };
}

function printSidePaths(r: SidePaths): string {
  const ms = (v: number): string => `${v.toFixed(1)} ms`.padStart(11);
  const lines = [
    `Paths beside the fused one, float64, against JS loops (median of ${r.rounds} rounds, variants in turn; execute() on ${r.threads} worker(s);`,
    '  the result as a fresh array, into an owned { out }, as a heap view in a scope; executeSync() a fresh array)',
    `  ${''.padEnd(30)}${'execute()'.padStart(11)}${'{ out }'.padStart(11)}${'view'.padStart(11)}${'sync'.padStart(11)}${'JS fresh'.padStart(11)}${'JS owned'.padStart(11)}`,
  ];
  for (const p of r.rows) {
    const ratio = p.jsOwned / p.oursOut;
    lines.push(`  ${p.name.padEnd(30)}${ms(p.ours)}${ms(p.oursOut)}${ms(p.oursView)}${ms(p.oursSync)}${ms(p.jsFresh)}${ms(p.jsOwned)}`);
    lines.push(`    ${ratio >= p.bar ? 'met    ' : 'not met'} { out } at least ${p.bar}x the JS loop into an owned array: ${ratio.toFixed(2)}x`
      + ` (fresh against fresh ${(p.jsFresh / p.ours).toFixed(2)}x, view against owned ${(p.jsOwned / p.oursView).toFixed(2)}x)`);
  }
  return lines.join('\n');
}

export { sidePathsReport, printSidePaths };
export type { SidePaths };
