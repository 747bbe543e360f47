// For wasm tests that compare a result with the reference evaluator's: the
// elements of an executed array as numbers, and the same graph run on both
// backends (the suite's backend is wasm; the reference runs in between).
import * as da from '../src/index.js';

/** y executed on the calling thread, its elements as numbers in C order. */
function readNumbers(y: da.DeferredArray): number[] {
  const nd = y.executeSync() as da.StdNdarray;
  return Array.from({ length: nd.length }, (_, i) => Number(nd.iget(i)));
}

/** What `run` gives on the reference backend (the suite's, wasm, comes back after). */
function onReference<T>(run: () => T): T {
  da.configure({ backend: 'reference' });
  try {
    return run();
  } finally {
    da.configure({ backend: 'wasm' });
  }
}

/** The graph `make` builds, executed on the reference backend. */
function referenceResult(make: () => da.DeferredArray): da.StdNdarray {
  return onReference(() => make().executeSync() as da.StdNdarray);
}

/** [wasm's, the reference's] results of `run`, called once on each backend (the suite's is wasm). */
function onEachBackend<T>(run: () => T): [T, T] {
  const got = run();
  return [got, onReference(run)];
}

/** [wasm's elements, the reference's] for the graph `make` builds, built afresh on each backend. */
function onBothBackends(make: () => da.DeferredArray): [number[], number[]] {
  return onEachBackend(() => readNumbers(make()));
}

/**
 * An executed array's elements in order: its data, or a bool array's read
 * through get() (stdlib's BooleanArray has no indexed elements, so
 * Array.from of it gives undefined for each).
 */
function elementsOf(nd: da.StdNdarray): unknown[] {
  const data = nd.data as unknown as { readonly length: number; get(i: number): unknown };
  return nd.dtype === 'bool' ? Array.from({ length: data.length }, (_, i) => data.get(i)) : Array.from(nd.data as ArrayLike<unknown>);
}

/** Elements as strings, -0 apart from 0, every NaN alike (a computed NaN's sign is the machine's). */
function numberBits(nd: da.StdNdarray): string[] {
  return elementsOf(nd).map((e) => {
    const v = Number(e);
    return Number.isNaN(v) ? 'NaN' : Object.is(v, -0) ? '-0' : String(e);
  });
}

/**
 * [wasm's, the reference's] results of `make` (one array or several) run
 * with executeSync, each as numberBits, or the error either threw as
 * "name: message".
 */
function bitsOnBothBackends(make: () => da.DeferredArray | readonly da.DeferredArray[]): [string[][] | string, string[][] | string] {
  return onEachBackend((): string[][] | string => {
    try {
      const r = make();
      return (Array.isArray(r) ? r : [r as da.DeferredArray]).map((x) => numberBits(x.executeSync() as da.StdNdarray));
    } catch (e) {
      return `${(e as Error).name}: ${(e as Error).message}`;
    }
  });
}

/** The same number, -0 apart from 0; any NaN the same as any other. */
const sameNumber = (a: number, b: number): boolean => Object.is(a, b) || (a !== a && b !== b);

export { readNumbers, onBothBackends, onEachBackend, onReference, referenceResult, sameNumber, bitsOnBothBackends, elementsOf };
