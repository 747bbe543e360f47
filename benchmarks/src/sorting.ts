// `node benchmarks/dist/sorting.js [rounds]`: sorting, counting and linear
// algebra against what a JS user writes instead, variants in turn, medians of
// the rounds, each against the package's targets:
// - sort of 2^23 float64 against Float64Array.prototype.sort (of a copy, as
//   da.sort leaves its input) and against NumPy's np.sort;
// - partition of 2^23 float64 at its middle against our sort and NumPy's np.partition;
// - argsort against an index sort with a comparator;
// - bincount of 2^23 int32 against a JS counting loop;
// - unique of 2^22 values with many repeats against a JS Set and a sort;
// - the median along the last axis of 1024 x 4096 against sorting each row;
// - linalg.solve of 512 x 512 against NumPy's (LAPACK);
// - linalg.qr, eigh and cholesky of 512 x 512, svd of 256 x 256 against NumPy's, and
//   against the same algorithms in plain JS (the reference evaluator, timed
//   once: seconds).
// Results come back as fresh arrays (executeSync), as the JS variants make
// theirs. NumPy is timed in a python3 that has it (its own process, after).
// Last, the rows of a matrix sorted and their medians taken, and one long
// line sorted and argsorted, on the pool (execute()) against the calling
// thread (executeSync()).
import { spawnSync } from 'node:child_process';
import * as da from 'deferred-array';
import { randomData } from './data.js';
import { pythonFor } from './peers/procs.js';
import { inTurns, inTurnsAsync, median } from './timing.js';

interface Row {
  readonly name: string;
  readonly oursMs: number;
  readonly otherMs: number | undefined;
  readonly other: string;
  readonly target?: number;
}

const SOLVE_N = 512;
const QR_N = 512;
const EIG_N = 512;
const SVD_N = 256;

