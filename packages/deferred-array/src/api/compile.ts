// Compiled functions (lappy's symbolic sizes, Theano's function): fn is
// traced once over placeholders whose sizes are symbols, planned once, and its
// kernels compiled before the first call. A call binds arrays to the
// placeholders, binds the symbols to their sizes, and runs the plan: at sizes
// seen before, the plan itself; at new ones, the same plan carried to them
// (plan/instantiate.ts), with no pass run again and the same kernels. A
// function that reads an array's sizes while traced (x.shape, x.size) may
// build a different graph at other sizes, so it is traced and planned once per
// size instead.
import { Lru } from 'kernels-wasm/lru';
import { DTypeError, NotSupportedError, ShapeError } from '../ir/errors.js';
import { isThenable } from '../util/stack-context.js';
import { mappedSourceOf, readsMapped } from '../ir/mapped.js';
import { expectOp, makeNode, topoOrder } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import { NotInstantiable } from '../ir/rebuild.js';
import type { TypedArray } from '../ir/dtypes.js';
import {
  bindSizes, formatDims, isPlaceholder, probeSizes, shapeAt, sizesKey, standInSizes, symbolsOf, traceWith,
} from '../ir/symbols.js';
import type { Placeholder } from '../ir/symbols.js';
import { allocDense } from '../core/dense.js';
import type { Bindings, Bound, Constants } from '../execute/backend.js';
import { resultOf } from '../execute/linker.js';
import { defaultLinker } from './default-linker.js';
import { ArgumentCopies } from './argument-copies.js';
import type { OutputRecord } from '../execute/linker.js';
import { instantiatePlan } from '../plan/instantiate.js';
import type { Target } from '../plan/pipeline.js';
import { rootsOf } from '../plan/plan.js';
import type { Plan } from '../plan/plan.js';
import { printPlan } from '../plan/print-plan.js';
import type { StdNdarray } from '../util/stdlib.js';
import { sameShape } from '../ir/shape.js';
import { isPlainObject } from '../util/nested.js';
import { resultRequest } from '../results/request.js';
import type { ExecuteOptions, ResultRequest } from '../results/request.js';
import { heapViewOf } from '../results/views.js';
import { DeferredArray, nodeOf, wrapNode } from './deferred-array.js';
import { describe, isArrayInput, sourceFrom, typedDType } from './operand.js';
import type { ArrayInput } from './operand.js';

type Result = StdNdarray | StdNdarray[] | OutputRecord;
type Argument = DeferredArray | ArrayInput;

interface CompiledFunction {
  /**
   * Runs the plan over these arguments, where the backend chooses (the worker
   * pool for large kernels). execute()'s options ({ out, view }) may follow
   * the arguments as a plain object: `f(a, b, { out })`.
   */
  (...args: Array<Argument | ExecuteOptions>): Promise<Result>;
  /** The same, on the calling thread. */
  sync(...args: Array<Argument | ExecuteOptions>): Result;
  readonly placeholders: readonly Placeholder[];
  /** The plan every call runs, as explain() prints one; nothing runs. */
  explain(): string;
}

/** fn traced at some sizes: its results, and the placeholder leaves they read. */
interface Traced {
  readonly roots: readonly Node[];
  readonly many: boolean;
  readonly leaves: readonly Node[];
  readonly shapeRead: boolean;
}

/** A plan at one set of sizes, the placeholder leaves a call binds, and its constants, bound once. */
interface Instance {
  readonly plan: Plan;
  readonly leaves: readonly Node[];
  readonly constants: Constants;
}

/** The plan's scalars, bound as constants: a backend keeps them between calls instead of writing them each run. */
function constantsOf(plan: Plan): Array<readonly [Node, Bound]> {
  return topoOrder(rootsOf(plan)).filter((n) => n.op === 'scalar').map((n) => {
    const value = allocDense(n.dtype, []);
    value.data[0] = expectOp(n, 'scalar').attrs.value;
    return [n, { value, source: n }] as const;
  });
}

