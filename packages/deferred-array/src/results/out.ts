// NumPy's out=: execute({ out }) writes results into arrays the caller
// owns, and returns those arrays. Checked when the request is planned, before
// anything runs: the form (one array, a list for da.execute([...]), a record
// when outputs are marked), each array's dtype and shape, that no two overlap,
// and that none is a released view. Values are written only once every
// value of the run exists and the error policy has passed, so a failed
// execute() leaves every out as it was.
import { ShapeError } from '../ir/errors.js';
import { dtypeInfo, setElements } from '../ir/dtypes.js';
import type { DType, TypedArray } from '../ir/dtypes.js';
import type { Node } from '../ir/node.js';
import { contiguousStrides, formatShape, isRowMajor, sameShape, sizeOf } from '../ir/shape.js';
import type { Plan } from '../plan/plan.js';
import type { ResultRequest } from './request.js';
import { asBits, forEachStrided } from '../core/dense.js';
import type { Dense } from '../core/dense.js';
import { isStdNdarray, stdNdarray } from '../util/stdlib.js';
import type { StdNdarray } from '../util/stdlib.js';
import { describe, typedDType } from '../core/values.js';
import { heapViewOf } from './views.js';
import { isPlainObject } from '../util/nested.js';
import type { ViewEntry } from './views.js';

/** An array execute() may write into. */
type OutArray = TypedArray | StdNdarray;
type OutList = ReadonlyArray<OutArray | null | undefined>;
/** execute({ out }): one array; a list for da.execute([...]); a record (any of its keys) when outputs are marked. */
type OutOption = OutArray | OutList | { readonly [key: string]: OutArray | OutList | null | undefined };

/** Where one result's values go. */
interface OutTarget {
  /** The caller's array, which execute() returns in the result's place. */
  readonly given: OutArray;
  /** The elements written (bool as bytes), through `strides` from `offset`, row-major over the result's shape. */
  readonly data: TypedArray;
  readonly offset: number;
  readonly strides: readonly number[];
  /** Set when `data` lies in the heap (a view result): its view, held while a run writes it, and the byte address of element 0. */
  readonly heap?: { readonly entry: ViewEntry; readonly ptr: number };
  /** 'out', 'out[1]', 'out.t': for messages. */
  readonly name: string;
}

/** The targets of one request, by place in what execute() returns. */
interface OutBinding {
  readonly results: ReadonlyArray<OutTarget | undefined>;
  readonly outputs: ReadonlyMap<string, OutTarget>;
}

const isOutArray = (x: unknown): x is OutArray => typedDType(x) !== undefined || isStdNdarray(x);

/** The typed array holding a stdlib ndarray's elements (a bool ndarray's bytes). */
function elementsOf(x: StdNdarray): TypedArray | undefined {
  if (x.dtype === 'bool') return stdNdarray().base.reinterpretBoolean(x).data as Uint8Array;
  return typedDType(x.data) !== undefined ? (x.data as TypedArray) : undefined;
}

/** The typed array a result of `dtype` takes as out (bool as bytes). */
const expectedCtor = (dtype: DType): string => (dtype === 'bool' ? 'Uint8Array' : dtypeInfo(dtype).ctor.name);

/** What to write instead of a DeferredArray out. */
const hint = (x: unknown): string =>
  (x !== null && typeof x === 'object' && 'execute' in x ? ' (to write into a DeferredArray, use its assign(): z.assign(y))' : '');

/** Checks one array against the value it is to receive. */
function target(x: unknown, node: Node, name: string): OutTarget {
  // Made only for a message: this runs at every call with an out.
  const want = (): string => `${node.dtype}${formatShape(node.shape)}`;
  if (!isOutArray(x)) {
    throw new TypeError(`execute: ${name} must be a typed array or a stdlib ndarray for the ${want()} result; got ${describe(x)}${hint(x)}`);
  }
  let data: TypedArray;
  let offset = 0;
  let strides: readonly number[];
  if (isStdNdarray(x)) {
    // int64 and uint64 ndarrays are 'generic' ones over their bigint arrays (to-ndarray.ts).
    if (x.dtype !== node.dtype && !(x.dtype === 'generic' && typedDType(x.data) === node.dtype)) {
      throw new TypeError(`execute: ${name} is a ${x.dtype} ndarray but the result is ${want()}; pass a ${node.dtype} ndarray`);
    }
    if (!sameShape(x.shape, node.shape)) {
      throw new ShapeError(`execute: ${name} has shape ${formatShape(x.shape)} but the result is ${want()}; out must have the result's shape`);
    }
    if ((x as { flags?: { READONLY?: boolean } }).flags?.READONLY) throw new TypeError(`execute: ${name} is a read-only ndarray`);
    const elements = elementsOf(x);
    if (!elements) throw new TypeError(`execute: ${name} keeps its ${x.dtype} elements in a ${describe(x.data)}, which execute() cannot write; pass an ndarray over a typed array`);
    data = elements;
    offset = x.offset;
    strides = node.shape.length === 0 ? [] : x.strides;
  } else {
    const t = x as TypedArray;
    const td = typedDType(t)!;
    if (td !== node.dtype && !(node.dtype === 'bool' && td === 'uint8')) {
      throw new TypeError(`execute: ${name} is a ${describe(t)} but the result is ${want()}; pass a ${expectedCtor(node.dtype)}`);
    }
    if (t.length !== sizeOf(node.shape)) {
      throw new ShapeError(`execute: ${name} holds ${t.length} elements but the result ${want()} has ${sizeOf(node.shape)}; ` +
        'a typed array out receives the result in row-major order and must have its size');
    }
    data = t;
    strides = contiguousStrides(node.shape);
  }
  // A view (or memory of one) is written in place; a released one is a DisposedError here.
  const heapEntry = heapViewOf(data, name);
  return {
    given: x,
    data,
    offset,
    strides,
    name,
    heap: heapEntry ? { entry: heapEntry, ptr: data.byteOffset + offset * data.BYTES_PER_ELEMENT } : undefined,
  };
}