function sortingReport(rounds: number): Row[] {
  const n = 1 << 23;
  const a = randomData(n, 3);
  const x = da.wrap(a);
  const ints = Int32Array.from(randomData(n, 9), (v) => Math.floor((v + 180) / 360 * 1000));
  const I = da.wrap(ints);
  const repeats = Float64Array.from(randomData(1 << 22, 11), (v) => Math.round(v));
  const R = da.wrap(repeats);
  const rows = 1024;
  const cols = 4096;
  const m = randomData(rows * cols, 5);
  const M = da.wrap(m).reshape([rows, cols]);
  const A = materialized(da.wrap(randomData(SOLVE_N * SOLVE_N, 13)).reshape([SOLVE_N, SOLVE_N]).add(da.eye(SOLVE_N).mul(SOLVE_N * 100)));
  const b = da.wrap(randomData(SOLVE_N, 15));
  const Q = da.wrap(randomData(QR_N * QR_N, 17)).reshape([QR_N, QR_N]);
  const E = da.wrap(randomData(EIG_N * EIG_N, 19)).reshape([EIG_N, EIG_N]);
  const S = E.add(E.T);
  const V = da.wrap(randomData(SVD_N * SVD_N, 21)).reshape([SVD_N, SVD_N]);
  // Positive definite: a a^T plus a diagonal that dominates.
  const P = materialized(da.matmul(Q, Q.T).add(da.eye(QR_N).mul(QR_N * 180 * 180)));
  const decompositions = {
    qr: () => da.executeSync(da.linalg.qr(Q) as da.DeferredArray[]),
    eigh: () => da.executeSync(da.linalg.eigh(S)),
    svd: () => da.executeSync(da.linalg.svd(V) as da.DeferredArray[]),
    cholesky: () => da.linalg.cholesky(P).executeSync(),
  };
  const variants = {
    sort: () => da.sort(x).executeSync(),
    jsSort: () => a.slice().sort(),
    argsort: () => da.argsort(x).executeSync(),
    partition: () => da.partition(x, n >> 1).executeSync(),
    bincount: () => da.bincount(I).executeSync(),
    jsBincount: () => {
      let top = 0;
      for (let i = 0; i < ints.length; i++) if (ints[i]! > top) top = ints[i]!;
      const counts = new Int32Array(top + 1);
      for (let i = 0; i < ints.length; i++) counts[ints[i]!]!++;
      return counts;
    },
    unique: () => (da.unique(R) as da.DeferredArray).executeSync(),
    jsUnique: () => Float64Array.from(new Set(repeats)).sort(),
    median: () => da.median(M, { axis: 1 }).executeSync(),
    jsMedian: () => {
      const out = new Float64Array(rows);
      for (let r = 0; r < rows; r++) {
        const row = m.slice(r * cols, (r + 1) * cols).sort();
        out[r] = (row[cols / 2 - 1]! + row[cols / 2]!) / 2;
      }
      return out;
    },
    solve: () => da.linalg.solve(A, b).executeSync(),
    ...decompositions,
  };
  // One untimed round first: V8 runs each WebAssembly function in its baseline tier until its
  // optimised code is ready, a cost a process pays once (the first solve of 512 x 512 takes about
  // three times as long as the next).
  inTurns(variants, 1);
  const samples = inTurns(variants, rounds);
  const plainJs = onReference(decompositions);
  // The comparator index sort takes seconds: timed once, after the rest.
  const t = performance.now();
  Int32Array.from({ length: n }, (_, i) => i).sort((i, j) => a[i]! - a[j]! || i - j);
  const indexSortMs = performance.now() - t;
  const numpy = numpyTimes(rounds);
  return [
    { name: 'sort, 2^23 float64', oursMs: median(samples.sort), otherMs: median(samples.jsSort), other: 'Float64Array sort', target: 2 },
    { name: 'sort, 2^23 float64', oursMs: median(samples.sort), otherMs: numpy?.sort, other: 'NumPy np.sort', target: 0.25 },
    { name: 'partition, 2^23 float64', oursMs: median(samples.partition), otherMs: median(samples.sort), other: 'our sort' },
    { name: 'partition, 2^23 float64', oursMs: median(samples.partition), otherMs: numpy?.partition, other: 'NumPy np.partition' },
    { name: 'argsort, 2^23 float64', oursMs: median(samples.argsort), otherMs: indexSortMs, other: 'index sort, comparator', target: 2 },
    { name: 'bincount, 2^23 int32', oursMs: median(samples.bincount), otherMs: median(samples.jsBincount), other: 'JS counting loop', target: 1.5 },
    { name: 'unique, 2^22 with repeats', oursMs: median(samples.unique), otherMs: median(samples.jsUnique), other: 'JS Set, then sort', target: 2 },
    { name: 'median, axis 1 of 1024 x 4096', oursMs: median(samples.median), otherMs: median(samples.jsMedian), other: 'each row sorted', target: 2 },
    { name: `linalg.solve, ${SOLVE_N} x ${SOLVE_N}`, oursMs: median(samples.solve), otherMs: numpy?.solve, other: 'NumPy (LAPACK)', target: 0.2 },
    ...(['qr', 'eigh', 'svd', 'cholesky'] as const).flatMap((op) => {
      const size = { qr: QR_N, eigh: EIG_N, svd: SVD_N, cholesky: QR_N }[op];
      const name = `linalg.${op}, ${size} x ${size}`;
      return [
        { name, oursMs: median(samples[op]), otherMs: numpy?.[op], other: 'NumPy (LAPACK)' },
        { name, oursMs: median(samples[op]), otherMs: plainJs[op], other: 'plain JS, same algorithm' },
      ];
    }),
  ];
}

/** The graph's value as an array of its own: the rows time the routine alone, not the arithmetic that makes its input. */
function materialized(x: da.DeferredArray): da.DeferredArray {
  const v = x.executeSync() as da.StdNdarray;
  return da.wrap(v.data as Float64Array).reshape(x.shape);
}

/** Each function run once on the reference evaluator (the same algorithms in plain JS), in ms. */
function onReference<K extends string>(fns: Readonly<Record<K, () => unknown>>): Record<K, number> {
  const { backend } = da.configure();
  da.configure({ backend: 'reference' });
  try {
    const out = {} as Record<K, number>;
    for (const k of Object.keys(fns) as K[]) {
      const t = performance.now();
      fns[k]();
      out[k] = performance.now() - t;
    }
    return out;
  } finally {
    da.configure({ backend });
  }
}

interface NumpyTimes { readonly sort: number; readonly partition: number; readonly solve: number; readonly qr: number; readonly eigh: number; readonly svd: number; readonly cholesky: number }

