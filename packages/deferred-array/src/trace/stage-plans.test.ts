// Trace stages planned once per structure and bound per force, and versions
// written over the block of one they replace. Runs on every backend (the
// reference and pool projects too); the time loop of the wave is in
// test/wave.test.ts.
import { afterEach, describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { TEMPLATES } from './stage-plans.js';

const data = async (x: da.DeferredArray): Promise<number[]> => Array.from(((await x.execute()) as da.StdNdarray).data as Float64Array);

afterEach(async () => {
  await da.flush();
});

describe('stage plans reused by structure', () => {
  test('one plan serves other arrays and other sources of the same structure', async () => {
    const a = da.wrap(new Float64Array([1, 2, 3, 4]));
    const b = da.wrap(new Float64Array([10, 20, 30, 40]));
    // A first write reads the array's own data; later ones the version before it.
    for (let round = 0; round < 2; round++) {
      for (const x of [a, b]) {
        x.iadd(da.wrap(new Float64Array([1, 2, 3, 4])).mul(3));
        await da.flush();
      }
    }
    const before = da.stats();
    b.iadd(da.wrap(new Float64Array([2, 0, -2, 5])).mul(3));
    await da.flush();
    a.iadd(da.wrap(new Float64Array([0.5, 0, 0, 0])).mul(3));
    await da.flush();
    expect(da.stats().plans).toBe(before.plans);
    expect(da.stats().stagePlansReused - before.stagePlansReused).toBe(2);
    expect(await data(a)).toEqual([8.5, 14, 21, 28]);
    expect(await data(b)).toEqual([22, 32, 42, 79]);
  });

  test('stages differing in a constant, a dtype or a window are planned apart', async () => {
    const x = da.wrap(new Float64Array(6));
    x.iadd(1);
    x.iadd(2);
    await da.flush();
    x.get('1:').iadd(1);
    await da.flush();
    x.get(':-1').iadd(1);
    await da.flush();
    x.iadd(da.wrap(new Int32Array([1, 2, 3, 4, 5, 6])));
    await da.flush();
    expect(await data(x)).toEqual([5, 7, 8, 9, 10, 10]);
  });

  test(`at most ${TEMPLATES} structures are kept`, async () => {
    const x = da.wrap(new Float64Array(4));
    for (let k = 0; k < TEMPLATES + 10; k++) {
      x.iadd(k + 0.5);
      await da.flush();
    }
    expect(da.stats().caches.stagePlans).toBeLessThanOrEqual(TEMPLATES);
    expect((await data(x))[0]).toBe(((TEMPLATES + 10) * (TEMPLATES + 9)) / 2 + (TEMPLATES + 10) * 0.5);
  });
});

describe('versions written over the one they replace', () => {
  test('a write whose kernel reads the old version at other elements never goes over it', async () => {
    const x = da.wrap(Float64Array.from({ length: 9 }, (_, i) => i * i));
    const model = Array.from({ length: 9 }, (_, i) => i * i);
    const before = da.stats().writtenOver;
    for (let s = 0; s < 5; s++) {
      // Each reads the version before it shifted by one: a stage of its own, read where it is not written.
      x.get('1:').iadd(x.get(':-1'));
      const old = [...model];
      for (let i = 1; i < 9; i++) model[i] = old[i]! + old[i - 1]!;
    }
    await da.flush();
    expect(da.stats().writtenOver).toBe(before);
    expect(await data(x)).toEqual(model);
  });

  test('a version that a later kernel of its stage reads keeps its block until that kernel has run', async () => {
    const x = da.wrap(Float64Array.from({ length: 8 }, (_, i) => i + 1));
    const y = da.wrap(new Float64Array(8));
    // Stage 1 writes x v1 (a slice assignment); stage 2 writes x v2 over it, and y from v1 shifted.
    x.get('1:').imul(10);
    const old = x.get(':-1').add(0);
    x.imul(2);
    y.get('1:').assign(old);
    await da.flush();
    const v1 = [1, 20, 30, 40, 50, 60, 70, 80];
    expect(await data(x)).toEqual(v1.map((v) => v * 2));
    expect(await data(y)).toEqual([0, ...v1.slice(0, -1)]);
  });

  test('a version read after the force is never written over', async () => {
    const x = da.wrap(Float64Array.from({ length: 6 }, (_, i) => i));
    x.get('1:').iadd(1);
    const mid = x.mul(1);
    x.imul(3);
    const [m, r] = (await da.execute([mid, x])) as da.StdNdarray[];
    expect(Array.from(m!.data as Float64Array)).toEqual([0, 2, 3, 4, 5, 6]);
    expect(Array.from(r!.data as Float64Array)).toEqual([0, 6, 9, 12, 15, 18]);
  });
});