/** Byte range [from, to) a target's elements span in its buffer. */
function extent(t: OutTarget, shape: readonly number[]): { from: number; to: number } {
  const bytes = t.data.BYTES_PER_ELEMENT;
  let lo = t.offset;
  let hi = t.offset;
  shape.forEach((d, i) => {
    const span = (d - 1) * (t.strides[i] ?? 0);
    if (d === 0) return;
    if (span < 0) lo += span; else hi += span;
  });
  if (sizeOf(shape) === 0) return { from: 0, to: 0 };
  return { from: t.data.byteOffset + lo * bytes, to: t.data.byteOffset + (hi + 1) * bytes };
}

/** Whether two targets share memory (a heap counts as one buffer whatever its buffer object after a grow). */
function overlap(a: OutTarget, an: Node, b: OutTarget, bn: Node): boolean {
  const same = a.data.buffer === b.data.buffer || (a.heap !== undefined && a.heap.entry.heap === b.heap?.entry.heap);
  if (!same) return false;
  const x = extent(a, an.shape);
  const y = extent(b, bn.shape);
  return x.from < y.to && y.from < x.to;
}

/**
 * Binds `out` to the request's results and marked outputs (plan.results,
 * plan.outputs; `many` for da.execute([...])), checking everything.
 */
function bindOut(out: unknown, plan: Plan, many: boolean): OutBinding {
  const results: Array<OutTarget | undefined> = plan.results.map(() => undefined);
  const outputs = new Map<string, OutTarget>();
  const bindResults = (x: unknown, base: string): void => {
    if (!many) {
      results[0] = target(x, plan.results[0]!, base);
      return;
    }
    if (!Array.isArray(x) || x.length !== plan.results.length) {
      throw new TypeError(`execute: ${base} must be a list of ${plan.results.length} arrays (null to skip one), one per array executed; got ${describe(x)}` +
        (Array.isArray(x) ? ` of ${x.length}` : ''));
    }
    x.forEach((v, i) => { if (v !== null && v !== undefined) results[i] = target(v, plan.results[i]!, `${base}[${i}]`); });
  };
  if (plan.outputs.length === 0) {
    if (!many && !isOutArray(out)) {
      throw new TypeError(`execute: this execute() returns one ndarray, so out must be one typed array or ndarray; got ${describe(out)}${hint(out)}`);
    }
    bindResults(out, 'out');
  } else {
    const keys = [...plan.outputs.map((o) => o.key), 'result'];
    if (!isPlainObject(out)) {
      throw new TypeError(`execute: arrays under this one are marked with output(), so execute() returns a record; ` +
        `out must be a record with any of the keys ${keys.map((k) => `'${k}'`).join(', ')}; got ${describe(out)}`);
    }
    for (const [key, v] of Object.entries(out)) {
      if (!keys.includes(key)) throw new TypeError(`execute: out has the key '${key}', which the record execute() returns does not (its keys: ${keys.join(', ')})`);
      if (v === null || v === undefined) continue;
      if (key === 'result') bindResults(v, 'out.result');
      else outputs.set(key, target(v, plan.outputs.find((o) => o.key === key)!.node, `out.${key}`));
    }
  }
  // One out (the usual call) cannot share memory with another.
  if (results.length + outputs.size <= 1) return { results, outputs };
  const all = [
    ...results.flatMap((t, i) => (t ? [{ t, n: plan.results[i]! }] : [])),
    ...[...outputs].map(([key, t]) => ({ t, n: plan.outputs.find((o) => o.key === key)!.node })),
  ];
  all.forEach((a, i) => all.slice(i + 1).forEach((b) => {
    if (overlap(a.t, a.n, b.t, b.n)) throw new TypeError(`execute: ${a.t.name} and ${b.t.name} share memory; each result needs an out of its own`);
  }));
  return { results, outputs };
}

/**
 * The out of a request simple enough for the linker's short way: one result
 * (not bool), no marked outputs, no views, and an out that is absent (null: a
 * fresh array) or an ordinary typed array of the result's dtype and size.
 * Undefined for any other request, which bindOut checks (and reports on).
 */
function simpleOut(plan: Plan, many: boolean, request: ResultRequest): TypedArray | null | undefined {
  const node = plan.results[0];
  if (many || request.view || plan.outputs.length > 0 || !node || node.dtype === 'bool') return undefined;
  const out = request.out;
  if (out === undefined) return null;
  const t = out as TypedArray;
  return typedDType(out) === node.dtype && t.length === sizeOf(node.shape) && !heapViewOf(t, 'out') ? t : undefined;
}

/** Writes `value` (row-major) into the target. */
function writeOut(value: Dense, t: OutTarget): void {
  const to = t.data;
  const from = value.data;
  if (sizeOf(value.shape) === 0) return;
  if (isRowMajor(value.shape, t.strides)) {
    setElements(to, from, t.offset);
    return;
  }
  const same = from.constructor === to.constructor;
  const a = same ? asBits(from) : from;
  const b = same ? asBits(to) : to;
  forEachStrided(value.shape, [{ strides: [...t.strides], offset: t.offset }], (i, o) => { b[o] = a[i]!; });
}

export { bindOut, simpleOut, writeOut, extent };
export type { OutOption, OutTarget, OutBinding };
