// The contract between deferred-array and kernels-wasm: what one kernel
// computes over an iteration space, as a small SSA list of scalar operations.
// Neither side sees the other's internals: deferred-array builds specs from its
// graph; kernels-wasm compiles them and never sees a graph.
import type { KBinary, KUnary } from '../ops/elementwise-ops.js';

/** Element types, named as deferred-array names its dtypes. bool is one byte, 0 or 1. */
type KType = 'float64' | 'float32' | 'int64' | 'uint64' | 'int32' | 'uint32' | 'int16' | 'uint16' | 'int8' | 'uint8' | 'bool';

/** How an array's innermost stride behaves; decides the vector loads. Outer strides are run-time values. */
type InnerStride = 'contiguous' | 'broadcast' | 'strided';

interface KernelArray {
  readonly dtype: KType;
  readonly role: 'in' | 'out';
  readonly inner: InnerStride;
  /**
   * A random input (float64 or float32, uniform in [0, 1)) that no memory
   * holds: a load computes element e's value by Philox 4x32-10 (philox.ts).
   * Its launch pointer is the index of element (0, ..., 0), its strides are
   * in elements, and its key and stream come with the launch. An int32
   * "random" array is the counter itself: element e's value is e (an index
   * array, such as the positions along an axis; its key and stream are unused).
   */
  readonly random?: true;
  /**
   * A gathered input: read only by gather instructions, each at an index the
   * body computes. Its pointer and strides walk the iteration space as any
   * array's (the axes the indices span have stride 0); the gathered axis's
   * length and element stride come with the launch.
   */
  readonly gathered?: true;
}

/**
 * argmax and argmin (numbers up to 32 bits) give two partials per piece: the
 * piece's extreme in `slot`, and in `position` where along the reduced run
 * (from the run's start; a column kernel's row) it first is (for floats the
 * first NaN, as NumPy's argmax).
 */
type KReduce = 'sum' | 'prod' | 'min' | 'max' | 'any' | 'all' | 'argmax' | 'argmin';
type KScan = 'sum' | 'prod';

/**
 * How a gather treats an index outside [0, length): 'raise' reads -length..-1
 * from the end and counts any other index in the launch's index flag (reading
 * element 0 instead, so memory outside the array is never read); 'wrap' takes
 * it modulo the length; 'clip' clamps it to [0, length - 1]. NumPy's take modes.
 */
type GatherMode = 'raise' | 'wrap' | 'clip';

/**
 * One SSA instruction; its value is referred to by its index in the body.
 * `type` is the type of the value produced (for store and reduce, of the value consumed).
 * unary/binary compute in `type` except comparisons and predicates, which compute
 * in their operands' type and produce bool.
 */
type KInstr =
  | { readonly op: 'load'; readonly array: number; readonly type: KType }
  /** int64 and uint64 constants are bigints (their values past 2^53 are not numbers); every other type's a number. */
  | { readonly op: 'const'; readonly value: number | bigint; readonly type: KType }
  | { readonly op: 'unary'; readonly fn: KUnary; readonly arg: number; readonly type: KType }
  | { readonly op: 'binary'; readonly fn: KBinary; readonly args: readonly [number, number]; readonly type: KType }
  | { readonly op: 'select'; readonly args: readonly [number, number, number]; readonly type: KType }
  | { readonly op: 'cast'; readonly arg: number; readonly type: KType }
  | { readonly op: 'store'; readonly array: number; readonly arg: number; readonly type: KType }
  | { readonly op: 'reduce'; readonly fn: KReduce; readonly arg: number; readonly slot: number; readonly type: KType; readonly position?: number }
  /**
   * A running sum or product along the reduced runs: its value at an element
   * is the piece's starting value combined, in element order, with `arg` at
   * each element of the piece up to this one. The starting value of each piece
   * is the launch's `initial[piece * slots + slot]` (the identity without it):
   * the caller passes the running value before the piece, so that a run cut
   * into pieces across blocks goes on where the previous piece stopped. Scans
   * run the scalar loop (each element waits on the one before).
   */
  | { readonly op: 'scan'; readonly fn: KScan; readonly arg: number; readonly slot: number; readonly type: KType }
  /**
   * Gathered array `array`'s element at index `index` (an int32 value) along
   * its gathered axis, from the current element's place on the other axes.
   * Gathers run the scalar loop (each element's address is its own).
   */
  | { readonly op: 'gather'; readonly array: number; readonly index: number; readonly mode: GatherMode; readonly type: KType };

/**
 * A matrix product computed block by block ahead of the elementwise body (its
 * epilogue): C = A @ B over (batch x) rows of C, into the epilogue's input
 * array `product`, which the body loads like any input. Sizes, pointers and
 * strides of A and B come with the launch. Every element of C is a sum in k
 * order from +0, as the reference evaluator computes it: floats with one
 * rounding per multiply and per add, integers wrapping.
 */
interface ContractionSpec {
  /** One of CONTRACTION_DTYPES. int32 and uint32 products wrap, as NumPy's: their low 32 bits are the same either way. */
  readonly dtype: ContractionDType;
  /** The epilogue input array (contiguous, of `dtype`) that receives C. */
  readonly product: number;
  /**
   * 'columns': a lane is a column of C (needs Q >= lanes and B contiguous along
   * its columns). 'rows': a lane is a row of C (matrix-vector products; needs A
   * contiguous along k).
   */
  readonly vectorise: 'columns' | 'rows';
}

/**
 * A pinned temporary (lappy's pin()): a value computed per block into the
 * running thread's scratch, over the part of its own space the block reads,
 * then read by the body through input array `array` like any input (its
 * pointer is set per block). Elements a block needs are computed once per
 * block, so an element read by several blocks is computed by each of them.
 */
interface TempSpec {
  /** The body's input array that reads the temporary. */
  readonly array: number;
  /** Its computation over its own space: an elementwise kernel ('rows', no reductions) whose one store writes array `out`. */
  readonly kernel: KernelSpec;
  readonly out: number;
}

interface KernelSpec {
  /** Dimensions of the (collapsed) iteration space; sizes and outer strides are bound at launch. */
  readonly ndim: number;
  readonly arrays: readonly KernelArray[];
  readonly body: readonly KInstr[];
  /** Number of reduction slots (each reduce writes one partial per block into its slot). */
  readonly slots: number;
  /**
   * 'rows' (default): reductions reduce runs of consecutive elements.
   * 'columns': a 2-d space [R, C] whose reductions reduce over R, one result per column.
   */
  readonly mode?: 'rows' | 'columns';
  /** A matrix product run per block before the body (mode 'rows', no reductions). */
  readonly contraction?: ContractionSpec;
  /** Pinned temporaries, computed per block before the body (mode 'rows'). */
  readonly temps?: readonly TempSpec[];
}

const KTYPE_BYTES: Record<KType, number> = { float64: 8, float32: 4, int64: 8, uint64: 8, int32: 4, uint32: 4, int16: 2, uint16: 2, int8: 1, uint8: 1, bool: 1 };

/** The product dtypes the contraction kernels compute. */
const CONTRACTION_DTYPES = ['float64', 'float32', 'int32', 'uint32'] as const;
type ContractionDType = (typeof CONTRACTION_DTYPES)[number];

export { KTYPE_BYTES, CONTRACTION_DTYPES };
/** Elementwise operations, with deferred-array's (NumPy's) semantics: the op table's rows (ops/elementwise-ops.ts). */
export type { KUnary, KBinary };
export type { KType, InnerStride, KernelArray, KReduce, KScan, GatherMode, KInstr, KernelSpec, ContractionSpec, TempSpec };
