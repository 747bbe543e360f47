// Values in the WebAssembly backend: strided windows onto heap memory. A view
// (transpose, slice, broadcast, reshape of contiguous data) is a new window
// over the same bytes, so views cost nothing until something reads them.
import type { Heap } from 'kernels-wasm';
import { dtypeInfo } from '../ir/dtypes.js';
import type { DType, TypedArray } from '../ir/dtypes.js';
import type { RandomWords, ViewMap } from '../ir/node.js';
import { contiguousStrides, isRowMajor, sizeOf } from '../ir/shape.js';
import type { Shape } from '../ir/shape.js';
import { allocDense, asBits, forEachStrided } from '../core/dense.js';
import type { Dense } from '../core/dense.js';

/** A heap block this run allocated, shared by every window onto it. */
interface Allocation {
  /** The heap it lies in, which frees it. */
  readonly heap: Heap;
  readonly ptr: number;
  readonly data: TypedArray;
  refs: number;
  /** Set when the block belongs to a plan's buffer: called instead of freeing it. */
  readonly release?: () => void;
}

interface HeapValue {
  readonly dtype: DType;
  readonly shape: Shape;
  /** Byte address of element (0, ..., 0). */
  readonly ptr: number;
  /** Element strides. */
  readonly strides: readonly number[];
  /** Present when the bytes belong to this run (absent for sources, which own theirs). */
  readonly alloc?: Allocation;
  /**
   * A random array: no bytes at all. `ptr` is then the byte offset its
   * element (0, ..., 0) would have in a row-major array of its dtype, so that
   * views compose as over memory; only kernels read it (plan/pipeline.ts
   * copies one that anything else reads).
   */
  readonly random?: RandomWords;
}

const viewType = (d: DType) => (d === 'bool' ? 'uint8' : d);

/** Allocates heap bytes (the backend's allocator, which may evict cached sources). */
type Alloc = (bytes: number) => number;

/** A new contiguous value in `heap`, its block from `alloc` (freed when its last reference drops, or handed to `release`). */
function allocValue(heap: Heap, dtype: DType, shape: Shape, alloc: Alloc, release?: () => void): HeapValue {
  const n = sizeOf(shape);
  const ptr = alloc(n * dtypeInfo(dtype).bytes);
  const data = heap.view(viewType(dtype), ptr, n) as TypedArray;
  return { dtype, shape, ptr, strides: contiguousStrides(shape), alloc: { heap, ptr, data, refs: 1, ...(release ? { release } : {}) } };
}

/** A source's cached copy at `ptr` (the cache owns it, not the run). */
function atAddress(ptr: number, dtype: DType, shape: Shape): HeapValue {
  return { dtype, shape, ptr, strides: contiguousStrides(shape) };
}

/** Row-major and gap-free: axes of length 1 may have any stride. */
function isContiguous(v: HeapValue): boolean {
  return isRowMajor(v.shape, v.strides);
}

/** The window a view node opens onto its input's window. */
function composeView(v: HeapValue, view: ViewMap, shape: Shape): HeapValue {
  const { axes, steps, starts } = view;
  if (!axes || !steps || !starts) throw new Error('internal: view without per-axis mapping');
  const bytes = dtypeInfo(v.dtype).bytes;
  const ptr = sizeOf(shape) === 0 ? v.ptr : v.ptr + starts.reduce((s, st, a) => s + st * v.strides[a]! * bytes, 0);
  const strides = axes.map((a, i) => (a < 0 ? 0 : steps[i]! * v.strides[a]!));
  return share(v, { dtype: v.dtype, shape, ptr, strides });
}

/** A contiguous value under a new shape (the caller checked contiguity). */
function reshapeValue(v: HeapValue, shape: Shape): HeapValue {
  return share(v, { dtype: v.dtype, shape, ptr: v.ptr, strides: contiguousStrides(shape) });
}

/** A random array's values, computed where kernels read them. */
function randomValue(random: RandomWords, dtype: DType, shape: Shape): HeapValue {
  return { dtype, shape, ptr: 0, strides: contiguousStrides(shape), random };
}

function share(from: HeapValue, v: Omit<HeapValue, 'alloc' | 'random'>): HeapValue {
  if (from.random) return { ...v, random: from.random };
  if (!from.alloc) return v;
  from.alloc.refs++;
  return { ...v, alloc: from.alloc };
}

/** Drops one reference; frees the block when none is left. */
function dropValue(v: HeapValue): void {
  const a = v.alloc;
  if (!a || a.refs <= 0) return;
  a.refs--;
  if (a.refs > 0) return;
  if (a.release) a.release();
  else a.heap.free(a.ptr);
}

/** The element offsets, from v.ptr, of the window's lowest and highest elements (strides may be negative); a non-empty window. */
function extentOf(v: HeapValue): [number, number] {
  let lo = 0;
  let hi = 0;
  v.shape.forEach((d, i) => {
    const span = (d - 1) * v.strides[i]!;
    if (span < 0) lo += span; else hi += span;
  });
  return [lo, hi];
}

/**
 * The value, a window onto `heap`, as a row-major Dense: a view of the heap
 * where it is contiguous (valid while its memory is: read it before the run
 * ends), else a JS copy.
 */
function toDense(v: HeapValue, heap: Heap): Dense {
  if (v.random) throw new Error('internal: a random array reached the host; the planner copies one that a kernel does not read');
  if (isContiguous(v)) {
    return { dtype: v.dtype, shape: v.shape, data: heap.view(viewType(v.dtype), v.ptr, sizeOf(v.shape)) as TypedArray };
  }
  const out = allocDense(v.dtype, v.shape);
  const bytes = dtypeInfo(v.dtype).bytes;
  const n = sizeOf(v.shape);
  if (n === 0) return out;
  // Read through a view spanning the window's extent, wherever its strides point.
  const [lo, hi] = extentOf(v);
  const src = asBits(heap.view(viewType(v.dtype), v.ptr + lo * bytes, hi - lo + 1) as TypedArray);
  const to = asBits(out.data);
  forEachStrided(v.shape, [{ strides: v.strides, offset: -lo }], (i, o) => { to[i] = src[o]!; });
  return out;
}

export { allocValue, atAddress, randomValue, isContiguous, composeView, reshapeValue, dropValue, toDense, viewType, extentOf };
export type { HeapValue, Allocation, Alloc };
