// What a fused kernel's launch leaves besides its stored outputs: the flags it
// raised, named by the ops that can raise them, and each reduction's values
// combined from the per-block partials. Shared by the general run and the
// lean one, so both give the same bits and the same messages.
import type { LaunchResult } from 'kernels-wasm';
import type { RunFlags } from '../core/flags.js';
import { isBigInt, isFloat, setElement } from '../ir/dtypes.js';
import type { DType, TypedArray } from '../ir/dtypes.js';
import type { ReduceOp } from '../ir/op-table.js';
import { sizeOf } from '../ir/shape.js';
import type { FusedGroup, FusedReduction } from '../plan/plan.js';
import { partialsCombiner, partialsCombiner64, positionCombiner } from './combine.js';
import { InternalError } from '../util/lookup.js';
import { accumulatorDType } from './kernel-builder.js';
import type { BuiltKernel } from './kernel-builder.js';

/** The ops whose integer code counts a division by zero in a launch's flags. */
const COUNTS_DIVIDE: ReadonlySet<string> = new Set(['floorDivide', 'mod', 'fmod', 'reciprocal']);

/** Adds a launch's flags to the run's, naming the ops of `g` that can raise them. */
function addLaunchFlags(flags: RunFlags, g: FusedGroup, r: LaunchResult): void {
  flags.divideByZero += r.flags.divide;
  flags.invalidCast += r.flags.invalid;
  if (r.flags.divide) {
    for (const m of g.members) if (COUNTS_DIVIDE.has(m.op)) flags.where.add(m.op);
  }
  if (r.flags.invalid) {
    for (const m of g.members) if (m.op === 'astype' && m.dtype !== 'bool' && !['float32', 'float64'].includes(m.dtype)) flags.where.add(`astype(${m.dtype})`);
  }
}

/** The launch facts a reduction's values come from. */
type ReductionLayout = Pick<BuiltKernel, 'segment' | 'mode' | 'zeroSlots' | 'positionSlots'> & { readonly slots: number };

/** Writes reduction `node` (slot `slot` of the kernel) into `out`, one value per output element, from the launch's partials. */
function writeReduction(node: FusedReduction, slot: number, layout: ReductionLayout, r: LaunchResult, out: TypedArray): void {
  const { op } = node;
  const acc = accumulatorDType(op, node.inputs[0].dtype);
  const rows = sizeOf(node.shape);
  // A row kernel's output: its pieces combined (none where nothing is reduced: the identity).
  const byPieces = <T>(combine: (from: number, to: number) => T) => (row: number): T => (layout.segment === 0 ? combine(0, 0)
    : combine(r.pieceIndex(row * layout.segment), row + 1 < rows ? r.pieceIndex((row + 1) * layout.segment) : r.pieces));
  if (op === 'argmax' || op === 'argmin') {
    const positionSlot = layout.positionSlots?.get(slot);
    if (positionSlot === undefined) throw new InternalError(`${op} has no position slot`);
    // A column kernel's partials hold each output's final position (slot-major).
    const position = layout.mode === 'columns' && layout.segment !== 0 ? (row: number): number => r.partials[positionSlot * rows + row]!
      : byPieces(positionCombiner(r.partials, layout.slots, slot, positionSlot, op));
    for (let row = 0; row < rows; row++) out[row] = position(row);
    return;
  }
  if (isBigInt(acc)) {
    // Row kernels only (columns mode has no int64 lanes), no zero slot (the product wraps in its own type).
    const value = byPieces(partialsCombiner64(r.partials, layout.slots, slot, op, acc));
    for (let row = 0; row < rows; row++) setElement(out, row, value(row));
    return;
  }
  // An output's value: final in a column kernel's partials (slot-major), or its pieces combined.
  const valueOf = (s: number, fn: ReduceOp, type: DType): ((row: number) => number) =>
    (layout.mode === 'columns' && layout.segment !== 0 ? (row) => r.partials[s * rows + row]!
      : byPieces(partialsCombiner(r.partials, layout.slots, s, fn, type)));
  const valueAt = valueOf(slot, op, acc);
  const zeroSlot = layout.zeroSlots.get(slot);
  const allNonzero = zeroSlot === undefined ? undefined : valueOf(zeroSlot, 'all', 'bool');
  const integer = !isFloat(node.inputs[0].dtype);
  for (let row = 0; row < rows; row++) {
    let value = valueAt(row);
    if (allNonzero && allNonzero(row) === 0) value = 0;
    // Integer products carried in float64 can reach -0, which integers do not have.
    if (integer) value += 0;
    if (op === 'mean') value /= layout.segment;
    out[row] = value;
  }
}

/** Names a kernel in errors: its group, ops and iteration space. */
function kernelLabel(g: FusedGroup): string {
  const ops = [...(g.contraction ? [g.contraction] : []), ...g.members].map((m) => m.op).join(', ') || 'copy';
  const ends = [...g.reductions, ...(g.scans ?? [])].map((r) => r.op).join(', ');
  return `${g.id} (${ops}${ends ? ` -> ${ends}` : ''}) over [${g.shape.join(', ')}]`;
}

export { COUNTS_DIVIDE, addLaunchFlags, writeReduction, kernelLabel };
export type { ReductionLayout };
