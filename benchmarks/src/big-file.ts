// An .npy larger than memory allows, streamed: the benchmark writes a float64
// file of BIG_GB gigabytes (past 4 GiB it cannot fit in the heap), then, in
// turns, reads it with a plain fs loop into an ArrayBuffer and into
// WebAssembly memory (the floor: reading the bytes and nothing else), takes da.mean of it loaded with mmapMode (a progress bar
// meanwhile), and saves x * 2 + 1 of it to a new .npy, streamed. It checks
// the values (the mean against its closed form; the saved file's values at
// places spread through it) and prints the peak resident memory. `node
// benchmarks/dist/big-file-main.js` alone; `npm run main` runs it at 1 GB.
import { open, rm } from 'node:fs/promises';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SingleBar } from 'cli-progress';
import * as da from 'deferred-array';
import { median } from './timing.js';

/** Values of the file: element i is (i % 1000) / 8, exact in float64, with a mean known in closed form. */
const valueAt = (i: number): number => (i % 1000) / 8;

/** The header np.save writes for a float64 vector of n values (NumPy's format 1.0; the package's own writer is not public). */
function header(n: number): Uint8Array {
  let text = `{'descr': '<f8', 'fortran_order': False, 'shape': (${n},), }`;
  text += ' '.repeat(21 - String(n).length);
  const pad = 64 - ((10 + text.length + 1) % 64);
  const bytes = new Uint8Array(10 + text.length + pad + 1);
  bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(bytes.buffer).setUint16(8, bytes.length - 10, true);
  for (let i = 0; i < text.length; i++) bytes[10 + i] = text.charCodeAt(i);
  bytes.fill(0x20, 10 + text.length, bytes.length - 1);
  bytes[bytes.length - 1] = 0x0a;
  return bytes;
}

/** Writes the file of n values in 64 MiB pieces. */
async function writeBig(path: string, n: number): Promise<void> {
  const file = await open(path, 'w');
  try {
    const h = header(n);
    await file.write(h, 0, h.length, 0);
    const piece = new Float64Array(1 << 23);
    for (let at = 0; at < n; at += piece.length) {
      const count = Math.min(piece.length, n - at);
      for (let i = 0; i < count; i++) piece[i] = valueAt(at + i);
      await file.write(new Uint8Array(piece.buffer, 0, count * 8), 0, count * 8, h.length + at * 8);
    }
  } finally {
    await file.close();
  }
}

/**
 * Reads the whole file through `buffer` (4 MiB): what reading it costs with
 * nothing else done. Into WebAssembly memory, reads ran 4-5x faster on this
 * Linux machine than into an ArrayBuffer of the same size in a fresh process,
 * 1.2x inside npm run main's (the cause was not pinned down), so both are
 * timed: the streamed mean is held to the plain read a program would make
 * (into an ArrayBuffer), and shown against both.
 */
async function plainRead(path: string, buffer: Uint8Array): Promise<number> {
  const file = await open(path, 'r');
  try {
    let total = 0;
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, buffer.length, total);
      if (bytesRead === 0) return total;
      total += bytesRead;
    }
  } finally {
    await file.close();
  }
}

/** The plain reads' buffer: the default chunk of a stream (configure({ streamBytes })), fastest for the plain reads too. */
const CHUNK = 4 * 2 ** 20;

interface BigFileReport {
  readonly gb: number;
  readonly n: number;
  readonly rounds: number;
  /** Plain reads into an ArrayBuffer and into WebAssembly memory, the streamed mean and the streamed save. */
  readonly ms: { readonly read: number; readonly readWasm: number; readonly mean: number; readonly save: number };
  /** Resident memory before the streamed runs, and the most seen while they ran (sampled every 25 ms). */
  readonly rssBeforeMiB: number;
  readonly rssPeakMiB: number;
  readonly checked: string;
}

