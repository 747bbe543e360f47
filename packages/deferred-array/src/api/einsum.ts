// NumPy's einsum, lowered to the package's own nodes: a repeated label takes a
// diagonal, a label no one else needs is summed where it stands, and operands
// meet in pairs (greedy order) as a matrix product over the labels they share
// and drop, or as a fused multiply where they drop none. Each step is an
// ordinary node, so the planner fuses the elementwise work around it.
import { ShapeError } from '../ir/errors.js';
import { isFloat } from '../ir/dtypes.js';
import { promoteTypes } from '../ir/promotion.js';
import { ones } from './creation.js';
import { wrapNode } from './deferred-array.js';
import type { DeferredArray } from './deferred-array.js';
import { greedyPath, keptLabels } from './einsum-path.js';
import { resolveLabels, splitArguments } from './einsum-subscripts.js';
import { diagonal } from './matrices.js';
import { matmul, reshape, squeeze, sum, transpose } from './shaping.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';
import { add, multiply } from './ufuncs.generated.js';

/** An operand on its way: the array and the label of each of its axes. */
interface Term {
  readonly x: DeferredArray;
  readonly labels: readonly string[];
  /** A product summed into nothing yet: where NumPy's zeroed output turns -0 into +0, this still has -0. */
  readonly unsummed?: boolean;
}

/** An interleaved-form sublist: label numbers in [0, 52), '...' for the ellipsis. */
type Sublist = ReadonlyArray<number | '...'>;

const quote = (l: string): string => (l.startsWith('…') ? `the ellipsis axis ${l.slice(1)}` : `'${l}'`);

/** The array with its axes in the order of `labels` (a permutation of its own). */
function arrange(t: Term, labels: readonly string[]): DeferredArray {
  const perm = labels.map((l) => t.labels.indexOf(l));
  return perm.every((p, i) => p === i) ? t.x : transpose(t.x, perm);
}

/** Folds repeated labels into diagonals: 'ii' becomes one axis 'i' (last, as diagonal() puts it). */
function diagonals(t: Term, operand: number): Term {
  let { x, labels } = t;
  for (;;) {
    const p = labels.findIndex((l, i) => labels.indexOf(l) !== i);
    if (p < 0) return { x, labels };
    const label = labels[p]!;
    const first = labels.indexOf(label);
    if (x.shape[first] !== x.shape[p]) {
      throw new ShapeError(
        `einsum: label ${quote(label)} repeats in operand ${operand} over axes of lengths ${x.shape[first]} and ${x.shape[p]}; ` +
        'a repeated label takes a diagonal, so the lengths must match',
      );
    }
    x = diagonal(x, { axis1: first, axis2: p });
    labels = [...labels.filter((_, i) => i !== first && i !== p), label];
  }
}

/** Each label's length over all operands; a length of 1 broadcasts against any other. */
function labelSizes(terms: readonly Term[], text: string): Map<string, number> {
  const sizes = new Map<string, number>();
  const where = new Map<string, number>();
  terms.forEach((t, k) => t.labels.forEach((l, axis) => {
    const n = t.x.shape[axis]!;
    const known = sizes.get(l);
    if (known === undefined || known === 1) {
      sizes.set(l, n);
      where.set(l, k);
    } else if (n !== 1 && n !== known) {
      throw new ShapeError(
        `einsum: ${quote(l)} in ${JSON.stringify(text)} has length ${known} in operand ${where.get(l)} and ${n} in operand ${k}; ` +
        'the lengths of a label must match (or be 1, which broadcasts)',
      );
    }
  }));
  return sizes;
}

/** Drops axes of length 1 whose label has another length (0 too) elsewhere: the operand is constant along them. */
function dropBroadcast(t: Term, sizes: ReadonlyMap<string, number>): Term {
  const axes = t.labels.flatMap((l, i) => (t.x.shape[i] === 1 && sizes.get(l) !== 1 ? [i] : []));
  if (axes.length === 0) return t;
  return { x: squeeze(t.x, axes), labels: t.labels.filter((_, i) => !axes.includes(i)) };
}

/**
 * Sums the labels not in `keep`. Floats use the fused sum; integers and bools
 * a product with ones, which keeps NumPy's einsum dtype (integers wrap, bools
 * are or-of-ands) where sum() would widen.
 */
function sumOut(t: Term, keep: ReadonlySet<string>): Term {
  const kept = t.labels.filter((l) => keep.has(l));
  if (kept.length === t.labels.length) return t;
  const gone = t.labels.filter((l) => !keep.has(l));
  if (isFloat(t.x.dtype)) return { x: sum(t.x, { axis: gone.map((l) => t.labels.indexOf(l)) }), labels: kept };
  const keptShape = kept.map((l) => t.x.shape[t.labels.indexOf(l)]!);
  const inner = gone.reduce((p, l) => p * t.x.shape[t.labels.indexOf(l)]!, 1);
  const rows = keptShape.reduce((p, n) => p * n, 1);
  const product = matmul(reshape(arrange(t, [...kept, ...gone]), [rows, inner]), ones([inner], { dtype: t.x.dtype }));
  return { x: reshape(product, keptShape), labels: kept };
}

