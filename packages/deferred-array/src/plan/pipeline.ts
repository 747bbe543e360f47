// The planner: named passes, each (plan) => plan, run top to bottom. A
// backend that runs kernels gets the fusion pass; the reference evaluator
// runs node by node.
import { OutputNameError } from '../ir/errors.js';
import { markOf, pinOf } from '../ir/marks.js';
import type { Pin } from '../ir/marks.js';
import { makeNode, topoOrder } from '../ir/node.js';
import { cast, elementwise } from '../ir/build-elementwise.js';
import { reshape } from '../ir/build-view.js';
import { dot, isVectorDot, matmul, vectorDotAsSum } from '../ir/build-linalg.js';
import type { Node } from '../ir/node.js';
import { isWindow, readBy, rootsOf } from './plan.js';
import type { MarkedOutput, Plan, StoreTarget } from './plan.js';
import { fuseElementwise } from './fuse.js';
import { placeTemporaries } from './place-temporaries.js';
import { assignBuffers } from './assign-buffers.js';
import { mergeCommon } from './merge-common.js';
import { reduceStrength } from './strength.js';
import { copyRandomReads } from './copy-random.js';
import { lowerArgExtremes } from './lower-arg-extremes.js';
import { rewriteGraph, withInputs } from './rewrite.js';

type Pass = (plan: Plan) => Plan;

/** Finds the output()-marked nodes under the results and names them output_0.. or by their given name. */
const collectOutputs: Pass = (plan) => {
  const marked = topoOrder(plan.results)
    .map((node) => ({ node, mark: markOf(node) }))
    .filter((m): m is { node: Node; mark: NonNullable<typeof m.mark> } => m.mark !== undefined)
    .sort((a, b) => a.mark.seq - b.mark.seq);
  let unnamed = 0;
  const seen = new Set<string>();
  const outputs: MarkedOutput[] = marked.map(({ node, mark }) => {
    const key = mark.name ?? `output_${unnamed++}`;
    if (seen.has(key)) {
      throw new OutputNameError(`two arrays marked with output('${key}') feed this execute(); give them different names`);
    }
    seen.add(key);
    return { node, key };
  });
  return { ...plan, outputs };
};

/** Finds the pin()- and pinCse()-marked nodes under the results. */
const collectPins: Pass = (plan) => {
  const pins = new Map<Node, Pin>();
  for (const n of topoOrder(rootsOf(plan))) {
    const p = pinOf(n);
    if (p) pins.set(n, p);
  }
  return { ...plan, pins };
};

/**
 * A pinned view (a transpose, a slice) has no array of its own: it becomes a
 * copy (astype to its own dtype, an elementwise kernel), and the pin moves to
 * the copy. A pinCse()d source already is an array; a pin()ned one is copied
 * per block into the kernels' scratch, as asked.
 */
const copyPinnedViews: Pass = (plan) => {
  const pinned = plan.pins;
  if (pinned.size === 0) return plan;
  return rewriteGraph(plan, (n, inputs) => {
    const m = withInputs(n, inputs);
    const kind = pinned.get(n);
    if (!kind || !(isWindow(n) || (kind === 'pin' && n.family === 'source'))) return m;
    return makeNode('astype', [m], m.shape, m.dtype, { label: `${m.dtype} (${kind} copy)` });
  });
};

/**
 * outer(a, b) is a[:, None] * b[None, :] over the flattened operands (NumPy's
 * definition): an elementwise product, so it fuses with what reads it, and
 * its operands (length m and n) are read, never recomputed, per element of
 * the m x n result: they are other groups' stored values.
 */
const lowerOuter: Pass = (plan) => rewriteGraph(plan, (n, inputs) => {
  const m = withInputs(n, inputs);
  if (m.op !== 'outer') return m;
  const [a, b] = m.inputs;
  return elementwise('multiply', [reshape(cast(a, m.dtype), [-1, 1], 'outer'), reshape(cast(b, m.dtype), [1, -1], 'outer')]);
});

/** A dot of two float vectors is a fused sum of their products (isVectorDot), in lanes and on every worker. */
const lowerVectorDots: Pass = (plan) => rewriteGraph(plan, (n, inputs) => {
  const m = withInputs(n, inputs);
  return isVectorDot(m) ? vectorDotAsSum(m) : m;
});

