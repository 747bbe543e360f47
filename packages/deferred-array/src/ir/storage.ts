// Where array data lives: the shared WebAssembly heap, so that kernels and
// workers read it in place. Storage made here belongs to the node built over
// it and is freed when that node is collected.
import { defaultHeap } from 'kernels-wasm';
import { dtypeInfo } from './dtypes.js';
import type { DType, TypedArray } from './dtypes.js';

const heapViews = new WeakSet<TypedArray>();

/** Zeroed storage for n elements of `dtype`, in the heap. */
function allocStorage(dtype: DType, n: number): TypedArray {
  const heap = defaultHeap();
  const ptr = heap.alloc(n * dtypeInfo(dtype).bytes);
  const view = heap.view(dtype === 'bool' ? 'uint8' : dtype, ptr, n) as TypedArray;
  view.fill(0); // freed blocks are reused, and JS code expects zeroed arrays
  heapViews.add(view);
  return view;
}

/** Storage in the heap holding `data`: `data` itself when allocStorage made it, else a copy. */
function toStorage(data: TypedArray, dtype: DType): TypedArray {
  if (heapViews.has(data)) return data;
  const out = allocStorage(dtype, data.length);
  out.set(data);
  return out;
}

/** Frees `data` when `owner` is collected. */
function ownStorage(owner: object, data: TypedArray): void {
  defaultHeap().track(owner, data.byteOffset);
}

/** Byte address of storage in the heap. */
const addressOf = (data: TypedArray): number => data.byteOffset;

export { allocStorage, toStorage, ownStorage, addressOf };
