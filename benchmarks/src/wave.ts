// The PyOP2 wave example (examples/wave.ts), n x n, `steps` time steps, three
// ways side by side: deferred-array's trace (flushed once after all the steps,
// and flushed after every step), the same code eager in @stdlib/ndarray (one
// new array per operation, in-place where NumPy's -= would be), and a
// hand-written JS loop. Reports time per step, passes over memory per step
// (bytes read and written / the bytes of one n x n array) and bytes allocated
// per step after the first.
import { createRequire } from 'node:module';
import * as da from 'deferred-array';
import { initialValues, makeWave, step, stepLoop } from 'deferred-array-examples/wave';
import { median } from './timing.js';

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

async function waveReport(n: number, steps: number, rounds: number): Promise<WaveReport> {
  const arrayBytes = n * n * 8;
  const perStep = (ms: number) => ms / steps;
  const variants: Variant[] = [];

  // deferred-array: every step enqueued, one flush for all of them; and a flush after each.
  for (const everyStep of [false, true]) {
    const times: number[] = [];
    let passes = 0;
    let allocated = 0;
    for (let r = 0; r < rounds; r++) {
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
      times.push(perStep(performance.now() - t0) * steps / (steps - 1));
      passes = (da.stats().bytesMoved - s0.bytesMoved) / (steps - 1) / arrayBytes;
      allocated = (da.heapStats().allocatedBytes - h0.allocatedBytes) / (steps - 1);
    }
    variants.push({
      name: everyStep ? 'deferred-array, flush() every step' : `deferred-array, one flush() for ${steps} steps`,
      median: median(times), min: Math.min(...times), passes, allocatedPerStep: allocated,
    });
  }

  // Eager @stdlib/ndarray: one round (it is the slow one).
  {
    const e = eagerWave(n);
    e.stepEager();
    const a0 = e.counts.allocated;
    const m0 = e.counts.moved;
    const t0 = performance.now();
    for (let s = 1; s < steps; s++) e.stepEager();
    const ms = perStep(performance.now() - t0) * steps / (steps - 1);
    variants.push({
      name: 'eager @stdlib/ndarray (new array per op)', median: ms, min: ms,
      passes: (e.counts.moved - m0) / (steps - 1) / arrayBytes, allocatedPerStep: (e.counts.allocated - a0) / (steps - 1),
    });
  }

  // The hand-written loop: three passes of three arrays each (the stencil's neighbours come from cache).
  const times: number[] = [];
  let loopPhi: ArrayLike<number> = [];
  for (let r = 0; r < rounds; r++) {
    const v = initialValues(n);
    const t0 = performance.now();
    for (let s = 0; s < steps; s++) stepLoop(v.phi, v.p, n, v.h, v.dt);
    times.push(perStep(performance.now() - t0));
    loopPhi = v.phi;
  }
  variants.push({ name: 'hand-written JS loop', median: median(times), min: Math.min(...times), passes: 9, allocatedPerStep: 0 });

  const w = makeWave(n);
  for (let s = 0; s < steps; s++) step(w);
  const phi = (await w.phi.execute()) as da.StdNdarray;
  let maxDiff = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) maxDiff = Math.max(maxDiff, Math.abs((phi.get(i, j) as number) - loopPhi[i * n + j]!));
  return { n, steps, variants, maxDiff };
}

function formatBytes(b: number): string {
  if (b < 1024) return `${b.toFixed(0)} B`;
  if (b < 1024 ** 2) return `${(b / 1024).toFixed(1)} KiB`;
  return `${(b / 1024 ** 2).toFixed(1)} MiB`;
}

function printWave(r: WaveReport): string {
  const loop = r.variants[r.variants.length - 1]!;
  return [
    `PyOP2 wave (examples/wave.ts), ${r.n}x${r.n} float64, ${r.steps} steps: ms per step (median, fastest), passes over memory and bytes allocated per step after the first:`,
    ...r.variants.map((v) => `  ${v.name.padEnd(42)} ${v.median.toFixed(2).padStart(8)} ms (${v.min.toFixed(2).padStart(6)})  ` +
      `${(v.median / loop.median).toFixed(2).padStart(5)}x loop  ${v.passes.toFixed(1).padStart(5)} passes  ${formatBytes(v.allocatedPerStep).padStart(9)} allocated`),
    `  phi after ${r.steps} steps, trace against the JS loop: largest difference ${r.maxDiff}`,
  ].join('\n');
}

export { waveReport, printWave, eagerWave };
export type { WaveReport };
