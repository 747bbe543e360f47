// A plan the lean run (lean-run.ts) takes, worked out once per plan and kept
// beside it: the kernel (the very one the general run builds for the same
// values, so the bits are the same), its launch block as an image
// (kernels-wasm fixLaunch), where each leaf's address comes from, and
// whether its one store can be drained into the caller's out. Also each lean
// kernel's instance per memory, and how a constant is written into the
// launch block.
import { drainBytes, fixLaunch, instantiate, launchWork } from 'kernels-wasm';
import type { CompiledModule, FixedLaunch, KernelFn } from 'kernels-wasm';
import { dtypeInfo, isInteger } from '../ir/dtypes.js';
import type { DType, Scalar } from '../ir/dtypes.js';
import type { Node } from '../ir/node.js';
import { sizeOf } from '../ir/shape.js';
import type { FusedGroup, Plan } from '../plan/plan.js';
import { atAddress, viewType } from './heap-value.js';
import * as host from './host-functions.js';
import { buildKernel, launchOf } from './kernel-builder.js';
import { COUNTS_DIVIDE, kernelLabel } from './kernel-results.js';
import type { ReductionLayout } from './kernel-results.js';
import type { Compile } from './group-kernels.js';

/** How a run finds a leaf's address: a wrapped array's cached copy, a bound placeholder, or a constant in the launch block. */
const Leaf = { Source: 0, Placeholder: 1, Scalar: 2 } as const;
type LeafKind = (typeof Leaf)[keyof typeof Leaf];

/** A group input: how a run finds its address; a constant's own value and byte offset in the launch block. */
interface LeanLeaf {
  readonly node: Node;
  readonly kind: LeafKind;
  readonly at: number;
  readonly value: Scalar;
}

/** A plan the lean run takes, with everything its runs share. */
interface LeanPlan {
  readonly group: FusedGroup;
  readonly compiled: CompiledModule;
  readonly fixed: FixedLaunch;
  /** Names the kernel in a worker's errors (kernel-results.ts's kernelLabel), made once. */
  readonly label: string;
  /** Per group input: how its address is found, and for a constant its byte offset in the launch block. */
  readonly leaves: readonly LeanLeaf[];
  /** Per launch array: the index into [...inputs, ...stores] of the value it passes. */
  readonly operands: readonly number[];
  readonly storeBytes: readonly number[];
  readonly reductions: ReductionLayout;
  /** Its kernel's work over its iteration space (kernels-wasm launchWork), which execute() weighs against inlineThreshold. */
  readonly work: number;
  /**
   * Where its one store can go straight to the caller's out through a
   * scratch block (kernels-wasm's Drain): a kernel that neither counts an
   * error the policy may raise, calls a host function (which may count one,
   * or throw) nor takes at indices that raise, so the out is never left
   * partly written. `storeBytes` stands for the plan's own when it is: the
   * scratch block, one call's values.
   */
  readonly drain: { readonly array: number; readonly storeBytes: readonly number[] } | undefined;
}

/** Kernel calls a drained run makes: one per block, whose values the copy then reads from the caches. */
const DRAIN_BLOCKS = 1;

/**
 * Whether a member's code counts errors the policy may raise (addLaunchFlags
 * names them): an integer division or reciprocal (by zero), a cast to an
 * integer (of NaN or out of range). Host functions, which may count or throw,
 * are refused apart (CompiledModule.hostKeys).
 */
const flagging = (n: Node): boolean => isInteger(n.dtype) && (COUNTS_DIVIDE.has(n.op) || n.op === 'astype');

/** The one kernel group of a plan the lean run can take, else undefined. */
function leanGroup(plan: Plan): FusedGroup | undefined {
  if (plan.stores.length > 0) return undefined;
  let group: FusedGroup | undefined;
  for (const step of plan.steps) {
    if (step.kind === 'kernel') {
      if (group) return undefined;
      group = step.group;
    } else if (step.node.family !== 'scalar' && step.node.op !== 'source' && step.node.op !== 'placeholder') {
      return undefined;
    }
  }
  if (!group || group.contraction || group.scans?.length || group.temps?.length) return undefined;
  const made = new Set<Node>([...group.stores, ...group.reductions]);
  return plan.results.every((n) => made.has(n)) && plan.outputs.every((o) => made.has(o.node)) ? group : undefined;
}

