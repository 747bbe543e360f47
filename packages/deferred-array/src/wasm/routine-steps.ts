// Which steps between kernels kernels-wasm's routines run (the others go to
// the reference evaluator): sort and argsort along an axis, the LU family
// (solve, inv, det, slogdet), qr, eigh and svd, and addAt in the target's own
// type.
import type { FamilyNode, Node } from '../ir/node.js';
import { decompStep, isDecompStep } from './decomp-step.js';
import { isLuStep, luStep } from './lu-step.js';
import { isScatterStep, scatterStep } from './scatter-step.js';
import { sortStep } from './sort-step.js';
import type { HeapValue } from './heap-value.js';
import type { StepHeap } from './step-heap.js';

type RoutineStep = (n: Node, inputs: readonly HeapValue[], h: StepHeap) => HeapValue;

/** The routine that runs step `n`, or undefined where the reference does. */
function routineFor(n: Node): RoutineStep | undefined {
  switch (n.family) {
    // A 0-d array has no axis to sort along: the reference says so as NumPy does.
    case 'sort': return n.shape.length > 0 ? (m, [x], h) => sortStep(m as FamilyNode<'sort'>, x!, h) : undefined;
    case 'scatter': return isScatterStep(n as FamilyNode<'scatter'>) ? (m, inputs, h) => scatterStep(m as FamilyNode<'scatter'>, inputs, h) : undefined;
    case 'decomp': {
      const d = n as FamilyNode<'decomp'>;
      if (isLuStep(d)) return (m, inputs, h) => luStep(m as FamilyNode<'decomp'>, inputs, h);
      return isDecompStep(d) ? (m, inputs, h) => decompStep(m as FamilyNode<'decomp'>, inputs, h) : undefined;
    }
    default: return undefined;
  }
}

export { routineFor };
