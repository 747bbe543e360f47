// Combines the partials of a fused reduction: each output's pieces (its run
// of elements cut at block boundaries) pairwise, in element order, so the
// result depends on the data alone (never on how blocks were shared between
// workers). A scan's pieces are combined in element order into the running
// value each piece starts from.
import type { KernelSpec, LaunchResult } from 'kernels-wasm';
import type { DType } from '../ir/dtypes.js';
import type { ReduceOp } from '../ir/op-table.js';
import { fmax, fmin } from '../reference/scalar-math.js';
import { wrapper } from '../reference/scalar-math-64.js';

type Combine = (a: number, b: number) => number;

function combiner(op: ReduceOp, compute: DType): Combine {
  const r = compute === 'float32' ? Math.fround : (x: number) => x;
  const isFloat = compute === 'float32' || compute === 'float64';
  switch (op) {
    case 'sum': case 'mean': return (a, b) => r(a + b);
    case 'prod': return (a, b) => r(a * b);
    case 'min': return isFloat ? fmin : Math.min;
    case 'max': return isFloat ? fmax : Math.max;
    case 'any': return (a, b) => (a || b ? 1 : 0);
    case 'all': return (a, b) => (a && b ? 1 : 0);
    default: throw new Error(`internal: ${op} is not a fused reduction`);
  }
}

function identityOf(op: ReduceOp): number {
  return op === 'prod' || op === 'all' ? 1 : 0;
}

/**
 * Made once per reduction, called once per output: combines
 * partials[piece * slots + slot] for pieces [from, to) as a balanced tree.
 */
function partialsCombiner(partials: Float64Array, slots: number, slot: number, op: ReduceOp, compute: DType):
  (from: number, to: number) => number {
  const f = combiner(op, compute);
  const identity = identityOf(op);
  const tree = (lo: number, hi: number): number => {
    if (hi - lo === 1) return partials[lo * slots + slot]!;
    const mid = lo + Math.floor((hi - lo) / 2);
    return f(tree(lo, mid), tree(mid, hi));
  };
  return (from, to) => (to <= from ? identity : tree(from, to));
}

/**
 * Made once per argmax or argmin, called once per output: the position of
 * the winning (value, position) partial among pieces [from, to), by NumPy's
 * rule (kernels-wasm's arg-extremes.ts): the greater value (argmin: the
 * smaller), of equal ones the earlier; a NaN beats any number, and of two
 * NaNs the earlier wins. Every piece holds at least one element.
 */
function positionCombiner(partials: Float64Array, slots: number, slot: number, positionSlot: number, op: 'argmax' | 'argmin'):
  (from: number, to: number) => number {
  const beats = (a: number, ia: number, b: number, ib: number): boolean => {
    if (Number.isNaN(b)) return !Number.isNaN(a) || ib < ia;
    if (Number.isNaN(a)) return false;
    return (op === 'argmax' ? b > a : b < a) || (b === a && ib < ia);
  };
  return (from, to) => {
    let a = partials[from * slots + slot]!;
    let ia = partials[from * slots + positionSlot]!;
    for (let p = from + 1; p < to; p++) {
      const b = partials[p * slots + slot]!;
      const ib = partials[p * slots + positionSlot]!;
      if (beats(a, ia, b, ib)) { a = b; ia = ib; }
    }
    return ia;
  };
}

/**
 * partialsCombiner for a reduction computing in int64 or uint64, whose
 * partials hold the accumulators' bits: sums and products wrap (so any order
 * gives the same bits), extremes compare.
 */
function partialsCombiner64(partials: Float64Array, slots: number, slot: number, op: ReduceOp, compute: DType): (from: number, to: number) => bigint {
  const bits = compute === 'int64' ? new BigInt64Array(partials.buffer, partials.byteOffset, partials.length)
    : new BigUint64Array(partials.buffer, partials.byteOffset, partials.length);
  const wrap = wrapper(compute);
  const f = op === 'sum' ? (a: bigint, b: bigint) => wrap(a + b) : op === 'prod' ? (a: bigint, b: bigint) => wrap(a * b)
    : op === 'min' ? (a: bigint, b: bigint) => (b < a ? b : a) : (a: bigint, b: bigint) => (b > a ? b : a);
  const tree = (lo: number, hi: number): bigint => {
    if (hi - lo === 1) return bits[lo * slots + slot]!;
    const mid = lo + Math.floor((hi - lo) / 2);
    return f(tree(lo, mid), tree(mid, hi));
  };
  // An empty run only reaches sums and products (NumPy refuses the extremes of nothing).
  return (from, to) => (to <= from ? (op === 'prod' ? 1n : 0n) : tree(from, to));
}

/**
 * Each piece's starting value for scan kernel `spec`, from the piece totals of
 * the same space (`totals`: a reduction kernel over it): along each of the
 * `lines` lines of `segment` elements, the running sum or product of the
 * totals of the pieces before, rounded in the scan's type at each step as the
 * kernel rounds. Laid out as the kernel's partials: [piece * slots + slot].
 */
function scanStarts(totals: LaunchResult, spec: KernelSpec, lines: number, segment: number): Float64Array {
  const slots = spec.slots;
  const out = new Float64Array(totals.pieces * slots);
  for (const ins of spec.body) {
    if (ins.op !== 'scan') continue;
    const { fn, slot } = ins;
    const f = combiner(fn, ins.type);
    for (let line = 0; line < lines; line++) {
      // A line's pieces run up to the first piece of the next line (a piece never spans two).
      const end = line + 1 < lines ? totals.pieceIndex((line + 1) * segment) : totals.pieces;
      let acc = identityOf(fn);
      for (let p = totals.pieceIndex(line * segment); p < end; p++) {
        out[p * slots + slot] = acc;
        acc = f(acc, totals.partials[p * slots + slot]!);
      }
    }
  }
  return out;
}

export { partialsCombiner, partialsCombiner64, positionCombiner, scanStarts, combiner };
