// Runs over arrays whose values stay where they are stored (da.load with
// mmapMode, da.fromZarr). Where the graph streams (elementwise work, with
// whole-array reductions at the end) it is carried over to a chunk of its
// arrays (a compiled function over one-dimensional placeholders, so one plan
// serves every chunk) and run chunk by chunk, the next chunk read while this
// one computes (straight into heap memory the kernels read in place, where
// the source holds the values as they take them). Elementwise results are
// written where they belong (the result's memory, or the file a save streams
// into); whole-array reductions are combined across chunks. Chunks are whole
// blocks of the kernels (16,384 elements), cut where the kernels' own
// pairwise combination of block partials cuts (a chunk is one subtree of
// it), and combined by the same tree: a streamed reduction is bit for bit
// the one over the array in memory, on the WebAssembly backend. Any other
// graph runs over its mapped arrays read whole.
import { isBigInt } from '../ir/dtypes.js';
import { reduce } from '../ir/build-reduce.js';
import { dtypeInfo } from '../ir/dtypes.js';
import type { DType, TypedArray } from '../ir/dtypes.js';
import { NotSupportedError } from '../ir/errors.js';
import { mappedSourceOf, setStreamer } from '../ir/mapped.js';
import type { MappedReader, MappedSource, StreamRequest } from '../ir/mapped.js';
import { markOf } from '../ir/marks.js';
import { topoOrder } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import type { ReduceOp } from '../ir/op-table.js';
import { rebuildNode } from '../ir/rebuild.js';
import { sameShape, sizeOf } from '../ir/shape.js';
import type { Shape } from '../ir/shape.js';
import { placeholder, size } from '../ir/symbols.js';
import { toNdarray } from '../execute/to-ndarray.js';
import { sourcesOf } from '../core/source-cache.js';
import { makeView, release } from '../results/views.js';
import type { ViewOwner } from '../results/views.js';
import { resultRequest } from '../results/request.js';
import type { ExecuteOptions, ResultRequest } from '../results/request.js';
import type { StdNdarray } from '../util/stdlib.js';
import { combiner } from '../wasm/combine.js';
import { compile } from './compile.js';
import { openAll, readWhole } from './read-mapped.js';
import type { CompiledFunction } from './compile.js';
import { nodeOf, wrapNode } from './deferred-array.js';
import type { DeferredArray } from './deferred-array.js';
import { defaultLinker } from './default-linker.js';
import { describe } from './operand.js';

/** The kernels' block: chunks are whole numbers of them. */
const BLOCK = 16384;

/** Reductions a stream combines across chunks: those whose combination is exact, or, for sums and products, float64 (the kernels' accumulator). */
const COMBINED: ReadonlySet<string> = new Set(['sum', 'prod', 'mean', 'min', 'max', 'any', 'all']);
const FLOAT64_ONLY: ReadonlySet<string> = new Set(['sum', 'prod', 'mean']);

/** Progress of a streamed run: bytes of the files read so far, of `total`. */
interface Progress {
  readonly done: number;
  readonly total: number;
}

/** What a stream runs: the mapped arrays it reads, their shape, and per root whether it is elementwise or a whole-array reduction. */
interface StreamPlan {
  readonly mapped: readonly Node[];
  readonly shape: Shape;
  readonly count: number;
  readonly roots: readonly Node[];
  readonly reductions: readonly (ReduceOp | undefined)[];
  /** Bytes of the widest value a chunk holds (a file's element, an intermediate or a result): chunks are sized by it. */
  readonly widest: number;
  /** The chunk function: the graph over one-dimensional placeholders, means as sums. */
  readonly f: CompiledFunction;
}

/** Why a graph over mapped arrays does not stream (it is then run over the arrays read whole). */
class NotStreamable extends Error {}

const unsupported = (what: string): NotStreamable => new NotStreamable(what);