function instance(plan: Plan, leaves: readonly Node[]): Instance {
  return { plan, leaves, constants: constantsOf(plan) };
}

/** Compiles the instance's kernels, running nothing (its placeholders bound to zeros of their shapes: small sizes only). */
function prepare(inst: Instance): void {
  defaultLinker.preparePlan(inst.plan, new Map(inst.leaves.map((leaf) => [leaf, { value: allocDense(leaf.dtype, leaf.shape) }])));
}

/** Instances kept per compiled function, least recently used dropped first; a loop over more distinct sizes than this carries the plan again. */
const INSTANCES = 64;

/** Compiled functions not yet collected, for da.stats(): the sizes they hold plans for. */
class LiveFunctions {
  readonly #live = new Set<WeakRef<Compiled>>();
  /** Past this size add() sweeps the set, so a program compiling functions it drops (and never asking for stats) keeps it bounded. */
  #sweepAt = 64;

  add(c: Compiled): void {
    if (this.#live.size >= this.#sweepAt) this.sweep();
    this.#live.add(new WeakRef(c));
  }

  /** The compiled functions not yet collected, dropping the references to those that were. */
  sweep(): Compiled[] {
    const out: Compiled[] = [];
    for (const ref of this.#live) {
      const c = ref.deref();
      if (c) out.push(c);
      else this.#live.delete(ref);
    }
    this.#sweepAt = 2 * this.#live.size + 64;
    return out;
  }
}

// Compiled functions run on the default runtime, so they are counted with it.
const live = new LiveFunctions();

function compiledStats(): { functions: number; sizes: number; sizesLimit: number } {
  const functions = live.sweep();
  return { functions: functions.length, sizes: functions.reduce((n, c) => n + c.instanceCount, 0), sizesLimit: INSTANCES };
}


function traceAt(fn: (...xs: DeferredArray[]) => unknown, ps: readonly Placeholder[], sizes: ReadonlyMap<string, number>): Traced {
  const leaves = ps.map((p, i) => makeNode('placeholder', [], shapeAt(p, sizes), p.dtype, { label: `argument ${i}` }));
  const { value, shapeRead } = traceWith(() => fn(...leaves.map(wrapNode)));
  if (isThenable(value)) throw new TypeError('compile: fn returned a promise; it must build its arrays synchronously and return them');
  const list = Array.isArray(value) ? value : [value];
  const bad = list.findIndex((x) => !(x instanceof DeferredArray));
  if (list.length === 0 || bad >= 0) {
    throw new TypeError(`compile: fn must return a DeferredArray or a non-empty array of them; got ${describe(list.length === 0 ? value : list[bad])}`);
  }
  const roots = list.map((x) => nodeOf(x as DeferredArray));
  for (const n of topoOrder(roots)) {
    if (n.op === 'stored') {
      throw new NotSupportedError(`compile: fn reads ${n.attrs.storage.name}, an array written in place, whose value changes between calls; ` +
        'pass it as an argument (a placeholder) instead');
    }
    if (n.op === 'cond') {
      throw new NotSupportedError('compile: da.cond inside a compiled function is not supported yet; ' +
        'call the compiled function inside the branches instead, or use da.where for an elementwise choice');
    }
    if (mappedSourceOf(n)) {
      throw new NotSupportedError(`compile: fn reads ${mappedSourceOf(n)!.name}, whose values stay where they are stored (mmapMode, fromZarr); runs over it go through execute(), ` +
        'which compiled functions do not; pass its values as an argument instead (await x.execute())');
    }
  }
  return { roots, many: Array.isArray(value), leaves, shapeRead };
}

class Compiled {
  readonly #fn: (...xs: DeferredArray[]) => unknown;
  readonly #ps: readonly Placeholder[];
  readonly #traced: Traced;
  /** fn read sizes while traced: it is traced and planned again for each set of sizes. */
  readonly #perSize: boolean;
  /** The plan of the traced graph, per planning target (the backend at call time). */
  readonly #plans = new Map<Target, Plan>();
  readonly #instances = new Lru<string, Instance>({ max: INSTANCES });
  #last: { readonly target: Target; readonly shapes: ReadonlyArray<readonly number[]>; readonly inst: Instance } | undefined;
  /** How many sizes this function holds plans for now (at most INSTANCES), for da.stats(). */
  get instanceCount(): number {
    return this.#instances.size;
  }

