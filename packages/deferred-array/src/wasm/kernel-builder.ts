// Turns a fused group into a KernelSpec and the arrays to launch it with:
// external inputs are loads (broadcast through zero strides, views through
// their strides), members become SSA instructions with explicit casts to each
// op's computation dtype, stored members become outputs, full reductions
// become per-block partials, and scans running values along their axis.
import { BLOCK_SIZE, collapseDims } from 'kernels-wasm';
import type { ContractionLaunch, ContractionSpec, InnerStride, KInstr, KType, KernelArray, KernelSpec, Launch, LaunchArray, TempLaunch, TempSpec } from 'kernels-wasm';
import type { DType } from '../ir/dtypes.js';
import { dtypeInfo, isBigInt, isFloat } from '../ir/dtypes.js';
import type { Node } from '../ir/node.js';
import { OPS, isBinaryOp, isUnaryOp } from '../ir/op-table.js';
import type { ReduceOp } from '../ir/op-table.js';
import { resolveElementwise, resolveReduce } from '../ir/type-rules.js';
import { touches64 } from '../plan/plan.js';
import type { FusedGroup, FusedTake, PinnedTemp } from '../plan/plan.js';
import { atAddress } from './heap-value.js';
import type { HeapValue } from './heap-value.js';
import { contractionOperands } from './contraction-operands.js';
import { mergeAxes } from './strides.js';
import type { CopyFn } from './contraction-operands.js';
import { InternalError, at, lookup } from '../util/lookup.js';
import { movedAs } from './kernel-types.js';
import { gatherLayout, indexStrides } from './take-layout.js';
import type { GatherWords } from './take-layout.js';

interface BuiltKernel {
  readonly spec: KernelSpec;
  readonly shape: readonly number[];
  readonly arrays: readonly LaunchArray[];
  /** Elements per reduction output: the product of the reduced axes (the whole space when there are none). */
  readonly segment: number;
  /** 'columns' when the reduced axes are outer in memory: then partials hold one final value per output. */
  readonly mode: 'rows' | 'columns';
  /** Reduction index -> slot of its hidden all(x != 0) (integer products). */
  readonly zeroSlots: ReadonlyMap<number, number>;
  /** Reduction index -> slot of the position beside its value (argmax, argmin). */
  readonly positionSlots?: ReadonlyMap<number, number>;
  /** Elements per block, where the kernel sets its own (a scan's: whole lines per block where they fit). */
  readonly blockSize?: number;
  /** The product's sizes and operands, for a group with a contraction. */
  readonly contraction?: ContractionLaunch;
  /** Each pinned temporary's own space and arrays. */
  readonly temps?: readonly TempLaunch[];
  /**
   * The launch arrays (and temporaries') for other values of the same layout
   * (shapes and strides) as the ones this kernel was built for: only the
   * addresses change. Absent for a contraction, whose operands may be copies.
   */
  readonly rebind?: (inputs: readonly HeapValue[], outputs: readonly HeapValue[]) => { arrays: LaunchArray[]; temps?: TempLaunch[] };
  /**
   * What each launch array passes, for an elementwise kernel: an index into
   * [...inputs, ...outputs], or -1 for a pinned temporary.
   */
  readonly operands?: readonly number[];
}

type Rebind = NonNullable<BuiltKernel['rebind']>;
/** A gathered array's taken axis, as a launch gives it: its length and stride (elements). */

/** The launch of a built kernel: its space, arrays, reduction runs and blocks, and a contraction's or temporaries' own. */
const launchOf = (built: BuiltKernel): Launch => ({
  shape: built.shape, arrays: built.arrays, ...(built.segment ? { segment: built.segment } : {}),
  ...(built.blockSize ? { blockSize: built.blockSize } : {}),
  ...(built.contraction ? { contraction: built.contraction } : {}), ...(built.temps ? { temps: built.temps } : {}),
});

/** A pinned temporary with the kernel that computes it, which can be rebound to other values. */
interface TempKernel {
  readonly temp: PinnedTemp;
  readonly built: BuiltKernel & { readonly rebind: Rebind };
}

const BOOL_RESULT = new Set(['compare', 'predicate', 'logical']);

/**
 * Strides of `v` read over an iteration space of `shape` (NumPy broadcasting).
 * An axis of length 1 in both keeps v's stride: nothing walks it, but the
 * kernel compiled for it is then the one longer spaces of this layout use.
 */
