// What the launch reads of a scan kernel's layout (the emitter, emit-scan-chains.ts, writes
// by it): apart, so that the launch, which every pool worker loads, does not carry the emitter.

/**
 * Whether a launch of a looking-back kernel finds its starting values itself:
 * lines are longer than a block (shorter ones start from the identity in
 * every block) and each block is one piece (the line is the whole space, or
 * lines are whole numbers of blocks). The kernel tests the same at run time.
 */
const eachBlockOnePiece = (total: number, segment: number, blockSize: number): boolean =>
  total > 0 && segment > blockSize && (segment === total || segment % blockSize === 0);

/** Byte offset, from the partials, of the look-back's ready words: after (blocks + 1) starting values per slot. */
const readyOffset = (blocks: number, slots: number): number => (blocks + 1) * slots * 8;

export { eachBlockOnePiece, readyOffset };
