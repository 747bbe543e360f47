// The families of the nodes kernels-wasm's routines may run: the one list
// that both the loader (routine-steps.ts), which must decide before the
// routines have loaded whether a plan needs them, and the routines' steps
// (routine-steps-impl.ts), whose switch takes only these, read.
import type { Family } from '../ir/op-table.js';
import type { FamilyNode, Node } from '../ir/node.js';

const ROUTINE_FAMILIES = ['sort', 'scatter', 'decomp'] as const satisfies readonly Family[];

type RoutineNode = FamilyNode<(typeof ROUTINE_FAMILIES)[number]>;

const isRoutineNode = (n: Node): n is RoutineNode => (ROUTINE_FAMILIES as readonly Family[]).includes(n.family);

export { isRoutineNode };
export type { RoutineNode };
