import { defaultHeap } from 'kernels-wasm';
import * as da from '../index.js';
import { nodeOf } from '../api/deferred-array.js';
import { PASSES, planExecution } from './pipeline.js';
import type { Plan } from './plan.js';

const initial = da.configure().backend;
beforeAll(() => { da.configure({ backend: 'wasm' }); });
afterAll(() => { da.configure({ backend: initial }); });

const plan = (...xs: da.DeferredArray[]): Plan => planExecution(xs.map(nodeOf), 'kernels');
const kernels = (p: Plan) => p.steps.filter((s) => s.kind === 'kernel');
/** The ops of every kernel's members, in plan order. */
const ops = (p: Plan): string[] => kernels(p).flatMap((s) => (s.kind === 'kernel' ? s.group.members.map((m) => m.op) : []));
const f64 = (x: unknown): number[] => Array.from((x as da.StdNdarray).data as Float64Array);
const ramp = (n: number, scale = 1): Float64Array => Float64Array.from({ length: n }, (_, i) => (i - n / 3) * scale);
/** fn's answer with the reference evaluator as the backend. */
function onReference<T>(fn: () => T): T {
  da.configure({ backend: 'reference' });
  try {
    return fn();
  } finally {
    da.configure({ backend: 'wasm' });
  }
}
// Special values, subnormals and values whose quotient underflows or overflows.
const SPECIAL = [0, -0, 1, -1, 3, 0.1, NaN, Infinity, -Infinity, 5e-324, -2.2250738585072014e-308, 1.7976931348623157e308, 1e-310, 123456.789];

