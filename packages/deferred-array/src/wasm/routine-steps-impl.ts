// Which steps between kernels kernels-wasm's routines run (the others go to
// the reference evaluator): sort and argsort along an axis, the LU family
// (solve, inv, det, slogdet), qr, eigh and svd, and addAt in the target's own
// type; and which of them run as a launch of a routine module's kernel,
// which the pool may share out (sorts and selections of many lines, integer
// counts with many indices, and one long line's sort, a launch a pass).
// Reached through routine-steps.ts, which a page loads before this.
import type { FamilyNode, Node } from '../ir/node.js';
import type { RoutineNode } from './routine-families.js';
import { decompStep, isDecompStep } from './decomp-step.js';
import { isLuStep, luStep } from './lu-step.js';
import { isScatterStep, scatterLaunch, scatterStep } from './scatter-step.js';
import { sortLaunch, sortStep } from './sort-step.js';
import type { RoutineSequence } from 'kernels-wasm';
import type { HeapValue } from './heap-value.js';
import type { StepHeap } from './step-heap.js';

type RoutineStep = (n: Node, inputs: readonly HeapValue[], h: StepHeap) => HeapValue;

/** The routine that runs step `n`, or undefined where the reference does (its family is one of routine-families.ts's). */
function routineFor(n: RoutineNode): RoutineStep | undefined {
  switch (n.family) {
    // A 0-d array has no axis to sort along: the reference says so as NumPy does.
    case 'sort': return n.shape.length > 0 ? (m, [x], h) => sortStep(m as FamilyNode<'sort'>, x!, h) : undefined;
    case 'scatter': return isScatterStep(n as FamilyNode<'scatter'>) ? (m, inputs, h) => scatterStep(m as FamilyNode<'scatter'>, inputs, h) : undefined;
    case 'decomp': {
      const d = n as FamilyNode<'decomp'>;
      if (isLuStep(d)) return (m, inputs, h) => luStep(m as FamilyNode<'decomp'>, inputs, h);
      return isDecompStep(d) ? (m, inputs, h) => decompStep(m as FamilyNode<'decomp'>, inputs, h) : undefined;
    }
  }
}

/**
 * A step as launches of a routine module's kernel, which the pool may share
 * out, one after another (each made once the one before has run); `finish`
 * gives the step's value once the last has run, and gives back what the
 * launches held.
 */
interface RoutineStepLaunch {
  readonly launches: RoutineSequence;
  finish(): HeapValue;
}

/**
 * Step `n` as routine launches for up to `threadsFor(elements)` threads: a sort or
 * selection of many lines, or a sort of one long line (sortLaunch), an
 * integer count into few rows (scatterLaunch); undefined where the step runs
 * on this thread (routineFor).
 */
function routineLaunchFor(n: RoutineNode, inputs: () => readonly HeapValue[], h: StepHeap, threadsFor: (elements: number) => number): RoutineStepLaunch | undefined {
  if (n.family === 'sort' && n.shape.length > 0) return sortLaunch(n as FamilyNode<'sort'>, inputs()[0]!, h, threadsFor);
  if (n.family === 'scatter' && isScatterStep(n as FamilyNode<'scatter'>)) return scatterLaunch(n as FamilyNode<'scatter'>, inputs(), h, threadsFor);
  return undefined;
}

export { routineFor, routineLaunchFor };
export type { RoutineStep, RoutineStepLaunch };
