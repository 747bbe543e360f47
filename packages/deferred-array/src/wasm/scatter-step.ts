// addAt (NumPy's add.at) by kernels-wasm's scatter routine, on the calling
// thread, where the sum is computed in the target's own type (the target,
// the values and add's result of the same dtype) and the indices read
// exactly as int32. The indices are checked before anything is written, as
// the reference checks each before its write and fails without a result.
// Indices or values that share memory with the result are copied first, so
// that each is read as it was before the step.
import { checkedAddAt, countJob, countSpreads, onlyLaunch } from 'kernels-wasm/routines';
import type { AddAtType, RoutineJob, RoutineSequence } from 'kernels-wasm/routines';
import { dtypeInfo } from '../ir/dtypes.js';
import type { DType } from '../ir/dtypes.js';
import { ExecutionError } from '../ir/errors.js';
import type { FamilyNode } from '../ir/node.js';
import { sizeOf } from '../ir/shape.js';
import { resolveElementwise } from '../ir/type-rules.js';
import { dropValue, extentOf, isContiguous } from './heap-value.js';
import type { HeapValue } from './heap-value.js';
import type { StepHeap } from './step-heap.js';

/** The routine's type for a target dtype: an unsigned integer adds as the signed one of its width (the same bits). */
const ADD_AT_TYPES: Partial<Record<DType, AddAtType>> = {
  float64: 'f64', float32: 'f32', int64: 'i64', uint64: 'i64', int32: 'i32', uint32: 'i32', int16: 'i16', uint16: 'i16', int8: 'i8', uint8: 'i8',
};

/** Index dtypes that convert to int32 exactly. */
const EXACT_INT32: ReadonlySet<DType> = new Set(['int32', 'int16', 'int8', 'uint16', 'uint8']);

/** Whether scatterStep runs this addAt (the others run through the reference). */
function isScatterStep(n: FamilyNode<'scatter'>): boolean {
  const [target, indices, values] = n.inputs;
  return ADD_AT_TYPES[target.dtype] !== undefined && values.dtype === target.dtype && EXACT_INT32.has(indices.dtype)
    && resolveElementwise('add', [target.dtype, values.dtype]).out === target.dtype;
}

/** The bytes a window's elements span: [from, to). */
function extent(v: HeapValue): [number, number] {
  const bytes = dtypeInfo(v.dtype).bytes;
  const [lo, hi] = extentOf(v);
  return [v.ptr + lo * bytes, v.ptr + (hi + 1) * bytes];
}

const overlap = (a: HeapValue, b: HeapValue): boolean => {
  if (sizeOf(a.shape) === 0 || sizeOf(b.shape) === 0) return false;
  const [a0, a1] = extent(a);
  const [b0, b1] = extent(b);
  return a0 < b1 && b0 < a1;
};

/** addAt's operands as the routines read them, and the steps around the adds. */
interface AddAtOperands {
  readonly rows: number;
  readonly inner: number;
  readonly count: number;
  /** The indices as contiguous int32, the values (one for all where vstride is -1), and where the adds go. */
  readonly idx: HeapValue;
  readonly vals: HeapValue;
  readonly vstride: number;
  readonly work: HeapValue;
  /** Throws the error naming the index at position `bad`. */
  fail(bad: number): never;
  /** Puts the target in work (once the indices are known good, before the adds). */
  placeTarget(): void;
  /** The result in the node's block (after the adds). */
  result(): HeapValue;
  /** Frees the copies and the work block. */
  release(): void;
}

/**
 * The node's block (and a contiguous work block where it is not), the
 * indices as int32 and the values read where they lie, copied first where
 * they are not contiguous or share memory with the result, so that each is
 * read as it was before the step.
 */
