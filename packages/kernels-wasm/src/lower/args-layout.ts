// The launch block: a small struct in the heap through which a launch hands a
// compiled kernel its sizes, pointers and strides (so one kernel serves every
// size) and through which the kernel reports flags. All fields are 32-bit.

const ARGS = {
  /** Elements in the iteration space. */
  total: 0,
  /** Elements per block; blocks are fixed by the data, never by the number of workers. */
  blockSize: 4,
  /** Counters of data conditions met while running (host functions report their own). */
  flagDivide: 8,
  flagInvalid: 12,
  /** Byte pointer to the partial results: one f64 per (segment, reduction slot). */
  partials: 16,
  /**
   * Reductions cover runs of `segment` consecutive elements (one output each);
   * a segment is a run cut at block boundaries too. `segmentLcm` is
   * lcm(segment, blockSize), or 2^32 - 1 when that exceeds the space.
   */
  segment: 20,
  segmentLcm: 24,
  /** The next unclaimed block: workers take blocks with an atomic add on it until none are left. */
  claim: 28,
  /** Gathers in 'raise' mode count here the indices outside their axis. */
  flagIndex: 32,
  /** shape[ndim], then for each array: byte pointer, strides[ndim] in elements. */
  shape: 36,
} as const;

/**
 * What a failed launch sets its claim counter to: past any block, and past
 * what the claims of the threads still running can add to it (so it stays
 * below 2^31, and the calling thread reads it as no block left). A scan
 * waiting on another block's running value gives up when it sees it.
 */
const CLAIMS_STOPPED = 0x40000000;

/** The i32 index (in memory) of a launch's claim counter, for Atomics on it. */
function claimIndex(argsPtr: number): number {
  return (argsPtr + ARGS.claim) >>> 2;
}

/** Byte size of the elementwise part of the launch block of a kernel with `ndim` axes and `arrays` arrays. */
function argsBytes(ndim: number, arrays: number): number {
  return ARGS.shape + 4 * (ndim + arrays * (1 + ndim));
}

/** Byte offset of array k's pointer, and of its stride on axis d. */
const arrayPtrOffset = (ndim: number, k: number): number => ARGS.shape + 4 * (ndim + k * (1 + ndim));
const arrayStrideOffset = (ndim: number, k: number, d: number): number => arrayPtrOffset(ndim, k) + 4 * (1 + d);

/** i32 fields of a contraction after the elementwise launch block: sizes, then A's and B's pointers and element strides. */
const CONTRACTION = {
  rows: 0, P: 4, K: 8, Q: 12, rowsPerBlock: 16,
  aPtr: 20, aBatch: 24, aRow: 28, aCol: 32,
  bPtr: 36, bBatch: 40, bRow: 44, bCol: 48,
} as const;
const CONTRACTION_BYTES = 52;

/**
 * Fields of a kernel with pinned temporaries, after the launch block (and
 * after a contraction's fields): the scratch area (one part per thread that
 * may run blocks at once), the counter that hands each claim() its part, and
 * per temporary its own launch block, its per-block ranges [lo, hi) (two i32
 * per block) and its offset within a thread's part.
 */
const TEMPS = { scratch: 0, perThread: 4, slot: 8, slots: 12, first: 16, stride: 12, args: 0, table: 4, offset: 8 } as const;
const tempsBytes = (temps: number): number => TEMPS.first + TEMPS.stride * temps;

/** Byte offset of the temporaries' fields in the launch block of a kernel with this shape of spec. */
const tempsOffset = (spec: { ndim: number; arrays: readonly unknown[]; contraction?: unknown }): number =>
  argsBytes(spec.ndim, spec.arrays.length) + (spec.contraction ? CONTRACTION_BYTES : 0);

/**
 * Each random array's key and stream (four i32: key0, key1, stream0, stream1),
 * in the order of the spec's arrays, after all other fields of the launch block.
 */
const RANDOM_WORDS_BYTES = 16;
const randomOffset = (spec: { ndim: number; arrays: readonly unknown[]; contraction?: unknown; temps?: readonly unknown[] }): number =>
  tempsOffset(spec) + (spec.temps ? tempsBytes(spec.temps.length) : 0);

/** Each gathered array's axis length and element stride (two i32), in the order of the spec's arrays, after the random words. */
const GATHER_WORDS_BYTES = 8;
type LayoutSpec = { ndim: number; arrays: ReadonlyArray<{ random?: true; gathered?: true }>; contraction?: unknown; temps?: readonly unknown[] };
const gatherOffset = (spec: LayoutSpec): number => randomOffset(spec) + RANDOM_WORDS_BYTES * spec.arrays.filter((a) => a.random).length;

/** Byte size of a kernel's whole launch block: every field the spec's kernel reads, random and gather words last. */
const launchBlockBytes = (spec: LayoutSpec): number =>
  gatherOffset(spec) + GATHER_WORDS_BYTES * spec.arrays.filter((a) => a.gathered).length;

export {
  ARGS, CLAIMS_STOPPED, CONTRACTION, CONTRACTION_BYTES, TEMPS, RANDOM_WORDS_BYTES, argsBytes, claimIndex, arrayPtrOffset, arrayStrideOffset,
  tempsBytes, tempsOffset, randomOffset, gatherOffset, GATHER_WORDS_BYTES, launchBlockBytes,
};