/** The plan of a stream over `roots`; a NotStreamable error saying why where the graph cannot be streamed. */
function streamPlan(roots: readonly Node[]): StreamPlan {
  const order = topoOrder(roots);
  const mapped = order.filter((n) => mappedSourceOf(n) !== undefined);
  const shape = mapped[0]!.shape;
  const count = sizeOf(shape);
  if (shape.length === 0) throw unsupported('a 0-d array has nothing to stream');
  const rootSet = new Set(roots);
  for (const n of order) {
    if (mappedSourceOf(n)) {
      if (!sameShape(n.shape, shape)) throw unsupported(`arrays of shapes (${shape.join(', ')}) and (${n.shape.join(', ')}) are read together`);
    } else if (n.family === 'scalar' || (n.op === 'source' && n.shape.length === 0)) {
      // Scalars ride along with every chunk.
    } else if (n.op === 'source') {
      throw unsupported(`an array in memory, of shape (${n.shape.join(', ')}), is read beside the mapped ones`);
    } else if (n.family === 'unary' || n.family === 'binary' || n.family === 'ternary' || n.family === 'cast') {
      if (!sameShape(n.shape, shape)) throw unsupported(`${n.op} gives shape (${n.shape.join(', ')}), not the mapped arrays' (${shape.join(', ')})`);
      for (const i of n.inputs) {
        if (!sameShape(i.shape, shape) && i.shape.length !== 0) throw unsupported(`${n.op} reads an array of shape (${i.shape.join(', ')}) beside the mapped ones`);
      }
    } else if (n.family === 'reduce') {
      if (!COMBINED.has(n.op)) throw unsupported(`${n.op} is not among the reductions a stream combines`);
      if (!rootSet.has(n)) throw unsupported(`the ${n.op} is used by further operations`);
      const input = n.inputs[0]!;
      if (!sameShape(input.shape, shape) || n.shape.length !== 0) throw unsupported(`${n.op} reduces along some axes only`);
      if (FLOAT64_ONLY.has(n.op) && input.dtype !== 'float64') {
        throw unsupported(`${n.op} of ${input.dtype} (its chunks would round apart); astype('float64') first`);
      }
      // The chunks' results are combined as numbers, which do not hold every int64 or uint64.
      if (isBigInt(input.dtype)) throw unsupported(`${n.op} of ${input.dtype} (its chunks' results combine as numbers)`);
    } else {
      throw unsupported(`${n.op} is not among the operations a stream runs`);
    }
    if (markOf(n)) throw unsupported('arrays in it are marked with output()');
  }
  for (const r of roots) {
    if (r.family !== 'reduce' && !sameShape(r.shape, shape)) throw unsupported(`an array of shape (${r.shape.join(', ')}) that reads no mapped array is asked for beside them`);
  }
  let widest = 1;
  for (const n of order) widest = Math.max(widest, dtypeInfo(n.dtype).bytes, mappedSourceOf(n)?.itemBytes ?? 1);
  const reductions = roots.map((r) => (r.family === 'reduce' ? (r.op as ReduceOp) : undefined));
  // One plan for every chunk: the graph over placeholders of a symbolic length, each mapped array's.
  const n = size('chunk');
  const f = compile((...chunks: DeferredArray[]) => {
    const copyOf = new Map<Node, Node>(mapped.map((m, i) => [m, nodeOf(chunks[i]!)]));
    for (const node of order) {
      if (copyOf.has(node)) continue;
      const inputs = node.inputs.map((i) => copyOf.get(i) ?? i);
      copyOf.set(node, node.family === 'reduce'
        ? reduce(node.op === 'mean' ? 'sum' : (node.op as ReduceOp), inputs[0]!)
        : rebuildNode(node, inputs));
    }
    return roots.map((r) => wrapNode(copyOf.get(r)!));
  }, mapped.map((m) => placeholder([n], m.dtype)));
  return { mapped, shape, count, roots, reductions, widest, f };
}

