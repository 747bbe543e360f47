import fc from 'fast-check';
import * as da from '../index.js';
import { nodeOf } from '../api/deferred-array.js';
import { planExecution } from './pipeline.js';
import type { Plan } from './plan.js';

const initial = da.configure().backend;
beforeAll(() => { da.configure({ backend: 'wasm' }); });
afterAll(async () => { da.configure({ backend: initial }); await da.shutdown(); });

const plan = (...xs: da.DeferredArray[]): Plan => planExecution(xs.map(nodeOf), 'kernels');
const kernels = (p: Plan) => p.steps.flatMap((s) => (s.kind === 'kernel' ? [s.group] : []));
/** Temporary buffers holding arrays (not scalars). */
const temporaryBuffers = (p: Plan) => p.buffers.filter((b) => b.kind === 'temporary' && b.values.some((n) => n.shape.length > 0));
const bits = (x: unknown): number[] => Array.from(new Uint32Array(((x as da.StdNdarray).data as Float64Array).slice().buffer));
const ramp = (n: number, scale = 1): Float64Array => Float64Array.from({ length: n }, (_, i) => (i - n / 3) * scale);

const values = (x: unknown): number[] => Array.from((x as da.StdNdarray).data as Float64Array);

/**
 * The pinned graph's result equals the unpinned one's bit for bit, on this
 * thread and on the pool, and the reference evaluator's within the vector
 * math's error (a few ulps; exact where the ops are).
 */
async function expectSameResults(pinned: da.DeferredArray, unpinned: da.DeferredArray): Promise<void> {
  // Compared in loops, each check one expect: an expect per element of 210,000 took jest 15 s,
  // and a deep equality of such lists seconds more, enough to time the test out on a loaded machine.
  const want = unpinned.executeSync();
  const wantBits = bits(want);
  expect(firstDifference(bits(pinned.executeSync()), wantBits)).toBeUndefined();
  expect(firstDifference(bits(await pinned.execute()), wantBits)).toBeUndefined();
  da.configure({ backend: 'reference' });
  try {
    const ref = values(pinned.executeSync());
    const got = values(want);
    expect(ref).toHaveLength(got.length);
    const far = got.findIndex((v, i) => !(Math.abs(v - ref[i]!) <= 1e-14 * Math.max(1, Math.abs(ref[i]!))));
    expect(far < 0 ? undefined : { at: far, wasm: got[far], reference: ref[far] }).toBeUndefined();
  } finally {
    da.configure({ backend: 'wasm' });
  }
}

/** The first place two lists of bits differ (with both values), or undefined when they are equal. */
function firstDifference(a: readonly number[], b: readonly number[]): { at: number; got?: number; want?: number } | undefined {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return { at: i, got: a[i], want: b[i] };
  return undefined;
}