function broadcastStrides(v: HeapValue, shape: readonly number[]): number[] {
  const lead = shape.length - v.shape.length;
  return [...shape.slice(0, lead).map(() => 0), ...v.strides.map((s, j) => (v.shape[j] === 1 && shape[lead + j] !== 1 ? 0 : s))];
}

/**
 * A value as a launch passes it: a random array by its first element's index
 * (its pointer counts elements), with its key and stream; a gathered one with
 * its taken axis's length and stride.
 */
function launchArray(v: HeapValue, strides: readonly number[], gather?: GatherWords): LaunchArray {
  if (gather) return { ptr: v.ptr, strides, gather };
  if (!v.random) return { ptr: v.ptr, strides };
  return { ptr: v.ptr / dtypeInfo(v.dtype).bytes, strides, random: v.random };
}

function innerOf(stride: number): InnerStride {
  return stride === 1 ? 'contiguous' : stride === 0 ? 'broadcast' : 'strided';
}

/**
 * How the spec sees a value walked with `strides` (collapsed): its dtype (or
 * `as`, for a copy that moves bits), role, innermost stride, and whether it is random.
 */
function kernelArray(v: HeapValue, role: 'in' | 'out', strides: readonly number[], as: KType = v.dtype): KernelArray {
  return { dtype: as, role, inner: innerOf(strides[strides.length - 1]!), ...(v.random ? { random: true as const } : {}) };
}

/** A temporary's address is its thread's scratch, set per block: the window here is only its row-major layout. */
const tempValue = (n: Node): HeapValue => atAddress(0, n.dtype, n.shape);

/** The values a launch passes, in the spec's order: loaded inputs, temporaries, outputs. */
const launchValues = (loadedAt: readonly number[], temps: readonly PinnedTemp[], ins: readonly HeapValue[], outs: readonly HeapValue[]): HeapValue[] =>
  [...ins.filter((_, k) => loadedAt.includes(k)), ...temps.map((t) => tempValue(t.node)), ...outs];

/**
 * The launch's arrays for a kernel's values or any others of their layout:
 * only addresses change. Made apart from buildKernel, so that the closure
 * (kept with the kernel for later runs) holds the layout and never the values
 * of the run that built it, nor that run's plan and arrays.
 */
function rebinder(groupInputs: readonly Node[], loadedAt: readonly number[], temps: readonly PinnedTemp[], tempKernels: readonly TempKernel[],
  strides: readonly (readonly number[])[], gathers: ReadonlyMap<number, GatherWords>): Rebind {
  return (ins, outs) => {
    const arrays = launchValues(loadedAt, temps, ins, outs).map((v, k) => launchArray(v, at(strides, k, 'launch strides'), gathers.get(k)));
    if (temps.length === 0) return { arrays };
    const valueOf = new Map(groupInputs.map((n, k) => [n, at(ins, k, 'rebound input')]));
    return {
      arrays,
      temps: tempKernels.map(({ temp, built }) => ({
        shape: built.shape,
        arrays: built.rebind(temp.inputs.map((n) => lookup(valueOf, n, 'temporary input')), [tempValue(temp.node)]).arrays,
      })),
    };
  };
}

/**
 * `inputs` are the values of group.inputs, `outputs` freshly allocated values
 * for group.stores; reduction i writes slot i. A pinned temporary is one more
 * input array, row-major over its own shape and read through its broadcast
 * strides; its computation (its cone over its own space) comes with the spec.
 */
