// The steps kernels-wasm's routines run (routine-steps-impl.ts: sorts and
// selections, the LU family, qr, eigh, svd, addAt), reached through their
// loader: in Node they are there from the start (routines-load.ts); a page
// loads them, and the routines' code, on the first run that needs one
// (routines-load.browser.ts), so that a page that never sorts or solves
// never downloads them. Until they have loaded, a synchronous run computes
// those steps with the reference evaluator, which the routines match bit for
// bit (wasm/sort-kernels, lu-step, decomp-step and scatter-step tests; NaN
// sign and payload aside, which WebAssembly's arithmetic and V8's JavaScript
// choose each their own way), and execute() waits for them.
import type { Node } from '../ir/node.js';
import type { Plan } from '../plan/plan.js';
import type { HeapValue } from './heap-value.js';
import type { StepHeap } from './step-heap.js';
import type { RoutineStep, RoutineStepLaunch } from './routine-steps-impl.js';
import { isRoutineNode } from './routine-families.js';
import { routinesNow, routinesReady } from './routines-load.js';

/** The routine that runs step `n`, or undefined where the reference does (and, on a page, until the routines have loaded). */
function routineFor(n: Node): RoutineStep | undefined {
  return isRoutineNode(n) ? routinesNow()?.routineFor(n) : undefined;
}

/** Step `n` as routine launches the pool may share out (routine-steps-impl.ts), or undefined. */
function routineLaunchFor(n: Node, inputs: () => readonly HeapValue[], h: StepHeap, threadsFor: (elements: number) => number): RoutineStepLaunch | undefined {
  return isRoutineNode(n) ? routinesNow()?.routineLaunchFor(n, inputs, h, threadsFor) : undefined;
}

/** Settles once the routines a plan's steps may use are loaded (at once where none may, or where they are). */
function routinesFor(plan: Plan): Promise<void> | undefined {
  return plan.steps.some((s) => s.kind === 'node' && isRoutineNode(s.node)) ? routinesReady() : undefined;
}

export { routineFor, routineLaunchFor, routinesFor };
export type { RoutineStepLaunch };
