// The PyOP2 wave example (examples/wave.ts), n x n, `steps` time steps, side
// by side: deferred-array's trace (flushed once after all the steps, and
// flushed after every step), a hand-written JS loop, NumPy and numexpr where
// a python3 here has them (the peers benchmark's child), and the same code
// eager in @stdlib/ndarray (one new array per operation, in-place where
// NumPy's -= would be). Reports time per step, passes over memory per step
// (bytes read and written / the bytes of one n x n array) and bytes allocated
// per step after the first.
import { createRequire } from 'node:module';
import * as da from 'deferred-array';
import { initialValues, makeWave, step, stepLoop } from 'deferred-array-examples/wave';
import { median } from './timing.js';
import { startProc } from './peers/procs.js';
import { WAVE_STEPS } from './peers/cases.js';

const require = createRequire(import.meta.url);

interface NdLike {
  readonly dtype: 'float64';
  readonly data: Float64Array;
  readonly shape: number[];
  readonly strides: number[];
  readonly offset: number;
  readonly order: 'row-major';
}
type Binary = (arrays: [NdLike, NdLike, NdLike], fn: (a: number, b: number) => number) => void;
type Unary = (arrays: [NdLike, NdLike], fn: (a: number) => number) => void;
const binary = require('@stdlib/ndarray/base/binary') as Binary;
const unary = require('@stdlib/ndarray/base/unary') as Unary;

interface Variant {
  readonly name: string;
  /** ms per step: median over rounds, and fastest. */
  readonly median: number;
  readonly min: number;
  readonly passes: number;
  readonly allocatedPerStep: number;
}

interface WaveReport {
  readonly n: number;
  readonly steps: number;
  readonly rounds: number;
  /** Peers that could not run here, with why. */
  readonly skipped: readonly string[];
  readonly variants: readonly Variant[];
  /** Largest difference of phi between the trace and the JS loop after the same steps (0: bit for bit). */
  readonly maxDiff: number;
}

/** The eager code: stdlib's ndarray kernels over views, a new array for every intermediate; counts what it moves and allocates. */
function eagerWave(n: number) {
  const v = initialValues(n);
  const nd = (data: Float64Array, shape: number[], strides: number[], offset: number): NdLike => ({ dtype: 'float64', data, shape, strides, offset, order: 'row-major' });
  const whole = (d: Float64Array): NdLike => nd(d, [n, n], [n, 1], 0);
  const window = (d: Float64Array, di: number, dj: number): NdLike => nd(d, [n - 2, n - 2], [n, 1], (1 + di) * n + 1 + dj);
  const counts = { allocated: 0, moved: 0 };
  const alloc = (shape: number[]): NdLike => {
    const size = shape[0]! * shape[1]!;
    counts.allocated += size * 8;
    return nd(new Float64Array(size), shape, [shape[1]!, 1], 0);
  };
  const size = (x: NdLike): number => x.shape[0]! * x.shape[1]!;
  const op2 = (x: NdLike, y: NdLike, fn: (a: number, b: number) => number, out = alloc(x.shape)): NdLike => {
    binary([x, y, out], fn);
    counts.moved += 3 * size(x) * 8;
    return out;
  };
  const op1 = (x: NdLike, fn: (a: number) => number): NdLike => {
    const out = alloc(x.shape);
    unary([x, out], fn);
    counts.moved += 2 * size(x) * 8;
    return out;
  };
  const sub = (a: number, b: number): number => a - b;
  const add = (a: number, b: number): number => a + b;
  const half = v.dt / 2;
  const c = v.dt / (v.h * v.h);
  const phi = v.phi;
  const p = v.p;
  const stepEager = (): void => {
    op2(whole(phi), op1(whole(p), (x) => x * half), sub, whole(phi));
    const lap = op2(op2(op2(op2(window(phi, 1, 0), window(phi, -1, 0), add), window(phi, 0, 1), add), window(phi, 0, -1), add),
      op1(window(phi, 0, 0), (x) => x * 4), sub);
    op2(window(p, 0, 0), op1(lap, (x) => x * c), sub, window(p, 0, 0));
    op2(whole(phi), op1(whole(p), (x) => x * half), sub, whole(phi));
  };
  return { stepEager, counts, phi };
}

/** A Python peer (NumPy, numexpr) running the same wave (peers/python/child.py, WAVE_STEPS steps a call), or why not. */
async function pythonWave(system: 'numpy' | 'numexpr', n: number): Promise<{ label: string; stepMs: () => Promise<number>; close: () => void } | string> {
  const proc = startProc(system);
  const hello = await proc.next();
  if (!('loaded' in hello)) {
    proc.kill();
    return 'skipped' in hello ? hello.skipped : JSON.stringify(hello);
  }
  proc.send({ build: 'wave', n });
  const built = await proc.next();
  if (!('built' in built)) {
    proc.kill();
    return JSON.stringify(built);
  }
  const stepMs = async (): Promise<number> => {
    proc.send('run');
    const r = await proc.next();
    if (!('ms' in r)) throw new Error(`${system} wave: ${JSON.stringify(r)}`);
    return r.ms / WAVE_STEPS;
  };
  return { label: `${hello.label} ${hello.version}`, stepMs, close: () => proc.kill() };
}

/** Variant names the report makes and the printer looks up. */
const LOOP_NAME = 'hand-written JS loop';
const oneFlushName = (steps: number): string => `deferred-array, one flush() for ${steps} steps`;

/**
 * Every variant once per round, in turn, so that drift on a shared machine
 * falls on all of them alike; medians over the rounds. The eager stdlib code
 * runs once, at the end (it is 20x slower and allocates an array per op).
 */