function buildKernel(group: FusedGroup, inputs: readonly HeapValue[], outputs: readonly HeapValue[]): BuiltKernel & { readonly rebind: Rebind } {
  const full = group.shape.length === 0 ? [1] : [...group.shape];
  const temps = group.temps ?? [];
  // The body loads what its members and reductions read; the temporaries' own inputs are theirs.
  const scans = group.scans ?? [];
  const read = new Set([...group.members, ...group.reductions, ...scans].flatMap((m) => m.inputs));
  if (group.contraction) read.add(group.contraction);
  const loadedAt = group.inputs.flatMap((n, k) => (read.has(n) ? [k] : []));
  const loaded = loadedAt.map((k) => [at(group.inputs, k, 'group input'), at(inputs, k, 'input value')] as const);
  const sources = [...loaded.map(([n]) => n), ...temps.map((t) => t.node)];
  const values = launchValues(loadedAt, temps, inputs, outputs);
  const inputCount = sources.length;
  // A take's x is gathered, not loaded: its array is walked by the take's strides, with the taken axis's words.
  // Indices with axes of x after them are walked in the middle of the space (fuse-grouping.ts keeps each read one way).
  const takes = group.members.filter((m): m is FusedTake => m.op === 'take');
  const gathered = new Map<number, { strides: number[]; gather: GatherWords }>();
  const ownStrides = new Map<number, number[]>();
  for (const t of takes) {
    const [x, k] = [sources.indexOf(t.inputs[0]), sources.indexOf(t.inputs[1])];
    if (!gathered.has(x)) gathered.set(x, gatherLayout(t, at(values, x, 'gathered value')));
    if (k >= 0 && t.attrs.axis < t.inputs[0].shape.length - 1) ownStrides.set(k, indexStrides(t, at(values, k, 'index value')));
  }
  // Reduced (or scanned) axes go last, so that each output reduces a run of consecutive elements.
  const [scan] = scans;
  const reduced = group.shape.length === 0 ? [] : scan ? [scan.attrs.axis] : [...(group.reductions[0]?.attrs.axes ?? [])];
  const order = [...full.map((_, d) => d).filter((d) => !reduced.includes(d)), ...reduced];
  const space = order.map((d) => at(full, d, 'group axis'));
  const fullStrides = values.map((v, k) => gathered.get(k)?.strides ?? ownStrides.get(k) ?? broadcastStrides(v, full));
  const strides = fullStrides.map((s) => order.map((d) => at(s, d, 'broadcast stride')));
  // Elements per output: the product of the reduced axes (1 for axis: [], or for a 0-d space).
  const segment = group.reductions.length === 0 && scans.length === 0 ? space.reduce((a, b) => a * b, 1) : reduced.reduce((a, d) => a * at(full, d, 'reduced axis'), 1);
  // Column kernels own all rows of their columns per block: no per-block range of a temporary to speak of.
  // A scan along an axis outer in memory runs there too, a lane per column.
  // Columns mode runs vector lanes across the rows, which int64 and uint64 do not have yet.
  const wide = values.some((v) => isBigInt(v.dtype)) || group.members.some(touches64);
  // argmax and argmin keep a position beside each value.
  const positionSlots = new Map<number, number>();
  group.reductions.forEach((r, k) => { if (r.op === 'argmax' || r.op === 'argmin') positionSlots.set(k, group.reductions.length + positionSlots.size); });
  const columns = temps.length || wide || takes.length || values.some((v) => v.random) ? undefined
    : columnLayout(full, reduced, fullStrides);
  const collapsed = columns ?? collapseDims(space, strides);
  const body: KInstr[] = [];
  const typeOf = (id: number): KType => at(body, id, 'kernel value').type;
  const push = (ins: KInstr): number => body.push(ins) - 1;
  const castTo = (id: number, t: DType): number => (typeOf(id) === t ? id : push({ op: 'cast', arg: id, type: t }));
  const idOf = new Map<Node, number>();
  const get = (n: Node): number => lookup(idOf, n, 'kernel value of a node');

  sources.forEach((n, k) => { if (!gathered.has(k)) idOf.set(n, push({ op: 'load', array: k, type: n.dtype })); });
  for (const m of group.members) {
    idOf.set(m, m.op === 'take'
      ? push({ op: 'gather', array: sources.indexOf(m.inputs[0]), index: castTo(get(m.inputs[1]), 'int32'), mode: (m as FusedTake).attrs.mode, type: m.dtype })
      : emitMember(m, get, push, castTo));
  }
  // A scan accumulates in its result dtype (resolveReduce: float64 for integers), one rounding per step as NumPy's.
  scans.forEach((x, slot) => {
    const fn = x.op === 'cumprod' ? 'prod' : 'sum';
    const id = push({ op: 'scan', fn, arg: castTo(get(x.inputs[0]), x.dtype), slot, type: x.dtype });
    // Integers have no -0, which a product of integers carried in float64 reaches (0 * -5): + 0 drops it.
    const zero = fn === 'prod' && !isFloat(x.inputs[0].dtype) ? push({ op: 'const', value: 0, type: x.dtype }) : undefined;
    idOf.set(x, zero === undefined ? id : push({ op: 'binary', fn: 'add', args: [id, zero], type: x.dtype }));
  });
  group.stores.forEach((n, k) => {
    push({ op: 'store', array: inputCount + k, arg: get(n), type: n.dtype });
  });
  const zeroSlots = new Map<number, number>();
  group.reductions.forEach((r, slot) => {
    const { op } = r;
    const x = get(r.inputs[0]);
    const bool = op === 'any' || op === 'all';
    const position = positionSlots.get(slot);
    // argmax of bools compares them as the numbers 0 and 1, in the type of the kernel's lanes (a float
    // kernel's comparisons are masks there, which no lane compares as numbers).
    const type = bool ? 'bool' : position !== undefined && r.inputs[0].dtype === 'bool' ? maskPositionType(sources) : accumulatorDType(op, r.inputs[0].dtype);
    push({ op: 'reduce', fn: op === 'mean' ? 'sum' : (op as 'sum'), arg: castTo(x, type), slot, type, ...(position === undefined ? {} : { position }) });
  });
  // An integer product with a zero factor is 0, even where the float64 it is
  // carried in overflowed to Inf on the way (Inf * 0 would be NaN): a hidden
  // slot records whether every factor was nonzero.
  group.reductions.forEach((r, k) => {
    if (r.op !== 'prod' || isFloat(r.inputs[0].dtype) || isBigInt(r.inputs[0].dtype)) return;
    const slot = group.reductions.length + positionSlots.size + zeroSlots.size;
    zeroSlots.set(k, slot);
    push({ op: 'reduce', fn: 'all', arg: castTo(get(r.inputs[0]), 'bool'), slot, type: 'bool' });
  });

  const arrays = values.map((v, k) => ({
    ...kernelArray(v, k < inputCount ? 'in' : 'out', at(collapsed.strides, k, 'collapsed strides')), ...(gathered.has(k) ? { gathered: true as const } : {}),
  }));
  // Each temporary: its cone as a kernel of its own over its own shape, storing into a row-major output.
  const valueOf = new Map(group.inputs.map((n, k) => [n, at(inputs, k, 'input value')]));
  const tempKernels = temps.map((t, i): TempKernel & { spec: TempSpec } => {
    const cone: FusedGroup = { id: -1, shape: t.node.shape, members: t.members, reductions: [], inputs: t.inputs, stores: [t.node] };
    const built = buildKernel(cone, t.inputs.map((n) => lookup(valueOf, n, 'temporary input')), [tempValue(t.node)]);
    return { spec: { array: loaded.length + i, kernel: built.spec, out: built.spec.arrays.length - 1 }, temp: t, built };
  });
  const rebind = rebinder(group.inputs, loadedAt, temps, tempKernels, collapsed.strides, new Map([...gathered].map(([k, g]) => [k, g.gather])));
  const launch = rebind(inputs, outputs);
  return {
    spec: {
      ndim: collapsed.shape.length, arrays, body, slots: group.reductions.length + positionSlots.size + zeroSlots.size + scans.length,
      ...(columns ? { mode: 'columns' as const } : {}),
      ...(temps.length ? { temps: tempKernels.map((t) => t.spec) } : {}),
    },
    shape: collapsed.shape,
    arrays: launch.arrays,
    rebind,
    operands: [...loadedAt, ...temps.map(() => -1), ...outputs.map((_, j) => inputs.length + j)],
    segment,
    mode: columns ? 'columns' : 'rows',
    zeroSlots,
    ...(positionSlots.size ? { positionSlots } : {}),
    ...(launch.temps ? { temps: launch.temps } : {}),
    ...(scans.length && !columns ? { blockSize: scanBlockSize(segment) } : {}),
  };
}