/** NumPy's sort and partition of 2^23 float64, solve of 512 x 512 and the decompositions, medians of `rounds`, in ms; undefined without a python3 that has NumPy. */
function numpyTimes(rounds: number): NumpyTimes | undefined {
  const py = pythonFor('numpy');
  if (!py) return undefined;
  const code = `
import json, time, numpy as np
r = np.random.default_rng(3); x = r.uniform(-180, 180, 1 << 23); a = r.uniform(-180, 180, (${SOLVE_N}, ${SOLVE_N})) + np.eye(${SOLVE_N}) * ${SOLVE_N * 100}; b = r.uniform(-180, 180, ${SOLVE_N})
q = r.uniform(-180, 180, (${QR_N}, ${QR_N})); e = r.uniform(-180, 180, (${EIG_N}, ${EIG_N})); s = e + e.T; v = r.uniform(-180, 180, (${SVD_N}, ${SVD_N})); p = q @ q.T + np.eye(${QR_N}) * ${QR_N * 180 * 180}
def med(f):
    t = []
    for _ in range(${rounds}):
        s = time.perf_counter(); f(); t.append((time.perf_counter() - s) * 1e3)
    return sorted(t)[len(t) // 2]
print(json.dumps({'sort': med(lambda: np.sort(x)), 'partition': med(lambda: np.partition(x, 1 << 22)), 'solve': med(lambda: np.linalg.solve(a, b)), 'qr': med(lambda: np.linalg.qr(q)), 'eigh': med(lambda: np.linalg.eigh(s)), 'svd': med(lambda: np.linalg.svd(v)), 'cholesky': med(lambda: np.linalg.cholesky(p))}))`;
  const r = spawnSync(py, ['-c', code], { encoding: 'utf8' });
  if (r.status !== 0) return undefined;
  return JSON.parse(r.stdout) as NumpyTimes;
}

function printSorting(rows: readonly Row[], rounds: number): string {
  const lines = [`Sorting, counting and linear algebra (executeSync into a fresh array, median of ${rounds} rounds, variants in turn; the index sort timed once, NumPy after in its own process):`];
  for (const r of rows) {
    if (r.otherMs === undefined) {
      lines.push(`  ${r.name.padEnd(32)} ${r.oursMs.toFixed(0).padStart(6)} ms   ${r.other.padEnd(24)}   (no python3 with NumPy here)`);
      continue;
    }
    const ratio = r.otherMs / r.oursMs;
    const verdict = r.target === undefined ? '' : `  target >= ${r.target}x: ${ratio >= r.target ? 'met' : 'not met'}`;
    lines.push(`  ${r.name.padEnd(32)} ${r.oursMs.toFixed(0).padStart(6)} ms   ${r.other.padEnd(24)} ${r.otherMs.toFixed(0).padStart(6)} ms   ${ratio.toFixed(2)}x${verdict}`);
  }
  return lines.join('\n');
}

/**
 * Sorting and selecting on the pool: the rows of 1024 x 4096 float64 sorted,
 * and their medians, by execute() (blocks of rows shared out over the
 * workers), and one line of 2^23 float64 sorted and argsorted (a launch a
 * pass, each shared out by blocks of the line), against executeSync() (the
 * calling thread alone), in turn, after one untimed round of each.
 */
async function pooledSortReport(rounds: number): Promise<string> {
  const M = da.wrap(randomData(1024 * 4096, 23)).reshape([1024, 4096]);
  const x = da.wrap(randomData(1 << 23, 3));
  const variants = {
    sortPooled: () => da.sort(M, { axis: 1 }).execute(),
    sortHere: () => da.sort(M, { axis: 1 }).executeSync(),
    medianPooled: () => da.median(M, { axis: 1 }).execute(),
    medianHere: () => da.median(M, { axis: 1 }).executeSync(),
    linePooled: () => da.sort(x).execute(),
    lineHere: () => da.sort(x).executeSync(),
    argPooled: () => da.argsort(x).execute(),
    argHere: () => da.argsort(x).executeSync(),
  };
  await inTurnsAsync(variants, 1);
  const t = await inTurnsAsync(variants, rounds);
  const { threads } = da.configure();
  const row = (name: string, pooled: number, here: number): string =>
    `  ${name.padEnd(32)} ${pooled.toFixed(0).padStart(6)} ms   executeSync()            ${here.toFixed(0).padStart(6)} ms   ${(here / pooled).toFixed(2)}x`;
  return [
    `On the pool: execute() on ${threads} workers against executeSync() on the calling thread, medians of ${rounds} rounds:`,
    row('sort, axis 1 of 1024 x 4096', median(t.sortPooled), median(t.sortHere)),
    row('median, axis 1 of 1024 x 4096', median(t.medianPooled), median(t.medianHere)),
    row('sort, one line of 2^23', median(t.linePooled), median(t.lineHere)),
    row('argsort, one line of 2^23', median(t.argPooled), median(t.argHere)),
  ].join('\n');
}

const rounds = Number(process.argv[2] ?? 5);
console.log(printSorting(sortingReport(rounds), rounds));
console.log(await pooledSortReport(rounds));
await da.shutdown();
