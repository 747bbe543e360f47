// concat and stack on the WebAssembly backend (a copy kernel per operand into
// its band of the result) against the reference evaluator: random shapes, axes,
// dtypes that promote, operands that are views (transposed, reversed, strided,
// broadcast), empty operands, and special values, bit for bit.
import { afterAll, expect, test } from '@jest/globals';
import fc from 'fast-check';
import * as da from '../index.js';

type Layout = 'plain' | 'transposed' | 'reversed' | 'strided' | 'broadcast';
const DTYPES: da.DType[] = ['float64', 'float32', 'int32', 'uint8', 'int16', 'uint32', 'bool'];
const SPECIAL = [0, -0, 1.5, -2, NaN, Infinity, -Infinity, 5e-324, 3e38, 255, 65535, -32768];

function operand(shape: readonly number[], dtype: da.DType, layout: Layout, seed: number): da.DeferredArray {
  const n = shape.reduce((a, b) => a * b, 1);
  const value = (i: number): number | boolean => {
    if (dtype === 'bool') return (i + seed) % 3 === 0;
    const v = dtype.startsWith('float') ? SPECIAL[(i * 5 + seed) % SPECIAL.length]! : ((i * 37 + seed * 11) % 200) - 100;
    return dtype.startsWith('u') && !dtype.startsWith('float') ? Math.abs(v) : v;
  };
  const make = (s: readonly number[]): da.DeferredArray => da.array(Array.from({ length: s.reduce((a, b) => a * b, 1) }, (_, i) => value(i)) as number[], { dtype }).reshape([...s]);
  if (shape.length === 0 || n === 0) return make(shape);
  switch (layout) {
    case 'plain': return make(shape);
    case 'transposed': return make([...shape].reverse()).transpose();
    case 'reversed': return make(shape).get(shape.map(() => '::-1').join(','));
    case 'strided': return make(shape.map((d) => d * 2)).get(shape.map(() => '::2').join(','));
    case 'broadcast': return make([1, ...shape.slice(1)]).broadcastTo([...shape]);
  }
}

const program = fc.record({
  ndim: fc.integer({ min: 1, max: 3 }),
  dims: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 3, maxLength: 3 }),
  parts: fc.array(fc.record({
    length: fc.integer({ min: 0, max: 4 }),
    dtype: fc.constantFrom(...DTYPES),
    layout: fc.constantFrom<Layout>('plain', 'plain', 'transposed', 'reversed', 'strided', 'broadcast'),
  }), { minLength: 1, maxLength: 4 }),
  axis: fc.integer({ min: -3, max: 2 }),
  stack: fc.boolean(),
  seed: fc.nat(100),
});

const hex = (r: da.StdNdarray): string => {
  const d = r.data as unknown as ArrayLike<number> & { buffer: ArrayBufferLike; byteOffset: number; byteLength: number };
  return Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('hex');
};

afterAll(async () => {
  await da.shutdown();
});

test('concat and stack: the bytes of the reference evaluator, for views, promotions and empty operands', () => {
  const initial = da.configure();
  try {
    fc.assert(fc.property(program, (p) => {
      const axis = ((p.axis % p.ndim) + p.ndim) % p.ndim;
      const shapeOf = (length: number): number[] => Array.from({ length: p.ndim }, (_, d) => (d === axis && !p.stack ? length : p.dims[d]!));
      const xs = p.parts.map((q, k) => operand(shapeOf(q.length), q.dtype, q.layout, p.seed + k));
      const y = p.stack ? da.stack(xs, { axis: ((p.axis % (p.ndim + 1)) + p.ndim + 1) % (p.ndim + 1) }) : da.concat(xs, { axis });
      da.configure({ backend: 'reference' });
      const want = y.executeSync() as da.StdNdarray;
      da.configure({ backend: 'wasm' });
      const got = y.executeSync() as da.StdNdarray;
      expect([y.dtype, [...got.shape]]).toEqual([y.dtype, [...want.shape]]);
      expect(hex(got)).toBe(hex(want));
    }), { numRuns: 300, seed: 20261126 });
  } finally {
    da.configure({ backend: initial.backend });
  }
});

test('concat runs as copy kernels, also through the pool and with what reads it', async () => {
  da.configure({ backend: 'wasm' });
  const a = da.arange(6, { dtype: 'uint16' }).reshape([2, 3]);
  const b = da.arange(3, { dtype: 'float32' }).reshape([1, 3]).mul(0.5);
  const y = da.concat([a, b, a.T.get('::-1').T]);
  expect(y.dtype).toBe('float32');
  const before = da.stats().steps;
  const sync = Array.from((y.executeSync() as da.StdNdarray).data as Float32Array);
  expect(sync).toEqual([0, 1, 2, 3, 4, 5, 0, 0.5, 1, 2, 1, 0, 5, 4, 3]);
  // b's kernel, then a copy kernel per operand; the reference would have taken the join as one step.
  expect(da.stats().steps - before).toBe(4);
  expect(Array.from(((await y.sum({ axis: 0 }).execute()) as da.StdNdarray).data as Float32Array)).toEqual([10, 10.5, 11]);
});
