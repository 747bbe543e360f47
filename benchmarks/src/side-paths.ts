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
import { jsMatvec } from './products.js';

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

/** A matrix-vector product against our own sum over the same matrix: both read the matrix once, so the sum is its streaming limit. */
interface MatvecRow {
  readonly n: number;
  /** ms, medians over rounds, both through execute(). */
  readonly matvec: number;
  readonly sum: number;
  /** The target: the product at least this fraction of the sum's speed. */
  readonly bar: number;
}

interface SidePaths {
  readonly rounds: number;
  readonly threads: number;
  readonly rows: readonly PathRow[];
  readonly matvec: readonly MatvecRow[];
}

type Result = Float64Array | Int32Array | Uint32Array | Int16Array | Uint8Array | BigInt64Array;

/**
 * Times ours (execute(), into an out, as a view, executeSync()) against a JS
 * loop into a fresh array and into an owned one; results of n elements of
 * `Out` (float64 unless given).
 */
async function pathRow<R extends Result = Float64Array>(name: string, bar: number, ours: () => da.DeferredArray, js: (out: R) => R, n: number, rounds: number,
  Out: new (n: number) => R = Float64Array as unknown as new (n: number) => R): Promise<PathRow> {
  const owned = new Out(n);
  const out = new Out(n);
  const run = {
    ours: () => ours().execute(),
    oursOut: () => ours().execute({ out }),
    oursView: () => da.scope(async () => { await ours().execute(); }),
    oursSync: () => ours().executeSync(),
    jsFresh: () => js(new Out(n)),
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
function sameWithin(a: Result, b: Result): boolean {
  // int64: exact, element for element.
  if (a instanceof BigInt64Array || b instanceof BigInt64Array) return a.length === b.length && a.every((v, i) => v === b[i]);
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

/** take from a table that stays in the caches, then elementwise work: the take's kernel computes it, never storing the take. */
function lookupRow(n: number, table: number, rounds: number): Promise<PathRow> {
  const x = randomData(table, 23, -1, 1);
  const idx = Int32Array.from(randomData(n, 29, 0, table), (v) => Math.floor(v));
  const [dx, di] = [da.wrap(x), da.wrap(idx)];
  return pathRow(`take(t, i) * 2 + 1, ${table} x 2^${Math.log2(n)}`, 1, () => da.take(dx, di).mul(2).add(1), (out) => {
    for (let i = 0; i < n; i++) out[i] = x[idx[i]!]! * 2 + 1;
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

/** argmax along the rows of a rows x cols float64 matrix: the first largest of each row. */
function argmaxRow(rows: number, cols: number, rounds: number): Promise<PathRow> {
  const x = randomData(rows * cols, 19, -1, 1);
  const dx = da.wrap(x).reshape([rows, cols]);
  return pathRow<Int32Array>(`argmax axis 1, ${rows} x ${cols}`, 1, () => da.argmax(dx, { axis: 1 }), (out) => {
    for (let r = 0; r < rows; r++) {
      const at = r * cols;
      let best = 0;
      let v = x[at]!;
      for (let j = 1; j < cols; j++) if (x[at + j]! > v) { v = x[at + j]!; best = j; }
      out[r] = best;
    }
    return out;
  }, rows, rounds, Int32Array);
}

/** concat of two float64 arrays of n elements each: the JS a user would write copies them with set(). */
function concatRow(n: number, rounds: number): Promise<PathRow> {
  const [a, b] = [randomData(n, 23, -1, 1), randomData(n, 29, -1, 1)];
  const [da0, db] = [da.wrap(a), da.wrap(b)];
  return pathRow(`concat, 2 x 2^${Math.log2(n)}`, 1, () => da.concat([da0, db]), (out) => {
    out.set(a, 0);
    out.set(b, n);
    return out;
  }, 2 * n, rounds);
}

/** An int32 matrix product n x n: the JS loop in i-k-j order, products wrapping as int32 (Math.imul). */
function intMatmulRow(n: number, rounds: number): Promise<PathRow> {
  const a = Int32Array.from(randomData(n * n, 31, -1000, 1000), (v) => Math.floor(v));
  const b = Int32Array.from(randomData(n * n, 37, -1000, 1000), (v) => Math.floor(v));
  const [dA, dB] = [da.wrap(a).reshape([n, n]), da.wrap(b).reshape([n, n])];
  return pathRow<Int32Array>(`int32 matmul ${n}`, 1, () => da.matmul(dA, dB), (out) => {
    out.fill(0);
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < n; k++) {
        const v = a[i * n + k]!;
        for (let j = 0; j < n; j++) out[i * n + j] = (out[i * n + j]! + Math.imul(v, b[k * n + j]!)) | 0;
      }
    }
    return out;
  }, n * n, rounds, Int32Array);
}

/** Integers of `T` over n elements, uniform over the type's range. */
function randomInts<T extends Exclude<Result, BigInt64Array>>(Ctor: new (n: number) => T, n: number, seed: number, lo: number, hi: number): T {
  const out = new Ctor(n);
  out.set(Array.from(randomData(n, seed, lo, hi), Math.floor));
  return out;
}

/** int16 a * 3 + b, wrapping at 16 bits as NumPy's int16 does (the loop stores into an Int16Array, which wraps the same). */
function int16Row(n: number, rounds: number): Promise<PathRow> {
  const [a, b] = [randomInts(Int16Array, n, 41, -32768, 32768), randomInts(Int16Array, n, 43, -32768, 32768)];
  const [dA, dB] = [da.wrap(a), da.wrap(b)];
  return pathRow<Int16Array>(`int16 a * 3 + b, 2^${Math.log2(n)}`, 1, () => dA.mul(3).add(dB), (out) => {
    for (let i = 0; i < n; i++) out[i] = a[i]! * 3 + b[i]!;
    return out;
  }, n, rounds, Int16Array);
}

/** The absolute difference of two uint8 images, max(a, b) - min(a, b) (a - b alone would wrap). */
function uint8Row(n: number, rounds: number): Promise<PathRow> {
  const [a, b] = [randomInts(Uint8Array, n, 47, 0, 256), randomInts(Uint8Array, n, 53, 0, 256)];
  const [dA, dB] = [da.wrap(a), da.wrap(b)];
  return pathRow<Uint8Array>(`uint8 |a - b|, 2^${Math.log2(n)}`, 1, () => da.maximum(dA, dB).sub(da.minimum(dA, dB)), (out) => {
    for (let i = 0; i < n; i++) out[i] = Math.max(a[i]!, b[i]!) - Math.min(a[i]!, b[i]!);
    return out;
  }, n, rounds, Uint8Array);
}

/**
 * int32 a // b + a % 7: floor division and Python's modulo (divisors of both
 * signs, none zero). The loop's float quotient is exact for int32 operands;
 * its `| 0` keeps V8 on integer `%` (a -0 remainder would send it to floats).
 */
function int32DivisionRow(n: number, rounds: number): Promise<PathRow> {
  const a = randomInts(Int32Array, n, 67, -(2 ** 31), 2 ** 31);
  const b = randomInts(Int32Array, n, 71, -1000, 1000).map((v) => v || 1);
  const [dA, dB] = [da.wrap(a), da.wrap(b)];
  return pathRow<Int32Array>(`int32 a // b + a % 7, 2^${Math.log2(n)}`, 1, () => da.floorDivide(dA, dB).add(da.mod(dA, 7)), (out) => {
    for (let i = 0; i < n; i++) {
      const r = (a[i]! % 7) | 0;
      out[i] = Math.floor(a[i]! / b[i]!) + (r < 0 ? r + 7 : r);
    }
    return out;
  }, n, rounds, Int32Array);
}

/** uint32 (a ^ b) >> 3 + a: bits, an unsigned shift and a sum that wraps at 2^32. */
function uint32Row(n: number, rounds: number): Promise<PathRow> {
  const [a, b] = [randomInts(Uint32Array, n, 59, 0, 2 ** 32), randomInts(Uint32Array, n, 61, 0, 2 ** 32)];
  const [dA, dB] = [da.wrap(a), da.wrap(b)];
  return pathRow<Uint32Array>(`uint32 (a ^ b) >> 3 + a, 2^${Math.log2(n)}`, 1, () => da.rightShift(da.bitwiseXor(dA, dB), 3).add(dA), (out) => {
    for (let i = 0; i < n; i++) out[i] = (((a[i]! ^ b[i]!) >>> 3) + a[i]!) >>> 0;
    return out;
  }, n, rounds, Uint32Array);
}

/** float64 values on [0, 1) scaled to bytes, x * 255 stored as uint8 (in range, so the loop's wrapping store and the saturating cast agree). */
function toUint8Row(n: number, rounds: number): Promise<PathRow> {
  const x = randomData(n, 67, 0, 1);
  const dx = da.wrap(x);
  return pathRow<Uint8Array>(`float64 x * 255 as uint8, 2^${Math.log2(n)}`, 1, () => dx.mul(255).astype('uint8'), (out) => {
    for (let i = 0; i < n; i++) out[i] = x[i]! * 255;
    return out;
  }, n, rounds, Uint8Array);
}

/** int64 x * 3 + 1 (wrapping at 2^64): NumPy's default integer, against the loop a user writes over a BigInt64Array. */
function int64Row(n: number, rounds: number): Promise<PathRow> {
  const x = BigInt64Array.from(randomInts(Int32Array, n, 71, -(2 ** 31), 2 ** 31), (v) => BigInt(v) * 4294967311n);
  const dx = da.wrap(x);
  return pathRow<BigInt64Array>(`int64 x * 3 + 1, 2^${Math.log2(n)}`, 1, () => dx.mul(3).add(1), (out) => {
    for (let i = 0; i < n; i++) out[i] = BigInt.asIntN(64, x[i]! * 3n + 1n);
    return out;
  }, n, rounds, BigInt64Array);
}

/** The dot of two float64 vectors (one number), against the loop a user writes summing their products in order. */
function dotRow(n: number, rounds: number): Promise<PathRow> {
  const a = randomData(n, 81);
  const b = randomData(n, 82);
  const [da1, da2] = [da.wrap(a), da.wrap(b)];
  return pathRow(`dot of two float64, 2^${Math.log2(n)}`, 1, () => da.dot(da1, da2), (out) => {
    let s = 0;
    for (let i = 0; i < n; i++) s += a[i]! * b[i]!;
    out[0] = s;
    return out;
  }, 1, rounds);
}

/** A @ x over an n x n float64 matrix, against da.sum of the same matrix, in turns. */
async function matvecRow(n: number, rounds: number): Promise<MatvecRow> {
  const [a, xs] = [randomData(n * n, 83, -1, 1), randomData(n, 89, -1, 1)];
  const [A, x] = [da.wrap(a).reshape([n, n]), da.wrap(xs)];
  const run = { matvec: () => A.matmul(x).execute(), sum: () => da.sum(A).execute() };
  for (const f of Object.values(run)) for (let i = 0; i < 2; i++) await f();
  const t = await inTurnsAsync(run, rounds);
  // The product must be right, so that the row does not time a wrong answer.
  const y = new Float64Array(n);
  await A.matmul(x).execute({ out: y });
  if (!sameWithin(y, jsMatvec(a, xs, n))) throw new Error(`side paths: the ${n} x ${n} matrix-vector product differs from the JS loop`);
  return { n, matvec: median(t.matvec), sum: median(t.sum), bar: 0.8 };
}

async function sidePathsReport(rounds = 7): Promise<SidePaths> {
  return {
    rounds, threads: da.configure().threads,
    rows: [
      await takeRow(1 << 23, rounds), await lookupRow(1 << 23, 4096, rounds), await cumsumRow(1 << 23, rounds), await columnCumsumRow(4096, 2048, rounds),
      await argmaxRow(4096, 2048, rounds), await concatRow(1 << 22, rounds), await intMatmulRow(512, rounds),
      await int16Row(1 << 23, rounds), await uint8Row(1 << 23, rounds), await uint32Row(1 << 23, rounds), await int32DivisionRow(1 << 23, rounds),
      await toUint8Row(1 << 23, rounds), await int64Row(1 << 20, rounds), await dotRow(1 << 23, rounds),
    ],
    matvec: [await matvecRow(2000, rounds), await matvecRow(4096, rounds)],
  };
}

function printSidePaths(r: SidePaths): string {
  const ms = (v: number): string => `${v.toFixed(1)} ms`.padStart(11);
  const lines = [
    `Paths beside the fused one, against JS loops (median of ${r.rounds} rounds, variants in turn; execute() on ${r.threads} worker(s);`,
    '  the result as a fresh array, into an owned { out }, as a heap view in a scope; executeSync() a fresh array)',
    `  ${''.padEnd(30)}${'execute()'.padStart(11)}${'{ out }'.padStart(11)}${'view'.padStart(11)}${'sync'.padStart(11)}${'JS fresh'.padStart(11)}${'JS owned'.padStart(11)}`,
  ];
  for (const p of r.rows) {
    const ratio = p.jsOwned / p.oursOut;
    lines.push(`  ${p.name.padEnd(30)}${ms(p.ours)}${ms(p.oursOut)}${ms(p.oursView)}${ms(p.oursSync)}${ms(p.jsFresh)}${ms(p.jsOwned)}`);
    lines.push(`    ${ratio >= p.bar ? 'met    ' : 'not met'} { out } at least ${p.bar}x the JS loop into an owned array: ${ratio.toFixed(2)}x`
      + ` (fresh against fresh ${(p.jsFresh / p.ours).toFixed(2)}x, view against owned ${(p.jsOwned / p.oursView).toFixed(2)}x)`);
  }
  lines.push('  matrix-vector products, float64, against da.sum of the same matrix (both read it once; execute(), in turns):');
  for (const m of r.matvec) {
    const ratio = m.sum / m.matvec;
    const gb = (ms: number): string => `${(m.n * m.n * 8 / ms / 1e6).toFixed(1)} GB/s`;
    lines.push(`    ${ratio >= m.bar ? 'met    ' : 'not met'} ${m.n} x ${m.n}: ${ms(m.matvec).trim()} (${gb(m.matvec)}) against ${ms(m.sum).trim()} (${gb(m.sum)}),`
      + ` ${ratio.toFixed(2)} of the sum's speed (target at least ${m.bar})`);
  }
  return lines.join('\n');
}

export { sidePathsReport, printSidePaths };
export type { SidePaths };
