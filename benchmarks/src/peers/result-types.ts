// The shape of what `npm run bench` measures (benchmarks/results/bench.json):
// read by the writers of its outputs (outputs.ts, markdown.ts, plots.ts).
import type { Measurement, SystemInfo } from './run.js';
import type { MathRow } from '../vector-math-spec.js';

interface Streaming {
  readonly n: number;
  readonly threads: number;
  /** GB/s of read, copy and triad on one thread and on every worker. */
  readonly one: Record<string, number>;
  readonly all: Record<string, number>;
}

/** Vector math per core: ours and V8's Math from math-child.ts, NumPy from python/math_peers.py; ns per element. */
interface VectorMath {
  readonly n: number;
  readonly rounds: number;
  readonly rows: readonly MathRow[];
  /** Why NumPy has no columns, when it has none. */
  readonly numpySkipped?: string;
}

interface BenchResult {
  readonly date: string;
  readonly minutes: number;
  readonly machine: { readonly cpus: number; readonly model: string; readonly memoryGiB: number; readonly node: string; readonly platform: string };
  readonly quick: boolean;
  readonly rounds: number;
  readonly systems: readonly SystemInfo[];
  readonly streaming: Streaming;
  /** Absent in results written before the table was added. */
  readonly vectorMath?: VectorMath;
  readonly measurements: readonly Measurement[];
  readonly scaling: readonly Measurement[];
}

export type { BenchResult, Streaming, VectorMath };