/** The product of two terms over the labels they share, keeping the labels in `kept`. */
function contract(a: Term, b: Term, kept: readonly string[]): Term {
  const keep = new Set(kept);
  const inB = new Set(b.labels);
  const inA = new Set(a.labels);
  const batch = a.labels.filter((l) => inB.has(l) && keep.has(l));
  const inner = a.labels.filter((l) => inB.has(l) && !keep.has(l));
  const ownA = a.labels.filter((l) => !inB.has(l));
  const ownB = b.labels.filter((l) => !inA.has(l));
  const length = (t: Term, l: string): number => t.x.shape[t.labels.indexOf(l)]!;
  const lengths = (t: Term, ls: readonly string[]): number[] => ls.map((l) => length(t, l));
  const count = (t: Term, ls: readonly string[]): number => ls.reduce((p, l) => p * length(t, l), 1);
  const dtype = promoteTypes(a.x.dtype, b.x.dtype);
  if (inner.length === 0 || (ownA.length === 0 && ownB.length === 0 && isFloat(dtype))) {
    // Nothing to sum over but shared labels (or only shared ones, in floats): a broadcast multiply, fused with what follows.
    const x = reshape(arrange(a, [...batch, ...inner, ...ownA]), [...lengths(a, [...batch, ...inner, ...ownA]), ...ownB.map(() => 1)]);
    const y = reshape(arrange(b, [...batch, ...inner, ...ownB]), [...lengths(b, [...batch, ...inner]), ...ownA.map(() => 1), ...lengths(b, ownB)]);
    return sumOut({ x: multiply(x, y), labels: [...batch, ...inner, ...ownA, ...ownB], unsummed: true }, keep);
  }
  const [m, k, n] = [count(a, ownA), count(a, inner), count(b, ownB)];
  const lead = batch.length === 0 ? [] : [count(a, batch)];
  const x = reshape(arrange(a, [...batch, ...ownA, ...inner]), [...lead, m, k]);
  const y = reshape(arrange(b, [...batch, ...inner, ...ownB]), [...lead, k, n]);
  return { x: reshape(matmul(x, y), [...lengths(a, batch), ...lengths(a, ownA), ...lengths(b, ownB)]), labels: [...batch, ...ownA, ...ownB] };
}

/**
 * NumPy's einsum: `einsum('ij,jk->ik', a, b)`, or the interleaved form
 * `einsum(a, [0, 1], b, [1, 2], [0, 2])`. Implicit output (no '->'): the
 * ellipsis axes, then the labels used once in code-point order. Labels of
 * length 1 broadcast; a repeated label takes a diagonal. The result's dtype
 * is the operands' promoted dtype (integers wrap, as NumPy's einsum does).
 */
function einsum(subscripts: string, ...operands: Operand[]): DeferredArray;
function einsum(...interleaved: Array<Operand | Sublist>): DeferredArray;
function einsum(...args: unknown[]): DeferredArray {
  const { operands, inputs, output, text } = splitArguments(args);
  const arrays = operands.map((o, i) => wrapNode(anyNode(o, 'einsum', i)));
  const spec = resolveLabels(inputs, output, arrays.map((x) => x.ndim), text);
  let terms = arrays.map((x, i) => diagonals({ x, labels: spec.inputs[i]! }, i));
  const sizes = labelSizes(terms, text);
  terms = terms.map((t) => dropBroadcast(t, sizes));
  // A label that only one operand has, and the output does not, is summed before any product.
  const alone = terms;
  terms = alone.map((t, i) => sumOut(t, new Set([...spec.output, ...alone.flatMap((u, j) => (j === i ? [] : u.labels))])));
  const path = greedyPath(terms.map((t) => t.labels), spec.output, sizes);
  const list = [...terms];
  for (const [i, j] of path) {
    const kept = keptLabels(list.map((t) => t.labels), i, j, spec.output);
    const [a, b] = [list[i]!, list[j]!];
    list.splice(j, 1);
    list.splice(i, 1);
    list.push(contract(a, b, kept));
  }
  const last = sumOut(list[0]!, new Set(spec.output));
  // A fresh view even when nothing moved: the result is never the operand object itself.
  const result = transpose(last.x, spec.output.map((l) => last.labels.indexOf(l)));
  // NumPy's einsum adds every product into a zeroed output, so a float product of -0 comes out +0
  // (sums and matrix products here start from +0 as well; a lone operand is a view, -0 kept).
  return last.unsummed === true && isFloat(result.dtype) ? add(result, 0) : result;
}

export { einsum };
export type { Sublist };