/**
 * A scan's blocks hold whole lines where a line fits in a block, so that no
 * line is cut into pieces: each is then accumulated from its first element,
 * exactly as NumPy's. Longer lines are cut at the usual block size. Either way
 * the blocks follow from the data alone.
 */
const scanBlockSize = (line: number): number => (line > 0 && line <= BLOCK_SIZE ? line * Math.floor(BLOCK_SIZE / line) : BLOCK_SIZE);

/**
 * The first of a scan kernel's two launches where lines span several pieces:
 * the same body reducing what it scans, storing nothing. Its partials are
 * each piece's total, from which each piece's starting value follows.
 */
function scanTotals(spec: KernelSpec): KernelSpec {
  const body: KInstr[] = [];
  // Old value index -> new; the scans' values, and what is computed from them, are dropped.
  const renumbered = new Map<number, number>();
  const keep = (v: number, ins: KInstr): void => { renumbered.set(v, body.push(ins) - 1); };
  const dropped = (args: readonly number[]): boolean => args.some((a) => !renumbered.has(a));
  const get = (v: number): number => lookup(renumbered, v, 'kept value of a scan kernel');
  spec.body.forEach((ins, v) => {
    switch (ins.op) {
      case 'store': break;
      case 'scan': body.push({ op: 'reduce', fn: ins.fn, arg: get(ins.arg), slot: ins.slot, type: ins.type }); break;
      case 'load': case 'const': keep(v, ins); break;
      case 'unary': case 'cast': if (!dropped([ins.arg])) keep(v, { ...ins, arg: get(ins.arg) }); break;
      case 'binary': if (!dropped(ins.args)) keep(v, { ...ins, args: [get(ins.args[0]), get(ins.args[1])] }); break;
      case 'select': if (!dropped(ins.args)) keep(v, { ...ins, args: [get(ins.args[0]), get(ins.args[1]), get(ins.args[2])] }); break;
      case 'reduce': throw new Error('internal: a scan kernel has no reductions');
      case 'gather': throw new Error('internal: a scan kernel has no gathers');
    }
  });
  return { ...spec, body };
}

