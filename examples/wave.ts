// The explicit wave simulation of the PyOP2 lazy-evaluation document, as
// finite differences on an n x n grid with the 5-point stencil written with
// slices. Each step enqueues three in-place statements; nothing runs until a
// flush() or execute() forces them, and forced together the trace fuses them
// (see the README): per step one kernel over the grid for phi (this step's
// last update fused with the next step's first) and one over the interior for p.
//
//   phi -= dt/2 * p
//   p[1:-1, 1:-1] -= dt/h^2 * laplacian(phi)
//   phi -= dt/2 * p
//
// Run it: node examples/dist/wave.js [n] [steps]
import * as da from 'deferred-array';

interface Wave {
  readonly n: number;
  /** Grid spacing and time step (dt = h / 2 keeps the scheme stable). */
  readonly h: number;
  readonly dt: number;
  readonly phi: da.DeferredArray;
  readonly p: da.DeferredArray;
}

/** The initial state as plain arrays: a Gaussian bump in phi at rest (p = 0), zero on the boundary. */
function initialValues(n: number): { phi: Float64Array; p: Float64Array; h: number; dt: number } {
  const h = 1 / (n - 1);
  const phi = new Float64Array(n * n);
  for (let i = 1; i < n - 1; i++) {
    for (let j = 1; j < n - 1; j++) {
      const x = i * h - 0.5;
      const y = j * h - 0.5;
      phi[i * n + j] = Math.exp(-(x * x + y * y) / 0.01);
    }
  }
  return { phi, p: new Float64Array(n * n), h, dt: h / 2 };
}

function makeWave(n: number): Wave {
  const v = initialValues(n);
  return { n, h: v.h, dt: v.dt, phi: da.wrap(v.phi).reshape([n, n]), p: da.wrap(v.p).reshape([n, n]) };
}

/** The 5-point Laplacian of phi over the interior, times h^2. */
function laplacian(phi: da.DeferredArray): da.DeferredArray {
  return phi.get('2:, 1:-1').add(phi.get(':-2, 1:-1')).add(phi.get('1:-1, 2:')).add(phi.get('1:-1, :-2'))
    .sub(phi.get('1:-1, 1:-1').mul(4));
}

/** Enqueues one time step; computes nothing. */
function step(w: Wave): void {
  const half = w.dt / 2;
  w.phi.isub(w.p.mul(half));
  w.p.get('1:-1, 1:-1').isub(laplacian(w.phi).mul(w.dt / (w.h * w.h)));
  w.phi.isub(w.p.mul(half));
}

/** The same steps as a plain JavaScript loop over typed arrays, in the same operation order (bit for bit). */
function stepLoop(phi: Float64Array, p: Float64Array, n: number, h: number, dt: number): void {
  const half = dt / 2;
  const c = dt / (h * h);
  for (let i = 0; i < n * n; i++) phi[i] = phi[i]! - p[i]! * half;
  for (let i = 1; i < n - 1; i++) {
    for (let j = 1; j < n - 1; j++) {
      const k = i * n + j;
      const lap = phi[k + n]! + phi[k - n]! + phi[k + 1]! + phi[k - 1]! - phi[k]! * 4;
      p[k] = p[k]! - lap * c;
    }
  }
  for (let i = 0; i < n * n; i++) phi[i] = phi[i]! - p[i]! * half;
}

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 256);
  const steps = Number(process.argv[3] ?? 100);
  const w = makeWave(n);
  step(w);
  console.log(`one step enqueued: ${da.trace().pending} pending computations\n${da.trace().toDot()}\n`);
  const t0 = performance.now();
  for (let s = 1; s < steps; s++) step(w);
  await da.flush();
  const ms = performance.now() - t0;
  const phi = (await w.phi.execute()) as da.StdNdarray;
  let energy = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) energy += (phi.get(i, j) as number) ** 2;
  console.log(`${steps} steps on ${n}x${n} in ${ms.toFixed(1)} ms; sum of phi^2 = ${energy.toFixed(6)}`);
  await da.shutdown();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

export { makeWave, step, laplacian, stepLoop, initialValues };
export type { Wave };
