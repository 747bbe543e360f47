// Arrays whose values stay in their file (da.load with mmapMode): each is a
// placeholder node the graph is built over like any array, with the file it
// stands for kept here. A run whose graph reads one is streamed, chunk by
// chunk through the file, by a streamer the API registers; no other layer
// reads these nodes' values.
import { makeNode, topoOrder } from './node.js';
import type { Node } from './node.js';
import type { DType } from './dtypes.js';
import type { Shape } from './shape.js';

/** Where a mapped array's values lie: C order, `count` values of `bytes` each from `dataOffset`. */
interface MappedFile {
  readonly path: string;
  readonly dataOffset: number;
  /** The file's own element type, as the .npy reader decodes it (io/npy-dtypes.ts FileType). */
  readonly type: { readonly dtype: string; readonly bytes: number; readonly bigEndian: boolean };
  /** What the values are decoded to (the type itself, or the dtype asked for a type the package has not). */
  readonly as: DType | undefined;
  /** The file as it was at load (device, inode, size, time written): a run over another file at the path is refused. */
  readonly identity: { readonly dev: number; readonly ino: number; readonly size: number; readonly mtimeMs: number };
}

const files = new WeakMap<Node, MappedFile>();
/** Whether any array was ever mapped: until then no graph needs a look. */
let anyMapped = false;

/** A node standing for the array in `file`, of `dtype` and `shape` as decoded. */
function mappedNode(file: MappedFile, shape: Shape, dtype: DType): Node {
  const node = makeNode('placeholder', [], shape, dtype, { label: `file ${file.path}` });
  files.set(node, file);
  anyMapped = true;
  return node;
}

const mappedFileOf = (node: Node): MappedFile | undefined => (anyMapped ? files.get(node) : undefined);

/** Whether the graph under `roots` reads a mapped array. */
function readsMapped(roots: readonly Node[]): boolean {
  if (!anyMapped) return false;
  return topoOrder(roots).some((n) => files.has(n));
}

/** Runs a graph that reads mapped arrays (api/streamed.ts registers it: the layers below cannot call up to it). */
type Streamer = (roots: readonly Node[], options: { readonly out?: unknown; readonly onProgress?: (p: { done: number; total: number }) => void }) => Promise<unknown[]>;
let streamer: Streamer | undefined;

function setStreamer(s: Streamer): void {
  streamer = s;
}

/** The streamer, where the graph under `roots` reads a mapped array. */
function streamerFor(roots: readonly Node[]): Streamer | undefined {
  return readsMapped(roots) ? streamer : undefined;
}

export { mappedNode, mappedFileOf, readsMapped, setStreamer, streamerFor };
export type { MappedFile };