/** The plan of a stream over `roots`, or undefined where the graph does not stream. */
function streamPlanIfAny(roots: readonly Node[]): StreamPlan | undefined {
  try {
    return streamPlan(roots);
  } catch (e) {
    if (e instanceof NotStreamable) return undefined;
    throw e;
  }
}

/**
 * The chunks of `blocks` blocks, at most `most` each, as the kernels'
 * pairwise combination splits them (a range splits at its middle block,
 * rounded down), and a function combining one value per chunk in that tree.
 */
function chunking(blocks: number, most: number): { readonly ranges: Array<readonly [number, number]>; combine(values: readonly number[], f: (a: number, b: number) => number): number } {
  const ranges: Array<readonly [number, number]> = [];
  const split = (lo: number, hi: number): void => {
    if (hi - lo <= most) ranges.push([lo, hi]);
    else {
      const mid = lo + Math.floor((hi - lo) / 2);
      split(lo, mid);
      split(mid, hi);
    }
  };
  if (blocks > 0) split(0, blocks);
  return {
    ranges,
    combine: (values, f) => {
      let k = 0;
      const tree = (lo: number, hi: number): number => {
        if (hi - lo <= most) return values[k++]!;
        const mid = lo + Math.floor((hi - lo) / 2);
        const left = tree(lo, mid);
        return f(left, tree(mid, hi));
      };
      return tree(0, blocks);
    },
  };
}

/**
 * A mapped array a stream reads: its source, open, and the two buffers its
 * chunks are read into in turn. Where the source holds the values as the
 * kernels take them (little-endian, of the array's dtype, not bool) and the
 * heap is shared, the buffers are heap views its chunks are read straight
 * into and the kernels read in place; otherwise each chunk is read into
 * memory of its own and copied in by the call.
 */
interface Reading {
  readonly source: MappedSource;
  readonly reader: MappedReader;
  readonly dtype: DType;
  /** Whether chunks are read straight into heap views. */
  readonly direct: boolean;
  readonly views: TypedArray[];
}

/** A heap view of `length` elements of `dtype`, owned by `owner` (the stream, which releases it when it ends). */
function heapBuffer(dtype: Exclude<DType, 'bool'>, length: number, owner: ViewOwner): TypedArray {
  const heap = defaultLinker.heap;
  const ptr = sourcesOf(heap).allocEvicting(length * dtypeInfo(dtype).bytes);
  return makeView(heap, ptr, dtype, [length], owner).data as TypedArray;
}

/**
 * Reads chunk `k`, elements [from, to), of every mapped array (bool as an
 * ndarray of bool: its bytes alone would read as uint8). A direct read goes
 * into heap view k % 2, of `longest` elements: memory touched once and read
 * into again, where a new buffer per chunk would cost its first touch every
 * time; chunk k - 2's run, which used it, is over by then.
 */
async function readChunk(files: readonly Reading[], k: number, from: number, to: number, longest: number, owner: ViewOwner): Promise<Array<TypedArray | StdNdarray>> {
  // Every read ends before the chunk fails: one still writing into a heap view must not outlive the view's release.
  const settled = await Promise.allSettled(files.map(async ({ source: src, reader, dtype, direct, views }) => {
    if (direct && reader.readInto) {
      views[k % 2] ??= heapBuffer(dtype as Exclude<DType, 'bool'>, longest, owner);
      const data = views[k % 2]!.subarray(0, to - from);
      await reader.readInto(new Uint8Array(data.buffer, data.byteOffset, (to - from) * src.itemBytes), from);
      return data;
    }
    const data = await reader.read(from, to);
    return dtype === 'bool' ? toNdarray({ dtype, shape: [to - from], data }) : data;
  }));
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<TypedArray | StdNdarray>).value);
}

/**
 * Where a stream's elementwise results go: the memory a chunk of root
 * `root` (elements [from, to)) is computed into, and, where they are to go
 * further (a file), what is done with them once computed, before that memory
 * is asked for again.
 */