describe('the planner', () => {
  test('runs its passes in this order', () => {
    expect(PASSES.map(([name]) => name)).toEqual([
      'collectOutputs', 'collectPins', 'lowerVectorDots', 'lowerArgExtremes', 'mergeCommon', 'reduceStrength', 'copyRandomReads', 'copyPinnedViews', 'lowerOuter', 'widenNarrowProducts', 'schedule', 'placeTemporaries', 'fuseElementwise', 'liveness',
      'assignBuffers',
    ]);
  });

  describe('reduceStrength', () => {

    test.each([2, 0.5, -4, 1024, 2 ** -1022, 2 ** 1023, -(2 ** -1023)])('x / %p becomes a multiplication, bit for bit the division', (c) => {
      const x = da.wrap(Float64Array.from(SPECIAL));
      const y = x.div(c);
      expect(ops(plan(y))).toEqual(['multiply']);
      const got = new Float64Array(f64(y.executeSync()));
      const want = Float64Array.from(SPECIAL, (v) => v / c);
      expect(new BigUint64Array(got.buffer).map((b, i) => (Number.isNaN(got[i]!) ? 0n : b)))
        .toEqual(new BigUint64Array(want.buffer).map((b, i) => (Number.isNaN(want[i]!) ? 0n : b)));
    });

    test.each([180, 3, 0, -0, Infinity, NaN, 2 ** -1074, 1.5])('x / %p keeps its division', (c) => {
      expect(ops(plan(da.wrap(Float64Array.from(SPECIAL)).div(c)))).toEqual(['divide']);
    });

    test('float32: only where the reciprocal is a float32; int32 / 2 stays a true division', () => {
      const x32 = da.wrap(Float32Array.from([1, -3, 1e-45, 3e38]));
      expect(ops(plan(x32.div(2)))).toEqual(['multiply']);
      expect(Array.from((x32.div(2).executeSync() as da.StdNdarray).data as Float32Array)).toEqual(Array.from(Float32Array.from([1, -3, 1e-45, 3e38], (v) => Math.fround(v / 2))));
      // 2^-130 is a float32 subnormal, 2^130 overflows float32.
      expect(ops(plan(x32.div(2 ** -130)))).toContain('divide');
      expect(ops(plan(da.arange(5).div(2)))).toContain('divide');
    });

    test('an output() on the quotient marks the product', () => {
      const x = da.wrap(ramp(10));
      const r = x.div(4).output('q').add(1).executeSync() as da.OutputRecord;
      expect(f64(r['q'])).toEqual(Array.from(ramp(10), (v) => v / 4));
    });
  });

  describe('reduceStrength: powers and operations that give back their operand', () => {
    const SPECIAL_AND_HUGE = [...SPECIAL, 1e154, -1.5e-160];
    /** Bit patterns, NaNs as one (wasm does not promise a NaN's payload). */
    const bits = (a: Float64Array | Float32Array): string[] => Array.from(a, (v) => (Number.isNaN(v) ? 'NaN' : Object.is(v, -0) ? '-0' : String(v)));
    const ref = (y: da.DeferredArray): string[] => onReference(() => bits((y.executeSync() as da.StdNdarray).data as Float64Array));
    const run = (y: da.DeferredArray): string[] => bits((y.executeSync() as da.StdNdarray).data as Float64Array);

    test.each([
      ['x ** 2', (x: da.DeferredArray) => x.pow(2).add(1), ['square', 'add']],
      ['x ** -1', (x: da.DeferredArray) => x.pow(-1).add(1), ['reciprocal', 'add']],
      ['x ** 1', (x: da.DeferredArray) => x.pow(1).add(1), ['add']],
      ['x * 1', (x: da.DeferredArray) => x.mul(1).add(1), ['add']],
      ['1 * x', (x: da.DeferredArray) => da.multiply(1, x).add(1), ['add']],
      ['x - 0', (x: da.DeferredArray) => x.sub(0).add(1), ['add']],
      ['x + -0', (x: da.DeferredArray) => x.add(-0).mul(3), ['multiply']],
      ['x / 1', (x: da.DeferredArray) => x.div(1).add(1), ['add']],
    ] as const)('float64 %s: rewritten as %p and bit for bit the reference', (_, f, want) => {
      const y = f(da.wrap(Float64Array.from(SPECIAL_AND_HUGE)));
      expect(ops(plan(y))).toEqual(want);
      expect(run(y)).toEqual(ref(y));
    });

    test.each([
      ['x + 0 (it turns -0 into +0)', (x: da.DeferredArray) => x.add(0).mul(3), 'add'],
      ['x ** 3 (x * x * x rounds twice)', (x: da.DeferredArray) => x.pow(3).add(1), 'power'],
      ['x ** 0.5 (sqrt differs at -0 and -Infinity)', (x: da.DeferredArray) => x.pow(0.5).add(1), 'power'],
    ] as const)('float64 %s is kept', (_, f, op) => {
      const y = f(da.wrap(Float64Array.from(SPECIAL_AND_HUGE)));
      expect(ops(plan(y))).toContain(op);
      // pow is within 1 ulp of V8's, not bit for bit; add is exact.
      if (op === 'add') expect(run(y)).toEqual(ref(y));
    });

    test('float32 x ** 2 is a float32 square, bit for bit the reference', () => {
      const x = da.wrap(Float32Array.from(SPECIAL_AND_HUGE));
      const y = x.pow(2);
      expect(ops(plan(y))).toEqual(['square']);
      const got = (y.executeSync() as da.StdNdarray).data as Float32Array;
      expect(got).toBeInstanceOf(Float32Array);
      expect(bits(got)).toEqual(bits(Float32Array.from(SPECIAL_AND_HUGE, (v) => Math.fround(v) ** 2)));
    });

    test('integer x ** k for k in 2..8 are multiplications that wrap as the reference does; x + 0 vanishes', () => {
      const values = [0, 1, -1, 2, -3, 7, 255, 46341, -46341, 2147483647, -2147483648, 123456789];
      for (let k = 2; k <= 9; k++) {
        const x = da.wrap(Int32Array.from(values));
        const y = x.pow(k);
        const got = Array.from((y.executeSync() as da.StdNdarray).data as Int32Array);
        const want = values.map((v) => { let r = 1; for (let i = 0; i < k; i++) r = Math.imul(r, v); return r; });
        expect(got).toEqual(want);
        if (k <= 8) expect(ops(plan(y)).filter((o) => o !== 'square' && o !== 'multiply')).toEqual([]);
        else expect(ops(plan(y))).toEqual(['power']);
      }
      const u8 = da.wrap(Uint8Array.from([0, 3, 16, 255]));
      expect(Array.from((u8.pow(3).executeSync() as da.StdNdarray).data as Uint8Array)).toEqual([0, 27, 0, 255]);
      expect(ops(plan(da.wrap(Int32Array.from(values)).add(0).mul(3)))).toEqual(['multiply']);
    });

    test('a result, an output and a pin keep their node, so none becomes its operand', () => {
      const data = Float64Array.from([1, -2, 3]);
      const x = da.wrap(data);
      const r = x.mul(1).executeSync() as da.StdNdarray;
      expect(r.data).not.toBe(data);
      expect(Array.from(r.data as Float64Array)).toEqual([1, -2, 3]);
      const rec = x.mul(1).output('same').add(1).executeSync() as da.OutputRecord;
      expect(f64(rec['same'])).toEqual([1, -2, 3]);
      expect((rec['same'] as da.StdNdarray).data).not.toBe(data);
      const pinned = kernels(plan(x.sub(0).pin().add(1))).flatMap((s) => (s.kind === 'kernel' ? (s.group.temps ?? []).map((t) => t.node.op) : []));
      expect(pinned).toEqual(['subtract']);
    });
  });

  describe('mergeCommon', () => {
    test('structurally equal subexpressions are computed once', () => {
      const x = da.wrap(ramp(100, 0.1));
      const y = x.sin().add(x.sin()).mul(x.sin());
      const p = plan(y);
      expect(ops(p).filter((o) => o === 'sin')).toHaveLength(1);
      const want = Array.from(ramp(100, 0.1), (v) => (Math.sin(v) + Math.sin(v)) * Math.sin(v));
      f64(y.executeSync()).forEach((v, i) => expect(v).toBeCloseTo(want[i]!, 14));
    });

    test('sibling reductions of a value read from memory share one pass where they share its dtype and axes; their bits are their own', () => {
      const x = da.wrap(Float64Array.from({ length: 70000 }, (_, i) => Math.sin(i) * 1e3 + (i % 7 === 0 ? -0 : 0)));
      const [mn, mx, mnAxis] = [da.min(x), da.max(x), da.min(x.reshape([700, 100]), { axis: 1 })];
      expect(kernels(plan(mn, mx))).toHaveLength(1);
      expect(kernels(plan(da.sum(x), da.max(x), da.prod(x)))).toHaveLength(1);
      // Another dtype (int32's sum is int64), or other axes, is a pass of its own.
      const i = da.wrap(Int32Array.from({ length: 1000 }, (_, k) => k - 500));
      expect(kernels(plan(da.sum(i), da.max(i)))).toHaveLength(2);
      expect(kernels(plan(mn, mnAxis))).toHaveLength(2);
      const together = (da.executeSync([da.sum(x), da.max(x), mn]) as da.StdNdarray[]).map((r) => r.get());
      const alone = [da.sum(x), da.max(x), mn].map((r) => (r.executeSync() as da.StdNdarray).get());
      expect(together).toEqual(alone);
    });

    test('a graph built twice and executed together runs one kernel, and each result is its own array', () => {
      const x = da.wrap(ramp(10));
      const a = x.mul(2).add(1);
      const b = x.mul(2).add(1);
      expect(kernels(plan(a, b))).toHaveLength(1);
      const [ra, rb] = da.executeSync([a, b]) as da.StdNdarray[];
      expect(f64(ra)).toEqual(Array.from(ramp(10), (v) => v * 2 + 1));
      expect(f64(rb)).toEqual(f64(ra));
      expect(ra!.data).not.toBe(rb!.data);
    });

    test('scalars merge by value: 0 and -0 stay apart, NaNs are one', () => {
      const x = da.wrap(new Float64Array([1, -1]));
      const byZero = x.div(0).add(x.div(-0));
      expect(plan(byZero).steps.filter((s) => s.kind === 'node' && s.node.op === 'scalar')).toHaveLength(2);
      expect(f64(byZero.executeSync())).toEqual([NaN, NaN]);
      expect(f64(x.div(0).sub(x.div(-0)).executeSync())).toEqual([Infinity, -Infinity]);
      const nan = x.add(NaN).add(x.add(NaN));
      expect(plan(nan).steps.filter((s) => s.kind === 'node' && s.node.op === 'scalar')).toHaveLength(1);
    });

    test('two marked outputs that merge both come back, as separate arrays', () => {
      const x = da.wrap(ramp(4));
      const a = x.add(1).output('a');
      const b = x.add(1).output('b');
      const r = a.add(b).executeSync() as da.OutputRecord;
      expect(f64(r['a'])).toEqual(Array.from(ramp(4), (v) => v + 1));
      expect(f64(r['b'])).toEqual(f64(r['a']));
      expect((r['a'] as da.StdNdarray).data).not.toBe((r['b'] as da.StdNdarray).data);
      expect(f64(r['result'])).toEqual(Array.from(ramp(4), (v) => 2 * (v + 1)));
    });

    test('sources are never merged, even with equal contents', () => {
      const a = da.wrap(new Float64Array([1, 2]));
      const b = da.wrap(new Float64Array([1, 2]));
      const members = kernels(plan(a.add(1), b.add(1))).flatMap((s) => (s.kind === 'kernel' ? s.group.members : []));
      expect(members).toHaveLength(2);
    });
  });

  describe('pinCse', () => {
    test('puts the value in its own kernel and array, where the default fuses it', () => {
      const x = da.wrap(ramp(50, 0.01));
      const fused = x.mul(3).exp().add(x);
      expect(kernels(plan(fused))).toHaveLength(1);
      const k = x.mul(3).pinCse();
      const pinned = k.exp().add(x);
      const p = plan(pinned);
      expect(kernels(p)).toHaveLength(2);
      const first = kernels(p)[0]!;
      expect(first.kind === 'kernel' && first.group.stores.map((n) => n.op)).toEqual(['multiply']);
      expect(pinned.explain()).toContain('[pinCse: own kernel, own array]');
      expect(f64(pinned.executeSync())).toEqual(f64(fused.executeSync()));
      expect(k.pinCse()).toBe(k);
    });

    test('a pinned view is copied into its own array first', () => {
      const A = da.wrap(ramp(12)).reshape([3, 4]);
      const y = A.T.pinCse().add(1);
      const p = plan(y);
      expect(kernels(p)).toHaveLength(2);
      expect(y.explain()).toContain('pinCse copy');
      expect(f64(y.executeSync())).toEqual(f64(A.T.add(1).executeSync()));
    });

    test('a pinned reduction input is not fused into the reduction', () => {
      const x = da.wrap(ramp(1000, 0.5));
      const s = da.sum(x.square().pinCse());
      expect(kernels(plan(s))).toHaveLength(2);
      expect((s.executeSync() as da.StdNdarray).get()).toBe((da.sum(x.square()).executeSync() as da.StdNdarray).get());
    });
  });

  describe('assignBuffers', () => {
    test('temporaries that are never live together share a buffer', () => {
      const x = da.wrap(ramp(1000));
      // Three pinned temporaries in a row: the third reuses the first's buffer.
      const y = x.mul(2).pinCse().add(1).pinCse().sub(3).pinCse().sqrt();
      const p = plan(y);
      const big = p.buffers.filter((b) => b.bytes === 8000);
      expect(big.filter((b) => b.kind === 'temporary')).toHaveLength(2);
      expect(big.filter((b) => b.kind === 'temporary').flatMap((b) => b.values)).toHaveLength(3);
      expect(big.filter((b) => b.kind === 'result')).toHaveLength(1);
      expect(y.explain()).toMatch(/buffer \d+: 7\.8 KiB temporary, holds %\d+ \(kernel 0\), then %\d+ \(kernel 2\)/);
      expect(f64(y.executeSync())).toEqual(Array.from(ramp(1000), (v) => Math.sqrt(v * 2 + 1 - 3)));
    });

    test('results and marked outputs never share', () => {
      const x = da.wrap(ramp(100));
      const o = x.add(1).pinCse().output('o');
      const p = plan(o.mul(2).pinCse().add(3));
      const results = p.buffers.filter((b) => b.kind === 'result');
      expect(results).toHaveLength(2);
      for (const b of results) expect(b.values).toHaveLength(1);
    });

    test('a value and the views read from it keep their buffer until the views are read', () => {
      const x = da.wrap(ramp(12));
      const t = x.mul(2).pinCse().reshape([3, 4]);
      const y = t.T.add(t.T.sum({ axis: 0 })).pinCse().add(x.reshape([4, 3]).mul(0)).pinCse().add(1);
      const want = onReference(() => f64(y.executeSync()));
      expect(want[0]).toBe(-8 + (-8 - 6 - 4 - 2) + 1);
      // Wrong sharing would overwrite t while its transpose is still to be read.
      expect(f64(y.executeSync())).toEqual(want);
    });
  });

  describe('contractions (matmul, dot) and outer', () => {
    const reference = (x: da.DeferredArray): number[] => onReference(() => f64(x.executeSync()));
    const n = 40;
    const A = da.wrap(ramp(n * n, 1e-2)).reshape([n, n]);
    const x = da.wrap(ramp(n, 0.1));
    /** Products are exact; sin, cos and tanh are the vector library's, within its ulp bound. */
    const near = (got: number[], want: number[]): void => {
      expect(got).toHaveLength(want.length);
      got.forEach((v, i) => expect(Math.abs(v - want[i]!)).toBeLessThanOrEqual(4e-16 * Math.max(1, Math.abs(want[i]!))));
    };
    const products = (p: Plan) => kernels(p).filter((s) => s.kind === 'kernel' && s.group.contraction);

    test("lappy's diamond k = A @ x; outer(sin(k), cos(k)) is two kernels with the matvec once", () => {
      const k = A.matmul(x);
      const y = da.outer(k.sin(), k.cos());
      const p = plan(y);
      expect(kernels(p)).toHaveLength(2);
      expect(products(p)).toHaveLength(1);
      const [first, second] = kernels(p) as Array<Extract<Plan['steps'][number], { kind: 'kernel' }>>;
      // The matvec with sin and cos as its epilogue; then the n x n product reading both, computing neither.
      expect(first!.group.contraction!.op).toBe('matmul');
      expect(first!.group.members.map((m) => m.op).sort()).toEqual(['cos', 'sin']);
      expect(second!.group.members.map((m) => m.op)).toEqual(['multiply']);
      expect(second!.group.shape).toEqual([n, n]);
      near(f64(y.executeSync()), reference(y));
      expect(y.explain()).toMatch(/kernel \d+ over \(40,\): matmul, (sin, cos|cos, sin); reads/);
    });

    test('an elementwise epilogue runs in the product kernel; the product itself is a temporary', () => {
      const B = da.wrap(ramp(n * 3, 0.5)).reshape([n, 3]);
      const y = A.matmul(B).mul(2).add(x.reshape([n, 1])).tanh();
      const p = plan(y);
      expect(kernels(p)).toHaveLength(1);
      const product = products(p)[0]!.kind === 'kernel' ? (products(p)[0] as { group: { contraction?: unknown } }).group.contraction : undefined;
      const buffer = p.buffers[p.bufferOf.get(product as never)!]!;
      expect(buffer.kind).toBe('temporary');
      near(f64(y.executeSync()), reference(y));
    });

    test('pinCse() on a product keeps its epilogue out of its kernel', () => {
      const k = A.matmul(x).pinCse();
      const y = k.sin().add(k);
      const p = plan(y);
      expect(kernels(p)).toHaveLength(2);
      expect(kernels(p)[0]!.kind === 'kernel' && kernels(p)[0]!.group.members).toEqual([]);
      near(f64(y.executeSync()), reference(y));
    });

    test('outer is an elementwise product that fuses with what reads it', () => {
      const a = da.wrap(ramp(7, 0.3));
      const y = da.outer(a, x).mul(3).sub(1);
      expect(kernels(plan(y))).toHaveLength(1);
      expect(f64(y.executeSync())).toEqual(reference(y));
      // NumPy's outer is a plain product: -1 x 0 is -0.
      expect(Object.is(f64(da.outer(da.array([-1]), da.array([0])).executeSync())[0], -0)).toBe(true);
    });

    test('a dot of two float vectors is one fused sum of products, the same on any number of workers; integer vectors keep the product kernel', async () => {
      const n = 50_003; // several blocks, and a tail
      const a = da.wrap(Float64Array.from({ length: n }, (_, i) => Math.sin(i) * 1e3));
      const b = da.wrap(Float64Array.from({ length: n }, (_, i) => 1 / (i + 1) - 0.25));
      for (const y of [da.dot(a, b), a.matmul(b), da.dot(a.astype('float32'), b)]) {
        expect(y.explain()).toMatch(/multiply, sum;/);
        expect(kernels(plan(y))).toHaveLength(1);
        expect(products(plan(y))).toHaveLength(0);
      }
      // Its bits are those of the sum of the products (kernels) and of NumPy's np.sum(a * b) (reference).
      const bits = (y: da.DeferredArray): number => f64(y.executeSync())[0]!;
      expect(bits(da.dot(a, b))).toBe(bits(a.mul(b).sum()));
      expect(onReference(() => bits(da.dot(a, b)))).toBe(onReference(() => bits(a.mul(b).sum().add(0))));
      const k = onReference(() => bits(da.dot(a, b)));
      expect(Math.abs(bits(da.dot(a, b)) - k)).toBeLessThanOrEqual(1e-12 * Math.abs(k));
      const before = da.configure().threads;
      try {
        const pooled = await Promise.all([1, 2].map(async (threads) => { da.configure({ threads }); return f64(await da.dot(a, b).execute())[0]; }));
        expect(pooled).toEqual([bits(da.dot(a, b)), bits(da.dot(a, b))]);
      } finally {
        da.configure({ threads: before });
      }
      // A sum of -0 products is +0, as a product's accumulated from +0 is, on both backends (NumPy's dot gives +0).
      const minus = (): number => f64(da.dot(da.wrap(new Float64Array(9).fill(-1)), da.wrap(new Float64Array(9))).executeSync())[0]!;
      expect(Object.is(minus(), 0)).toBe(true);
      expect(Object.is(onReference(minus), 0)).toBe(true);
      expect(products(plan(da.dot(da.arange(8, { dtype: 'int32' }), da.arange(8, { dtype: 'int32' }))))).toHaveLength(1);
    });

    test('every product as a kernel: floats and 32-bit integers in their lanes, narrower integers and bools as int32 products', () => {
      const ai = da.arange(12, { dtype: 'int32' }).reshape([3, 4]);
      const bi = da.arange(8, { dtype: 'int32' }).reshape([4, 2]);
      expect(products(plan(ai.matmul(bi)))).toHaveLength(1);
      expect(products(plan(ai.astype('uint32').matmul(bi.astype('uint32'))))).toHaveLength(1);
      expect(products(plan(ai.matmul(bi.astype('float32'))))).toHaveLength(1);
      // Narrower integers and bools: the int32 product, cast back.
      expect(products(plan(ai.astype('int16').matmul(bi.astype('int16'))))).toHaveLength(1);
      expect(products(plan(ai.astype('bool').matmul(bi.astype('uint8'))))).toHaveLength(1);
    });
  });

  describe('materialisation at true boundaries', () => {
    const x = da.wrap(ramp(50, 0.2));
    test('a reduction feeding a broadcast is computed once, stored, then read by the next kernel', () => {
      const y = x.sub(x.mean()).mul(x);
      const p = plan(y);
      expect(kernels(p)).toHaveLength(2);
      const [first, second] = kernels(p) as Array<Extract<Plan['steps'][number], { kind: 'kernel' }>>;
      expect(first!.group.reductions.map((r) => r.op)).toEqual(['mean']);
      expect(second!.group.members.map((m) => m.op)).toEqual(['subtract', 'multiply']);
      expect(second!.group.inputs).toContain(first!.group.reductions[0]);
    });

    test('concatenation reads its operands from memory: the kernels before it store them', () => {
      const y = da.concat([x.sin(), x.cos()]).add(1);
      const p = plan(y);
      expect(kernels(p)).toHaveLength(2);
      const first = kernels(p)[0] as Extract<Plan['steps'][number], { kind: 'kernel' }>;
      expect(first.group.stores.map((n) => n.op).sort()).toEqual(['cos', 'sin']);
      expect(p.steps.some((s) => s.kind === 'node' && s.node.op === 'concat')).toBe(true);
    });
  });

  test('toDot() draws each kernel as a cluster', () => {
    const x = da.wrap(ramp(8));
    const dot = x.mul(2).pinCse().add(1).toDot();
    expect(dot.match(/subgraph cluster_/g)).toHaveLength(2);
    expect(dot).toContain('label="kernel 0 over (8)"');
  });
});

