import * as da from '../index.js';

const initial = da.configure().backend;
beforeAll(() => { da.configure({ backend: 'wasm' }); });
afterAll(() => { da.configure({ backend: initial }); });

const f64 = (x: unknown): number[] => Array.from((x as da.StdNdarray).data as Float64Array);

/** The arrays `make` builds, executed here (wasm) and on the reference evaluator: [got, want]. */
function withReference(make: () => da.DeferredArray[]): [da.StdNdarray[], da.StdNdarray[]] {
  const got = da.executeSync(make()) as da.StdNdarray[];
  da.configure({ backend: 'reference' });
  try {
    return [got, da.executeSync(make()) as da.StdNdarray[]];
  } finally {
    da.configure({ backend: 'wasm' });
  }
}

describe('the WebAssembly backend', () => {
  test('NEP foo is one fused kernel', () => {
    const arr = da.wrap(Float64Array.from({ length: 1000 }, (_, i) => i));
    const foo = da.sum(da.square(arr.mul(Math.PI / 180)));
    expect(foo.explain()).toContain('1 step(s) computing (1 fused kernel(s))');
    const before = da.stats().steps;
    const r = foo.executeSync() as da.StdNdarray;
    expect(da.stats().steps - before).toBe(1);
    let want = 0;
    for (let i = 0; i < 1000; i++) want += ((i * Math.PI) / 180) ** 2;
    expect(r.get()).toBeCloseTo(want, 9);
  });

  test('NEP bar is one kernel with two outputs', () => {
    const arr = da.arange(6).astype('float64');
    const plus1 = arr.add(1).output();
    const plus2 = plus1.add(1);
    const plan = plus2.explain();
    expect(plan).toContain('(1 fused kernel(s))');
    expect(plan).toMatch(/kernel 0 over \(6,\): astype, add, add; reads %0, %1; writes %3, %4/);
    const before = da.stats().steps;
    const r = plus2.executeSync() as da.OutputRecord;
    expect(da.stats().steps - before).toBe(1);
    expect(f64(r['output_0'])).toEqual([1, 2, 3, 4, 5, 6]);
    expect(f64(r['result'])).toEqual([2, 3, 4, 5, 6, 7]);
  });

  test('a graph rebuilt every iteration of a loop compiles once', () => {
    const step = (x: da.DeferredArray, dt: number) => x.mul(dt).add(x.square()).sqrt().sum();
    step(da.zeros([10]), 0.5).executeSync();
    const compiled = da.stats().kernelsCompiled;
    for (let i = 0; i < 20; i++) step(da.full([100 + i * 37], i), 0.1 * i + 0.05).executeSync();
    expect(da.stats().kernelsCompiled).toBe(compiled);
    // A scalar that strength reduction removes (x * 1 is x) makes a different kernel: compiled
    // the first time that value comes, reused after.
    step(da.full([50], 3), 1).executeSync();
    expect(da.stats().kernelsCompiled).toBe(compiled + 1);
    for (let i = 0; i < 5; i++) step(da.full([60 + i], i), 1).executeSync();
    expect(da.stats().kernelsCompiled).toBe(compiled + 1);
  });

  test('views are read in place: transposed, reversed and broadcast operands need no copy kernel', () => {
    const a = da.arange(12, { dtype: 'float64' }).reshape([3, 4]);
    const b = da.arange(4, { dtype: 'float64' });
    const y = da.add(a.T.get('::-1'), da.broadcastTo(b.reshape([4, 1]), [4, 3]));
    expect(y.explain()).toContain('1 step(s) computing (1 fused kernel(s))');
    const out = f64(y.executeSync());
    const want: number[] = [];
    for (let i = 0; i < 4; i++) for (let j = 0; j < 3; j++) want.push((3 - i) + 4 * j + i);
    expect(out).toEqual(want);
  });

  test('a view returned as a result comes back as its own row-major copy', () => {
    const a = da.arange(6).astype('float64').reshape([2, 3]);
    const t = a.T.executeSync() as da.StdNdarray;
    expect(t.shape).toEqual([3, 2]);
    expect(f64(t)).toEqual([0, 3, 1, 4, 2, 5]);
  });

  test('temporaries are freed: a long chain ending in a sum keeps only its 0-d result', () => {
    const x = da.wrap(new Float64Array(50000).fill(1.5));
    let y = x;
    for (let i = 0; i < 10; i++) y = y.mul(1.01).add(i);
    const marked = y.sub(1).output('m');
    const z = marked.mul(2).sum();
    z.executeSync();
    const before = da.heapStats().bytesInUse;
    const r = z.executeSync() as da.OutputRecord;
    const grown = da.heapStats().bytesInUse - before;
    // One marked output (50000 float64) and a 0-d result stay with the caller; nothing else.
    expect(grown).toBeLessThanOrEqual(50000 * 8 + 64);
    expect((r['m'] as da.StdNdarray).shape).toEqual([50000]);
  });

  test('reductions over some axes fuse too, rows and columns, several per kernel', () => {
    const a = da.arange(24, { dtype: 'float64' }).reshape([2, 3, 4]);
    const sq = a.square();
    const rows = sq.sum({ axis: -1 });
    const cols = sq.max({ axis: [0, 2], keepdims: true });
    expect(rows.explain()).toContain('(1 fused kernel(s))');
    const [r, m, c] = da.executeSync([rows, sq.min({ axis: -1 }), cols]) as da.StdNdarray[];
    expect(f64(m)).toEqual([0, 4, 8, 12, 16, 20].map((k) => k * k));
    const v = Array.from({ length: 24 }, (_, i) => i * i);
    expect(f64(r)).toEqual([0, 1, 2, 3, 4, 5].map((k) => v.slice(4 * k, 4 * k + 4).reduce((s, x) => s + x, 0)));
    expect(c!.shape).toEqual([1, 3, 1]);
    expect(f64(c)).toEqual([0, 1, 2].map((j) => Math.max(...[0, 1].flatMap((i) => v.slice(12 * i + 4 * j, 12 * i + 4 * j + 4)))));
    // Empty reduced axes give the identity; mean gives NaN.
    const e = da.zeros([3, 0]);
    expect(f64(e.sum({ axis: 1 }).executeSync())).toEqual([0, 0, 0]);
    expect(f64(e.mean({ axis: 1 }).executeSync())).toEqual([NaN, NaN, NaN]);
  });

  test('float32 sums load float32 vectors and accumulate their halves in float64', () => {
    const x = da.wrap(Float32Array.from({ length: 1001 }, (_, i) => i / 7));
    const text = x.mul(3).sum().explain({ kernels: true });
    expect(text).toMatch(/vectorised as f32x4/);
    expect(text).toContain('f64x2.promote_low_f32x4');
    let want = 0;
    for (let i = 0; i < 1001; i++) want += Math.fround(Math.fround(i / 7) * 3);
    expect((x.mul(3).sum().executeSync() as da.StdNdarray).get()).toBe(Math.fround(want));
  });

  test('a 10-op chain with / 2 and an int32 operand runs the vector loop, bit for bit the reference', () => {
    const n = 1037;
    const x = da.wrap(Float64Array.from({ length: n }, (_, i) => (i - 500) / 3));
    const k = da.wrap(Int32Array.from({ length: n }, (_, i) => (i % 2 ? 2147483647 - i : -2147483648 + i)));
    const mask = da.array(Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 1 : 0)), { dtype: 'bool' });
    const chain = (): da.DeferredArray => {
      let y = x.add(k).div(2).mul(x).sub(1.5).abs().sqrt();
      y = y.add(x.mul(3)).maximum(0.25).negative().add(k);
      return da.where(mask, y, x).astype('float32');
    };
    const text = chain().explain({ kernels: true });
    expect(text).toMatch(/kernel 0 over \(1037,\): add, multiply, multiply, subtract, abs, sqrt, multiply, add, maximum, negative, add, where, astype/);
    expect(text).toContain('kernel 0: 1-d iteration space, vectorised as f64x2');
    // The int32 operand read two lanes at a time and converted, the mask widened, the result demoted.
    expect(text).toContain('f64x2.convert_low_i32x4_s');
    expect(text).toContain('i64x2.extend_low_i32x4_s');
    expect(text).toContain('f32x4.demote_f64x2_zero');
    expect(text).not.toContain('f64x2.div');
    const [[got], [want]] = withReference(() => [chain()]);
    expect(got!.dtype).toBe('float32');
    expect(Array.from(got!.data as Float32Array)).toEqual(Array.from(want!.data as Float32Array));
  });

  test('column reductions (reduced axes outer in memory) run a column kernel, vectorised across columns', () => {
    const R = 7;
    const C = 4100; // more than one block of 2048 columns, and an odd tail
    const x = da.wrap(Float64Array.from({ length: R * C }, (_, i) => (i % 13) - 6)).reshape([R, C]);
    const y = x.mul(0.5).add(da.arange(C, { dtype: 'float64' }));
    const text = y.sum({ axis: 0 }).explain({ kernels: true });
    expect(text).toContain('f64x2.add');
    expect(text).toMatch(/kernel 0: 2-d iteration space, vectorised as f64x2/);
    const [s, mx, mean] = da.executeSync([y.sum({ axis: 0 }), y.max({ axis: 0 }), y.mean({ axis: 0 })]) as da.StdNdarray[];
    const col = (c: number) => Array.from({ length: R }, (_, r) => ((r * C + c) % 13 - 6) * 0.5 + c);
    for (const c of [0, 1, 2047, 2048, 4099]) {
      expect(f64(s)[c]).toBeCloseTo(col(c).reduce((a, b) => a + b, 0), 9);
      expect(f64(mx)[c]).toBe(Math.max(...col(c)));
      expect(f64(mean)[c]).toBeCloseTo(col(c).reduce((a, b) => a + b, 0) / R, 9);
    }
    // int32 columns (a scalar column loop) and bool columns.
    const i = da.arange(12, { dtype: 'int32' }).reshape([3, 4]);
    expect(Array.from((i.max({ axis: 0 }).executeSync() as da.StdNdarray).data as Int32Array)).toEqual([8, 9, 10, 11]);
    const any = i.gt(9).any({ axis: 0 }).executeSync() as da.StdNdarray;
    expect([0, 1, 2, 3].map((k) => any.get(k))).toEqual([false, false, true, true]);
  });

  test.each([[1], [15], [16], [17], [37], [50]])('column reductions over %i rows, rows many at a time: bit for bit the reference', (R) => {
    // Rows go 16 at a time, then one at a time; columns 8 at a time, then 2, then one.
    const C = 2048 + 11;
    const x = da.wrap(Float64Array.from({ length: R * C }, (_, i) => Math.sin(i) * 10 ** ((i % 7) - 3))).reshape([R, C]);
    const k = da.wrap(Int32Array.from({ length: C }, (_, i) => i - 1000));
    const y = x.mul(k).add(0.1);
    const all = (): da.DeferredArray[] => [y.sum({ axis: 0 }), y.max({ axis: 0 }), y.prod({ axis: 0 }), y.mean({ axis: 0 })];
    expect(y.sum({ axis: 0 }).explain({ kernels: true })).toMatch(/kernel 0: 2-d iteration space, vectorised as f64x2/);
    const [got, want] = withReference(all);
    got.forEach((g, i) => expect(f64(g)).toEqual(f64(want[i])));
  });

  test('a column reduction over a value broadcast across columns (one per row) reads it once per row: bit for bit the reference', () => {
    const [R, C] = [19, 2048 + 13];
    const x = da.wrap(Float64Array.from({ length: R * C }, (_, i) => Math.cos(i) * 10 ** ((i % 5) - 2))).reshape([R, C]);
    const w = da.wrap(Float64Array.from({ length: R }, (_, r) => (r - 7) * 1.25)).reshape([R, 1]);
    const y = x.mul(w).add(w.square());
    const all = (): da.DeferredArray[] => [y.sum({ axis: 0 }), y.max({ axis: 0 })];
    expect(y.sum({ axis: 0 }).explain({ kernels: true })).toMatch(/kernel 0: 2-d iteration space, vectorised as f64x2/);
    const [got, want] = withReference(all);
    got.forEach((g, i) => expect(f64(g)).toEqual(f64(want[i])));
  });

  test.each([[1], [15], [16], [17], [37]])('float32 and int32 column reductions over %i rows accumulate in their own lanes: bit for bit the reference', (R) => {
    const C = 2048 + 11;
    const x32 = da.wrap(Float32Array.from({ length: R * C }, (_, i) => Math.sin(i) * 10 ** ((i % 5) - 2))).reshape([R, C]);
    const xi = da.wrap(Int32Array.from({ length: R * C }, (_, i) => Math.imul(i, 2654435761) >> (i % 9))).reshape([R, C]);
    const floats = x32.mul(3).add(0.5);
    const ints = xi.mul(3).add(7);
    const all = (): da.DeferredArray[] => [floats.max({ axis: 0 }), floats.prod({ axis: 0 }), floats.min({ axis: 0 }),
      ints.max({ axis: 0 }), ints.min({ axis: 0 }), ints.prod({ axis: 0 })];
    // float32 max accumulates in float32 lanes (partials f64 -> f32x4 -> f64); the float32 sum
    // accumulates in float64, as two f64x2 halves of each f32x4 of values.
    expect(floats.max({ axis: 0 }).explain({ kernels: true })).toContain('f32x4.demote_f64x2_zero');
    expect(floats.sum({ axis: 0 }).explain({ kernels: true })).toMatch(/f64x2\.promote_low_f32x4\s+f64x2\.add/);
    expect(ints.max({ axis: 0 }).explain({ kernels: true })).toContain('i32x4.trunc_sat_f64x2_s_zero');
    const [got, want] = withReference(all);
    got.forEach((g, i) => {
      expect(g.dtype).toBe(want[i]!.dtype);
      expect(Array.from(g.data as ArrayLike<number>, String)).toEqual(Array.from(want[i]!.data as ArrayLike<number>, String));
    });
    // The float32 sum: each column's float32 values added in row order in float64, rounded once
    // (the reference evaluator sums float32 in another order, so it is compared with that rule).
    const v = (x32.executeSync() as da.StdNdarray).data as Float32Array;
    const sums = Float32Array.from({ length: C }, (_, c) => {
      let acc = 0;
      for (let r = 0; r < R; r++) acc += Math.fround(Math.fround(v[r * C + c]! * 3) + 0.5);
      return acc;
    });
    expect(Array.from((floats.sum({ axis: 0 }).executeSync() as da.StdNdarray).data as Float32Array, String)).toEqual(Array.from(sums, String));
  });

  test('a loop that makes new large arrays every step never exhausts the heap: sources are a bounded cache', () => {
    // 24 x 64 MiB of inputs, created and executed in one synchronous loop, where
    // no finalizer can run: without eviction the heap would hold 1.5 GiB.
    for (let i = 0; i < 24; i++) {
      const x = da.full([8 * 1024 * 1024], i);
      expect((x.mul(2).sum().executeSync() as da.StdNdarray).get()).toBe(2 * i * 8 * 1024 * 1024);
      expect(da.heapStats().bytesInUse).toBeLessThanOrEqual(1024 ** 3 + 64 * 1024 ** 2 + 1024 ** 2);
    }
  });

  test('argmax, matmul and concat give the values', () => {
    const a = da.arange(6).astype('float64').reshape([2, 3]);
    expect(Array.from((a.argmax({ axis: 1 }).executeSync() as da.StdNdarray).data as Int32Array)).toEqual([2, 2]);
    expect(f64(da.matmul(a, a.T).executeSync())).toEqual([5, 14, 14, 50]);
    expect(f64(da.concat([a, a.mul(2)], { axis: 0 }).sum({ axis: 1 }).executeSync())).toEqual([3, 12, 6, 24]);
  });
});

describe('explain({ kernels: true })', () => {
  test('prints each kernel disassembled, and runs nothing', () => {
    const x = da.wrap(new Float64Array(100));
    const y = x.mul(2).add(1).sum();
    const before = da.stats().runs;
    const text = y.explain({ kernels: true });
    expect(da.stats().runs).toBe(before);
    expect(text).toContain('kernel 0: 1-d iteration space, vectorised as f64x2');
    expect(text).toMatch(/\(func \$kernel \(param i32 i32 i32 i32\)/);
    expect(text).toContain('f64x2.mul');
    expect(() => y.explain({ wasm: true } as never)).toThrow(TypeError);
  });
});
