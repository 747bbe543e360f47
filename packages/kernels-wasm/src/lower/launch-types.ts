// What a launch is given: the iteration space's shape, each array's pointer
// and strides, and a contraction's or pinned temporaries' own sizes and
// operands. Its own file so that launch.ts and the launch block and
// temporaries writers it calls all import these types from one place.
import type { RandomWords } from './philox.js';

interface LaunchArray {
  /** Byte address of element (0, ..., 0); for a random array, that element's index. */
  readonly ptr: number;
  /** Element strides per axis; 0 broadcasts, negative walks backwards. */
  readonly strides: readonly number[];
  /** A random array's key and stream (the spec marks the array random). */
  readonly random?: RandomWords;
  /** A gathered array's gathered axis: its length and element stride (the spec marks the array gathered). */
  readonly gather?: { readonly length: number; readonly stride: number };
}

/** A contraction operand: byte address of its first element; element strides per batch, row and column. */
interface ContractionOperand {
  readonly ptr: number;
  /** 0 broadcasts the operand over the batch. */
  readonly batch: number;
  readonly row: number;
  readonly col: number;
}

/** C (batches x P x Q) = A (batches x P x K) @ B (batches x K x Q), for a spec with a contraction. */
interface ContractionLaunch {
  readonly batches: number;
  readonly P: number;
  readonly K: number;
  readonly Q: number;
  readonly a: ContractionOperand;
  readonly b: ContractionOperand;
  /** Rows of C per block (default: about 2^17 multiply-adds a block); fixed by the data, never by the worker count. */
  readonly rowsPerBlock?: number;
}

interface Launch {
  readonly shape: readonly number[];
  readonly arrays: readonly LaunchArray[];
  /** Elements per block (default BLOCK_SIZE): fixed by the data, never by the worker count. */
  readonly blockSize?: number;
  /** Elements each reduction output covers (the trailing, reduced part of the space); default: all. */
  readonly segment?: number;
  /** Sizes and operands of the spec's contraction; its blocks are rows of C, and the body's blocks the same rows. */
  readonly contraction?: ContractionLaunch;
  /** The spec's pinned temporaries: each one's own space and arrays. */
  readonly temps?: readonly TempLaunch[];
  /**
   * A scan kernel's starting values, laid out as its partials
   * (initial[piece * slots + slot]): each piece's running value before its
   * first element. Absent: every piece starts from the scan's identity.
   */
  readonly initial?: Float64Array;
}

/** A pinned temporary's launch: its own space and arrays (its output's pointer is not used: it is computed into scratch). */
interface TempLaunch {
  readonly shape: readonly number[];
  readonly arrays: readonly LaunchArray[];
}

export type { LaunchArray, ContractionOperand, ContractionLaunch, TempLaunch, Launch };
