// A plan the lean run (lean-run.ts) takes, worked out once per plan and kept
// beside it: its kernels (the very ones the general run builds for the same
// values, so the bits are the same), each one's launch block as an image
// (kernels-wasm fixLaunch) and where each of its inputs' addresses comes
// from, and whether a plan of one kernel can drain its one store into the
// caller's out. Also each lean kernel's instance per memory, and how a
// constant is written into the launch block.
import { blockSize, drainBytes, fixLaunch, instantiate, isSharedBuffer, launchWork, unsharedKernel } from 'kernels-wasm';
import type { CompiledModule, FixedLaunch, KernelFn } from 'kernels-wasm';
import { dtypeInfo, isInteger } from '../ir/dtypes.js';
import type { DType, Scalar } from '../ir/dtypes.js';
import type { Node } from '../ir/node.js';
import { sizeOf } from '../ir/shape.js';
import type { FusedGroup, Plan } from '../plan/plan.js';
import { atAddress, composeView, isContiguous, reshapeValue, viewType } from './heap-value.js';
import type { HeapValue } from './heap-value.js';
import * as host from './host-functions.js';
import { buildKernel, launchOf } from './kernel-builder.js';
import { COUNTS_DIVIDE, kernelLabel } from './kernel-results.js';
import type { ReductionLayout } from './kernel-results.js';
import type { Compile } from './group-kernels.js';

/**
 * How a run finds a kernel input's address: a wrapped array's cached copy, a
 * bound placeholder, a constant in the launch block, a store of an earlier
 * kernel of the plan, or a reduction of one (its value written into a block
 * of the run once that kernel has run).
 */
const Leaf = { Source: 0, Placeholder: 1, Scalar: 2, Store: 3, Reduced: 4 } as const;
type LeafKind = (typeof Leaf)[keyof typeof Leaf];

/**
 * A kernel input: how a run finds its address (that of `node`, the value a
 * view of it opens onto, plus `offset` bytes: a view's first element); a
 * constant's own value and byte offset in the launch block; an earlier
 * kernel's store's index among the plan's stores (LeanPlan.stores).
 */
interface LeanLeaf {
  readonly node: Node;
  readonly kind: LeafKind;
  readonly at: number;
  readonly value: Scalar;
  readonly offset: number;
  /**
   * Whether another leaf of the plan reads the same placeholder or reread
   * reduction (two windows of one argument, or a later kernel): a run then
   * places it once and keeps its address for the others.
   */
  readonly shared: boolean;
}

/** A view's values (a view or contiguous reshape of a leaf or of what a kernel made): where its window lies from that value's address. */
interface Window {
  readonly base: Node;
  readonly value: HeapValue;
}

/** One kernel of a lean plan, and what its runs share. */
interface LeanKernel {
  readonly group: FusedGroup;
  readonly compiled: CompiledModule;
  readonly fixed: FixedLaunch;
  /** Names the kernel in a worker's errors (kernel-results.ts's kernelLabel), made once. */
  readonly label: string;
  /** Per group input: how its address is found, and for a constant its byte offset in the launch block. */
  readonly leaves: readonly LeanLeaf[];
  /** Its first store's index among the plan's stores (its stores follow it there). */
  readonly storeStart: number;
  /** Per launch array: the index into [...inputs, ...stores] of the value it passes. */
  readonly operands: readonly number[];
  readonly reductions: ReductionLayout;
  /** Its kernel's work over its iteration space (kernels-wasm launchWork). */
  readonly work: number;
}

/** A plan the lean run takes, with everything its runs share. */
interface LeanPlan {
  /** Its kernels, in the plan's order: each reads leaves and what the ones before it made. */
  readonly kernels: readonly LeanKernel[];
  /** Every kernel's stores in order, and each one's bytes. */
  readonly stores: readonly Node[];
  readonly storeBytes: readonly number[];
  /**
   * Bytes of a run's blocks that no call changes, each at the size the heap
   * gives it: every kernel's launch block, and a block per reduction a later
   * kernel reads (the stores' and the copies' are added per run).
   */
  readonly fixedBytes: number;
  /** The kernels' work together, which execute() weighs against inlineThreshold. */
  readonly work: number;
  /**
   * Where its one store can go straight to the caller's out through a
   * scratch block (kernels-wasm's Drain): a plan of one kernel that neither
   * counts an error the policy may raise, calls a host function (which may
   * count one, or throw) nor takes at indices that raise, so the out is never
   * left partly written. `storeBytes` stands for the plan's own when it is:
   * the scratch block, one call's values.
   */
  readonly drain: { readonly array: number; readonly storeBytes: readonly number[] } | undefined;
  /**
   * For a plan whose every array is a placeholder (or made by its kernels),
   * as a compiled function's is: its placeholders, and the bytes its run's
   * one block needs besides their copies. A run whose arguments are all
   * copied in anyway may then take a heap private to the calling thread
   * (backend.ts), where copies in and out are plain memory copies.
   */
  readonly privately: { readonly placeholders: readonly Node[]; readonly bytes: number } | undefined;
}

