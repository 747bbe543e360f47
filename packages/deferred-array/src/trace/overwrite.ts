// Which of a stage's writes may go over the block of a version it reads. A
// time loop makes a version per step that only the next step reads; writing
// each into a block of its own rotates the loop through two or three blocks
// per array where the in-place loop of NumPy or plain JavaScript keeps one,
// and a working set twice the size falls out of the cache. A new version may
// take the block of an earlier one of its array that this force wrote (staged,
// so a failure drops it anyway) and that nothing after this stage reads, when
// the kernel storing it is the last step reading that block and reads it only
// at the elements it writes (each element is loaded before it is stored, by
// the thread that stores it), as NumPy's `x -= y` does. Whether the old
// version is read later is for the force to say; this says whether the plan allows it.
import type { Node } from '../ir/node.js';
import { sameShape } from '../ir/shape.js';
import { isWindow, readBy } from '../plan/plan.js';
import type { Plan } from '../plan/plan.js';
import { reshapeWindow, viewWindow, wholeWindow } from './window.js';
import type { Window } from './window.js';

/** Where each window onto `leaf` (itself, its views and reshapes among the plan's steps) lies in its block. */
function windowsOf(plan: Plan, leaf: Node): Map<Node, Window> {
  const windows = new Map<Node, Window>([[leaf, wholeWindow(leaf.shape)]]);
  for (const s of plan.steps) {
    if (s.kind !== 'node' || !isWindow(s.node)) continue;
    const w = windows.get(s.node.inputs[0]);
    if (!w) continue;
    const n = s.node;
    const inner = n.op === 'reshape' ? reshapeWindow(w, n.shape) : n.attrs.view ? viewWindow(w, n.attrs.view, n.shape) : undefined;
    // A reshape of a strided window is a copy: reading it reads the block, at its step.
    if (inner) windows.set(n, inner);
  }
  return windows;
}

/** Whether a kernel over `shape` reads window `w` at exactly the elements it writes through `target`. */
function aligned(w: Window, readShape: readonly number[], shape: readonly number[], target: Pick<Window, 'strides' | 'offset'>): boolean {
  if (!sameShape(readShape, shape)) return false;
  if (w.offset !== target.offset) return false;
  return shape.every((d, a) => d <= 1 || w.strides[a] === target.strides[a]);
}

/**
 * Whether store `k` of a kernels plan may write into the block of `leaf` (an
 * earlier version of the same array that the stage reads): the
 * kernel storing it writes it into its target directly, reads `leaf` only
 * aligned with the write, and no step after it (nor another store's copy)
 * reads `leaf`'s block.
 */
function mayOverwrite(plan: Plan, k: number, leaf: Node): boolean {
  const store = plan.stores[k]!;
  const node = store.node;
  if (plan.bufferOf.has(node) || plan.stores.some((st, i) => i !== k && st.node === node)) return false;
  const at = plan.steps.findIndex((s) => s.kind === 'kernel' && s.group.stores.includes(node));
  const step = plan.steps[at];
  if (!step || step.kind !== 'kernel' || step.group.contraction || step.group.temps?.length) return false;
  const windows = windowsOf(plan, leaf);
  if (plan.stores.some((st) => windows.has(st.node))) return false;
  for (const [i, s] of plan.steps.entries()) {
    if (s.kind === 'node' && windows.has(s.node)) continue;
    const reads = readBy(s).flatMap((n) => { const w = windows.get(n); return w ? [{ n, w }] : []; });
    if (reads.length === 0 || i < at) continue;
    if (i > at) return false;
    if (!reads.every(({ n, w }) => aligned(w, n.shape, step.group.shape, store))) return false;
  }
  return true;
}

export { mayOverwrite };
