// A run over mapped arrays (da.load with mmapMode, da.fromZarr) whose graph
// does not stream: what it needs of them read first (each source once; only
// the rows of the first axis that slices span, where slices alone read an
// array), and the graph made again over sources of those values, to run as
// any graph does. Also how a run opens its sources, which streams share.
import { source } from '../ir/build-elementwise.js';
import { rowsRead, sliceOfRows } from '../ir/build-view.js';
import { dtypeInfo } from '../ir/dtypes.js';
import { NotSupportedError } from '../ir/errors.js';
import { mappedSourceOf } from '../ir/mapped.js';
import type { MappedReader, MappedSource } from '../ir/mapped.js';
import { inheritMarkAndPin } from '../ir/marks.js';
import { topoOrder } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import { rebuildNode } from '../ir/rebuild.js';
import { sizeOf } from '../ir/shape.js';
import type { ExecuteOptions } from '../results/request.js';

/** What streams, for messages. */
const STREAMS = 'elementwise operations of mapped arrays (and of scalars) and whole-array sum, prod, mean (float64), min, max, any and all of those, at the end';

/** Opens every mapped array of `mapped` for a run (`fn` names it in errors), or none: one that fails to open closes those that did. */
async function openAll(fn: string, mapped: readonly Node[]): Promise<Array<{ readonly source: MappedSource; readonly reader: MappedReader; readonly node: Node }>> {
  const opened = await Promise.allSettled(mapped.map(async (node) => {
    const src = mappedSourceOf(node)!;
    return { source: src, reader: await src.open(fn), node };
  }));
  const failed = opened.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed) {
    await Promise.all(opened.map((o) => (o.status === 'fulfilled' ? o.value.reader.close() : undefined)));
    throw failed.reason;
  }
  return opened.map((o) => (o as PromiseFulfilledResult<{ source: MappedSource; reader: MappedReader; node: Node }>).value);
}

/** Mapped arrays read for a run that does not stream, at most: past it the run is refused (save the result instead, which streams what streams). */
const WHOLE_BYTES = 2 ** 31;

/**
 * The rows of axis 0 of mapped array `m` that the graph `order` (with
 * `roots`) reads, [first, end): only those its slices read where slices are
 * all that read it, else all of them.
 */
function rowsNeeded(m: Node, order: readonly Node[], roots: readonly Node[]): readonly [number, number] {
  const all: readonly [number, number] = [0, m.shape[0] ?? 1];
  if (m.shape.length === 0 || roots.includes(m)) return all;
  let first = Infinity;
  let last = -1;
  for (const n of order) {
    if (!(n.inputs as readonly Node[]).includes(m)) continue;
    if (n.op !== 'slice') return all;
    const rows = rowsRead(n);
    if (rows) [first, last] = [Math.min(first, rows[0]), Math.max(last, rows[1])];
  }
  return last < 0 ? [0, 0] : [first, last + 1];
}

/**
 * `roots` over the mapped arrays they read, read now (each source once):
 * the graph again over sources of their values. Where only slices read a
 * mapped array, only the rows they read are read, and the slices are made
 * again over them. `why` says why the graph does not stream, for the error
 * where they are too large.
 */
async function readWhole(roots: readonly Node[], why: string, onProgress: ExecuteOptions['onProgress']): Promise<Node[]> {
  const order = topoOrder(roots);
  const mapped = order.filter((n) => mappedSourceOf(n) !== undefined);
  const rowLength = (m: Node): number => sizeOf(m.shape.slice(1));
  const rows = new Map(mapped.map((m) => [m, rowsNeeded(m, order, roots)]));
  const count = (m: Node): number => {
    const [first, end] = rows.get(m)!;
    return (end - first) * rowLength(m);
  };
  const bytes = mapped.reduce((s, m) => s + count(m) * dtypeInfo(m.dtype).bytes, 0);
  if (bytes > WHOLE_BYTES) {
    throw new NotSupportedError(
      `execute: this graph does not stream (${why}), and reading what it needs of its mapped arrays (${bytes} bytes) would take more than ${WHOLE_BYTES} bytes of memory; ` +
      `a stream takes ${STREAMS}: write the work as such a graph (da.save(path, y) streams its result into a file), or take a smaller part with get()`,
    );
  }
  const total = mapped.reduce((s, m) => s + count(m) * mappedSourceOf(m)!.itemBytes, 0);
  const copyOf = new Map<Node, Node>();
  let done = 0;
  const opened = await openAll('execute', mapped);
  try {
    for (const { reader, node, source: src } of opened) {
      const [first, end] = rows.get(node)!;
      const whole = first === 0 && end === (node.shape[0] ?? 1);
      const values = await reader.read(first * rowLength(node), end * rowLength(node));
      copyOf.set(node, inheritMarkAndPin(node, source(values, whole ? node.shape : [end - first, ...node.shape.slice(1)], node.dtype)));
      // Slices of a part read: the same slices over the rows read.
      if (!whole) for (const n of order) if (n.op === 'slice' && n.inputs[0] === node) copyOf.set(n, inheritMarkAndPin(n, sliceOfRows(n, copyOf.get(node)!, first)));
      done += count(node) * src.itemBytes;
      onProgress?.({ done, total });
    }
  } finally {
    // A close that fails must not hide the error that ended the reading.
    await Promise.allSettled(opened.map((o) => o.reader.close()));
  }
  for (const node of order) {
    if (copyOf.has(node)) continue;
    const inputs = node.inputs.map((i) => copyOf.get(i) ?? i);
    copyOf.set(node, rebuildNode(node, inputs));
  }
  return roots.map((r) => copyOf.get(r)!);
}

export { STREAMS, openAll, readWhole };
