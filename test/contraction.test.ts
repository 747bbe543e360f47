// matmul, dot and outer on the WebAssembly backend against the reference
// evaluator: random sizes (around the SIMD widths and register tiles),
// operand layouts (transposed, reversed, strided, batch-broadcast), mixed
// dtypes and fused epilogues. Products are bit-exact: both sum in k order
// from +0 with one rounding per multiply and add. The worker pool must give
// the calling thread's bytes.
import fc from 'fast-check';
import * as da from '../packages/deferred-array/src/index.js';

type Layout = 'plain' | 'transposed' | 'reversed' | 'strided';
type Kind = 'matmul' | 'matvec' | 'vecmat' | 'dot' | 'dotND' | 'batched' | 'broadcastBatch' | 'crossBatch' | 'outer';

interface Case {
  readonly kind: Kind;
  readonly P: number;
  readonly K: number;
  readonly Q: number;
  readonly dtypes: readonly [da.DType, da.DType];
  readonly layouts: readonly [Layout, Layout];
  readonly epilogue: 'none' | 'affine' | 'sin' | 'marked';
  readonly special: boolean;
  readonly seed: number;
}

const SIZES = [0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33];
const FLOATS: da.DType[] = ['float64', 'float32'];

const cases: fc.Arbitrary<Case> = fc.record({
  kind: fc.constantFrom<Kind>('matmul', 'matmul', 'matvec', 'matvec', 'vecmat', 'dot', 'dotND', 'batched', 'broadcastBatch', 'crossBatch', 'outer'),
  P: fc.constantFrom(...SIZES),
  K: fc.constantFrom(...SIZES),
  Q: fc.constantFrom(...SIZES),
  dtypes: fc.oneof(
    fc.tuple(fc.constantFrom(...FLOATS, ...FLOATS, 'int32' as da.DType), fc.constantFrom(...FLOATS, 'int32' as da.DType)),
    // 32-bit integer products run in i32x4 lanes and wrap; uint32 shares them.
    fc.constantFrom<[da.DType, da.DType]>(['int32', 'int32'], ['uint32', 'uint32'], ['uint32', 'uint8'], ['int32', 'int16']),
    // Narrower integers and bools run as the int32 product cast back, which wraps as NumPy's does at every step.
    fc.constantFrom<[da.DType, da.DType]>(['int16', 'int16'], ['uint8', 'uint8'], ['int8', 'uint8'], ['bool', 'bool'], ['uint16', 'bool'], ['int8', 'int8']),
  ),
  layouts: fc.tuple(fc.constantFrom<Layout>('plain', 'plain', 'transposed', 'reversed', 'strided'), fc.constantFrom<Layout>('plain', 'plain', 'transposed', 'reversed', 'strided')),
  epilogue: fc.constantFrom('none', 'affine', 'sin', 'marked'),
  special: fc.boolean(),
  seed: fc.nat(1000),
});

const SPECIAL = [0, -0, 1, -1, 0.5, -2.5, 3, 1e300, -1e300, 5e-324, Infinity, -Infinity, NaN, 0.1, 7, -7];

/** An array of `shape` laid out as asked: the same values, reached through a view. */
function operand(shape: readonly number[], dtype: da.DType, layout: Layout, seed: number, special: boolean): da.DeferredArray {
  const n = shape.reduce((a, b) => a * b, 1);
  const value = (i: number): number => {
    const v = special && i % 5 === 2 ? SPECIAL[(i * 7 + seed) % SPECIAL.length]! : ((i * 7 + seed * 3) % 23) / 4 - 2.75;
    if (dtype.startsWith('float')) return v;
    const whole = Math.abs(v) < 1e6 ? Math.trunc(v * 4) : 2147483647;
    if (dtype === 'bool') return whole & 1;
    // Integers: the same bits mod 2^bits (near the type's ends), so products and sums wrap.
    const bits = dtype.endsWith('8') ? 8 : dtype.endsWith('16') ? 16 : 32;
    const low = bits === 32 ? whole : whole & ((1 << bits) - 1);
    if (dtype.startsWith('u')) return low >>> 0;
    return bits === 32 ? whole : (low << (32 - bits)) >> (32 - bits);
  };
  const make = (s: readonly number[]): da.DeferredArray => da.array(Array.from({ length: n }, (_, i) => value(i)), { dtype: dtype }).reshape([...s]);
  const last = shape.length - 1;
  const lead = shape.slice(0, -1).map(() => ':').join(',');
  switch (layout) {
    case 'plain': return make(shape);
    case 'transposed': return shape.length < 2 ? make(shape) : make([...shape].reverse()).T;
    case 'reversed': return shape.length === 0 ? make(shape) : make(shape).get(`${lead}${last > 0 ? ',' : ''}::-1`);
    case 'strided': {
      if (shape.length === 0) return make(shape);
      const wide = [...shape.slice(0, -1), shape[last]! * 2];
      const m = wide.reduce((a, b) => a * b, 1);
      return da.array(Array.from({ length: m }, (_, i) => value(i >> 1)), { dtype }).reshape(wide).get(`${lead}${last > 0 ? ',' : ''}::2`);
    }
  }
}

