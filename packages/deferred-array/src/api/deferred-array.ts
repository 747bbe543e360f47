// The user's handle on a graph node. Building never computes; reading shape,
// dtype, printing, explain() and toDot() never compute; execute() does.
import { DisposedError, NotSupportedError } from '../ir/errors.js';
import { streamerFor } from '../ir/mapped.js';
import type { DType } from '../ir/dtypes.js';
import { mark, pin } from '../ir/marks.js';
import type { Node } from '../ir/node.js';
import { Cell, extend, livePath, resolve } from '../trace/cell.js';
import type { LivePath } from '../trace/cell.js';
import { OPS } from '../ir/op-table.js';
import { printDot, printGraph } from '../ir/print-graph.js';
import { sizeOf } from '../ir/shape.js';
import { noteShapeRead } from '../ir/symbols.js';
import type { OutputRecord } from '../execute/linker.js';
import { defaultLinker } from './default-linker.js';
import { printPlan } from '../plan/print-plan.js';
import { groupNodes } from '../plan/plan.js';
import { dropCopies } from '../core/source-cache.js';
import type { StdNdarray } from '../util/stdlib.js';
import { resultRequest } from '../results/request.js';
import type { ExecuteOptions } from '../results/request.js';
import { formatValue } from '../ir/format.js';

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/** What the package's other modules may read of an array's private state; the class's static block fills it in. */
interface Friends {
  nodeOf(x: DeferredArray): Node;
  liveOf(x: DeferredArray): LivePath;
  liveView(x: DeferredArray, build: (n: Node) => Node): DeferredArray;
}

const unset = (): never => {
  throw new Error('internal: DeferredArray is not yet initialised');
};
const friends: Friends = { nodeOf: unset, liveOf: unset, liveView: unset };

const nodeOf = (x: DeferredArray): Node => friends.nodeOf(x);
const liveOf = (x: DeferredArray): LivePath => friends.liveOf(x);
const liveView = (x: DeferredArray, build: (n: Node) => Node): DeferredArray => friends.liveView(x, build);

class DeferredArray {
  /**
   * As in NumPy, every handle is an array: an operation makes a new one (a
   * cell holding the expression, fixed when it was built), a view (get, T,
   * contiguous reshapes) aliases the array it views, and an in-place write
   * moves the array, and its views, to the version it writes.
   */
  readonly #live: LivePath;
  #disposed = false;

  /** @internal Users make arrays with wrap(), array(), zeros() and the operations. */
  constructor(node: Node | LivePath) {
    this.#live = 'cell' in node ? node : livePath(new Cell(node));
  }

  get #node(): Node {
    return resolve(this.#live);
  }

