// Test helper: a binary op's NumPy vectors (test/vectors/elementwise.json) as
// numbers, and a run of one op on a chosen backend with its values read back
// in a form that compares bit for bit (-0 apart from 0; any NaN as NaN).
import { readFileSync } from 'node:fs';
import * as da from '../src/index.js';
import type { DType } from '../src/ir/dtypes.js';
import { decodeValue } from './numpy-values.js';
import type { Raw } from './numpy-values.js';

interface BinaryCase {
  readonly dtype: DType;
  /** NumPy's output dtype, which may be one we lack (float16). */
  readonly outDtype: string;
  readonly a: readonly number[];
  readonly b: readonly number[];
  /** NumPy's results; float16 ones undecoded (NaN). */
  readonly out: readonly number[];
}

interface Entry { readonly outDtype: string; readonly a: readonly Raw[]; readonly b: readonly Raw[]; readonly out: readonly Raw[] }

function binaryVectors(op: string): BinaryCase[] {
  const file = JSON.parse(readFileSync(new URL('vectors/elementwise.json', import.meta.url), 'utf8')) as {
    readonly binary: Readonly<Record<string, Readonly<Record<string, Entry>>>>;
  };
  return Object.entries(file.binary[op] ?? {}).map(([d, e]) => ({
    dtype: d as DType,
    outDtype: e.outDtype,
    a: e.a.map((r) => decodeValue(r, d)),
    b: e.b.map((r) => decodeValue(r, d)),
    out: e.out.map((r) => (e.outDtype === 'float16' ? NaN : decodeValue(r, e.outDtype))),
  }));
}

/** A value as it compares bit for bit: -0 is '-0', any NaN is 'NaN'. */
const exactly = (x: number): number | string => (Number.isNaN(x) ? 'NaN' : Object.is(x, -0) ? '-0' : x);

/** Values of `y` computed on `backend`, with its dtype. */
function runOn(backend: 'wasm' | 'reference', make: () => da.DeferredArray): { dtype: string; values: Array<number | string> } {
  const before = da.configure().backend;
  da.configure({ backend });
  try {
    const nd = make().executeSync() as da.StdNdarray;
    return { dtype: nd.dtype, values: Array.from({ length: nd.length }, (_, i) => exactly(Number(nd.iget(i)))) };
  } finally {
    da.configure({ backend: before });
  }
}

export { binaryVectors, exactly, runOn };
export type { BinaryCase };
