// int64 and uint64 in kernels: the ops the planner lets into fused groups are
// exactly those kernels-wasm computes in its scalar loop, a chain of them is
// one kernel, and its bits are the reference evaluator's.
import { describe, expect, test } from '@jest/globals';
import { INT64_BINARY, INT64_UNARY } from 'kernels-wasm';
import * as da from '../index.js';
import { KERNEL_BINARY_64, KERNEL_UNARY_64 } from '../plan/plan.js';

const sorted = (s: ReadonlySet<string>): string[] => [...s].sort();

describe('int64 and uint64 kernels', () => {
  test("the planner's ops for them are kernels-wasm's", () => {
    expect(sorted(KERNEL_UNARY_64)).toEqual(sorted(INT64_UNARY));
    expect(sorted(KERNEL_BINARY_64)).toEqual(sorted(INT64_BINARY));
  });

  test('a chain of them is one fused kernel, with casts in and out, bit for bit the reference', async () => {
    const n = 1000;
    const a = da.wrap(BigInt64Array.from({ length: n }, (_, i) => BigInt(i) * 3037000499n - 2n ** 62n));
    const b = da.wrap(Float64Array.from({ length: n }, (_, i) => (i % 7) * 1e15 - 3e15 + 0.5));
    const u = da.wrap(BigUint64Array.from({ length: n }, (_, i) => 2n ** 64n - 1n - BigInt(i) * 12345678901n));
    const chain = (): da.DeferredArray => {
      const t = a.mul(a).add(b.astype('int64')).sub(3n).bitwiseXor(a);
      const m = da.maximum(da.negative(t), da.abs(a)).bitwiseAnd(u.astype('int64'));
      return da.where(m.less(0n), m.astype('float64'), da.logicalNot(u).astype('float64').add(u.astype('float64')));
    };
    expect(chain().explain()).toMatch(/1 fused kernel/);
    const bytes = async (backend: 'wasm' | 'reference', threads?: number): Promise<string> => {
      const before = da.configure();
      da.configure({ backend, ...(threads ? { threads } : {}) });
      try {
        const r = await chain().execute();
        const d = r.data as Float64Array;
        return Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('hex');
      } finally {
        da.configure({ backend: before.backend, threads: before.threads });
      }
    };
    const want = await bytes('reference');
    expect(await bytes('wasm', 1)).toBe(want);
    expect(await bytes('wasm', 2)).toBe(want);
  });

  // Integer sums, products and extremes are exact in any order (a mean is a float sum: its order is the kernels', as for int32).
  test('their sums, products and extremes (whole, and along an axis) fuse with the chain, over many blocks, bit for bit', async () => {
    const [rows, cols] = [21, 4000]; // several blocks of 16,384 elements
    // Scattered values, so that each block's extremes and sums differ from the others'.
    const hash = (i: number): bigint => BigInt((i * 2654435761) % 2 ** 32) * 4294967311n;
    const a = da.wrap(BigInt64Array.from({ length: rows * cols }, (_, i) => BigInt.asIntN(64, hash(i)))).reshape([rows, cols]);
    const u = da.wrap(BigUint64Array.from({ length: rows * cols }, (_, i) => hash(i + 7) + 1n)).reshape([rows, cols]);
    const graphs = (): da.DeferredArray[] => {
      const t = a.mul(3n).add(a);
      const v = u.mul(u).bitwiseXor(5n);
      return [t.sum(), t.prod(), t.min(), t.max(), t.sum({ axis: 1 }), t.max({ axis: 0 }), v.sum(), v.min({ axis: 1 }), v.prod({ axis: 0 }), t.any(), v.all({ axis: 1 }), da.argmax(t)];
    };
    const before = da.configure();
    const results = async (backend: 'wasm' | 'reference', threads?: number): Promise<string[]> => {
      da.configure({ backend, ...(threads ? { threads } : {}) });
      try {
        return await Promise.all(graphs().map(async (g) => Array.from((await g.execute()).data as ArrayLike<unknown>, String).join(',')));
      } finally {
        da.configure({ backend: before.backend, threads: before.threads });
      }
    };
    da.configure({ backend: 'wasm' });
    expect(graphs()[0]!.explain()).toMatch(/1 fused kernel/);
    const want = await results('reference');
    expect(await results('wasm', 1)).toEqual(want);
    expect(await results('wasm', 2)).toEqual(want);
  }, 60_000);

  test('after a matrix product, elementwise work that touches them is a kernel of its own', async () => {
    const A = da.array([[1, 2, 3], [4, 5, 6]]);
    const B = da.array([[1, 0], [2, 1], [0, 3]]);
    const I = da.wrap(BigInt64Array.of(1n, 2n, 3n, 2n ** 53n + 1n)).reshape([2, 2]);
    const graphs = (): da.DeferredArray[] => [
      da.add(da.matmul(A, B), I), da.matmul(A.astype('int32'), B.astype('int32')).astype('int64').mul(3n), da.greater(da.matmul(A, B), I),
      da.add(da.matmul(A, da.array([1, 2, 3])), da.wrap(BigInt64Array.of(5n, 2n ** 53n + 1n))),
    ];
    const before = da.configure();
    const results = async (backend: 'wasm' | 'reference'): Promise<string[]> => {
      da.configure({ backend });
      try {
        return await Promise.all(graphs().map(async (g) => Array.from((await g.execute()).data as ArrayLike<unknown>, String).join(',')));
      } finally {
        da.configure({ backend: before.backend });
      }
    };
    expect(await results('wasm')).toEqual(await results('reference'));
  });

  test('floats saturate into them in a kernel as on the host, with the invalid count', async () => {
    const x = da.wrap(Float64Array.of(1e19, -1e19, NaN, 2 ** 63, -(2 ** 63), -0.5, 2 ** 64, 123.9));
    const before = da.configure();
    da.configure({ errors: { invalid: 'ignore' } });
    try {
      for (const t of ['int64', 'uint64'] as const) {
        da.configure({ backend: 'wasm' });
        const y = x.mul(1).astype(t);
        expect(y.explain()).toMatch(/1 fused kernel/);
        const got = Array.from((await y.execute()).data as BigInt64Array);
        da.configure({ backend: 'reference' });
        const want = Array.from((await y.execute()).data as BigInt64Array);
        expect([t, got]).toEqual([t, want]);
      }
    } finally {
      da.configure({ backend: before.backend, errors: { invalid: 'warn' } });
    }
    da.configure({ errors: { invalid: 'raise' } });
    try {
      await expect(x.get('3:4').mul(1).astype('int64').execute()).rejects.toThrow(/invalid value in astype\(int64\)/);
      await expect(x.get('4:6').mul(1).astype('int64').execute()).resolves.toBeDefined();
    } finally {
      da.configure({ errors: { invalid: 'warn' } });
    }
  });
});