/** Bytes of stores a lean run of several kernels may hold that no result needs (the general run frees them as it goes). */
const HELD_LIMIT = 1 << 20;

/** Kernel calls a drained run makes: one per block, whose values the copy then reads from the caches. */
const DRAIN_BLOCKS = 1;

/**
 * Whether a member's code counts errors the policy may raise (addLaunchFlags
 * names them): an integer division or reciprocal (by zero), a cast to an
 * integer (of NaN or out of range). Host functions, which may count or throw,
 * are refused apart (CompiledModule.hostKeys).
 */
const flagging = (n: Node): boolean => isInteger(n.dtype) && (COUNTS_DIVIDE.has(n.op) || n.op === 'astype');

/** A value no kernel makes: a wrapped array, a placeholder or a constant. */
const isLeaf = (n: Node): boolean => n.family === 'scalar' || n.op === 'source' || n.op === 'placeholder';

/**
 * The kernel groups of a plan the lean run can take, in order, and the
 * windows of its views, else undefined: a plan of leaves, views of them
 * (and of what kernels made; a reshape where it needs no copy) and
 * elementwise kernels (with their reductions and takes), each reading
 * leaves, views and what the kernels before it made.
 */
function leanSteps(plan: Plan): { groups: FusedGroup[]; windows: Map<Node, Window> } | undefined {
  if (plan.stores.length > 0) return undefined;
  const groups: FusedGroup[] = [];
  const made = new Set<Node>();
  const windows = new Map<Node, Window>();
  // A constant has no window: its address is in the launch block.
  const windowOf = (n: Node): Window | undefined => windows.get(n) ??
    (n.op === 'source' || n.op === 'placeholder' || made.has(n) ? { base: n, value: atAddress(0, n.dtype, n.shape) } : undefined);
  for (const step of plan.steps) {
    if (step.kind === 'kernel') {
      const group = step.group;
      if (group.contraction || group.scans?.length || group.temps?.length) return undefined;
      if (!group.inputs.every((n) => made.has(n) || isLeaf(n) || windows.has(n))) return undefined;
      // A raising take's error reads its indices as a run placed them: contiguous, not through a window.
      if (group.raising?.some((t) => windows.has(t.inputs[1]))) return undefined;
      groups.push(group);
      for (const n of [...group.stores, ...group.reductions]) made.add(n);
      continue;
    }
    const n = step.node;
    if (isLeaf(n)) continue;
    const x = n.inputs[0] === undefined ? undefined : windowOf(n.inputs[0]);
    if (x && n.family === 'view') windows.set(n, { base: x.base, value: composeView(x.value, n.attrs.view, n.shape) });
    else if (x && n.op === 'reshape' && isContiguous(x.value)) windows.set(n, { base: x.base, value: reshapeValue(x.value, n.shape) });
    else return undefined;
  }
  if (groups.length === 0) return undefined;
  return plan.results.every((n) => made.has(n)) && plan.outputs.every((o) => made.has(o.node)) ? { groups, windows } : undefined;
}

const leanPlans = new WeakMap<Plan, LeanPlan | null>();

/** The lean form of `plan`, made at its first run (null when the general run must take it). */
function leanPlanOf(plan: Plan, compile: Compile): LeanPlan | null {
  let lean = leanPlans.get(plan);
  if (lean === undefined) leanPlans.set(plan, (lean = makeLean(plan, compile)));
  return lean;
}

