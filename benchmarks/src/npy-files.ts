// NumPy's files, in memory: an .npy of float64 values written by da.save and
// read by da.load, against Node's own readFile and writeFile of the same
// bytes (the floor: a load that only reads the file), and the first
// da.sum of what was loaded (which copies the values into the heap). The
// variants take turns in each round; medians. `npy-files.js [n]` alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as da from 'deferred-array';
import { randomData } from './data.js';
import { gbPerS, inTurnsAsync, median } from './timing.js';

interface NpyReport {
  readonly n: number;
  readonly bytes: number;
  readonly rounds: number;
  /** Median ms by variant. */
  readonly ms: Readonly<Record<string, number>>;
}

async function npyReport(n: number, rounds: number): Promise<NpyReport> {
  const dir = mkdtempSync(join(tmpdir(), 'deferred-array-npy-bench-'));
  try {
    const x = da.wrap(randomData(n, 7));
    const path = join(dir, 'x.npy');
    await da.save(path, x);
    const bytes = await readFile(path);
    const sum = async (a: da.DeferredArray): Promise<number> => ((await da.sum(a).execute()) as unknown as { get(): number }).get();
    const want = await sum(x);
    const samples = await inTurnsAsync({
      'fs.readFile of the file': () => readFile(path),
      'da.load': () => da.load(path as `${string}.npy`),
      'da.load, then da.sum().execute()': async () => {
        const got = await sum(await da.load(path as `${string}.npy`));
        if (got !== want) throw new Error(`npy-files: the sum of the loaded array is ${got}, expected ${want}`);
      },
      'fs.writeFile of the same bytes': () => writeFile(join(dir, 'raw.npy'), bytes),
      'da.save of the array': () => da.save(join(dir, 'saved.npy'), x),
    }, rounds);
    return { n, bytes: bytes.length, rounds, ms: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)])) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function printNpy(r: NpyReport): string {
  const lines = [`NumPy's files in memory: an .npy of ${r.n.toExponential(0)} float64 values (${(r.bytes / 2 ** 20).toFixed(0)} MiB), median of ${r.rounds} rounds, variants in turn:`];
  for (const [k, ms] of Object.entries(r.ms)) lines.push(`  ${k.padEnd(36)} ${ms.toFixed(1).padStart(8)} ms  ${gbPerS(r.bytes, ms).toFixed(2).padStart(6)} GB/s`);
  return lines.join('\n');
}

export { npyReport, printNpy };
export type { NpyReport };
