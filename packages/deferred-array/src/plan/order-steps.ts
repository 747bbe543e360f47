// The steps of a fused plan in an order that runs each after the steps
// producing what it reads: a node outside every group is a step of its own,
// a group one kernel step.
import type { Node } from '../ir/node.js';
import { InternalError, lookup } from '../util/lookup.js';
import { groupNodes, readBy } from './plan.js';
import type { FusedGroup, Step } from './plan.js';

/** One step per ungrouped node and per group (where its first node is), in node order, then sorted by dependency. */
function orderSteps<G extends object>(nodes: readonly Node[], groupOf: ReadonlyMap<Node, G>, fused: ReadonlyMap<G, FusedGroup>): Step[] {
  const stepOf = new Map<Node, Step>();
  const steps: Step[] = [];
  for (const n of nodes) {
    const g = groupOf.get(n);
    if (!g) {
      const s: Step = { kind: 'node', node: n, release: [] };
      steps.push(s);
      stepOf.set(n, s);
    } else if (!stepOf.has(n)) {
      const group = lookup(fused, g, `the fused group of ${n.op} node ${n.id}`);
      const s: Step = { kind: 'kernel', group, release: [] };
      steps.push(s);
      for (const m of groupNodes(group)) stepOf.set(m, s);
    }
  }
  return topoSortSteps(steps, stepOf);
}

/** Kahn's algorithm over steps, keeping the given order where dependencies allow. */
function topoSortSteps(steps: readonly Step[], stepOf: ReadonlyMap<Node, Step>): Step[] {
  const pending = new Map<Step, number>();
  const users = new Map<Step, Step[]>();
  for (const s of steps) {
    const producers = new Set(readBy(s).map((n) => lookup(stepOf, n, `the step producing ${n.op} node ${n.id}`)).filter((p) => p !== s));
    pending.set(s, producers.size);
    for (const p of producers) users.set(p, [...(users.get(p) ?? []), s]);
  }
  const out: Step[] = [];
  const order = new Map(steps.map((s, i) => [s, i]));
  const place = (s: Step): number => lookup(order, s, 'step position');
  const ready = steps.filter((s) => pending.get(s) === 0);
  for (let s = ready.shift(); s; s = ready.shift()) {
    out.push(s);
    for (const u of users.get(s) ?? []) {
      const left = lookup(pending, u, 'pending count') - 1;
      pending.set(u, left);
      if (left === 0) ready.push(u);
    }
    ready.sort((a, b) => place(a) - place(b));
  }
  if (out.length !== steps.length) throw new InternalError('fused steps form a cycle');
  return out;
}

export { orderSteps };
