// Runs a compiled kernel over an iteration space on the calling thread: binds
// sizes, pointers and strides through a launch block in the heap, runs every
// block, and reads back the per-block partials and the flags.
import { ARGS, argsBytes, arrayPtrOffset, arrayStrideOffset } from './args-layout.js';
import type { CompiledModule, HostFunction } from './compile.js';

/** What a launch needs of the heap (kernels-wasm's Heap provides it). */
interface HeapLike {
  readonly memory: WebAssembly.Memory;
  alloc(bytes: number): number;
  free(ptr: number): void;
}

interface LaunchArray {
  /** Byte address of element (0, ..., 0). */
  readonly ptr: number;
  /** Element strides per axis; 0 broadcasts, negative walks backwards. */
  readonly strides: readonly number[];
}

interface Launch {
  readonly shape: readonly number[];
  readonly arrays: readonly LaunchArray[];
  /** Elements per block (default BLOCK_SIZE): fixed by the data, never by the worker count. */
  readonly blockSize?: number;
  /** Elements each reduction output covers (the trailing, reduced part of the space); default: all. */
  readonly segment?: number;
}

interface LaunchResult {
  /**
   * Row kernels: partials[piece * slots + slot], pieces being reduced runs cut at block boundaries, in element order.
   * Column kernels: partials[slot * columns + column], final values.
   */
  readonly partials: Float64Array;
  readonly blocks: number;
  /** Number of pieces; pieceIndex(i) numbers the piece starting at element i. */
  readonly pieces: number;
  readonly pieceIndex: (i: number) => number;
  readonly flags: { readonly divide: number; readonly invalid: number };
}

/** 16 Ki elements: 128 KiB of float64 per array, which stays in L2 while a block runs. */
const BLOCK_SIZE = 16384;
/** Columns per block of a column kernel: 16 KiB of float64 partials per reduction, in L1. */
const COLUMN_BLOCK = 2048;

type KernelFn = (args: number, blockBegin: number, blockEnd: number) => void;

const instances = new WeakMap<WebAssembly.Memory, Map<string, KernelFn>>();

/** The kernel instantiated on `memory`, once per (memory, module). */
function instantiate(compiled: CompiledModule, memory: WebAssembly.Memory, host: (key: string) => HostFunction): KernelFn {
  let perMemory = instances.get(memory);
  if (!perMemory) instances.set(memory, (perMemory = new Map()));
  const hit = perMemory.get(compiled.hash);
  if (hit) return hit;
  const hostImports = Object.fromEntries(compiled.hostKeys.map((k) => [k, host(k)]));
  const instance = new WebAssembly.Instance(compiled.module, { env: { memory }, host: hostImports });
  const fn = instance.exports['kernel'] as KernelFn;
  perMemory.set(compiled.hash, fn);
  return fn;
}

function launch(compiled: CompiledModule, heap: HeapLike, kernel: KernelFn, l: Launch): LaunchResult {
  const { ndim, slots } = compiled.spec;
  if (l.shape.length !== ndim) throw new RangeError(`launch: the kernel has ${ndim} axes but the shape ${JSON.stringify(l.shape)} has ${l.shape.length}`);
  if (l.arrays.length !== compiled.spec.arrays.length) {
    throw new RangeError(`launch: the kernel takes ${compiled.spec.arrays.length} arrays; got ${l.arrays.length}`);
  }
  const total = l.shape.reduce((a, b) => a * b, 1);
  const columns = compiled.spec.mode === 'columns';
  // Column kernels share out columns (each block owns COLUMN_BLOCK of them); row kernels share out elements.
  const blockSize = l.blockSize ?? (columns ? COLUMN_BLOCK : BLOCK_SIZE);
  const blocks = columns ? (total === 0 ? 0 : Math.ceil(l.shape[1]! / blockSize)) : Math.ceil(total / blockSize);
  const segment = Math.max(1, l.segment ?? total);
  if (total % segment !== 0) throw new RangeError(`launch: segment ${segment} does not divide the ${total} elements`);
  const lcm = (segment / gcd(segment, blockSize)) * blockSize;
  const segmentLcm = lcm > 0xfffffffe ? 0xffffffff : lcm;
  const pieceIndex = (i: number): number =>
    Math.floor(i / segment) + Math.floor(i / blockSize) - Math.floor(i / segmentLcm);
  const pieces = columns ? l.shape[1]! : total === 0 ? 0 : pieceIndex(total - 1) + 1;
  const argsPtr = heap.alloc(argsBytes(ndim, l.arrays.length));
  const partialsPtr = heap.alloc(Math.max(8, pieces * slots * 8));
  try {
    const words = new Int32Array(heap.memory.buffer);
    const put = (byteOffset: number, v: number): void => { words[(argsPtr + byteOffset) >>> 2] = v; };
    put(ARGS.total, total);
    put(ARGS.blockSize, blockSize);
    put(ARGS.flagDivide, 0);
    put(ARGS.flagInvalid, 0);
    put(ARGS.partials, partialsPtr);
    put(ARGS.segment, segment);
    put(ARGS.segmentLcm, segmentLcm | 0);
    l.shape.forEach((s, d) => put(ARGS.shape + 4 * d, s));
    l.arrays.forEach((a, k) => {
      put(arrayPtrOffset(ndim, k), a.ptr);
      a.strides.forEach((s, d) => put(arrayStrideOffset(ndim, k, d), s));
    });
    if (blocks > 0) kernel(argsPtr, 0, blocks);
    const after = new Int32Array(heap.memory.buffer);
    const partials = new Float64Array(heap.memory.buffer, partialsPtr, pieces * slots).slice();
    return {
      partials,
      blocks,
      pieces,
      pieceIndex,
      flags: { divide: after[(argsPtr + ARGS.flagDivide) >>> 2]!, invalid: after[(argsPtr + ARGS.flagInvalid) >>> 2]! },
    };
  } finally {
    heap.free(partialsPtr);
    heap.free(argsPtr);
  }
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

export { launch, instantiate, BLOCK_SIZE };
export type { HeapLike, Launch, LaunchArray, LaunchResult, KernelFn };
