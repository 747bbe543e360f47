// Arrays whose values stay where they are stored (da.load with mmapMode, a
// file; da.fromZarr, a store): each is a placeholder node the graph is built
// over like any array, with the source it stands for kept here. A run whose
// graph reads one goes through a streamer the API registers (chunk by chunk
// where the graph streams, else the arrays read whole); no other layer reads
// these nodes' values.
import { makeNode, topoOrder } from './node.js';
import type { Node } from './node.js';
import type { DType, TypedArray } from './dtypes.js';
import type { Shape } from './shape.js';

/** A mapped source opened for a run: element ranges of it, in C order over its shape. */
interface MappedReader {
  /** Elements [from, to), as the array's dtype (bool as bytes 0 and 1), in memory of their own. */
  read(from: number, to: number): Promise<TypedArray>;
  /**
   * Where the stored bytes are the values as kernels take them (`direct`):
   * the elements from `from` straight into `into`, as many as it holds
   * (a heap view: no copy through a JS buffer).
   */
  readInto?(into: Uint8Array, from: number): Promise<void>;
  close(): Promise<void>;
}

/** Where a mapped array's values lie, and how a run reads them. */
interface MappedSource {
  /** 'file x.npy', 'Zarr array t in store s': for messages and the graph printer. */
  readonly name: string;
  /** Bytes of one stored element (progress counts them; chunks are sized by them too). */
  readonly itemBytes: number;
  /** Whether stored bytes are the values as the array's dtype, little-endian: readInto applies. */
  readonly direct: boolean;
  /** Opens the source for a run; `fn` names the call in errors. */
  open(fn: string): Promise<MappedReader>;
}

const sources = new WeakMap<Node, MappedSource>();
/** Whether any array was ever mapped: until then no graph needs a look. */
let anyMapped = false;

/** A node standing for the array in `source`, of `dtype` and `shape` as read. */
function mappedNode(source: MappedSource, shape: Shape, dtype: DType): Node {
  const node = makeNode('placeholder', [], shape, dtype, { label: source.name });
  sources.set(node, source);
  anyMapped = true;
  return node;
}

const mappedSourceOf = (node: Node): MappedSource | undefined => (anyMapped ? sources.get(node) : undefined);

/** Whether the graph under `roots` reads a mapped array. */
function readsMapped(roots: readonly Node[]): boolean {
  if (!anyMapped) return false;
  return topoOrder(roots).some((n) => sources.has(n));
}

/** What a run over mapped arrays is asked for: execute()'s options, and whether a list of results is wanted (da.execute). */
interface StreamRequest {
  readonly options: unknown;
  readonly many: boolean;
}

/** Runs a graph that reads mapped arrays (api/streamed.ts registers it: the layers below cannot call up to it). */
type Streamer = (roots: readonly Node[], request: StreamRequest) => Promise<unknown>;
let streamer: Streamer | undefined;

function setStreamer(s: Streamer): void {
  streamer = s;
}

/** The streamer, where the graph under `roots` reads a mapped array. */
function streamerFor(roots: readonly Node[]): Streamer | undefined {
  return readsMapped(roots) ? streamer : undefined;
}

export { mappedNode, mappedSourceOf, readsMapped, setStreamer, streamerFor };
export type { MappedReader, MappedSource, StreamRequest };
