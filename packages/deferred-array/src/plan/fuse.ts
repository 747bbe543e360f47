// fuseElementwise: gathers elementwise nodes over one iteration space into
// groups that run as one kernel (one pass over memory, no temporaries), with
// the reductions that end them (over every axis, or over one set of axes). A group's members may have
// several consumers and several may be stored (NEP output() marks, results,
// or values read by other steps). A floating-point matmul or dot starts a
// group of its own, whose members are its elementwise epilogue. A scan
// (cumsum, cumprod) ends a group as a reduction does, along one axis; its
// value is stored whole, and the group takes no further members.
//
// A node joins the group of one of its inputs, or a group that already reads
// one of its inputs (siblings: sin(x) and cos(x) read x once), and only if none
// of its inputs depends on that group through nodes outside it; otherwise the
// group would have to run both before and after those nodes. The groups of its
// other inputs join too where neither depends on the other (x*x + y*y is one
// kernel, not x*x stored for a second).
import type { Node } from '../ir/node.js';
import { sameShape } from '../ir/shape.js';
import { consumersOf, isFusedReduction, isFusedScan, groupNodes, isElementwise, isWindow, rootsOf, windowBase } from './plan.js';
import type { Contraction, FusedGroup, FusedReduction, FusedScan, Plan, Step } from './plan.js';

interface Building {
  readonly id: number;
  readonly shape: readonly number[];
  readonly members: Node[];
  readonly reductions: FusedReduction[];
  readonly scans: FusedScan[];
  contraction?: Contraction;
  /** Groups this group needs to have run first. */
  readonly deps: Set<number>;
  /** Closed to further members: it computes a pinCse() value, which its consumers read from memory. */
  sealed: boolean;
}

/** Products the contraction kernels compute (float64, float32); others run through the reference evaluator. */
const isContraction = (n: Node): n is Contraction => (n.op === 'matmul' || n.op === 'dot') && (n.dtype === 'float64' || n.dtype === 'float32');

/** A group's reductions and scans: values that exist only once the group has run. */
const endsOf = (g: Building): readonly Node[] => [...g.reductions, ...g.scans];