interface Sink {
  into(root: number, from: number, to: number): TypedArray;
  written?(root: number, values: TypedArray, from: number): Promise<void>;
}

/**
 * Runs the stream of `roots` chunk by chunk: elementwise results handed to
 * `sink`, reductions combined; returns the reductions' values (undefined
 * for elementwise roots). `onProgress` hears of each chunk read.
 */
async function runStream(plan: StreamPlan, sink: Sink, onProgress?: (p: Progress) => void): Promise<(number | undefined)[]> {
  const { mapped, count } = plan;
  const shared = defaultLinker.heap.shared;
  const files: Reading[] = (await openAll('execute', mapped)).map(({ source: src, reader, node }) => ({
    source: src, reader, dtype: node.dtype, direct: shared && src.direct, views: [],
  }));
  // The heap views chunks are read into, released when the stream ends (a run still reading one frees it when it ends).
  const owner: ViewOwner = { views: new Set() };
  let next: Promise<Array<TypedArray | StdNdarray>> | undefined;
  try {
    const widest = plan.widest;
    const most = Math.max(1, Math.floor(defaultLinker.config.streamBytes / (BLOCK * widest)));
    const { ranges, combine } = chunking(Math.ceil(count / BLOCK), most);
    const total = files.reduce((s, x) => s + count * x.source.itemBytes, 0);
    const perChunk: number[][] = plan.roots.map(() => []);
    const span = (r: readonly [number, number]): [number, number] => [r[0] * BLOCK, Math.min(count, r[1] * BLOCK)];
    const longest = Math.min(count, most * BLOCK);
    const read = (k: number): Promise<Array<TypedArray | StdNdarray>> => readChunk(files, k, ...span(ranges[k]!), longest, owner);
    next = ranges.length > 0 ? read(0) : undefined;
    for (let k = 0; k < ranges.length; k++) {
      const [from, to] = span(ranges[k]!);
      const args = await next!;
      // The next chunk's read overlaps this chunk's run.
      next = k + 1 < ranges.length ? read(k + 1) : undefined;
      next?.catch(() => undefined);
      // Elementwise results are computed straight into where the sink wants them.
      const outs = plan.reductions.map((op, i) => (op ? null : sink.into(i, from, to)));
      // Ordinary arrays even inside da.scope(): a view per chunk's partial would be held until the scope ends.
      const results = (await plan.f(...args, { out: outs, view: false })) as unknown as Array<StdNdarray | TypedArray>;
      for (let i = 0; i < plan.roots.length; i++) {
        if (plan.reductions[i]) perChunk[i]!.push(Number((results[i] as StdNdarray).get()));
        else await sink.written?.(i, outs[i]!, from);
      }
      onProgress?.({ done: files.reduce((s, x) => s + to * x.source.itemBytes, 0), total });
    }
    if (ranges.length === 0) onProgress?.({ done: 0, total });
    return plan.roots.map((root, i) => {
      const op = plan.reductions[i];
      if (!op) return undefined;
      const values = perChunk[i]!;
      // An empty array's reduction is the identity, as in memory (and NaN for a mean, as NumPy's).
      if (values.length === 0) return op === 'prod' || op === 'all' ? 1 : op === 'mean' ? NaN : op === 'min' || op === 'max' ? NaN : 0;
      const value = combine(values, combiner(op === 'mean' ? 'sum' : op, op === 'any' || op === 'all' ? 'bool' : root.inputs[0]!.dtype));
      return op === 'mean' ? value / count : value;
    });
  } finally {
    // A read still in flight (the run failed) writes into a heap view: it must end before the view's block is freed.
    await next?.catch(() => undefined);
    for (const e of [...owner.views]) release(e);
    // A close that fails must not hide the error that ended the run.
    await Promise.allSettled(files.map((x) => x.reader.close()));
  }
}

