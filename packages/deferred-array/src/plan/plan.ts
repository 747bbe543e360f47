// What the planner hands a backend: the values asked for and an ordered list
// of steps that produce them.
import type { Node } from '../ir/node.js';
import type { Pin } from '../ir/marks.js';
import { OPS } from '../ir/op-table.js';
import type { Shape } from '../ir/shape.js';

/** A value marked with output() and found under the executed arrays, with its record key. */
interface MarkedOutput {
  readonly node: Node;
  readonly key: string;
}

/**
 * Elementwise nodes over one iteration space, run as one pass over memory,
 * plus the full reductions that consume them.
 */
interface FusedGroup {
  readonly id: number;
  readonly shape: Shape;
  /**
   * A matrix product (matmul, dot) the kernel computes first, block by block;
   * the members are its elementwise epilogue. It is always stored (first in
   * `stores`): the epilogue reads it back while it is in cache.
   */
  readonly contraction?: Node;
  /** Elementwise members, inputs before users. */
  readonly members: readonly Node[];
  /** Reductions of members, all over the same axes. */
  readonly reductions: readonly Node[];
  /** Nodes read from outside the group (materialised values or views of them). */
  readonly inputs: readonly Node[];
  /** Members whose values are needed after the kernel: written to memory. */
  readonly stores: readonly Node[];
}

/** Evaluate one node on its own. */
interface NodeStep {
  readonly kind: 'node';
  readonly node: Node;
  /** Values no later step reads: a backend may release them once this step is done. */
  readonly release: readonly Node[];
}

/** Run a fused group as one kernel. */
interface KernelStep {
  readonly kind: 'kernel';
  readonly group: FusedGroup;
  readonly release: readonly Node[];
}

type Step = NodeStep | KernelStep;

/**
 * A heap block of a run. A temporary buffer holds one value after another
 * (each once the previous one is dead); a result buffer holds a value the
 * caller receives.
 */
interface Buffer {
  readonly id: number;
  /** The largest value it holds. */
  readonly bytes: number;
  readonly kind: 'temporary' | 'result';
  /** The values it holds, in step order. */
  readonly values: readonly Node[];
}

interface Plan {
  /** The arrays execute() was called on, in call order. */
  readonly results: readonly Node[];
  /** Marked intermediates, in the order of their output() calls. */
  readonly outputs: readonly MarkedOutput[];
  /** Values under the results that pinCse() placed in their own kernel and array. */
  readonly pins: ReadonlyMap<Node, Pin>;
  /** Every step, producers before consumers. */
  readonly steps: readonly Step[];
  /** The heap blocks the steps write (empty for backends that manage their own memory). */
  readonly buffers: readonly Buffer[];
  /** Buffer id of each value a step writes to new memory. */
  readonly bufferOf: ReadonlyMap<Node, number>;
}

/** The nodes whose values a step produces. */
const producedBy = (s: Step): readonly Node[] => (s.kind === 'node' ? [s.node] : groupNodes(s.group));

/** Every node a group computes: its contraction, members and reductions. */
const groupNodes = (g: Pick<FusedGroup, 'contraction' | 'members' | 'reductions'>): readonly Node[] => [...(g.contraction ? [g.contraction] : []), ...g.members, ...g.reductions];

/** View and reshape nodes: windows onto their input's memory, with none of their own. */
const isWindow = (n: Node): boolean => ['view', 'reshape'].includes(OPS[n.op].family);

/** The nodes a step reads. */
const readBy = (s: Step): readonly Node[] => (s.kind === 'node' ? s.node.inputs : s.group.inputs);

export { producedBy, readBy, isWindow, groupNodes };
export type { Plan, Step, NodeStep, KernelStep, FusedGroup, MarkedOutput, Buffer };
