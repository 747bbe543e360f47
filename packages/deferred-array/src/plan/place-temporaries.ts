// placeTemporaries: lappy's pin(). A pinned elementwise value is not a step:
// each kernel that reads it computes it per block, into its scratch, over the
// part of it the block reads, from the elementwise nodes it is made of (its
// cone, recomputed there even where other steps compute them too) and the
// values those read from memory. The cone stops at values that live in memory
// anyway: sources, views, pinCse() values, non-elementwise results, and ops
// that count elements for errors (computed per block, an element read by
// several blocks would count more than once).
//
// A pin is not honoured, and the value is planned as if unpinned, where it
// must be an array: a result or marked output, or read by a step that reads
// it whole (a matrix product, a reshape that copies, a host op). explain()
// says which, and why.
import type { Node } from '../ir/node.js';
import { consumersOf, countsElements, isElementwise, isFusedReduction, rootsOf } from './plan.js';
import type { PinnedTemp, Plan } from './plan.js';

/** The elementwise nodes `k` is computed from (k last), and what they read from memory. */
function coneOf(k: Node, plan: Plan, order: ReadonlyMap<Node, number>): PinnedTemp {
  const inCone = (n: Node): boolean => n === k || (isElementwise(n) && plan.pins.get(n) !== 'pinCse' && !countsElements(n));
  const members = new Set<Node>();
  const inputs = new Set<Node>();
  const stack = [k];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (members.has(n)) continue;
    members.add(n);
    for (const i of n.inputs) {
      if (inCone(i)) stack.push(i);
      else inputs.add(i);
    }
  }
  const sorted = [...members].sort((a, b) => order.get(a)! - order.get(b)!);
  return { node: k, members: sorted, inputs: [...inputs].filter((i) => !members.has(i)) };
}

/** Why `k` cannot be a per-block temporary, or undefined when it can. */
function refusal(k: Node, wanted: boolean, readers: readonly Node[]): string | undefined {
  if (!isElementwise(k)) return `${k.op} is not elementwise`;
  if (wanted) return 'it is a result or a marked output, which has its own array';
  if (countsElements(k)) return `${k.op} counts elements for its errors, which a per-block temporary would count once per block`;
  const whole = readers.find((c) => !isElementwise(c) && !isFusedReduction(c));
  if (whole) return `${whole.op} reads it whole`;
  return undefined;
}

function placeTemporaries(plan: Plan): Plan {
  if (![...plan.pins.values()].includes('pin')) return plan;
  const nodes = plan.steps.map((s) => {
    if (s.kind !== 'node') throw new Error('internal: placeTemporaries runs before fusion');
    return s.node;
  });
  const order = new Map(nodes.map((n, i) => [n, i]));
  const wanted = new Set<Node>(rootsOf(plan));
  const consumers = consumersOf(nodes);
  // Newest first: whether a node is a step depends on the steps that read it.
  const steps = new Set<Node>();
  const readByTemps = new Set<Node>();
  const temps = new Map<Node, PinnedTemp>();
  const pinNotes = new Map<Node, string>();
  for (const n of [...nodes].reverse()) {
    const readers = (consumers.get(n) ?? []).filter((c) => steps.has(c));
    if (plan.pins.get(n) === 'pin') {
      const why = refusal(n, wanted.has(n), readers);
      if (why === undefined) {
        // Only read inside other temporaries: computed there, nothing to place.
        if (readers.length === 0) continue;
        const t = coneOf(n, plan, order);
        temps.set(n, t);
        for (const i of t.inputs) readByTemps.add(i);
        continue;
      }
      pinNotes.set(n, why);
    }
    if (wanted.has(n) || readers.length > 0 || readByTemps.has(n)) steps.add(n);
  }
  return { ...plan, temps, pinNotes, steps: plan.steps.filter((s) => s.kind === 'node' && steps.has(s.node)) };
}

export { placeTemporaries };
