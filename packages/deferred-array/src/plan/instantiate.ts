// A plan carried to new sizes: the same steps, groups and buffers over the
// graph rebuilt at those sizes (ir/rebuild.ts), with each group's iteration
// space and each buffer's size recomputed. No pass runs again; a plan whose
// fusion no longer holds at the new sizes (two members of a group that now
// differ in shape) is not instantiable, and the caller plans afresh.
import { dtypeInfo } from '../ir/dtypes.js';
import { dependsOn, sameOp, topoOrder } from '../ir/node.js';
import { InternalError, lookup } from '../util/lookup.js';
import type { Node } from '../ir/node.js';
import { NotInstantiable, rebuildIota, rebuildNode } from '../ir/rebuild.js';
import { sameShape, sizeOf } from '../ir/shape.js';
import { rootsOf } from './plan.js';
import type { FusedGroup, Plan, Step } from './plan.js';

function instantiatePlan(plan: Plan, leaves: ReadonlyMap<Node, Node>): Plan {
  if (plan.stores.length > 0) throw new InternalError('a trace stage is not instantiated at new sizes');
  const to = new Map<Node, Node>();
  // An iota follows the array whose axis it counts, so that array is rebuilt first.
  for (const n of topoOrder(rootsOf(plan), dependsOn)) {
    const m = leaves.get(n) ?? (n.op === 'iota'
      ? rebuildIota(n, lookup(to, n.attrs.of, 'the array an iota counts along'))
      : rebuildNode(n, n.inputs.map((i) => lookup(to, i, `input ${i.id} rebuilt`))));
    to.set(n, m);
  }
  /** `n` rebuilt, which rebuildNode keeps the same op (and so the same node type). */
  const get = <N extends Node>(n: N): N => {
    const m = to.get(n);
    if (!m || !sameOp(n, m)) throw new InternalError(`plan node ${n.id} (${n.op}) is not under the plan's roots`);
    return m;
  };
  const group = (g: FusedGroup): FusedGroup => {
    const members = g.members.map(get);
    const reductions = g.reductions.map(get);
    const scans = g.scans?.map(get);
    const contraction = g.contraction && get(g.contraction);
    const ends = [...reductions, ...(scans ?? [])];
    const space = contraction ?? members[0] ?? ends[0]?.inputs[0];
    if (!space) throw new InternalError(`group ${g.id} computes nothing`);
    const { shape } = space;
    if (!members.every((m) => sameShape(m.shape, shape)) || !ends.every((r) => sameShape(r.inputs[0].shape, shape))) {
      throw new NotInstantiable(`group ${g.id} no longer has one iteration space`);
    }
    return {
      ...g, shape, members, reductions, inputs: g.inputs.map(get), stores: g.stores.map(get),
      ...(contraction ? { contraction } : {}), ...(scans ? { scans } : {}), ...(g.raising ? { raising: g.raising.map(get) } : {}),
      ...(g.temps ? { temps: g.temps.map((t) => ({ node: get(t.node), members: t.members.map(get), inputs: t.inputs.map(get) })) } : {}),
    };
  };
  const step = (s: Step): Step => (s.kind === 'node'
    ? { kind: 'node', node: get(s.node), release: s.release.map(get) }
    : { kind: 'kernel', group: group(s.group), release: s.release.map(get) });
  const steps = plan.steps.map(step);
  const temps = new Map([...plan.temps].map(([n, t]) => [get(n), { node: get(t.node), members: t.members.map(get), inputs: t.inputs.map(get) }]));
  return {
    ...plan,
    results: plan.results.map(get),
    outputs: plan.outputs.map((o) => ({ ...o, node: get(o.node) })),
    pins: new Map([...plan.pins].map(([n, p]) => [get(n), p])),
    temps,
    pinNotes: new Map([...plan.pinNotes].map(([n, why]) => [get(n), why])),
    steps,
    buffers: plan.buffers.map((b) => {
      const values = b.values.map(get);
      return Object.freeze({ ...b, values: Object.freeze(values), bytes: Math.max(0, ...values.map((v) => sizeOf(v.shape) * dtypeInfo(v.dtype).bytes)) });
    }),
    bufferOf: new Map([...plan.bufferOf].map(([n, id]) => [get(n), id])),
  };
}

export { instantiatePlan };