/**
 * A group with a contraction: the product (stores[0], outputs[0]) computed
 * per block into its array, and the members as the elementwise body over it,
 * which loads it as input 0. Operands are read in place or copied by `copy`.
 */
function buildContraction(group: FusedGroup, inputs: readonly HeapValue[], outputs: readonly HeapValue[], copy: CopyFn): BuiltKernel {
  const c = group.contraction;
  if (!c) throw new InternalError('buildContraction: the group has no contraction');
  const valueOf = new Map(group.inputs.map((n, k) => [n, at(inputs, k, 'input value')]));
  const operand = (n: Node): HeapValue => lookup(valueOf, n, 'contraction operand');
  const { launch, vectorise } = contractionOperands(c, operand(c.inputs[0]), operand(c.inputs[1]), copy);
  const read = new Set([...group.members.flatMap((m) => m.inputs), ...(group.temps ?? []).flatMap((t) => t.inputs)]);
  const epilogueInputs = group.inputs.filter((n) => read.has(n));
  const epilogue: FusedGroup = { ...group, inputs: [c, ...epilogueInputs], stores: group.stores.slice(1) };
  const built = buildKernel(epilogue, [at(outputs, 0, 'product output'), ...epilogueInputs.map((n) => lookup(valueOf, n, 'epilogue input'))], outputs.slice(1));
  const dtype = c.dtype as ContractionSpec['dtype'];
  const { rebind: _, ...fixed } = built;
  return { ...fixed, spec: { ...built.spec, contraction: { dtype, product: 0, vectorise } }, contraction: launch };
}

/**
 * The [rows, columns] space of a column reduction, when it pays: the reduced
 * axes are outer in memory for the first array (its kept axes run contiguous)
 * and both the reduced and the kept axes merge into one axis for every array.
 */
function columnLayout(shape: readonly number[], reduced: readonly number[], strides: readonly (readonly number[])[]) {
  const kept = shape.map((_, d) => d).filter((d) => !reduced.includes(d));
  if (reduced.length === 0 || kept.length === 0) return undefined;
  const merged = strides.map((s) => [mergeAxes(shape, s, reduced), mergeAxes(shape, s, kept)]);
  if (merged.some(([a, b]) => a === undefined || b === undefined)) return undefined;
  const [rowStride, colStride] = at(merged, 0, 'first array of a column layout');
  const columns = kept.reduce((a, d) => a * at(shape, d, 'kept axis'), 1);
  if (colStride !== 1 || rowStride === 1 || columns < 2) return undefined;
  return { shape: [reduced.reduce((a, d) => a * at(shape, d, 'reduced axis'), 1), columns], strides: merged as number[][] };
}

