// Constant operands' nodes are shared between expressions built alike (by
// value bits and dtype), so building the same expression per call makes no
// node per constant; a constant a handle wraps is a node of its own.
import { describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { nodeOf } from '../api/deferred-array.js';
import { operandScalar, scalar } from './build-elementwise.js';

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