function fuseElementwise(plan: Plan): Plan {
  const nodes = plan.steps.map((s) => {
    if (s.kind !== 'node') throw new Error('internal: fuseElementwise runs once, on node steps');
    return s.node;
  });
  const groups: Building[] = [];
  const groupOf = new Map<Node, Building>();
  /** Groups reading each value from outside: siblings fuse there, reading the value once. */
  const readers = new Map<Node, Set<Building>>();
  /** Groups reading windows of each value (a stencil's shifted slices): siblings too, the array read once, neighbours from cache. */
  const windowReaders = new Map<Node, Set<Building>>();
  /** For a node outside every group: the groups its value is computed from, directly or through other such nodes. */
  const outsideDeps = new Map<Node, Set<number>>();
  /** A group merged into another (see merge), to the group it joined. */
  const mergedInto = new Map<number, number>();
  /** The group `id` is now: itself, or the one it was merged into. */
  const live = (id: number): number => {
    let at = id;
    while (mergedInto.has(at)) at = mergedInto.get(at)!;
    return at;
  };
  /** Every group reachable from `ids` through the groups' direct dependencies, as they stand now. */
  const reach = (ids: Iterable<number>): Set<number> => {
    const seen = new Set<number>();
    const stack = [...ids];
    while (stack.length > 0) {
      const id = live(stack.pop()!);
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...groups[id]!.deps);
    }
    return seen;
  };
  /**
   * The groups that must run before `n`'s value exists, seen from group `g`:
   * none for a member of g, but a reduction of g exists only after g has run.
   */
  const directOf = (n: Node, g?: Building): Set<number> => {
    const h = groupOf.get(n);
    if (h) return h === g && !endsOf(h).includes(n) ? new Set() : new Set([h.id]);
    // A pinned temporary is computed inside the kernels that read it, before their members, from what its
    // cone reads: a value g itself computes is not there yet, so the temporary depends on g.
    const t = plan.temps.get(n);
    if (t) return new Set(t.inputs.flatMap((i) => (g && groupOf.get(i) === g ? [g.id] : [...directOf(i, g)])));
    return outsideDeps.get(n) ?? new Set();
  };
  const canJoin = (n: Node, g: Building): boolean => n.inputs.every((j) => !reach(directOf(j, g)).has(g.id));
  /**
   * Whether plain elementwise group h can become part of g as n joins g:
   * neither runs after the other, and no other input of n is computed from h
   * outside it (n would then wait for a value that waits for n's group).
   */
  const canMerge = (h: Building, g: Building, n: Node): boolean =>
    !h.sealed && !g.sealed && h.members.length > 0 && h.reductions.length === 0 && h.scans.length === 0 && !h.contraction && !g.contraction &&
    sameShape(h.shape, g.shape) && !reach(h.deps).has(g.id) && !reach(g.deps).has(h.id) &&
    n.inputs.every((j) => groupOf.get(j) === h || !reach(directOf(j, g)).has(h.id));
  /**
   * Moves h's members into g. h is left empty, and no group: a dependency on
   * h, and a reader recorded as h, now stand for g (live()).
   */
  const merge = (h: Building, g: Building): void => {
    for (const m of h.members) groupOf.set(m, g);
    g.members.push(...h.members);
    h.members.length = 0;
    for (const d of h.deps) g.deps.add(d);
    mergedInto.set(h.id, g.id);
  };
  const newGroup = (shape: readonly number[]): Building => {
    const g = { id: groups.length, shape, members: [], reductions: [], scans: [], deps: new Set<number>(), sealed: false };
    groups.push(g);
    return g;
  };
  const record = (n: Node, g: Building): void => {
    groupOf.set(n, g);
    for (const j of n.inputs) for (const d of directOf(j, g)) g.deps.add(d);
  };

  for (const n of nodes) {
    if (isElementwise(n)) {
      // The group of an input, else a sibling's (a group reading one of the same inputs, which then reads it once).
      const open = (h: Building | undefined): h is Building =>
        h !== undefined && !h.sealed && (h.members.length > 0 || h.contraction !== undefined) && sameShape(h.shape, n.shape);
      const readingGroups = (s: Set<Building> | undefined): Building[] => [...(s ?? [])].map((h) => groups[live(h.id)]!);
      const candidates = [
        ...n.inputs.map((i) => groupOf.get(i)), ...n.inputs.flatMap((i) => readingGroups(readers.get(i))),
        ...n.inputs.filter(isWindow).flatMap((i) => readingGroups(windowReaders.get(windowBase(i)))),
      ];
      const g = candidates.filter(open).find((h) => canJoin(n, h)) ?? newGroup(n.shape);
      for (const i of n.inputs) {
        const h = groupOf.get(i);
        if (h && h !== g && canMerge(h, g, n)) merge(h, g);
      }
      g.members.push(n);
      record(n, g);
      // A shared scalar is no reason to fuse: it costs nothing to read twice.
      for (const i of n.inputs) {
        if (groupOf.get(i) === g || i.family === 'scalar') continue;
        if (!readers.has(i)) readers.set(i, new Set());
        readers.get(i)!.add(g);
        if (!isWindow(i)) continue;
        const base = windowBase(i);
        if (!windowReaders.has(base)) windowReaders.set(base, new Set());
        windowReaders.get(base)!.add(g);
      }
      // A pinCse() value is computed with what feeds it, and read from memory by everything after.
      if (plan.pins.get(n) === 'pinCse') g.sealed = true;
      continue;
    }
    if (isContraction(n)) {
      const g = newGroup(n.shape);
      g.contraction = n;
      record(n, g);
      if (plan.pins.get(n) === 'pinCse') g.sealed = true;
      continue;
    }
    const input = n.inputs[0];
    /** Whether a reduction or scan of `input` can end h, the group computing it (rather than start one of its own). */
    const canEnd = (h: Building | undefined): h is Building =>
      h !== undefined && !h.sealed && !h.contraction && h.scans.length === 0 && h.members.includes(input!) && sameShape(input!.shape, h.shape);
    if (input && isFusedReduction(n)) {
      // A reduction joins the group of its input when it can; otherwise it is
      // a kernel of its own that reads its input (a source, a view, a value
      // another step made) in one pass.
      const h = groupOf.get(input);
      // A group reduces over one set of axes (every axis, or some), so its reductions share one iteration order.
      const sameAxes = (r: FusedReduction): boolean => String(r.attrs.axes) === String(n.attrs.axes);
      const g = canEnd(h) && h.reductions.every(sameAxes) ? h : newGroup(input.shape);
      g.reductions.push(n);
      record(n, g);
      continue;
    }
    if (input && isFusedScan(n)) {
      // Likewise a scan, along one axis; the group then takes no more members,
      // since what follows a scan reads its stored value.
      const h = groupOf.get(input);
      // A scan kernel has no per-block temporaries (each block computes a temporary over its own range only).
      const readsTemps = (b: Building): boolean => b.members.some((m) => m.inputs.some((i) => plan.temps.has(i)));
      const g = canEnd(h) && h.reductions.length === 0 && !readsTemps(h) ? h : newGroup(input.shape);
      g.scans.push(n);
      g.sealed = true;
      record(n, g);
      continue;
    }
    const deps = new Set<number>();
    for (const j of n.inputs) for (const d of directOf(j)) deps.add(d);
    outsideDeps.set(n, deps);
  }

  const wanted = new Set<Node>(rootsOf(plan));
  // Pinned temporaries are not steps, but what their cones read must be stored by the kernels computing it.
  const consumers = consumersOf([...nodes, ...[...plan.temps.values()].flatMap((t) => t.members)]);
  const fused = new Map<Building, FusedGroup>();
  for (const g of groups) {
    if (mergedInto.has(g.id)) continue;
    const all = groupNodes(g);
    const inGroup = new Set<Node>(all);
    const read = [...new Set(all.flatMap((m) => m.inputs).filter((i) => !inGroup.has(i)))];
    const temps = read.flatMap((i) => plan.temps.get(i) ?? []);
    const inputs = [...new Set([...read.filter((i) => !plan.temps.has(i)), ...temps.flatMap((t) => t.inputs)])];
    const stored = g.members.filter((m) => wanted.has(m) || (consumers.get(m) ?? []).some((c) => !inGroup.has(c)));
    const stores = [...(g.contraction ? [g.contraction] : []), ...stored, ...g.scans];
    fused.set(g, Object.freeze({
      id: g.id, shape: g.shape, members: g.members, reductions: g.reductions, inputs, stores, ...(g.scans.length ? { scans: g.scans } : {}),
      ...(g.contraction ? { contraction: g.contraction } : {}), ...(temps.length ? { temps } : {}),
    }));
  }

  // Order the steps: each after the steps producing what it reads.
  const stepOf = new Map<Node, Step>();
  const steps: Step[] = [];
  for (const n of nodes) {
    const g = groupOf.get(n);
    if (!g) {
      const s: Step = { kind: 'node', node: n, release: [] };
      steps.push(s);
      stepOf.set(n, s);
    } else if (!stepOf.has(n)) {
      const s: Step = { kind: 'kernel', group: fused.get(g)!, release: [] };
      steps.push(s);
      for (const m of groupNodes(g)) stepOf.set(m, s);
    }
  }
  return { ...plan, steps: topoSortSteps(steps, stepOf) };
}

/** Kahn's algorithm over steps, keeping the given order where dependencies allow. */
function topoSortSteps(steps: readonly Step[], stepOf: ReadonlyMap<Node, Step>): Step[] {
  const reads = (s: Step): readonly Node[] => (s.kind === 'node' ? s.node.inputs : s.group.inputs);
  const pending = new Map<Step, number>();
  const users = new Map<Step, Step[]>();
  for (const s of steps) {
    const producers = new Set(reads(s).map((n) => stepOf.get(n)!).filter((p) => p !== s));
    pending.set(s, producers.size);
    for (const p of producers) users.set(p, [...(users.get(p) ?? []), s]);
  }
  const out: Step[] = [];
  const ready = steps.filter((s) => pending.get(s) === 0);
  const order = new Map(steps.map((s, i) => [s, i]));
  while (ready.length > 0) {
    ready.sort((a, b) => order.get(a)! - order.get(b)!);
    const s = ready.shift()!;
    out.push(s);
    for (const u of users.get(s) ?? []) {
      const left = pending.get(u)! - 1;
      pending.set(u, left);
      if (left === 0) ready.push(u);
    }
  }
  if (out.length !== steps.length) throw new Error('internal: fused steps form a cycle');
  return out;
}

export { fuseElementwise };