function makeLean(plan: Plan, compile: Compile): LeanPlan | null {
  const steps = leanSteps(plan);
  if (!steps) return null;
  const { groups, windows } = steps;
  const stores = groups.flatMap((g) => g.stores);
  const reduced = new Set<Node>(groups.flatMap((g) => g.reductions));
  const kernels: LeanKernel[] = [];
  let storeStart = 0;
  for (const group of groups) {
    // The layout the general run gives these values: inputs (but views, their windows) and stores contiguous at their nodes' shapes.
    const built = buildKernel(group, group.inputs.map((n) => windows.get(n)?.value ?? atAddress(0, n.dtype, n.shape)),
      group.stores.map((n) => atAddress(0, n.dtype, n.shape)));
    const compiled = compile(built.spec);
    if (!built.operands) return null;
    let scalars = 0;
    const leaves = group.inputs.map((input): LeanLeaf => {
      if (input.family === 'scalar') return { node: input, kind: Leaf.Scalar, at: 8 * scalars++, value: input.attrs.value, offset: 0, shared: false };
      // A view's address is its base's, moved to its first element.
      const w = windows.get(input);
      const node = w?.base ?? input;
      const offset = w?.value.ptr ?? 0;
      if (reduced.has(node)) return { node, kind: Leaf.Reduced, at: 0, value: 0, offset, shared: false };
      const store = stores.indexOf(node);
      if (store >= 0) return { node, kind: Leaf.Store, at: store, value: 0, offset, shared: false };
      return { node, kind: node.op === 'source' ? Leaf.Source : Leaf.Placeholder, at: 0, value: 0, offset, shared: false };
    });
    const fixed = fixLaunch(compiled, launchOf(built), 8 * scalars);
    kernels.push({
      group, compiled, fixed, label: kernelLabel(group), leaves: leaves.map((l) => (l.kind === Leaf.Scalar ? { ...l, at: fixed.extraAt + l.at } : l)),
      storeStart, operands: built.operands,
      reductions: { segment: built.segment, mode: built.mode, zeroSlots: built.zeroSlots, ...(built.positionSlots ? { positionSlots: built.positionSlots } : {}), slots: built.spec.slots },
      work: launchWork(compiled, sizeOf(built.shape)),
    });
    storeStart += group.stores.length;
  }
  // A run holds every store to its end, where the general one frees each after its last reader: past a
  // few blocks of such values, that is the general run's to do (its fixed costs no longer count).
  const results = new Set([...plan.results, ...plan.outputs.map((o) => o.node)]);
  const held = stores.filter((n) => !results.has(n)).reduce((b, n) => b + sizeOf(n.shape) * dtypeInfo(n.dtype).bytes, 0);
  if (kernels.length > 1 && held > HELD_LIMIT) return null;
  markShared(kernels);
  const only = kernels.length === 1 ? kernels[0]! : undefined;
  const drainArray = only && only.group.stores.length === 1 ? only.operands.indexOf(only.group.inputs.length) : -1;
  const drainable = only !== undefined && drainArray >= 0 && only.fixed.drainable[drainArray] && only.fixed.blocks > DRAIN_BLOCKS &&
    only.compiled.hostKeys.length === 0 && !only.group.raising && !only.group.members.some(flagging);
  const storeBytes = stores.map((n) => sizeOf(n.shape) * dtypeInfo(n.dtype).bytes);
  const reread = new Set(kernels.flatMap((k) => k.leaves.filter((l) => l.kind === Leaf.Reduced).map((l) => l.node)));
  const fixedBytes = sumBlocks([...kernels.map((k) => k.fixed.bytes), ...[...reread].map((n) => sizeOf(n.shape) * dtypeInfo(n.dtype).bytes)]);
  return {
    kernels, stores, storeBytes, fixedBytes,
    work: kernels.reduce((w, k) => w + k.work, 0),
    drain: drainable ? { array: drainArray, storeBytes: [drainBytes(only.fixed, DRAIN_BLOCKS, drainArray)] } : undefined,
    privately: privately(kernels, fixedBytes + sumBlocks(storeBytes)),
  };
}

/** Bytes of blocks of these sizes, each at the size the heap gives it. */
const sumBlocks = (sizes: readonly number[]): number => sizes.reduce((b, bytes) => b + blockSize(bytes), 0);

/** LeanPlan.privately: undefined where a kernel reads a source (whose copy the process heap keeps). */
function privately(kernels: readonly LeanKernel[], bytes: number): LeanPlan['privately'] {
  const leaves = kernels.flatMap((k) => k.leaves);
  if (leaves.some((l) => l.kind === Leaf.Source)) return undefined;
  return { placeholders: [...new Set(leaves.filter((l) => l.kind === Leaf.Placeholder).map((l) => l.node))], bytes };
}

/** Marks the placeholder and reread leaves whose value another leaf of the plan reads too (LeanLeaf.shared). */
function markShared(kernels: LeanKernel[]): void {
  const placed = (l: LeanLeaf): boolean => l.kind === Leaf.Placeholder || l.kind === Leaf.Reduced;
  const reads = new Map<Node, number>();
  for (const k of kernels) for (const l of k.leaves) if (placed(l)) reads.set(l.node, (reads.get(l.node) ?? 0) + 1);
  kernels.forEach((k, i) => {
    if (k.leaves.some((l) => placed(l) && reads.get(l.node)! > 1)) {
      kernels[i] = { ...k, leaves: k.leaves.map((l) => (placed(l) && reads.get(l.node)! > 1 ? { ...l, shared: true } : l)) };
    }
  });
}

/**
 * Each lean plan's kernel instantiated per memory (an instance stays valid
 * once out of kernels-wasm's cache), keyed by the memory first: a heap that
 * starts over on a new memory lets the old go, instances and all.
 */
const instances = new WeakMap<WebAssembly.Memory, WeakMap<LeanKernel, KernelFn>>();

function kernelOn(lean: LeanKernel, memory: WebAssembly.Memory): KernelFn {
  let perPlan = instances.get(memory);
  if (!perPlan) instances.set(memory, (perPlan = new WeakMap()));
  let fn = perPlan.get(lean);
  // A heap private to the calling thread has an unshared memory, which only the kernel's unshared twin imports.
  if (!fn) perPlan.set(lean, (fn = instantiate(isSharedBuffer(memory.buffer) ? lean.compiled : unsharedKernel(lean.compiled), memory, host)));
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

export { Leaf, DRAIN_BLOCKS, leanPlanOf, kernelOn, writeScalar, sumBlocks };
export type { LeanPlan, LeanKernel, LeanLeaf };
