// What the planner hands a backend: the values asked for and an ordered list
// of steps that produce them.
import type { Node } from '../ir/node.js';

/** A value marked with output() and found under the executed arrays, with its record key. */
interface MarkedOutput {
  readonly node: Node;
  readonly key: string;
}

interface Step {
  readonly node: Node;
  /** Values no later step reads: a backend may release them once this step is done. */
  readonly release: readonly Node[];
}

interface Plan {
  /** The arrays execute() was called on, in call order. */
  readonly results: readonly Node[];
  /** Marked intermediates, in the order of their output() calls. */
  readonly outputs: readonly MarkedOutput[];
  /** Every node to evaluate, inputs before users. */
  readonly steps: readonly Step[];
}

export type { Plan, Step, MarkedOutput };
