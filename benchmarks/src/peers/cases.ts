// The peer benchmark's cases: what each computes, on which inputs, how many
// bytes one ideal pass moves, and how close a system's answer must come to
// the reference evaluator's. Every system (systems/*.ts, python/child.py)
// writes each case the way its users would.
import type { StreamName } from '../streaming.js';
import { uniform } from './data.js';

type CaseId =
  | 'foo' | 'foo-folded' | 'chain' | 'sincos' | 'blackscholes'
  | 'wave' | 'matmul' | 'matvec' | 'call' | 'call-compiled';

interface CaseSpec {
  readonly id: CaseId;
  readonly title: string;
  /** Elementwise cases are swept over sizes; the others have one size (n x n for wave, matmul, matvec). */
  readonly elementwise: boolean;
  /** float64 inputs of size n (their ranges are part of the case). */
  inputs(n: number): Float64Array[];
  /** Elements the inputs hold at size n: what a run's memory and time grow with. */
  elements(n: number): number;
  /** Arrays of n elements one ideal pass reads and writes (GB/s = this x element size x n / time); 0 where not plotted as bandwidth. */
  readonly arraysMoved: number;
  /** Which streaming kernel bounds the case: a reduction reads, two inputs and an output is a triad. */
  readonly limit: StreamName;
  /** Relative tolerance against the float64 reference, for float64 and for float32 systems. */
  readonly tol: { readonly float64: number; readonly float32: number };
}

const DEG = [-180, 180] as const;
/** The wave's time steps per timed run, so a run is long enough to time and short enough to interleave. */
const WAVE_STEPS = 10;

/** Black-Scholes' fixed rate and volatility (numexpr's benchmark uses these). */
const BS = { r: 0.02, v: 0.3 } as const;

const CASES: readonly CaseSpec[] = [
  {
    id: 'foo', title: 'NEP foo as written: sum((x * pi / 180)^2)', elementwise: true,
    elements: (n) => n, inputs: (n) => [uniform(n, 1, ...DEG)], arraysMoved: 1, limit: 'read', tol: { float64: 1e-10, float32: 1e-4 },
  },
  {
    id: 'foo-folded', title: 'NEP foo folded: sum((x * (pi / 180))^2)', elementwise: true,
    elements: (n) => n, inputs: (n) => [uniform(n, 1, ...DEG)], arraysMoved: 1, limit: 'read', tol: { float64: 1e-10, float32: 1e-4 },
  },
  {
    id: 'chain', title: '10-op chain, 2 inputs, result handed back', elementwise: true,
    elements: (n) => 2 * n, inputs: (n) => [uniform(n, 2, ...DEG), uniform(n, 3, ...DEG)], arraysMoved: 3, limit: 'triad', tol: { float64: 1e-12, float32: 1e-4 },
  },
  {
    id: 'sincos', title: 'sin(a)^2 + cos(b)^2', elementwise: true,
    elements: (n) => 2 * n, inputs: (n) => [uniform(n, 4, ...DEG), uniform(n, 5, ...DEG)], arraysMoved: 3, limit: 'triad', tol: { float64: 1e-12, float32: 1e-4 },
  },
  {
    id: 'blackscholes', title: 'Black-Scholes call prices (log, sqrt, exp, tanh CDF)', elementwise: true,
    elements: (n) => 3 * n, inputs: (n) => [uniform(n, 6, 5, 30), uniform(n, 7, 1, 100), uniform(n, 8, 0.25, 10)], arraysMoved: 4, limit: 'triad',
    tol: { float64: 1e-10, float32: 1e-3 },
  },
  {
    id: 'wave', title: `PyOP2 wave, ${WAVE_STEPS} steps per run`, elementwise: false,
    elements: (n) => 2 * n * n, inputs: () => [], arraysMoved: 0, limit: 'triad', tol: { float64: 1e-12, float32: 1e-3 },
  },
  {
    id: 'matmul', title: 'matmul', elementwise: false,
    elements: (n) => 2 * n * n, inputs: (n) => [uniform(n * n, 9, -1, 1), uniform(n * n, 10, -1, 1)], arraysMoved: 0, limit: 'read', tol: { float64: 1e-12, float32: 1e-4 },
  },
  {
    id: 'matvec', title: 'matvec', elementwise: false,
    elements: (n) => n * n + n, inputs: (n) => [uniform(n * n, 11, -1, 1), uniform(n, 12, -1, 1)], arraysMoved: 0, limit: 'read', tol: { float64: 1e-12, float32: 1e-4 },
  },
  {
    id: 'call', title: '10-op call on small arrays (graph built per call)', elementwise: false,
    elements: (n) => 2 * n, inputs: (n) => [uniform(n, 2, ...DEG), uniform(n, 3, ...DEG)], arraysMoved: 3, limit: 'triad', tol: { float64: 1e-12, float32: 1e-4 },
  },
  {
    id: 'call-compiled', title: '10-op call on small arrays, compiled (da.compile, jax jit)', elementwise: false,
    elements: (n) => 2 * n, inputs: (n) => [uniform(n, 2, ...DEG), uniform(n, 3, ...DEG)], arraysMoved: 3, limit: 'triad', tol: { float64: 1e-12, float32: 1e-4 },
  },
];

const caseById = (id: string): CaseSpec => {
  const c = CASES.find((k) => k.id === id);
  if (!c) throw new Error(`no benchmark case '${id}' (cases: ${CASES.map((k) => k.id).join(', ')})`);
  return c;
};

/** The standard normal CDF through tanh (the approximation every system here has): 0.5 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))). */
const CDF_K = Math.sqrt(2 / Math.PI);
const CDF_C = 0.044715;

/** The wave's initial state, n x n, as examples/wave.ts makes it. */
export { initialValues as waveInitial, stepLoop as waveStepLoop } from 'deferred-array-examples/wave';

/** The system id of our execute() on `workers` workers, in the worker-scaling groups. */
const scalingId = (workers: number): string => `ours-t${workers}`;

/** The worker count a scaling system's id names; undefined for every other system. */
function scalingWorkers(id: string): number | undefined {
  const m = /^ours-t(\d+)$/.exec(id);
  return m ? Number(m[1]) : undefined;
}

export { CASES, caseById, BS, CDF_K, CDF_C, WAVE_STEPS, scalingId, scalingWorkers };
export type { CaseId, CaseSpec };
