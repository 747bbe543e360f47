// The arrays a graph's leaves own (wrap's and array()'s copies, zeros, full):
// small ones are carved from shared blocks. In Node 20 a fresh typed array of
// 8 KB costs 2-4 µs (its own backing store, counted as external memory), ten
// times the copy into it; a user wrapping two arrays of 1,000 elements per
// call paid more for those two buffers than for the whole fused run. A piece
// of a block costs a view (0.1-0.3 µs) and a sixteenth of the block.
//
// These arrays never leave the package: a result that is a leaf's values is
// handed out as a copy, and no buffer is transferred, so sharing a block is
// invisible to users. What it costs is memory: a kept piece keeps its block,
// at most 16 times the piece's size rounded up to a power of two, and never
// more than 256 KiB. Larger arrays get a buffer of their own.
import type { TypedArray, TypedArrayCtor } from '../ir/dtypes.js';

/** Below this, V8 keeps a typed array's bytes inside the object itself, which costs no more than a view. */
const ON_HEAP_MAX = 64;
/** Pieces per block: the most a kept piece can hold of memory beyond its own, in pieces of its size class. */
const PIECES = 16;
/** The largest piece carved (16 KiB), so a block is at most 256 KiB. */
const PIECE_MAX = 1 << 14;

interface Block {
  buffer: ArrayBuffer;
  next: number;
}

/** The block being carved for each size class (power-of-two sizes from 128 bytes to PIECE_MAX). */
const blocks = new Map<number, Block>();

/** A zeroed array of `length` elements of `ctor`, which the caller's leaf owns from now on. */
function leafArray(ctor: TypedArrayCtor, length: number): TypedArray {
  const bytes = length * ctor.BYTES_PER_ELEMENT;
  if (bytes <= ON_HEAP_MAX || bytes > PIECE_MAX) return new ctor(length);
  const size = 2 ** Math.ceil(Math.log2(bytes));
  let b = blocks.get(size);
  if (b === undefined || b.next === PIECES * size) {
    b = { buffer: new ArrayBuffer(PIECES * size), next: 0 };
    blocks.set(size, b);
  }
  const at = b.next;
  b.next += size;
  return new ctor(b.buffer, at, length);
}

export { leafArray };
