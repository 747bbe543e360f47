// fuseElementwise: gathers elementwise nodes over one iteration space into
// groups that run as one kernel (one pass over memory, no temporaries), with
// the reductions that end them (over every axis, or over one set of axes). A group's members may have
// several consumers and several may be stored (NEP output() marks, results,
// or values read by other steps). A matmul or dot starts a
// group of its own, whose members are its elementwise epilogue. A scan
// (cumsum, cumprod) ends a group as a reduction does, along one axis; its
// value is stored whole, and the group takes no further members.
//
// Three phases: the nodes are grouped (fuse-grouping.ts), each group is
// finished into what a backend runs (what it reads, computes per block and
// stores), and the steps are ordered (order-steps.ts).
import type { Node } from '../ir/node.js';
import { InternalError } from '../util/lookup.js';
import { consumersOf, groupNodes, isFusedTake, rootsOf } from './plan.js';
import type { FusedGroup, FusedTake, Plan } from './plan.js';
import { Grouping } from './fuse-grouping.js';
import type { Building } from './fuse-grouping.js';
import { orderSteps } from './order-steps.js';

/** The plan's steps as nodes: fusion runs once, on the schedule. */
function scheduledNodes(plan: Plan): Node[] {
  return plan.steps.map((s) => {
    if (s.kind !== 'node') throw new InternalError('fuseElementwise runs once, on node steps');
    return s.node;
  });
}

/** What finishing a group needs to know of the whole plan. */
interface Context {
  readonly plan: Plan;
  /** The values the plan must produce. */
  readonly wanted: ReadonlySet<Node>;
  /** Every value's readers among the steps (a pinned temporary's cone recomputes what it reads of them). */
  readonly consumers: ReadonlyMap<Node, readonly Node[]>;
  /** What pinned temporaries' cones read from memory: stored by whichever kernel computes it. */
  readonly readByTemps: ReadonlySet<Node>;
}

/** g as a backend runs it: what it reads from memory, the temporaries it computes per block, and what it stores. */
function finishGroup(g: Building, { plan, wanted, consumers, readByTemps }: Context): FusedGroup {
  const all = groupNodes(g);
  const inGroup = new Set<Node>(all);
  const read = [...new Set(all.flatMap((m) => m.inputs).filter((i) => !inGroup.has(i)))];
  const temps = read.flatMap((i) => plan.temps.get(i) ?? []);
  const inputs = [...new Set([...read.filter((i) => !plan.temps.has(i)), ...temps.flatMap((t) => t.inputs)])];
  // A cone's member may be this group's member too (the cone recomputes it), so its reading of m does not
  // show as a reader outside the group: readByTemps says so instead.
  const stored = g.members.filter((m) => wanted.has(m) || readByTemps.has(m) || (consumers.get(m) ?? []).some((c) => !inGroup.has(c)));
  const stores = [...(g.contraction ? [g.contraction] : []), ...stored, ...g.scans];
  const raising = g.members.filter((m): m is FusedTake => isFusedTake(m) && m.attrs.mode === 'raise');
  return Object.freeze({
    id: g.id, shape: g.shape, members: g.members, reductions: g.reductions, inputs, stores, ...(g.scans.length ? { scans: g.scans } : {}),
    ...(g.contraction ? { contraction: g.contraction } : {}), ...(temps.length ? { temps } : {}), ...(raising.length ? { raising } : {}),
  });
}

function fuseElementwise(plan: Plan): Plan {
  const nodes = scheduledNodes(plan);
  const grouping = new Grouping(plan);
  for (const n of nodes) grouping.add(n);
  // Pinned temporaries are not steps, but what their cones read must be stored by the kernels computing it
  // (readByTemps); what a cone recomputes is not read from memory, so its members are no readers here.
  const consumers = consumersOf(nodes);
  const readByTemps = new Set([...plan.temps.values()].flatMap((t) => t.inputs));
  const context: Context = { plan, wanted: new Set(rootsOf(plan)), consumers, readByTemps };
  const fused = new Map(grouping.groups.filter((g) => !grouping.isMerged(g)).map((g) => [g, finishGroup(g, context)]));
  return { ...plan, steps: orderSteps(nodes, grouping.groupOf, fused) };
}

export { fuseElementwise };