  constructor(fn: (...xs: DeferredArray[]) => unknown, ps: readonly Placeholder[]) {
    this.#fn = fn;
    this.#ps = ps;
    this.#traced = traceAt(fn, ps, standInSizes(ps));
    this.#perSize = this.#traced.shapeRead && symbolsOf(ps).length > 0;
    if (this.#perSize) return;
    // Plan once and compile the kernels now, at small sizes: the kernels do not depend on them.
    const plan = this.#plan();
    for (const from of [2, 17]) {
      let inst: Instance;
      try {
        inst = this.#instantiate(plan, probeSizes(ps, from));
      } catch (e) {
        // Not defined at these sizes (slices that leave an empty axis to a max): try larger ones;
        // a graph that carries to neither gets its kernels at its first call.
        if (e instanceof NotInstantiable || e instanceof ShapeError) continue;
        throw e;
      }
      prepare(inst);
      break;
    }
  }

  get placeholders(): readonly Placeholder[] {
    return this.#ps;
  }

  #plan(): Plan {
    const target = defaultLinker.target;
    let plan = this.#plans.get(target);
    if (!plan) this.#plans.set(target, (plan = defaultLinker.plan(this.#traced.roots, target)));
    return plan;
  }

  #instantiate(plan: Plan, sizes: ReadonlyMap<string, number>): Instance {
    const leaves = this.#traced.leaves.map((t, i) => makeNode('placeholder', [], shapeAt(this.#ps[i]!, sizes), t.dtype, t.attrs));
    return instance(instantiatePlan(plan, new Map(this.#traced.leaves.map((t, i) => [t, leaves[i]!]))), leaves);
  }

  /** The plan at `sizes`: carried there from the traced one, or, where it does not carry, fn traced and planned at them. */
  #instance(sizes: ReadonlyMap<string, number>): Instance {
    const key = `${defaultLinker.target}:${sizesKey(sizes)}`;
    const hit = this.#instances.get(key);
    if (hit) return hit;
    let inst: Instance | undefined;
    if (!this.#perSize) {
      try {
        inst = this.#instantiate(this.#plan(), sizes);
      } catch (e) {
        if (e instanceof ShapeError) throw new ShapeError(`compiled function at ${[...sizes].map(([k, v]) => `${k} = ${v}`).join(', ')}: ${e.message}`, { cause: e });
        if (!(e instanceof NotInstantiable)) throw e;
      }
    }
    if (!inst) {
      const traced = traceAt(this.#fn, this.#ps, sizes);
      // Not prepared: at the sizes of a call, a dry run would take the run's memory for nothing; the run compiles as it goes.
      inst = instance(defaultLinker.plan(traced.roots, defaultLinker.target), traced.leaves);
    }
    this.#instances.set(key, inst);
    return inst;
  }

  /** The instance for arguments of these shapes: the last call's where they and the target are the same (a loop at one size looks nothing up). */
  #instanceFor(shapes: ReadonlyArray<readonly number[]>): Instance {
    const target = defaultLinker.target;
    const last = this.#last;
    if (last && last.target === target && shapes.every((s, i) => sameShape(s, last.shapes[i]!))) return last.inst;
    const inst = this.#instance(bindSizes(this.#ps, shapes, 'compiled function'));
    this.#last = { target, shapes: shapes.map((s) => [...s]), inst };
    return inst;
  }

  /** The instance for these arguments' sizes, its placeholders bound to them, and its constants. */
  #bind(values: readonly Bound[]): { plan: Plan; bound: Bindings; constants: Constants; many: boolean } {
    const inst = this.#instanceFor(values.map((v) => v.value.shape));
    const bound = new Map<Node, Bound>();
    for (let i = 0; i < inst.leaves.length; i++) bound.set(inst.leaves[i]!, values[i]!);
    return { plan: inst.plan, bound, constants: inst.constants, many: this.#traced.many };
  }

  #checkCount(args: readonly unknown[]): void {
    if (args.length !== this.#ps.length) {
      throw new TypeError(`compiled function: takes ${this.#ps.length} argument(s) (${this.#ps.map(String).join(', ')}), ` +
        `then optionally execute()'s options ({ out, view }); got ${args.length} argument(s)`);
    }
  }