describe('pin(): a kernel-local temporary computed once per block', () => {
  test('a broadcast value is computed per block inside the kernel that reads it, not as a kernel and array of its own', async () => {
    const x = da.wrap(ramp(300 * 700, 1e-3)).reshape([300, 700]);
    const v = da.wrap(ramp(700, 0.01));
    const unpinned = x.mul(v.sin().add(1));
    const pinned = x.mul(v.sin().add(1).pin());
    const [d, p] = [plan(unpinned), plan(pinned)];
    expect(kernels(d)).toHaveLength(2);
    expect(temporaryBuffers(d)).toHaveLength(1);
    expect(kernels(p)).toHaveLength(1);
    expect(temporaryBuffers(p)).toHaveLength(0);
    const g = kernels(p)[0]!;
    expect(g.temps?.map((t) => t.members.map((m) => m.op))).toEqual([['sin', 'add']]);
    expect(g.inputs.map((n) => n.shape).sort((a, b) => b.length - a.length)).toEqual([[300, 700], [700], []]);
    expect(pinned.explain()).toMatch(/pin %\d+: per-block temporary, float64\(700,\) computed per block from/);
    expect(pinned.explain({ kernels: true })).toContain('call $temp0');
    await expectSameResults(pinned, unpinned);
  });

  test('a value of the kernel\'s own shape goes through scratch instead of registers, with the same results', async () => {
    const x = da.wrap(ramp(50_001, 1e-3));
    const k = x.mul(3).sin();
    const pinned = k.pin().exp().add(k);
    const unpinned = x.mul(3).sin().exp().add(x.mul(3).sin());
    expect(kernels(plan(pinned))).toHaveLength(1);
    expect(kernels(plan(pinned))[0]!.temps).toHaveLength(1);
    expect(kernels(plan(unpinned))[0]!.temps).toBeUndefined();
    await expectSameResults(pinned, unpinned);
  });

  test('a column broadcast, a reduction reading the temporary, and siblings sharing one', async () => {
    const x = da.wrap(ramp(64 * 33, 0.01)).reshape([64, 33]);
    const c = da.wrap(ramp(64, 0.1)).reshape([64, 1]);
    const t = c.exp().pin();
    const pinned = da.sum(x.mul(t), { axis: 1 }).add(da.sum(x.sub(t), { axis: 1 }));
    const unpinned = da.sum(x.mul(c.exp()), { axis: 1 }).add(da.sum(x.sub(c.exp()), { axis: 1 }));
    const groups = kernels(plan(pinned));
    expect(groups.filter((g) => g.temps)).toHaveLength(1);
    await expectSameResults(pinned, unpinned);
  });

  test('a reduction over leading axes with a pinned temporary runs by rows (columns would hold all rows per block)', async () => {
    const x = da.wrap(ramp(40 * 50, 0.01)).reshape([40, 50]);
    const v = da.wrap(ramp(50, 0.3));
    await expectSameResults(da.sum(x.mul(v.cos().pin()), { axis: 0 }), da.sum(x.mul(v.cos()), { axis: 0 }));
  });

  test('a pinned view or source is copied per block into the scratch', async () => {
    const A = da.wrap(ramp(30 * 40)).reshape([30, 40]);
    await expectSameResults(A.T.pin().add(1), A.T.add(1));
    const v = da.wrap(ramp(40));
    const pinned = A.mul(v.pin());
    expect(kernels(plan(pinned))[0]!.temps?.[0]!.members.map((m) => m.op)).toEqual(['astype']);
    await expectSameResults(pinned, A.mul(v));
  });

  // The cone recomputes x2 = astype(x1) from x1, which the kernel computing x2 (read unpinned too) holds
  // in a register only: that kernel must store x1 as well (found by the soak: it read a value never stored).
  test('what a cone reads is stored, even where the kernel computing it also computes the cone\'s member', async () => {
    const build = (pinned: boolean): da.DeferredArray => {
      const a = da.wrap(ramp(1000));
      const b = da.wrap(ramp(1000).map((v) => -v));
      const x2 = a.astype('int32').astype('float64');
      const k = da.maximum(a, da.minimum(b, x2));
      if (pinned) k.pin();
      return k.add(x2).add(k.mul(k));
    };
    const pinned = build(true);
    expect(kernels(plan(pinned)).flatMap((g) => g.temps ?? [])).toHaveLength(1);
    await expectSameResults(pinned, build(false));
  });

  test('a value its cone recomputes is not stored for the cone', async () => {
    const build = (pinned: boolean): da.DeferredArray => {
      const a = da.wrap(ramp(1000));
      const m = a.mul(2);
      const k = m.sub(3).mul(a);
      if (pinned) k.pin();
      return m.add(1).add(k.add(k));
    };
    const pinned = build(true);
    const p = plan(pinned);
    expect(kernels(p)).toHaveLength(1);
    expect(temporaryBuffers(p)).toEqual([]);
    await expectSameResults(pinned, build(false));
  });

  test('a pinned matmul epilogue input: the product kernel computes it per block', async () => {
    const A = da.wrap(ramp(64 * 48, 0.01)).reshape([64, 48]);
    const B = da.wrap(ramp(48 * 40, 0.02)).reshape([48, 40]);
    const w = da.wrap(ramp(40, 0.1));
    const pinned = A.matmul(B).mul(w.tanh().pin());
    const p = plan(pinned);
    expect(kernels(p)).toHaveLength(1);
    expect(kernels(p)[0]!.contraction?.op).toBe('matmul');
    await expectSameResults(pinned, A.matmul(B).mul(w.tanh()));
  });

  test('where the value must be an array anyway, the pin is not applied, and explain() says why', async () => {
    const x = da.wrap(ramp(12, 0.5)).reshape([3, 4]);
    const k = x.exp().pin();
    const read = x.matmul(k.T.reshape([4, 3]));
    expect(read.explain()).toMatch(/pin not applied: reshape reads it whole|pin not applied: \w+ reads it whole/);
    await expectSameResults(read, x.matmul(x.exp().T.reshape([4, 3])));
    expect(k.explain()).toContain('pin not applied: it is a result or a marked output');
    const i = da.wrap(new Int32Array([7, 8, 9])).floorDivide(da.wrap(new Int32Array([2, 0, 3]))).pin();
    expect(i.add(1).explain()).toContain('floorDivide counts elements for its errors');
  });

  test('pin() on a value computed whole is refused at once, pointing to pinCse()', () => {
    const x = da.wrap(ramp(6)).reshape([2, 3]);
    expect(() => da.sum(x).pin()).toThrow(/a sum is computed whole.*use pinCse\(\)/);
    expect(() => x.matmul(x.T).pin()).toThrow(TypeError);
    const k = x.add(1);
    expect(k.pin()).toBe(k);
  });

  test('toDot() draws a pinned temporary dashed', () => {
    const x = da.wrap(ramp(12)).reshape([3, 4]);
    const dot = x.mul(da.wrap(ramp(4)).sin().pin()).toDot();
    expect(dot).toContain('pin(): per-block temporary');
    expect(dot).toContain('style=dashed');
  });

  test('random broadcasts, cones and reductions: pinned equals unpinned bit for bit', () => {
    const dims = fc.constantFrom(1, 2, 3, 5, 17, 40);
    const shape = fc.oneof(fc.array(dims, { minLength: 1, maxLength: 3 }), fc.constant([130, 257]), fc.constant([3, 70, 90])).map((s): number[] => [...s]);
    const cone = fc.constantFrom('sin', 'affine', 'exp-of-neg', 'self');
    const final = fc.constantFrom('none', 'sum', 'sumFirst', 'sumLast', 'max');
    fc.assert(fc.property(shape, fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }), fc.nat(2), cone, final, (sh, keep, drop, how, end) => {
      // v: the space's shape with some axes 1 (broadcast), and maybe fewer leading axes.
      const vShape = sh.map((d, i) => (keep[i] ? d : 1)).slice(Math.min(drop, sh.length - 1));
      const size = (s: number[]): number => s.reduce((a, b) => a * b, 1);
      const x = da.wrap(ramp(size(sh), 0.01)).reshape(sh);
      const v = da.wrap(ramp(size(vShape), 0.07)).reshape(vShape);
      const build = (pin: boolean): da.DeferredArray => {
        const p = (t: da.DeferredArray): da.DeferredArray => (pin ? t.pin() : t);
        const k = how === 'sin' ? p(v.sin()) : how === 'affine' ? p(v.mul(2).add(1)) : how === 'exp-of-neg' ? p(v.neg().exp()) : p(v.add(0.5));
        const y = x.mul(k).add(how === 'self' ? k.square() : v);
        switch (end) {
          case 'sum': return da.sum(y);
          case 'sumFirst': return da.sum(y, { axis: 0 });
          case 'sumLast': return da.sum(y, { axis: -1 });
          case 'max': return da.max(y, { axis: -1 });
          default: return y;
        }
      };
      const [pinned, unpinned] = [build(true).executeSync(), build(false).executeSync()];
      if (end !== 'sumFirst' || sh.length < 2) {
        expect(bits(pinned)).toEqual(bits(unpinned));
        return;
      }
      // Unpinned, a sum over the leading axis runs by columns; with a temporary, by rows: another order of the same adds.
      const want = values(unpinned);
      values(pinned).forEach((got, i) => Object.is(got, want[i]) || expect(Math.abs(got - want[i]!)).toBeLessThanOrEqual(1e-12 * sh[0]! * Math.max(1, Math.abs(want[i]!))));
    }), { numRuns: Number(process.env['DIFF_RUNS'] ?? 150), ...(process.env['DIFF_SEED'] === 'random' ? {} : { seed: 17 }) });
  });
});
