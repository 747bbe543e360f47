// What a system's answer is checked by: its length, its sum, and samples at
// fixed places, compared with the reference evaluator's within the case's
// tolerance. A faster wrong answer is reported as wrong, not as fast.

interface Summary {
  readonly length: number;
  readonly sum: number;
  /** Sum of magnitudes: the scale the sum's error is measured against. */
  readonly sumAbs: number;
  /** Elements at SAMPLES evenly spaced places. */
  readonly samples: readonly number[];
}

const SAMPLES = 33;

function summarize(x: number | ArrayLike<number>): Summary {
  if (typeof x === 'number') return { length: 1, sum: x, sumAbs: Math.abs(x), samples: [x] };
  const n = x.length;
  // Neumaier's compensated sum: the summary's own rounding must stay far below every tolerance.
  let sum = 0;
  let comp = 0;
  let sumAbs = 0;
  for (let i = 0; i < n; i++) {
    const v = x[i]!;
    const t = sum + v;
    comp += Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum;
    sum = t;
    sumAbs += Math.abs(v);
  }
  sum += comp;
  const samples = n === 0 ? [] : Array.from({ length: Math.min(SAMPLES, n) }, (_, k) => x[Math.floor((k * (n - 1)) / Math.max(1, Math.min(SAMPLES, n) - 1))]!);
  return { length: n, sum, sumAbs, samples };
}

/** Why `got` is not `ref` within relative tolerance `tol`, or undefined when it is. */
function disagreement(ref: Summary, got: Summary, tol: number): string | undefined {
  if (got.length !== ref.length) return `${got.length} elements, expected ${ref.length}`;
  const scale = Math.max(...ref.samples.map(Math.abs), 0);
  for (let k = 0; k < ref.samples.length; k++) {
    const r = ref.samples[k]!;
    const g = got.samples[k]!;
    const bound = tol * Math.max(Math.abs(r), 1e-3 * scale);
    if (!(Math.abs(g - r) <= bound) && !(Number.isNaN(r) && Number.isNaN(g))) {
      return `sample ${k} is ${g}, expected ${r} (relative error ${(Math.abs(g - r) / Math.abs(r || 1)).toExponential(1)}, tolerance ${tol})`;
    }
  }
  if (!(Math.abs(got.sum - ref.sum) <= tol * ref.sumAbs)) {
    return `sum is ${got.sum}, expected ${ref.sum} (relative error ${(Math.abs(got.sum - ref.sum) / ref.sumAbs).toExponential(1)}, tolerance ${tol})`;
  }
  return undefined;
}

export { summarize, disagreement };
export type { Summary };