const leanPlans = new WeakMap<Plan, LeanPlan | null>();

/** The lean form of `plan`, made at its first run (null when the general run must take it). */
function leanPlanOf(plan: Plan, compile: Compile): LeanPlan | null {
  let lean = leanPlans.get(plan);
  if (lean === undefined) leanPlans.set(plan, (lean = makeLean(plan, compile)));
  return lean;
}

function makeLean(plan: Plan, compile: Compile): LeanPlan | null {
  const group = leanGroup(plan);
  if (!group) return null;
  // The layout the general run gives these values: leaves and stores contiguous at their nodes' shapes.
  const built = buildKernel(group, group.inputs.map((n) => atAddress(0, n.dtype, n.shape)), group.stores.map((n) => atAddress(0, n.dtype, n.shape)));
  const compiled = compile(built.spec);
  if (!built.operands) return null;
  let scalars = 0;
  const leaves = group.inputs.map((node): LeanLeaf => {
    if (node.family === 'scalar') return { node, kind: Leaf.Scalar, at: 8 * scalars++, value: node.attrs.value };
    return { node, kind: node.op === 'source' ? Leaf.Source : Leaf.Placeholder, at: 0, value: 0 };
  });
  const fixed = fixLaunch(compiled, launchOf(built), 8 * scalars);
  const drainArray = group.stores.length === 1 ? built.operands.indexOf(group.inputs.length) : -1;
  return {
    group, compiled, fixed, label: kernelLabel(group), leaves: leaves.map((l) => (l.kind === Leaf.Scalar ? { ...l, at: fixed.extraAt + l.at } : l)),
    operands: built.operands, storeBytes: group.stores.map((n) => sizeOf(n.shape) * dtypeInfo(n.dtype).bytes),
    reductions: { segment: built.segment, mode: built.mode, zeroSlots: built.zeroSlots, ...(built.positionSlots ? { positionSlots: built.positionSlots } : {}), slots: built.spec.slots },
    work: launchWork(compiled, sizeOf(built.shape)),
    drain: drainArray >= 0 && fixed.drainable[drainArray] && fixed.blocks > DRAIN_BLOCKS && compiled.hostKeys.length === 0 && !group.raising && !group.members.some(flagging)
      ? { array: drainArray, storeBytes: [drainBytes(fixed, DRAIN_BLOCKS, drainArray)] }
      : undefined,
  };
}

/**
 * Each lean plan's kernel instantiated per memory (an instance stays valid
 * once out of kernels-wasm's cache), keyed by the memory first: a heap that
 * starts over on a new memory lets the old go, instances and all.
 */
const instances = new WeakMap<WebAssembly.Memory, WeakMap<LeanPlan, KernelFn>>();

function kernelOn(lean: LeanPlan, memory: WebAssembly.Memory): KernelFn {
  let perPlan = instances.get(memory);
  if (!perPlan) instances.set(memory, (perPlan = new WeakMap()));
  let fn = perPlan.get(lean);
  if (!fn) perPlan.set(lean, (fn = instantiate(lean.compiled, memory, host)));
  return fn;
}

/** Writes `value` as `dtype` at byte address `at`, as a typed array of that dtype would store it. */
function writeScalar(view: DataView, at: number, dtype: DType, scalar: Scalar): void {
  if (typeof scalar === 'bigint') {
    if (dtype === 'int64') view.setBigInt64(at, scalar, true);
    else view.setBigUint64(at, scalar, true);
    return;
  }
  const value = scalar;
  switch (viewType(dtype)) {
    case 'float64': view.setFloat64(at, value, true); break;
    case 'float32': view.setFloat32(at, value, true); break;
    case 'int32': view.setInt32(at, value, true); break;
    case 'uint32': view.setUint32(at, value, true); break;
    case 'int16': view.setInt16(at, value, true); break;
    case 'uint16': view.setUint16(at, value, true); break;
    case 'int8': view.setInt8(at, value); break;
    default: view.setUint8(at, value);
  }
}

export { Leaf, DRAIN_BLOCKS, leanPlanOf, kernelOn, writeScalar };
export type { LeanPlan, LeanLeaf };
