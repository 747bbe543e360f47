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
  /** shape[ndim], then for each array: byte pointer, strides[ndim] in elements. */
  shape: 32,
} as const;

/** Byte size of the launch block of a kernel with `ndim` axes and `arrays` arrays. */
function argsBytes(ndim: number, arrays: number): number {
  return ARGS.shape + 4 * (ndim + arrays * (1 + ndim));
}

/** Byte offset of array k's pointer, and of its stride on axis d. */
const arrayPtrOffset = (ndim: number, k: number): number => ARGS.shape + 4 * (ndim + k * (1 + ndim));
const arrayStrideOffset = (ndim: number, k: number, d: number): number => arrayPtrOffset(ndim, k) + 4 * (1 + d);

export { ARGS, argsBytes, arrayPtrOffset, arrayStrideOffset };