  /** The arguments, and execute()'s options where a plain object follows them. */
  #split(args: readonly unknown[], fn: string): { args: readonly Argument[]; request: ResultRequest } {
    const last = args[this.#ps.length];
    // An argument is never a plain object: one after the arguments is the options.
    if (args.length === this.#ps.length + 1 && isPlainObject(last)) return { args: args.slice(0, -1) as Argument[], request: resultRequest(fn, last) };
    this.#checkCount(args);
    return { args: args as Argument[], request: resultRequest(fn, undefined) };
  }

  call(all: readonly unknown[]): Result {
    const { args, request } = this.#split(all, 'compiled function');
    const values = args.map((a, i) => {
      const v = this.#value(a, i, undefined);
      return 'value' in v ? v : this.#fromResult(defaultLinker.runNodes([v], false) as Result, i);
    });
    const { plan, bound, constants, many } = this.#bind(values);
    return defaultLinker.runBound(plan, bound, many, request, constants);
  }

  async callAsync(all: readonly unknown[]): Promise<Result> {
    const { args, request } = this.#split(all, 'compiled function');
    // A call the short way runs now, reading its arguments in place: no copies.
    const now = this.#runNow(args, request);
    if (now) return now;
    // Arguments are read now, before anything awaits: the caller may change them once this returns.
    const copies = new ArgumentCopies(defaultLinker.heap);
    try {
      const given = args.map((a, i) => {
        const v = this.#value(a, i, copies);
        return 'value' in v ? v : defaultLinker.runNodesAsync([v], false).then((r) => this.#fromResult(r as Result, i));
      });
      // Awaited only where an argument is computed first: the run is asked for now otherwise.
      let ready = true;
      for (const v of given) ready &&= !(v instanceof Promise);
      const values = ready ? (given as Bound[]) : await Promise.all(given);
      const { plan, bound, constants, many } = this.#bind(values);
      return await defaultLinker.runBoundAsync(plan, bound, many, request, constants);
    } finally {
      copies.free();
    }
  }

  /**
   * An async call run now, on the calling thread, where the linker's short
   * way takes it (Linker.runShort) and no argument must be computed first;
   * undefined, having run nothing, otherwise.
   */
  #runNow(args: readonly Argument[], request: ResultRequest): Result | undefined {
    const values: Bound[] = [];
    for (let i = 0; i < args.length; i++) {
      const v = this.#value(args[i]!, i, undefined);
      if (!('value' in v)) return undefined;
      values.push(v);
    }
    const { plan, bound, many } = this.#bind(values);
    return defaultLinker.runShort(plan, bound, many, request);
  }

  /**
   * Argument i as its placeholder's value, or, for a DeferredArray that is
   * neither a source nor a reshape of one (an expression, a slice, an array
   * written in place), its node, to be computed first. With `copies` (an
   * async call), a typed array is copied there rather than read in place.
   */
  #value(a: Argument, i: number, copies: ArgumentCopies | undefined): Bound | Node {
    const p = this.#ps[i]!;
    if (a instanceof DeferredArray) {
      const n = nodeOf(a);
      if (readsMapped([n])) throw new NotSupportedError(`compiled function: argument ${i} reads an array loaded with mmapMode or from fromZarr; runs over it go through execute() alone (pass await x.execute() instead)`);
      // A source, or a reshape of one (the same values in row-major order), is read where it is.
      const src = n.op === 'reshape' && n.inputs[0].op === 'source' ? n.inputs[0] : n;
      if (src.op !== 'source') return n;
      this.#checkDType(n.dtype, i);
      return { value: { dtype: n.dtype, shape: n.shape, data: src.attrs.data }, source: src };
    }
    const td = typedDType(a);
    // A view result is read in place, like any source made from it (it must stay live until the call has run).
    if (td !== undefined && !heapViewOf(a as TypedArray, () => `compiled function: argument ${i}`)) {
      this.#checkDType(td, i);
      const t = a as TypedArray;
      return copies ? copies.bound(t, td) : { value: { dtype: td, shape: [t.length], data: t } };
    }
    if (!isArrayInput(a)) {
      throw new TypeError(`compiled function: argument ${i} must be a DeferredArray, a stdlib ndarray, a typed array or a nested list; got ${describe(a)}`);
    }
    return this.#fromSource(sourceFrom(a, Array.isArray(a) ? p.dtype : undefined, true), i);
  }

