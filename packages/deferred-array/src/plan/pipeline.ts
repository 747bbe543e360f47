// The planner: named passes, each (plan) => plan, run top to bottom. A
// backend that runs kernels gets the fusion pass; the reference evaluator
// runs node by node.
import { OutputNameError } from '../ir/errors.js';
import { markOf } from '../ir/marks.js';
import { topoOrder } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import { readBy } from './plan.js';
import type { MarkedOutput, Plan } from './plan.js';
import { fuseElementwise } from './fuse.js';

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

/** Orders every needed node after its inputs. */
const schedule: Pass = (plan) => ({
  ...plan,
  steps: topoOrder([...plan.results, ...plan.outputs.map((o) => o.node)]).map((node) => ({ kind: 'node', node, release: [] })),
});

/** Releases each intermediate value after its last reader, so memory follows the live set. */
const liveness: Pass = (plan) => {
  const keep = new Set<Node>([...plan.results, ...plan.outputs.map((o) => o.node)]);
  const lastUse = new Map<Node, number>();
  plan.steps.forEach((step, i) => {
    for (const input of readBy(step)) lastUse.set(input, i);
  });
  const releaseAt = plan.steps.map(() => [] as Node[]);
  for (const [node, i] of lastUse) if (!keep.has(node)) releaseAt[i]!.push(node);
  return { ...plan, steps: plan.steps.map((s, i) => ({ ...s, release: releaseAt[i]! })) };
};

/** What the backend can run: 'nodes' evaluates node by node; 'kernels' also runs fused groups. */
type Target = 'nodes' | 'kernels';

const PASSES: ReadonlyArray<readonly [string, Pass, readonly Target[]]> = [
  ['collectOutputs', collectOutputs, ['nodes', 'kernels']],
  ['schedule', schedule, ['nodes', 'kernels']],
  ['fuseElementwise', fuseElementwise, ['kernels']],
  ['liveness', liveness, ['nodes', 'kernels']],
];

function planExecution(results: readonly Node[], target: Target = 'nodes'): Plan {
  let plan: Plan = { results, outputs: [], steps: [] };
  for (const [, pass, targets] of PASSES) if (targets.includes(target)) plan = pass(plan);
  return plan;
}

export { planExecution, PASSES };
export type { Pass, Target };