async function waveReport(n: number, steps: number, rounds: number): Promise<WaveReport> {
  const arrayBytes = n * n * 8;
  const times = new Map<string, number[]>();
  const add = (name: string, ms: number): void => {
    const list = times.get(name);
    if (list) list.push(ms);
    else times.set(name, [ms]);
  };
  const counts = new Map<string, { passes: number; allocated: number }>();
  const ours = (everyStep: boolean): string => (everyStep ? 'deferred-array, flush() every step' : oneFlushName(steps));
  const pythons: Array<{ label: string; stepMs: () => Promise<number>; close: () => void }> = [];
  const skipped: string[] = [];
  for (const system of ['numpy', 'numexpr'] as const) {
    const p = await pythonWave(system, n);
    if (typeof p === 'string') skipped.push(`${system}: ${p}`);
    else pythons.push(p);
  }
  let loopPhi: ArrayLike<number> = [];
  try {
    for (let r = 0; r < rounds; r++) {
      // deferred-array: every step enqueued, one flush for all of them; and a flush after each.
      for (const everyStep of [false, true]) {
        const w = makeWave(n);
        step(w);
        await da.flush();
        const s0 = da.stats();
        const h0 = da.heapStats();
        const t0 = performance.now();
        for (let s = 1; s < steps; s++) {
          step(w);
          if (everyStep) await da.flush();
        }
        await da.flush();
        add(ours(everyStep), (performance.now() - t0) / (steps - 1));
        counts.set(ours(everyStep), {
          passes: (da.stats().bytesMoved - s0.bytesMoved) / (steps - 1) / arrayBytes,
          allocated: (da.heapStats().allocatedBytes - h0.allocatedBytes) / (steps - 1),
        });
      }
      // The hand-written loop: three passes of three arrays each (the stencil's neighbours come from cache).
      const v = initialValues(n);
      const t0 = performance.now();
      for (let s = 0; s < steps; s++) stepLoop(v.phi, v.p, n, v.h, v.dt);
      add(LOOP_NAME, (performance.now() - t0) / steps);
      loopPhi = v.phi;
      for (const p of pythons) {
        const calls = Math.max(1, Math.round(steps / WAVE_STEPS));
        let ms = 0;
        for (let c = 0; c < calls; c++) ms += await p.stepMs();
        add(p.label, ms / calls);
      }
    }
  } finally {
    for (const p of pythons) p.close();
  }
  counts.set(LOOP_NAME, { passes: 9, allocated: 0 });

  // Eager @stdlib/ndarray: one round (it is the slow one).
  const e = eagerWave(n);
  e.stepEager();
  const a0 = e.counts.allocated;
  const m0 = e.counts.moved;
  const t0 = performance.now();
  for (let s = 1; s < steps; s++) e.stepEager();
  const eagerName = 'eager @stdlib/ndarray (new array per op)';
  add(eagerName, (performance.now() - t0) / (steps - 1));
  counts.set(eagerName, { passes: (e.counts.moved - m0) / (steps - 1) / arrayBytes, allocated: (e.counts.allocated - a0) / (steps - 1) });

  const variants: Variant[] = [...times].map(([name, ms]) => ({
    name, median: median(ms), min: Math.min(...ms), passes: counts.get(name)?.passes ?? NaN, allocatedPerStep: counts.get(name)?.allocated ?? NaN,
  }));
  const w = makeWave(n);
  for (let s = 0; s < steps; s++) step(w);
  const phi = (await w.phi.execute()) as da.StdNdarray;
  let maxDiff = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) maxDiff = Math.max(maxDiff, Math.abs((phi.get(i, j) as number) - loopPhi[i * n + j]!));
  return { n, steps, rounds, variants, maxDiff, skipped };
}

function formatBytes(b: number): string {
  if (b < 1024) return `${b.toFixed(0)} B`;
  if (b < 1024 ** 2) return `${(b / 1024).toFixed(1)} KiB`;
  return `${(b / 1024 ** 2).toFixed(1)} MiB`;
}

function printWave(r: WaveReport): string {
  const by = (name: string): Variant | undefined => r.variants.find((v) => v.name === name);
  const loop = by(LOOP_NAME)!;
  const ours = by(oneFlushName(r.steps))!;
  const numpy = r.variants.find((v) => v.name.startsWith('NumPy'));
  const cell = (x: number, text: string): string => (Number.isNaN(x) ? '-' : text);
  return [
    `PyOP2 wave (examples/wave.ts), ${r.n}x${r.n} float64, ${r.steps} steps, variants in turn, median of ${r.rounds} rounds (the eager stdlib code: one): ` +
      'ms per step (median, fastest), passes over memory and bytes allocated per step after the first:',
    ...r.variants.map((v) => `  ${v.name.padEnd(42)} ${v.median.toFixed(2).padStart(8)} ms (${v.min.toFixed(2).padStart(6)})  ` +
      `${(v.median / loop.median).toFixed(2).padStart(5)}x loop  ${cell(v.passes, v.passes.toFixed(1)).padStart(5)} passes  ` +
      `${cell(v.allocatedPerStep, formatBytes(v.allocatedPerStep)).padStart(9)} allocated`),
    ...r.skipped.map((s) => `  (not measured: ${s})`),
    `  one flush: ${(loop.median / ours.median).toFixed(2)}x faster than the JS loop` +
      (numpy ? `, ${(numpy.median / ours.median).toFixed(2)}x faster than ${numpy.name}` : ''),
    `  phi after ${r.steps} steps, trace against the JS loop: largest difference ${r.maxDiff}`,
  ].join('\n');
}

export { waveReport, printWave, eagerWave };
export type { WaveReport };