  /** An argument computed first (its record's result, if it marks outputs), as its values. */
  #fromResult(r: Result, i: number): Bound {
    return this.#fromSource(sourceFrom(resultOf(r)), i);
  }

  /** A source node made from an argument's values, as the placeholder's value (read in place where it is heap memory). */
  #fromSource(n: Node, i: number): Bound {
    this.#checkDType(n.dtype, i);
    const { data, lease } = expectOp(n, 'source').attrs;
    const value = { dtype: n.dtype, shape: n.shape, data };
    return lease ? { value, source: n } : { value };
  }

  #checkDType(d: string, i: number): void {
    const want = this.#ps[i]!.dtype;
    if (d !== want) {
      throw new DTypeError(`compiled function: argument ${i} is ${d} but its placeholder ${this.#ps[i]} is ${want}; ` +
        `convert it first (x.astype('${want}'), or a ${want} typed array)`);
    }
  }

  explain(): string {
    const args = this.#ps.map((p, i) => `  argument ${i}: ${formatDims(p.shape)} ${p.dtype}`);
    const head = [`compiled function of ${this.#ps.length} argument(s):`, ...args];
    if (this.#perSize) {
      return [...head, 'fn reads array sizes while traced (x.shape, x.size), so it is traced and planned once per set of sizes',
        // The most recently used size's plan (the cache lists it first).
        ...[...this.#instances.values()].slice(0, 1).map((i) => printPlan(i.plan, defaultLinker.backend.name))].join('\n');
    }
    const symbols = symbolsOf(this.#ps);
    const at = symbols.length === 0 ? '' : ` (sizes shown at stand-ins: ${[...standInSizes(this.#ps)].map(([k, v]) => `${k} = ${v}`).join(', ')})`;
    return [...head, `one plan for every call${at}:`, printPlan(this.#plan(), defaultLinker.backend.name)].join('\n');
  }
}

/**
 * Compiles `fn` over `placeholders`: traced once, planned once, kernels compiled
 * now. The result is called with one array per placeholder.
 */
function compile(fn: (...xs: DeferredArray[]) => DeferredArray | readonly DeferredArray[], placeholders: readonly Placeholder[]): CompiledFunction {
  if (typeof fn !== 'function') throw new TypeError(`compile(fn, placeholders): fn must be a function; got ${describe(fn)}`);
  if (!Array.isArray(placeholders)) {
    throw new TypeError(`compile(fn, placeholders): placeholders must be an array of da.placeholder(shape, dtype); got ${describe(placeholders)}`);
  }
  placeholders.forEach((p, i) => {
    if (!isPlaceholder(p)) throw new TypeError(`compile: placeholders[${i}] is not a da.placeholder(shape, dtype); got ${describe(p)}`);
  });
  const c = new Compiled(fn, [...placeholders]);
  live.add(c);
  const f = ((...args: unknown[]) => c.callAsync(args)) as CompiledFunction;
  Object.defineProperties(f, {
    sync: { value: (...args: unknown[]) => c.call(args) },
    placeholders: { get: () => c.placeholders },
    explain: { value: () => c.explain() },
  });
  return f;
}

export { compile, compiledStats };
export type { CompiledFunction };