  static {
    friends.nodeOf = (x) => {
      if (x.#disposed) {
        throw new DisposedError(`this ${x.#node.dtype}(${x.#node.shape.join(', ')}) DeferredArray was disposed; it cannot be used any more`);
      }
      return x.#node;
    };
    friends.liveOf = (x) => {
      nodeOf(x);
      return x.#live;
    };
    friends.liveView = (x, build) => {
      const current = nodeOf(x);
      const built = build(current);
      return new DeferredArray(extend(x.#live, current, built, build) ?? built);
    };
  }

  get shape(): number[] {
    noteShapeRead();
    return [...this.#node.shape];
  }

  get dtype(): DType {
    return this.#node.dtype;
  }

  get ndim(): number {
    return this.#node.shape.length;
  }

  get size(): number {
    noteShapeRead();
    return sizeOf(this.#node.shape);
  }

  /** NEP: marks this array to be returned by execute() of anything computed from it. */
  output(name?: string): this {
    mark(nodeOf(this), name);
    return this;
  }

  /**
   * lappy: evaluates this array once, as its own kernel, into its own array
   * before anything that reads it runs, even where the planner would fuse it
   * into its consumers (a view is copied out). Returns this array for chaining.
   */
  pinCse(): this {
    pin(nodeOf(this), 'pinCse');
    return this;
  }

  /**
   * lappy: keeps this array in a kernel-local temporary, computed once per
   * element block by each kernel that reads it (over the part of it the block
   * reads), instead of fused per element or made an array of its own. For an
   * elementwise value, or a view or source (copied per block). A value that
   * must be an array anyway (a result, an output, a matmul operand) is planned
   * as if unpinned; explain() says so. Returns this array for chaining.
   */
  pin(): this {
    const n = nodeOf(this);
    const family = OPS[n.op].family;
    if (!['unary', 'binary', 'ternary', 'cast', 'view', 'reshape', 'source'].includes(family)) {
      throw new TypeError(`pin(): a ${n.op} is computed whole, not per element block, so it cannot live in a per-block temporary; ` +
        'use pinCse() to evaluate it once into its own array');
    }
    pin(n, 'pin');
    return this;
  }

  /**
   * Computes this array (and every marked output under it). Results are
   * ordinary arrays copied out of the heap; inside da.scope(), or with
   * { view: true }, heap views with no copy; with { out }, written into the
   * arrays given (NumPy's out=), which come back in the results' places.
   */
  async execute(options?: ExecuteOptions): Promise<StdNdarray | OutputRecord> {
    const request = resultRequest('execute', options);
    const root = nodeOf(this);
    // A graph over arrays loaded with mmapMode runs chunk by chunk through their files.
    const streamer = streamerFor([root]);
    if (streamer) return (await streamer([root], { options, many: false })) as StdNdarray | OutputRecord;
    return (await defaultLinker.runNodesAsync([root], false, false, request)) as StdNdarray | OutputRecord;
  }

  /** As execute(), on the calling thread. */
  executeSync(options?: ExecuteOptions): StdNdarray | OutputRecord {
    const request = resultRequest('executeSync', options);
    if (streamerFor([nodeOf(this)])) {
      throw new NotSupportedError('executeSync: arrays loaded with mmapMode or from fromZarr are read from their files or stores as a run goes, which only execute() does; await x.execute()');
    }
    return defaultLinker.runNodes([nodeOf(this)], false, false, request) as StdNdarray | OutputRecord;
  }

  /**
   * The plan execute() would run, as text. Computes nothing. With
   * { kernels: true } the WebAssembly backend also compiles the kernels it
   * would launch and prints their disassembly.
   */
  explain(options?: { kernels?: boolean }): string {
    if (options !== undefined && (typeof options !== 'object' || options === null || Object.keys(options).some((k) => k !== 'kernels'))) {
      throw new TypeError(`explain: options must be an object like { kernels: true }; got ${formatValue(options)}`);
    }
    const plan = defaultLinker.plan([nodeOf(this)]);
    const text = printPlan(plan, defaultLinker.backend.name);
    if (!options?.kernels) return text;
    return [text, ...defaultLinker.describeKernels(plan)].join('\n\n');
  }

  /** The graph in Graphviz dot, as the planner will run it: each fused kernel a cluster. Computes nothing. */
  toDot(): string {
    const plan = defaultLinker.plan([nodeOf(this)]);
    const clusters = plan.steps.filter((st) => st.kind === 'kernel').map(({ group: g }) => ({
      label: `kernel ${g.id} over (${g.shape.join(', ')})`,
      nodes: groupNodes(g),
    }));
    return printDot([...plan.results, ...plan.outputs.map((o) => o.node)], clusters, new Set(plan.temps.keys()));
  }

  toString(): string {
    return this.#disposed ? 'DeferredArray (disposed)' : printGraph(this.#node);
  }

  [inspectSymbol](): string {
    return this.toString();
  }

  get [Symbol.toStringTag](): string {
    return 'DeferredArray';
  }

  /**
   * Releases this handle; using it afterwards raises DisposedError. Arrays
   * computed from it are unaffected. A wrapped array's heap copy is freed
   * now (graphs that still read it copy it in again when they run).
   */
  dispose(): void {
    if (this.#disposed) return;
    const n = this.#node;
    this.#disposed = true;
    if (n.op === 'source') dropCopies(n);
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}

const wrapNode = (node: Node): DeferredArray => new DeferredArray(node);

export { DeferredArray, nodeOf, wrapNode, liveOf, liveView };