function build(c: Case): { out: da.DeferredArray; exact: boolean } {
  const [ta, tb] = c.dtypes;
  const [la, lb] = c.layouts;
  const a = (s: number[]): da.DeferredArray => operand(s, ta, la, c.seed, c.special);
  const b = (s: number[]): da.DeferredArray => operand(s, tb, lb, c.seed + 1, c.special);
  const { P, K, Q } = c;
  let y: da.DeferredArray;
  switch (c.kind) {
    case 'matmul': y = a([P, K]).matmul(b([K, Q])); break;
    case 'matvec': y = a([P, K]).matmul(b([K])); break;
    case 'vecmat': y = a([K]).matmul(b([K, Q])); break;
    case 'dot': y = a([K]).dot(b([K])); break;
    case 'dotND': y = a([2, P, K]).dot(b([3, K, Q % 5])); break;
    case 'batched': y = a([3, P, K]).matmul(b([3, K, Q])); break;
    case 'broadcastBatch': y = a([2, P, K]).matmul(b([K, Q])); break;
    // Batch axes [3, 1] and [1, 2]: neither operand's batch flattens to one stride, so both are copied.
    case 'crossBatch': y = a([3, 1, P, K]).matmul(b([1, 2, K, Q])); break;
    case 'outer': y = da.outer(a([P]), b([Q])); break;
  }
  if (!['float64', 'float32'].includes(y.dtype)) y = y.astype('float64');
  const exact = c.epilogue !== 'sin';
  switch (c.epilogue) {
    case 'none': return { out: y, exact };
    case 'affine': return { out: y.mul(0.5).add(1), exact };
    case 'sin': return { out: y.sin(), exact };
    case 'marked': return { out: y.output('product').sub(y.abs()), exact };
  }
}

function values(x: da.StdNdarray): number[] {
  return Array.from({ length: x.shape.reduce((a, b) => a * b, 1) }, (_, i) => Number(x.iget(i)));
}

function run(out: da.DeferredArray, backend: 'wasm' | 'reference'): { result: da.StdNdarray; product?: da.StdNdarray } {
  da.configure({ backend });
  const r = out.executeSync() as da.StdNdarray | { result: da.StdNdarray; product: da.StdNdarray };
  return 'result' in r ? r : { result: r };
}

function agree(got: number[], want: number[], exact: boolean, f32: boolean): number {
  return want.findIndex((w, i) => {
    const g = got[i]!;
    if (Number.isNaN(w) || Number.isNaN(g)) return !(Number.isNaN(w) && Number.isNaN(g));
    if (exact) return !Object.is(g, w);
    // sin is the vector library's, within its stated ulp bound; huge arguments reduce alike.
    return Math.abs(g - w) > (f32 ? 2e-7 : 4e-16) * Math.max(1, Math.abs(w));
  });
}

describe('contraction kernels against the reference evaluator', () => {
  const initial = da.configure();
  beforeAll(() => da.configure({ errors: { divide: 'ignore', invalid: 'ignore' } }));
  afterAll(() => da.configure({ backend: initial.backend, errors: initial.errors }));

  test('random products, layouts, dtypes and epilogues agree bit for bit', () => {
    fc.assert(fc.property(cases, (c) => {
      const { out, exact } = build(c);
      const ref = run(out, 'reference');
      const got = run(out, 'wasm');
      expect([got.result.dtype, got.result.shape]).toEqual([ref.result.dtype, ref.result.shape]);
      const f32 = ref.result.dtype === 'float32';
      for (const [g, w, ex] of [[got.result, ref.result, exact], [got.product, ref.product, true]] as const) {
        if (!w) continue;
        const bad = agree(values(g!), values(w), ex, f32);
        if (bad >= 0) throw new Error(`element ${bad}: reference ${values(w)[bad]} vs wasm ${values(g!)[bad]}\n${JSON.stringify(c)}\n${out.explain()}`);
      }
    }), { numRuns: Number(process.env['DIFF_RUNS'] ?? 400), ...(process.env['DIFF_SEED'] === 'random' ? {} : { seed: 20261121 }) });
  });

  test('the worker pool gives the calling thread\'s bytes (blocks are rows of the product, fixed by the data)', async () => {
    const before = da.configure();
    da.configure({ backend: 'wasm', inlineThreshold: 0, threads: 3 });
    const pooled = da.stats().pooled;
    const hex = (x: da.StdNdarray): string => {
      const d = (x.data as Float64Array).map((v) => (v === v ? v : NaN));
      return Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('hex');
    };
    try {
      for (const [P, K, Q] of [[200, 300, 1], [300, 200, 40], [1, 500, 300], [97, 1000, 3]] as const) {
        for (const t of FLOATS) {
          const a = da.array(Array.from({ length: P * K }, (_, i) => Math.sin(i)), { dtype: t }).reshape([P, K]);
          const b = da.array(Array.from({ length: K * Q }, (_, i) => Math.cos(i)), { dtype: t }).reshape([K, Q]);
          const y = a.matmul(b).tanh();
          const sync = y.executeSync() as da.StdNdarray;
          const pool = (await y.execute()) as da.StdNdarray;
          expect(hex(pool)).toBe(hex(sync));
        }
        // int32 products wrap in i32x4 lanes; the pool must give the same words.
        const a = da.array(Array.from({ length: P * K }, (_, i) => Math.imul(i, 2654435761) | 0), { dtype: 'int32' }).reshape([P, K]);
        const b = da.array(Array.from({ length: K * Q }, (_, i) => (i % 2001) - 1000), { dtype: 'int32' }).reshape([K, Q]);
        const y = a.matmul(b);
        const words = (x: da.StdNdarray): number[] => Array.from(x.data as Int32Array);
        const ref = words(run(y, 'reference').result);
        da.configure({ backend: 'wasm' });
        expect(words(y.executeSync() as da.StdNdarray)).toEqual(ref);
        expect(words((await y.execute()) as da.StdNdarray)).toEqual(ref);
      }
      expect(da.stats().pooled).toBeGreaterThan(pooled);
    } finally {
      da.configure({ inlineThreshold: before.inlineThreshold, threads: before.threads });
      await da.shutdown();
    }
  }, 120_000);
});