async function bigFileReport(gb: number, rounds: number, showProgress: boolean): Promise<BigFileReport> {
  const dir = mkdtempSync(join(tmpdir(), 'deferred-array-big-'));
  try {
    const n = Math.floor((gb * 1e9) / 8);
    const path = join(dir, 'big.npy');
    const out = join(dir, 'out.npy');
    await writeBig(path, n);
    const x = await da.load(path as `${string}.npy`, { mmapMode: 'r' });
    // The mean in closed form: whole cycles of 0..999 eighths, then the rest.
    const cycles = Math.floor(n / 1000);
    const rest = n % 1000;
    const want = (cycles * (999 * 1000) / 2 / 8 + (rest * (rest - 1)) / 2 / 8) / n;
    const samples = { read: [] as number[], readWasm: [] as number[], mean: [] as number[], save: [] as number[] };
    const jsBuffer = new Uint8Array(CHUNK);
    const wasmBuffer = new Uint8Array(new WebAssembly.Memory({ initial: CHUNK / 65536, maximum: CHUNK / 65536 }).buffer);
    // Touched now, so that the resident memory before the runs counts them.
    jsBuffer.fill(1);
    wasmBuffer.fill(1);
    let mean = NaN;
    const mib = (): number => process.memoryUsage().rss / 2 ** 20;
    const rssBeforeMiB = mib();
    let rssPeakMiB = rssBeforeMiB;
    const sampler = setInterval(() => {
      rssPeakMiB = Math.max(rssPeakMiB, mib());
    }, 25);
    try {
      for (let round = 0; round < rounds; round++) {
        let t = performance.now();
        await plainRead(path, jsBuffer);
        samples.read.push(performance.now() - t);
        t = performance.now();
        await plainRead(path, wasmBuffer);
        samples.readWasm.push(performance.now() - t);
        const bar = showProgress && round === 0 ? new SingleBar({ format: '  da.mean of it, streamed [{bar}] {percentage}% {value}/{total} MB', hideCursor: true }) : undefined;
        bar?.start(Math.round((n * 8) / 1e6), 0);
        t = performance.now();
        mean = Number(((await da.mean(x).execute({ onProgress: ({ done }) => bar?.update(Math.round(done / 1e6)) })) as unknown as { get(): number }).get());
        samples.mean.push(performance.now() - t);
        bar?.stop();
        t = performance.now();
        await da.save(out, x.mul(2).add(1));
        samples.save.push(performance.now() - t);
      }
    } finally {
      clearInterval(sampler);
    }
    rssPeakMiB = Math.max(rssPeakMiB, mib());
    // Written so that a NaN mean fails too.
    if (!(Math.abs(mean - want) <= 1e-9 * want)) throw new Error(`big-file: the streamed mean is ${mean}, expected ${want}`);
    // The saved values at places spread through the file, and its size.
    const saved = await open(out, 'r');
    try {
      const cell = new Float64Array(1);
      for (let k = 0; k < 64; k++) {
        const i = Math.floor(((k * 2654435761) % 4294967296) / 4294967296 * n);
        await saved.read(new Uint8Array(cell.buffer), 0, 8, 128 + i * 8);
        if (cell[0] !== valueAt(i) * 2 + 1) throw new Error(`big-file: saved value ${i} is ${cell[0]}, expected ${valueAt(i) * 2 + 1}`);
      }
    } finally {
      await saved.close();
    }
    if (statSync(out).size !== 128 + n * 8) throw new Error(`big-file: the saved file has ${statSync(out).size} bytes, expected ${128 + n * 8}`);
    await rm(out);
    return {
      gb, n, rounds, ms: { read: median(samples.read), readWasm: median(samples.readWasm), mean: median(samples.mean), save: median(samples.save) },
      rssBeforeMiB, rssPeakMiB, checked: `mean ${mean} (closed form ${want}); 64 saved values and the file's size`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function printBigFile(r: BigFileReport): string {
  const bytes = r.n * 8;
  const gbps = (ms: number): string => `${(bytes / ms / 1e6).toFixed(2)} GB/s`;
  const heap = 4 * 2 ** 30;
  return [
    `An .npy of ${(bytes / 2 ** 30).toFixed(2)} GiB (${r.n} float64${bytes > heap ? ', more than the 4 GiB heap holds' : ''}; BIG_GB sets it), loaded with mmapMode, median of ${r.rounds} round(s) in turn:`,
    `  plain fs read, 4 MiB at a time, ArrayBuffer   ${r.ms.read.toFixed(0).padStart(7)} ms  ${gbps(r.ms.read)}`,
    `  the same into WebAssembly memory               ${r.ms.readWasm.toFixed(0).padStart(7)} ms  ${gbps(r.ms.readWasm)}`,
    `  da.mean(x).execute(), streamed               ${r.ms.mean.toFixed(0).padStart(7)} ms  ${gbps(r.ms.mean)}  ${(r.ms.read / r.ms.mean).toFixed(2)}x the plain read's speed (target >= 0.8), ` +
      `${(r.ms.readWasm / r.ms.mean).toFixed(2)}x the read into WebAssembly memory`,
    `  da.save(path, x.mul(2).add(1)), streamed     ${r.ms.save.toFixed(0).padStart(7)} ms  ${gbps(r.ms.save)} read and as much written`,
    `  resident memory: ${r.rssBeforeMiB.toFixed(0)} MiB before, at most ${r.rssPeakMiB.toFixed(0)} MiB while streaming (+${(r.rssPeakMiB - r.rssBeforeMiB).toFixed(0)} MiB; ` +
      'target under 2048 MiB for a process doing this alone, as big-file-main.js does; before counts the plain reads\' two buffers)',
    `  checked: ${r.checked}`,
  ].join('\n');
}

export { bigFileReport, printBigFile };
export type { BigFileReport };
