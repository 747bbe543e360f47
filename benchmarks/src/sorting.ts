// `node benchmarks/dist/sorting.js [rounds]`: sorting and quantiles against
// what a JS user writes instead, variants in turn, medians of the rounds:
// sort of 2^23 float64 against Float64Array.prototype.sort (of a copy, as
// da.sort leaves its input), argsort against an index sort with a comparator,
// and the median along the last axis of 1024 x 4096 against sorting each row.
// Each against the package's targets for them. The results come back as
// fresh arrays (executeSync), as the JS variants make theirs.
import * as da from 'deferred-array';
import { randomData } from './data.js';
import { inTurns, median } from './timing.js';

interface Row {
  readonly name: string;
  readonly oursMs: number;
  readonly jsMs: number;
  readonly js: string;
  readonly target: number;
}

function sortingReport(rounds: number): Row[] {
  const n = 1 << 23;
  const a = randomData(n, 3);
  const x = da.wrap(a);
  const rows = 1024;
  const cols = 4096;
  const m = randomData(rows * cols, 5);
  const M = da.wrap(m).reshape([rows, cols]);
  const samples = inTurns({
    sort: () => da.sort(x).executeSync(),
    jsSort: () => a.slice().sort(),
    argsort: () => da.argsort(x).executeSync(),
    median: () => da.median(M, { axis: 1 }).executeSync(),
    jsMedian: () => {
      const out = new Float64Array(rows);
      for (let r = 0; r < rows; r++) {
        const row = m.slice(r * cols, (r + 1) * cols).sort();
        out[r] = (row[cols / 2 - 1]! + row[cols / 2]!) / 2;
      }
      return out;
    },
  }, rounds);
  // The comparator index sort takes seconds: timed once, after the rest.
  const t = performance.now();
  Int32Array.from({ length: n }, (_, i) => i).sort((i, j) => a[i]! - a[j]! || i - j);
  const indexSortMs = performance.now() - t;
  return [
    { name: 'sort, 2^23 float64', oursMs: median(samples.sort), jsMs: median(samples.jsSort), js: 'Float64Array sort', target: 2 },
    { name: 'argsort, 2^23 float64', oursMs: median(samples.argsort), jsMs: indexSortMs, js: 'index sort, comparator', target: 2 },
    { name: 'median, axis 1 of 1024 x 4096', oursMs: median(samples.median), jsMs: median(samples.jsMedian), js: 'each row sorted', target: 2 },
  ];
}

function printSorting(rows: readonly Row[], rounds: number): string {
  const lines = [`Sorting against JS (executeSync into a fresh array, median of ${rounds} rounds, variants in turn; the index sort timed once):`];
  for (const r of rows) {
    const ratio = r.jsMs / r.oursMs;
    lines.push(`  ${r.name.padEnd(32)} ${r.oursMs.toFixed(0).padStart(6)} ms   ${r.js.padEnd(24)} ${r.jsMs.toFixed(0).padStart(6)} ms   ` +
      `${ratio.toFixed(2)}x  target >= ${r.target}x: ${ratio >= r.target ? 'met' : 'not met'}`);
  }
  return lines.join('\n');
}

const rounds = Number(process.argv[2] ?? 5);
console.log(printSorting(sortingReport(rounds), rounds));
await da.shutdown();