/** A kernel that copies `x` into the contiguous `out` (materialising a view), cast to out's dtype where they differ. */
function buildCopy(x: HeapValue, out: HeapValue): BuiltKernel {
  const space = x.shape.length === 0 ? [1] : [...x.shape];
  const collapsed = collapseDims(space, [broadcastStrides(x, space), broadcastStrides(out, space)]);
  const [xStrides, outStrides] = [at(collapsed.strides, 0, 'copied strides'), at(collapsed.strides, 1, 'copy strides')];
  // A copy moves bits (movedAs: int64 as float64, in lanes); a cast computes in the types themselves.
  const cast = out.dtype !== x.dtype;
  const body: KInstr[] = [{ op: 'load', array: 0, type: cast ? x.dtype : movedAs(x.dtype) }];
  if (cast) body.push({ op: 'cast', arg: 0, type: out.dtype });
  body.push({ op: 'store', array: 1, arg: body.length - 1, type: cast ? out.dtype : movedAs(out.dtype) });
  return {
    spec: {
      ndim: collapsed.shape.length,
      arrays: [kernelArray(x, 'in', xStrides, body[0]!.type), kernelArray(out, 'out', outStrides, body[body.length - 1]!.type)],
      body,
      slots: 0,
    },
    shape: collapsed.shape,
    arrays: [launchArray(x, xStrides), launchArray(out, outStrides)],
    segment: 1,
    mode: 'rows',
    zeroSlots: new Map(),
  };
}

function emitMember(m: Node, get: (n: Node) => number, push: (i: KInstr) => number, castTo: (id: number, t: DType) => number): number {
  const family = OPS[m.op].family;
  const ins = m.inputs.map(get);
  const arg = (list: readonly number[], k: number): number => at(list, k, `operand of ${m.op}`);
  if (family === 'cast') return castTo(arg(ins, 0), m.dtype);
  const { compute } = resolveElementwise(m.op, m.inputs.map((n) => n.dtype));
  if (m.op === 'where') {
    return push({ op: 'select', args: [castTo(arg(ins, 0), 'bool'), castTo(arg(ins, 1), m.dtype), castTo(arg(ins, 2), m.dtype)], type: m.dtype });
  }
  const args = ins.map((id) => castTo(id, compute));
  if (m.op === 'clip') {
    const lo = push({ op: 'binary', fn: 'maximum', args: [arg(args, 0), arg(args, 1)], type: compute });
    return castTo(push({ op: 'binary', fn: 'minimum', args: [lo, arg(args, 2)], type: compute }), m.dtype);
  }
  const type = BOOL_RESULT.has(OPS[m.op].rule) ? 'bool' : compute;
  // The unary and binary ops are kernels-wasm's own rows (KUnary, KBinary): the spec names them as they are.
  const fn = m.op;
  if (isUnaryOp(fn)) return castTo(push({ op: 'unary', fn, arg: arg(args, 0), type }), m.dtype);
  if (isBinaryOp(fn)) return castTo(push({ op: 'binary', fn, args: [arg(args, 0), arg(args, 1)], type }), m.dtype);
  throw new Error(`internal: ${fn} is not an elementwise op of a kernel`);
}

/**
 * The type argmax and argmin of a bool value compare it in: the 0 and 1 of
 * the kernel's float lanes where it reads floats, else int32 (i32x4 lanes).
 */
function maskPositionType(sources: readonly Node[]): DType {
  if (sources.some((n) => n.dtype === 'float64')) return 'float64';
  return sources.some((n) => n.dtype === 'float32') ? 'float32' : 'int32';
}

/**
 * The dtype a fused reduction accumulates in. float32 sums and means
 * accumulate in float64 and round once at the end: a block holds thousands of
 * elements per lane, and float32 running sums over that many would lose
 * digits that NumPy's pairwise summation keeps. Products stay in float32,
 * where their rounding is relative and they overflow where NumPy's do.
 */
function accumulatorDType(op: ReduceOp, input: DType): DType {
  if (op === 'any' || op === 'all') return 'bool'; // of the input's truth
  const { compute } = resolveReduce(op, input);
  return compute === 'float32' && (op === 'sum' || op === 'mean') ? 'float64' : compute;
}

export { buildKernel, buildContraction, buildCopy, accumulatorDType, scanTotals, launchOf, innerOf };
export type { BuiltKernel };
