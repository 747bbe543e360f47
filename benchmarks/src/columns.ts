// Column sums against row sums: sum over axis 0 of a row-major float64 matrix
// (the reduced axis outer in memory) and over axis 1, through executeSync()
// on one thread, with a JS loop for each. Both read the same bytes once, so a
// column sum should cost about what a row sum does. Variants take turns round
// by round; the figures are medians.
import * as da from 'deferred-array';
import { randomData } from './data.js';
import { inTurns, median } from './timing.js';

interface ColumnsRow {
  readonly rows: number;
  readonly cols: number;
  readonly rounds: number;
  /** ms, medians over rounds. */
  readonly rowSum: number;
  readonly colSum: number;
  readonly jsRowSum: number;
  readonly jsColSum: number;
}

/** The target: a column sum at most this many times the row sum. */
const COLUMN_BAR = 1.3;

function columnsReport(rows = 2000, cols = 10000, rounds = 7): ColumnsRow {
  const data = randomData(rows * cols, 29, -1, 1);
  const x = da.wrap(data).reshape([rows, cols]);
  const [bySum0, bySum1] = [x.sum({ axis: 0 }), x.sum({ axis: 1 })];
  const rowOut = new Float64Array(rows);
  const colOut = new Float64Array(cols);
  const run = {
    rowSum: (): unknown => bySum1.executeSync(),
    colSum: (): unknown => bySum0.executeSync(),
    jsRowSum: (): unknown => {
      for (let r = 0; r < rows; r++) {
        let s = 0;
        for (let c = 0, at = r * cols; c < cols; c++) s += data[at + c]!;
        rowOut[r] = s;
      }
      return rowOut;
    },
    jsColSum: (): unknown => {
      colOut.fill(0);
      for (let r = 0; r < rows; r++) for (let c = 0, at = r * cols; c < cols; c++) colOut[c]! += data[at + c]!;
      return colOut;
    },
  };
  for (const f of Object.values(run)) for (let i = 0; i < 2; i++) f();
  const times = inTurns(run, rounds);
  return { rows, cols, rounds, rowSum: median(times.rowSum), colSum: median(times.colSum), jsRowSum: median(times.jsRowSum), jsColSum: median(times.jsColSum) };
}

function printColumns(r: ColumnsRow): string {
  const ms = (v: number): string => `${v.toFixed(2)} ms`.padStart(10);
  const ratio = r.colSum / r.rowSum;
  return [
    `Column sums: a ${r.rows} x ${r.cols} float64 matrix (${((r.rows * r.cols * 8) / 2 ** 20).toFixed(0)} MiB), executeSync() on one thread (median of ${r.rounds} rounds, variants in turn)`,
    `  ${''.padEnd(22)}${'ours'.padStart(10)}${'JS loop'.padStart(10)}`,
    `  ${'sum over axis 1 (rows)'.padEnd(22)}${ms(r.rowSum)}${ms(r.jsRowSum)}`,
    `  ${'sum over axis 0 (cols)'.padEnd(22)}${ms(r.colSum)}${ms(r.jsColSum)}`,
    `  ${ratio <= COLUMN_BAR ? 'met    ' : 'not met'} column sum at most ${COLUMN_BAR}x the row sum: ${ratio.toFixed(2)}x`,
  ].join('\n');
}

export { columnsReport, printColumns };
