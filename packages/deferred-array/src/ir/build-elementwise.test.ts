// Constant operands' nodes are shared between expressions built alike (by
// value bits and dtype), so building the same expression per call makes no
// node per constant; a constant a handle wraps is a node of its own. An
// elementwise node's dtype, looked up after the first time, is the rule's.
import { describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { nodeOf } from '../api/deferred-array.js';
import { elementwise, operandScalar, scalar, source } from './build-elementwise.js';
import { DTYPES, dtypeInfo } from './dtypes.js';
import type { DType } from './dtypes.js';
import { BINARY_OPS, UNARY_OPS } from './op-table.js';
import { resolveElementwise } from './type-rules.js';

const second = (x: da.DeferredArray) => nodeOf(x).inputs[1]!;

describe('constant operands', () => {
  test('equal constants of one dtype are one node; -0 and 0, two NaNs of other bits, other dtypes are not', () => {
    const x = da.wrap(new Float64Array([1, 2, 3]));
    expect(second(x.mul(2.5))).toBe(second(x.mul(2.5)));
    expect(second(x.mul(2.5))).not.toBe(second(x.mul(3.5)));
    expect(second(x.mul(0))).not.toBe(second(x.mul(-0)));
    expect(Object.is((second(x.mul(-0)).attrs as { value: number }).value, -0)).toBe(true);
    const nan = new Float64Array(new Uint32Array([1, 0x7ff80000]).buffer)[0]!;
    expect(second(x.mul(NaN))).toBe(second(x.mul(NaN)));
    expect(second(x.mul(nan))).not.toBe(second(x.mul(NaN)));
    const i = da.wrap(new Int32Array([1, 2, 3]));
    expect(second(i.add(3)).dtype).toBe('int32');
    expect(second(x.add(3)).dtype).toBe('float64');
    expect(second(i.add(3))).not.toBe(second(x.add(3)));
    expect(operandScalar(7, 'int16')).toBe(operandScalar(7, 'int16'));
    // Cast first: 7.9 stored as int16 is 7.
    expect(operandScalar(7.9, 'int16')).toBe(operandScalar(7, 'int16'));
  });

  test('a constant node of its own is made afresh each time', () => {
    expect(scalar(2, 'float64')).not.toBe(scalar(2, 'float64'));
  });

  test('a shared constant leaves each graph its own values and marks', () => {
    const x = da.wrap(new Float64Array([1, 2, 3]));
    const a = x.mul(2).output('twice');
    const b = x.mul(2).add(2);
    const ra = a.add(1).executeSync() as da.OutputRecord;
    expect(Array.from((ra['twice'] as da.StdNdarray).data as Float64Array)).toEqual([2, 4, 6]);
    expect(Array.from((b.executeSync() as da.StdNdarray).data as Float64Array)).toEqual([4, 6, 8]);
    expect(second(a)).toBe(nodeOf(b).inputs[1]);
  });
});

describe('result dtypes of elementwise nodes', () => {
  const leaf = (d: DType) => source(new (dtypeInfo(d).ctor)(2), [2], d);
  /** The dtype, or the error's message, a rule gives. */
  const outcome = (f: () => DType): string => {
    try {
      return f();
    } catch (e) {
      return `throws ${(e as Error).message}`;
    }
  };

  // They are looked up by op and operand dtypes after the first time: every pair, twice, against the rule itself.
  test("are the rule's for every op and every dtype (or pair), the first time and from the table", () => {
    for (let round = 0; round < 2; round++) {
      for (const op of UNARY_OPS) {
        for (const a of DTYPES) {
          expect([op, a, outcome(() => elementwise(op, [leaf(a)]).dtype)]).toEqual([op, a, outcome(() => resolveElementwise(op, [a]).out)]);
        }
      }
      for (const op of BINARY_OPS) {
        for (const a of DTYPES) {
          for (const b of DTYPES) {
            const got = outcome(() => elementwise(op, [leaf(a), leaf(b)]).dtype);
            expect([op, a, b, got]).toEqual([op, a, b, outcome(() => resolveElementwise(op, [a, b]).out)]);
          }
        }
      }
    }
  });
});
