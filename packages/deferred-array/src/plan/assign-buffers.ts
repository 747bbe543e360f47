// assignBuffers: the heap blocks a run needs, found by liveness. Every value a
// step writes to new memory (kernel stores and reductions, scalars, values the
// reference evaluator makes) gets a buffer; a temporary's buffer is handed to a
// later value once every reader of the value (and of the views onto it) has
// run, so a chain of kernels needs as many blocks as are live at once, not one
// per value. Results and marked outputs get buffers of their own.
import { dtypeInfo } from '../ir/dtypes.js';
import type { Node } from '../ir/node.js';
import { sizeOf } from '../ir/shape.js';
import { isWindow, readBy, rootsOf } from './plan.js';
import type { Buffer, Plan, Step } from './plan.js';

const valueBytes = (n: Node): number => sizeOf(n.shape) * dtypeInfo(n.dtype).bytes;

/** Values a step writes to memory it allocates (views and sources allocate nothing). */
function writtenBy(s: Step): readonly Node[] {
  if (s.kind === 'kernel') return [...s.group.stores, ...s.group.reductions];
  return s.node.family === 'source' || isWindow(s.node) ? [] : [s.node];
}

function addAt<T>(lists: Map<number, T[]>, i: number, x: T): void {
  const list = lists.get(i);
  if (list) list.push(x);
  else lists.set(i, [x]);
}

function assignBuffers(plan: Plan): Plan {
  // The value whose memory each node reads: views and reshapes read their input's.
  const storage = new Map<Node, Node>();
  for (const s of plan.steps) {
    for (const n of writtenBy(s)) storage.set(n, n);
    if (s.kind !== 'node' || !isWindow(s.node)) continue;
    const under = storage.get(s.node.inputs[0]);
    if (under) storage.set(s.node, under);
  }
  const kept = new Set<Node>();
  // A store an elementwise kernel computes is written straight into its target block: no buffer.
  const atTarget = new Set(plan.stores.map((st) => st.node));
  for (const n of rootsOf(plan)) {
    const under = storage.get(n);
    if (under) kept.add(under);
  }
  const lastRead = new Map<Node, number>();
  plan.steps.forEach((s, i) => {
    for (const n of readBy(s)) {
      const under = storage.get(n);
      if (under) lastRead.set(under, i);
    }
  });

  interface Building { id: number; bytes: number; kind: Buffer['kind']; values: Node[] }
  const buffers: Building[] = [];
  const bufferOf = new Map<Node, number>();
  const idle: Building[] = [];
  /** Temporaries free once each step has run. */
  const endsAt = new Map<number, Building[]>();
  plan.steps.forEach((s, i) => {
    for (const n of writtenBy(s)) {
      if (s.kind === 'kernel' && atTarget.has(n) && !s.group.contraction && s.group.stores.includes(n)) continue;
      const bytes = valueBytes(n);
      const kind = kept.has(n) ? 'result' : 'temporary';
      let b: Building | undefined;
      if (kind === 'temporary') {
        // The smallest idle buffer that holds it, else the largest, grown.
        const fits = idle.filter((x) => x.bytes >= bytes).sort((x, y) => x.bytes - y.bytes)[0];
        b = fits ?? idle.sort((x, y) => y.bytes - x.bytes)[0];
        if (b) {
          idle.splice(idle.indexOf(b), 1);
          b.bytes = Math.max(b.bytes, bytes);
        }
      }
      if (!b) buffers.push((b = { id: buffers.length, bytes, kind, values: [] }));
      b.values.push(n);
      bufferOf.set(n, b.id);
      if (kind === 'temporary') addAt(endsAt, lastRead.get(n) ?? i, b);
    }
    idle.push(...(endsAt.get(i) ?? []));
  });
  return {
    ...plan,
    buffers: buffers.map((b) => Object.freeze({ ...b, values: Object.freeze([...b.values]) })),
    bufferOf,
  };
}

export { assignBuffers };