/** The typed array `out` must be to take a result of `dtype` and `count` values, or an error saying what it is instead. */
function checkOut(out: unknown, dtype: DType, count: number): TypedArray {
  const { ctor } = dtypeInfo(dtype);
  if (!(out instanceof ctor) || out.length !== count) {
    throw new TypeError(`execute: out must be a ${ctor.name} of ${count} element(s) for this ${dtype} result of a streamed run (over arrays loaded with mmapMode or from fromZarr); got ${describe(out)}`);
  }
  return out;
}

/**
 * The out of each root of a streamed run, from execute()'s `out` (a typed
 * array for one root; a list with one per root, null to skip, for
 * da.execute), or undefined where `out` takes another form (a record for
 * marks), which the run over arrays read whole then takes as in memory.
 */
function outsOf(out: unknown, many: boolean, roots: number): Array<unknown> | undefined {
  if (out === undefined) return new Array<unknown>(roots).fill(undefined);
  if (!many) return ArrayBuffer.isView(out) ? [out] : undefined;
  if (!Array.isArray(out) || out.length !== roots || out.some((o) => o !== null && o !== undefined && !ArrayBuffer.isView(o))) return undefined;
  return out.map((o: unknown) => o ?? undefined);
}

/**
 * The roots of `plan` streamed together (one pass over the sources), each
 * written into its out (a typed array of its dtype and size) where one is
 * given, which is returned in its place.
 */
async function stream(plan: StreamPlan, outs: readonly unknown[], onProgress: ExecuteOptions['onProgress']): Promise<StdNdarray[]> {
  const { roots } = plan;
  const datas = roots.map((root, i) => {
    const reduction = root.family === 'reduce';
    const given = outs[i] === undefined ? undefined : checkOut(outs[i], root.dtype, reduction ? 1 : plan.count);
    return { given, data: given ?? new (dtypeInfo(root.dtype).ctor)(reduction ? 1 : plan.count) };
  });
  const values = await runStream(plan, { into: (i, from, to) => datas[i]!.data.subarray(from, to) }, onProgress);
  return roots.map((root, i) => {
    const { given, data } = datas[i]!;
    const reduction = root.family === 'reduce';
    if (reduction) data[0] = values[i]!;
    // An out comes back as in memory: an ndarray over it, of the result's shape.
    return toNdarray({ dtype: root.dtype, shape: reduction ? [] : plan.shape, data: given ?? data });
  });
}

/**
 * execute() of `roots`, whose graph reads mapped arrays. Where the graph
 * streams (streamPlan), its results stream from the sources in one pass;
 * else the mapped arrays are read whole and the graph runs over them as over
 * any array (every option and mark as in memory).
 */
async function executeMapped(roots: readonly Node[], { options, many }: StreamRequest): Promise<unknown> {
  const request: ResultRequest = resultRequest('execute', options);
  const o = (options ?? {}) as ExecuteOptions;
  let why: string | undefined;
  let plan: StreamPlan | undefined;
  try {
    plan = streamPlan(roots);
  } catch (e) {
    if (!(e instanceof NotStreamable)) throw e;
    why = e.message;
  }
  const outs = outsOf(o.out, many, roots.length);
  if (plan) {
    why = o.view ? 'view results were asked for' : outs === undefined ? 'out takes a form a stream does not write (a record)' : undefined;
    const big = plan.roots.find((r, i) => r.family !== 'reduce' && outs?.[i] === undefined && plan.count * dtypeInfo(r.dtype).bytes > 2 ** 32);
    if (big) {
      throw new NotSupportedError(`execute: its result (${plan.count} ${big.dtype} values) would not fit in memory; save it to a file with da.save(path, x), which streams`);
    }
  }
  if (plan && why === undefined) {
    const results = await stream(plan, outs!, o.onProgress);
    return many ? results : results[0];
  }
  const whole = await readWhole(roots, why!, o.onProgress);
  return defaultLinker.runNodesAsync(whole, many, false, request);
}

setStreamer(executeMapped);

export { runStream, streamPlanIfAny };
export type { Progress, Sink, StreamPlan };
