// Outside data is copied in once, and results belong to the caller: mutating
// either side never leaks into the other or into later executions.
import { createRequire } from 'node:module';
import * as da from '../index.js';

const nd = createRequire(import.meta.url)('@stdlib/ndarray') as {
  array(x: unknown, options?: Record<string, unknown>): da.StdNdarray & { set(...args: number[]): void };
};

const run = (x: da.DeferredArray) => x.executeSync() as da.StdNdarray;
const values = (r: da.StdNdarray) => Array.from({ length: r.shape.reduce((a, b) => a * b, 1) }, (_, i) => r.iget(i));

describe('wrapped outside data is copied at wrap() time', () => {
  test('typed arrays of every supported kind', () => {
    const sources = [new Float64Array([1, 2, 3]), new Float32Array([1, 2, 3]), new Int32Array([1, 2, 3]), new Uint8Array([1, 2, 3])];
    for (const t of sources) {
      const x = da.wrap(t);
      const y = x.mul(2);
      t[0] = 100;
      expect(values(run(x))).toEqual([1, 2, 3]);
      expect(values(run(y))).toEqual([2, 4, 6]);
    }
  });

  test('typed arrays given straight to operations, and with a dtype conversion', () => {
    const t = new Float64Array([1, 2]);
    const y = da.add(t, 1);
    const z = da.array(t, { dtype: 'int32' });
    t.fill(50);
    expect(values(run(y))).toEqual([2, 3]);
    expect(values(run(z))).toEqual([1, 2]);
  });

  test('nested lists', () => {
    const list = [[1, 2], [3, 4]];
    const x = da.wrap(list);
    list[0]![0] = 100;
    expect(values(run(x))).toEqual([1, 2, 3, 4]);
  });

  test('stdlib ndarrays', () => {
    const a = nd.array(new Float64Array([1, 2, 3, 4]), { shape: [2, 2] });
    const x = da.wrap(a);
    a.set(0, 0, 100);
    expect(values(run(x))).toEqual([1, 2, 3, 4]);
  });

  test('many small arrays wrapped in a row each keep their own values', () => {
    // 40 copies of 8 KB: more than one shared block's worth, of several sizes and kinds.
    const outside = Array.from({ length: 40 }, (_, k) => (k % 3 === 0 ? new Int32Array(1000 + k) : new Float64Array(1000 - k)).map((_, i) => k * 10000 + i));
    const wrapped = outside.map((a) => da.wrap(a));
    for (const a of outside) a.fill(-1);
    wrapped.forEach((x, k) => expect(values(run(x))).toEqual(Array.from({ length: outside[k]!.length }, (_, i) => k * 10000 + i)));
    const total = wrapped.slice(1).reduce((s, x) => s.add(x.get(':900').astype('float64')), wrapped[0]!.get(':900').astype('float64'));
    expect(values(run(total))).toEqual(Array.from({ length: 900 }, (_, i) => 40 * i + 10000 * (39 * 40) / 2));
  });

  test('wrapping a subarray copies only its window', () => {
    const buf = new Float64Array([9, 1, 2, 9]);
    const x = da.wrap(buf.subarray(1, 3));
    buf.set([0, 0, 0, 0]);
    expect(values(run(x))).toEqual([1, 2]);
  });
});

describe('results belong to the caller', () => {
  const cases: Array<[string, () => da.DeferredArray]> = [
    ['a wrapped array itself', () => da.wrap(new Float64Array([1, 2, 3, 4]))],
    ['a reshape of a source', () => da.wrap(new Float64Array([1, 2, 3, 4])).reshape([2, 2])],
    ['a squeeze of a source', () => da.wrap(new Float64Array([1, 2, 3, 4])).reshape([1, 4]).squeeze()],
    ['a single-array concat', () => da.concat([da.wrap(new Float64Array([1, 2, 3, 4]))])],
    ['zeros', () => da.zeros([4])],
    ['arange', () => da.arange(4)],
    ['a 0-d array', () => da.array(5)],
    ['a view', () => da.arange(8).get('::2')],
    ['a computation', () => da.arange(4).mul(3)],
    ['a reduction', () => da.arange(4).sum()],
    ['a bool array', () => da.array([true, false, true])],
    // Copies of a few KB are carved from blocks shared with other copies (core/small-copies.ts).
    ['a wrapped array of 1,000', () => da.wrap(new Float64Array(1000).map((_, i) => i))],
    ['int16 full() of 500', () => da.full([500], 3, { dtype: 'int16' })],
    ['a nested list of 300', () => da.array(Array.from({ length: 300 }, (_, i) => i))],
  ];

  for (const [name, make] of cases) {
    test(`${name}: mutating a result changes neither the source nor the next execution`, () => {
      const x = make();
      const first = run(x);
      const before = values(first);
      const data = first.data as { [i: number]: number; length: number; set?: unknown };
      // Overwrite the result through its own buffer (bool results hold a stdlib BooleanArray).
      for (let i = 0; i < first.shape.reduce((a, b) => a * b, 1); i++) {
        if (x.dtype === 'bool') (first as unknown as { iset(i: number, v: boolean): void }).iset(i, false);
        else data[i] = 42;
      }
      const second = run(x);
      expect(values(second)).toEqual(before);
      expect(values(run(x.add(0)))).toEqual(values(run(x)).map((v) => (typeof v === 'boolean' ? Number(v) : v)));
    });
  }

  test('a result owns its buffer whole, though copies wrapped in share blocks', () => {
    for (const x of [da.wrap(new Float64Array(1000).fill(2)), da.wrap(new Float32Array(700).fill(1)).mul(2), da.zeros([900], { dtype: 'int32' })]) {
      const r = run(x).data as Float64Array;
      expect(r.byteOffset).toBe(0);
      expect(r.buffer.byteLength).toBe(r.byteLength);
    }
  });

  test('two executions return distinct buffers', () => {
    const x = da.wrap(new Float64Array([1, 2]));
    expect(run(x).data).not.toBe(run(x).data);
    const y = x.add(1);
    expect(run(y).data).not.toBe(run(y).data);
  });

  test('a result stays valid after later executions', () => {
    const x = da.arange(3).astype('float64');
    const r1 = run(x.mul(2));
    run(x.mul(3));
    run(x.mul(4));
    expect(values(r1)).toEqual([0, 2, 4]);
  });
});