/** Product dtypes narrower than the contraction kernels' int32 lanes. */
const NARROW_PRODUCTS: ReadonlySet<string> = new Set(['int8', 'uint8', 'int16', 'uint16', 'bool']);

/**
 * A matmul or dot of integers narrower than 32 bits (or of bools) is the
 * int32 product the contraction kernels compute, cast back: a sum of
 * products taken mod 2^32 and then mod 2^8 or 2^16 is the sum NumPy wraps at
 * every step, and or-of-ands is a count of ands above zero (K < 2^31).
 */
const widenNarrowProducts: Pass = (plan) => rewriteGraph(plan, (n, inputs) => {
  const m = withInputs(n, inputs);
  if ((m.op !== 'matmul' && m.op !== 'dot') || !NARROW_PRODUCTS.has(m.dtype)) return m;
  // Ordinary nodes (casts around the builder's product), so a compiled plan carries to new sizes.
  const [a, b] = m.inputs.map((x) => cast(x, 'int32')) as [Node, Node];
  return cast(m.op === 'matmul' ? matmul(a, b) : dot(a, b), m.dtype);
});

/** Orders every needed node after its inputs. */
const schedule: Pass = (plan) => ({
  ...plan,
  steps: topoOrder(rootsOf(plan)).map((node) => ({ kind: 'node', node, release: [] })),
});

/** Releases each intermediate value after its last reader, so memory follows the live set. */
const liveness: Pass = (plan) => {
  const keep = new Set<Node>(rootsOf(plan));
  const lastUse = new Map<Node, number>();
  plan.steps.forEach((step, i) => {
    // A stored value nothing reads (a product only its epilogue used) goes with its own step.
    if (step.kind === 'kernel') for (const n of step.group.stores) lastUse.set(n, i);
    for (const input of readBy(step)) lastUse.set(input, i);
  });
  const releaseAt = new Map<number, Node[]>();
  for (const [node, i] of lastUse) {
    if (keep.has(node)) continue;
    const list = releaseAt.get(i);
    if (list) list.push(node);
    else releaseAt.set(i, [node]);
  }
  return { ...plan, steps: plan.steps.map((s, i) => ({ ...s, release: releaseAt.get(i) ?? [] })) };
};

/** What the backend can run: 'nodes' evaluates node by node; 'kernels' also runs fused groups. */
type Target = 'nodes' | 'kernels';

const PASSES: ReadonlyArray<readonly [string, Pass, readonly Target[]]> = [
  ['collectOutputs', collectOutputs, ['nodes', 'kernels']],
  ['collectPins', collectPins, ['nodes', 'kernels']],
  // Before merging and the random reads' copies: its sum of products is a kernel reader like any other.
  ['lowerVectorDots', lowerVectorDots, ['kernels']],
  ['lowerArgExtremes', lowerArgExtremes, ['kernels']],
  ['mergeCommon', mergeCommon, ['nodes', 'kernels']],
  ['reduceStrength', reduceStrength, ['kernels']],
  ['copyRandomReads', copyRandomReads, ['kernels']],
  ['copyPinnedViews', copyPinnedViews, ['kernels']],
  ['lowerOuter', lowerOuter, ['kernels']],
  ['widenNarrowProducts', widenNarrowProducts, ['kernels']],
  ['schedule', schedule, ['nodes', 'kernels']],
  ['placeTemporaries', placeTemporaries, ['kernels']],
  ['fuseElementwise', fuseElementwise, ['kernels']],
  ['liveness', liveness, ['nodes', 'kernels']],
  ['assignBuffers', assignBuffers, ['kernels']],
];

/** Plans `results` (and, for a trace stage, the `stores` into mutable arrays). */
function planExecution(results: readonly Node[], target: Target = 'nodes', stores: readonly StoreTarget[] = []): Plan {
  let plan: Plan = { results, outputs: [], stores, pins: new Map(), temps: new Map(), pinNotes: new Map(), steps: [], buffers: [], bufferOf: new Map() };
  for (const [, pass, targets] of PASSES) if (targets.includes(target)) plan = pass(plan);
  return plan;
}

export { planExecution, PASSES };
export type { Pass, Target };
