// The boundary between planning and computing. A backend receives a plan and
// returns the values of its results and outputs; it never builds graphs.
import type { Node } from '../ir/node.js';
import type { Target } from '../plan/pipeline.js';
import type { Plan } from '../plan/plan.js';
import type { Dense } from '../core/dense.js';
import type { RunFlags } from '../core/flags.js';
import type { TypedArray } from '../ir/dtypes.js';
import type { HeapStats } from '../core/heap.js';

interface RunResult {
  /** Data conditions met while running; the linker applies the error policy to them. */
  readonly flags: RunFlags;
  /** A result's or output's values, row-major; they may lie in the heap, so read them before release(). */
  value(node: Node): Dense;
  /** Whether `data` (from value()) is ordinary memory this run made for the caller to keep (else the linker copies it). */
  owns(data: Dense['data']): boolean;
  /**
   * Passes the heap block that holds exactly `node`'s values, row-major, to
   * the caller (who frees it with the heap); undefined where there is none
   * to give (the value is a window onto other memory, or was taken already).
   */
  take?(node: Node): number | undefined;
  /** The out windows the run wrote directly. */
  readonly written: ReadonlySet<Node>;
  /** Frees what the run still holds; called once the results are handed out. */
  release(): void;
}

/** Heap memory a run may write a result into directly (a heap out): byte address of element 0 and element strides. */
interface OutWindow {
  readonly ptr: number;
  readonly strides: readonly number[];
}

interface BackendStats {
  /** Plans run. */
  readonly runs: number;
  /** Graph nodes evaluated (or, for compiling backends, kernels launched). */
  readonly steps: number;
  /** Kernels run on the worker pool (the rest ran on the calling thread). */
  readonly pooled: number;
  /** Of those, launches the calling thread took part in (a short launch). */
  readonly joined: number;
  /** Blocks each worker of its pool has run since the pool started (empty without a pool). */
  readonly workerBlocks: readonly number[];
  /** What a compiling backend's kernel caches hold and have cost; absent for an interpreter. */
  readonly kernels?: KernelStats;
}

interface KernelStats {
  /** Modules compiled (cache misses) and the milliseconds spent on them. */
  readonly compiled: number;
  readonly compileMs: number;
  /** Compiled modules held, and the most held. */
  readonly cached: number;
  readonly cacheLimit: number;
  /** Kernels instantiated on the calling thread, and the most kept. */
  readonly instances: number;
  readonly instancesLimit: number;
}

/** The settings of the runtime a backend runs in, read at each run (configure() may change them between runs). */
interface BackendSettings {
  /** Workers runAsync may use. */
  readonly threads: number;
  /** Kernels with less work than this run on the calling thread even in runAsync. */
  readonly inlineThreshold: number;
}

/** What a runtime gives a backend it starts. */
interface BackendHost {
  settings(): BackendSettings;
}

/**
 * A compiled function's argument as a call binds it to its placeholder node;
 * or one of its constants (a scalar node), bound so that a backend can keep it
 * between calls; or what a trace stage reads, bound to its cached plan.
 */
interface Bound {
  /** Its values, row-major, at the node's shape and dtype; read during the call only. */
  readonly value: Dense;
  /** The node whose values these are, when they do not change between calls, so a backend can keep its copy. */
  readonly source?: Node;
  /**
   * Where `value` lies in a heap (a mutable array's block, bound to a trace
   * stage's plan): read there by a backend over that heap, never copied.
   */
  readonly at?: { readonly heap: object; readonly ptr: number };
}

type Bindings = ReadonlyMap<Node, Bound>;

/** A plan's scalars bound to their own values, which a general run keeps between calls (see Bound). */
type Constants = ReadonlyArray<readonly [Node, Bound]>;

interface Backend {
  /** The name configure({ backend }) selects it by. */
  readonly name: string;
  /** What the planner makes for it: fused kernels, or one step per node. */
  readonly target: Target;
  /** Why this host cannot run it (configure() says so), or undefined when it can. */
  unavailable(): string | undefined;
  /** Called once by the runtime that registers it, before any run. */
  start(host: BackendHost): void;
  /** Frees what it holds between runs (a worker pool) once the work already given to it is done; a later run starts afresh. */
  shutdown(): Promise<void>;
  /**
   * The heap started over on a new memory (heap-trim.ts), with no run in
   * flight: binds what imports the old one to the new (a pool's workers),
   * synchronously before its first await, so the next run sees the new one.
   */
  heapReplaced(): Promise<void>;
  /**
   * Its own errors as this package's (a worker's failure as the error it
   * threw); anything else is returned as it is.
   */
  mapError(e: unknown): unknown;
  /**
   * Runs on the calling thread (executeSync); `bound` gives the placeholders'
   * values, `outs` heap windows the results may be written into directly.
   */
  run(plan: Plan, bound?: Bindings, outs?: ReadonlyMap<Node, OutWindow>): RunResult;
  /** Runs where the backend likes, e.g. a worker pool (execute); settles, never throws synchronously. */
  runAsync(plan: Plan, bound?: Bindings, outs?: ReadonlyMap<Node, OutWindow>): Promise<RunResult>;
  /**
   * The short way for the usual request: runs a plan of one result (not
   * bool) on the calling thread and writes it into `into` (ordinary memory
   * of the result's dtype and size) or into a new array, which it returns.
   * `check` sees the run's flags before anything is written, and may throw
   * (the error policy): then nothing is. Returns undefined, having run
   * nothing, where the backend has no short way for the plan, or, unless
   * `sync` (a caller that runs everything on the calling thread, as run()),
   * where runAsync would not run it there (the general way is then taken,
   * which for such work costs nothing worth saving).
   */
  runInto?(plan: Plan, bound: Bindings | undefined, into: TypedArray | undefined, check: (flags: RunFlags) => void, sync: boolean): TypedArray | undefined;
  /** Makes ready what runs of `plan` will need (compiled kernels), running nothing; `bound` at any sizes the plan takes. */
  prepare(plan: Plan, bound: Bindings): void;
  /** For explain({ kernels: true }): what its kernels for `plan` are, where it compiles any. */
  describe?(plan: Plan): readonly string[];
  /** The statistics of a heap of its own for runs on the calling thread (the WebAssembly backend's private heap), once it has one. */
  privateHeap?(): HeapStats | undefined;
  /** The runtime is idle or shutting down, no run in flight: let go of memory kept between runs only for speed. */
  idle?(): void;
  stats(): BackendStats;
}

export type { Backend, BackendHost, BackendSettings, BackendStats, KernelStats, RunResult, Bound, Bindings, Constants, OutWindow };
