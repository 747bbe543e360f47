// Test helper: an executed result as nested lists (NumPy's tolist()), after
// checking that its shape and dtype are the ones the graph promised.
import { expect } from '@jest/globals';
import type * as da from '../src/index.js';

type Nested = number | boolean | Nested[];

function toList(x: da.DeferredArray): Nested {
  const r = x.executeSync() as da.StdNdarray;
  expect(r.shape).toEqual(x.shape);
  expect(r.dtype).toBe(x.dtype);
  const at = (idx: number[]): Nested => {
    if (idx.length === r.shape.length) return r.get(...idx) as number | boolean;
    return Array.from({ length: r.shape[idx.length]! }, (_, i) => at([...idx, i]));
  };
  return at([]);
}

export { toList };
export type { Nested };