function operandsOf(n: FamilyNode<'scatter'>, [target, indices, values]: readonly HeapValue[], h: StepHeap): AddAtOperands {
  const rows = target!.shape[0]!;
  const inner = sizeOf(target!.shape.slice(1));
  const count = sizeOf(indices!.shape);
  const out = h.place(n);
  const work = isContiguous(out) ? out : h.temp(n.dtype, n.shape);
  const copies: HeapValue[] = [];
  const readable = (v: HeapValue, dtype: DType, label: string): HeapValue => {
    if (v.dtype === dtype && isContiguous(v) && !v.random && !overlap(v, work)) return v;
    const c = h.copy(v, dtype, label);
    copies.push(c);
    return c;
  };
  const release = (): void => {
    for (const c of copies) dropValue(c);
    if (work !== out) dropValue(work);
  };
  let idx: HeapValue;
  let vals: HeapValue;
  // One value for every element reads that value where it lies.
  const broadcast = values!.strides.every((s) => s === 0) && !values!.random && !overlap(values!, work);
  try {
    idx = readable(indices!, 'int32', 'copy of addAt\'s indices');
    vals = broadcast ? values! : readable(values!, values!.dtype, 'copy of addAt\'s values');
  } catch (e) {
    release();
    throw e;
  }
  return {
    rows, inner, count, idx, vals, vstride: broadcast ? -1 : inner, work,
    fail(bad) {
      const i = new Int32Array(h.heap.memory.buffer, idx.ptr, count)[bad]!;
      throw new ExecutionError(`${n.op}: index ${i} is out of bounds for axis 0 with size ${rows}`);
    },
    placeTarget() {
      if (work.ptr !== target!.ptr || !isContiguous(target!)) h.copyInto(target!, work, 'addAt\'s target into place');
    },
    result() {
      if (work !== out) h.copyInto(work, out, 'addAt into place');
      return out;
    },
    release,
  };
}

function scatterStep(n: FamilyNode<'scatter'>, inputs: readonly HeapValue[], h: StepHeap): HeapValue {
  const o = operandsOf(n, inputs, h);
  try {
    const bad = checkedAddAt(h.heap, ADD_AT_TYPES[n.dtype]!, o.work.ptr, o.rows, o.inner, o.idx.ptr, o.count, o.vals.ptr, o.vstride, () => { o.placeTarget(); });
    if (bad >= 0) o.fail(bad);
    return o.result();
  } finally {
    o.release();
  }
}

/** Fewer indices than this add on the calling thread (scatterStep): the pool never wakes for them. */
const POOLED_INDICES = 1 << 17;

/**
 * addAt of integers into rows of one element with many indices (bincount's
 * counts) as a launch of kernels-wasm's count kernel (countJob), which a
 * pool shares out by blocks of indices, each thread counting into copies
 * of its own, for up to `threadsFor(indices)` threads; its `finish` names the first bad
 * index before anything is written, as scatterStep does, else puts the
 * target in place and adds the counts into it. Undefined where scatterStep serves.
 */
function scatterLaunch(n: FamilyNode<'scatter'>, inputs: readonly HeapValue[], h: StepHeap, threadsFor: (elements: number) => number): { readonly launches: RoutineSequence; finish(): HeapValue } | undefined {
  const [target, indices] = inputs;
  const rows = target!.shape[0]!;
  const inner = sizeOf(target!.shape.slice(1));
  const count = sizeOf(indices!.shape);
  const type = ADD_AT_TYPES[n.dtype]!;
  // Values one for all or one an element: either spreads (decided before the node's block is taken).
  if (count < POOLED_INDICES || !countSpreads(type, rows, inner, count, inner)) return undefined;
  const o = operandsOf(n, inputs, h);
  let job: RoutineJob & { firstBad(): number; addInto(out: number): void };
  try {
    job = countJob(h.heap, type, rows, inner, o.idx.ptr, count, o.vals.ptr, o.vstride, threadsFor(count))!;
  } catch (e) {
    o.release();
    throw e;
  }
  return {
    launches: onlyLaunch(job),
    finish() {
      try {
        const bad = job.firstBad();
        if (bad >= 0) o.fail(bad);
        o.placeTarget();
        job.addInto(o.work.ptr);
        return o.result();
      } finally {
        job.release();
        o.release();
      }
    },
  };
}

export { isScatterStep, scatterLaunch, scatterStep };