describe('memory bar: a 10-operation chain with one marked output', () => {
  test('peak heap is the inputs, the two outputs and O(blocks), not a temporary per op', () => {
    const n = 1 << 20;
    const bytes = n * 8;
    const a = da.wrap(ramp(n, 1e-3));
    const b = da.wrap(ramp(n, 2e-3));
    const chain = (pin: boolean) => {
      const p = <T extends da.DeferredArray>(t: T): T => (pin ? t.pinCse() : t);
      let t = p(a.mul(1.5));
      t = p(t.add(b)); t = p(t.sub(0.25)); t = p(t.mul(a)).output('mid');
      t = p(t.add(2)); t = p(t.mul(0.5)); t = p(t.sub(b)); t = p(t.abs()); t = p(t.sqrt());
      return t.add(1);
    };
    const fused = chain(false);
    const eager = chain(true);
    fused.executeSync(); // copies the inputs into the heap once
    const heap = defaultHeap();
    const peakOf = (x: da.DeferredArray): number => {
      const before = heap.stats().bytesInUse;
      heap.resetPeak();
      x.executeSync();
      return heap.stats().peakBytes - before;
    };
    const fusedPeak = peakOf(fused);
    expect(fusedPeak).toBeGreaterThanOrEqual(2 * bytes);
    expect(fusedPeak).toBeLessThan(2 * bytes + 64 * 1024);
    // One array per op, with buffers reused by liveness: 2 temporaries live at once, not 9.
    const eagerPeak = peakOf(eager);
    expect(eagerPeak).toBeGreaterThanOrEqual(4 * bytes);
    expect(eagerPeak).toBeLessThan(4 * bytes + 64 * 1024);
    expect(f64((eager.executeSync() as da.OutputRecord)['result'])).toEqual(f64((fused.executeSync() as da.OutputRecord)['result']));
  });
});
