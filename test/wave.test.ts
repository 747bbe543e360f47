// The PyOP2 wave example (examples/wave.ts): its values against the reference
// evaluator and a plain loop, the trace DAG of one step, and partial forcing.
import { afterEach, describe, expect, test } from '@jest/globals';
import * as da from 'deferred-array';
import { initialValues, makeWave, step, stepLoop } from '../examples/wave.js';

const flat = (r: da.StdNdarray, n: number): number[] => Array.from({ length: n * n }, (_, k) => r.get(Math.floor(k / n), k % n) as number);

afterEach(async () => {
  await da.flush();
  da.configure({ backend: 'wasm' });
});

describe('the wave example', () => {
  test.each([17, 40])('n = %i: 6 steps equal the reference evaluator and the plain loop, bit for bit', async (n) => {
    const run = async (backend: 'wasm' | 'reference') => {
      da.configure({ backend });
      const w = makeWave(n);
      for (let s = 0; s < 6; s++) step(w);
      return [flat((await w.phi.execute()) as da.StdNdarray, n), flat((await w.p.execute()) as da.StdNdarray, n)];
    };
    const ours = await run('wasm');
    const reference = await run('reference');
    const v = initialValues(n);
    for (let s = 0; s < 6; s++) stepLoop(v.phi, v.p, n, v.h, v.dt);
    expect(ours).toEqual(reference);
    expect(ours).toEqual([Array.from(v.phi), Array.from(v.p)]);
    // It is a wave, not zeros: p picked up the Laplacian.
    expect(ours[1]!.some((x) => x !== 0)).toBe(true);
  });

  test('the trace of one step: each statement depends on the one before', () => {
    const w = makeWave(12);
    step(w);
    const t = da.trace();
    expect(t.pending).toBe(3);
    const [c0, c1, c2] = t.computations;
    const phi = c0!.writes;
    const p = c1!.writes;
    expect(c2!.writes).toBe(phi);
    expect(c1!.label).toMatch(/\.reshape\(12, 12\)\[1:11, 1:11\] -= float64\(10, 10\)$/);
    // p's update reads the phi c0 wrote; the second phi update reads the p c1 wrote (and phi from c0).
    expect(c1!.dependsOn).toEqual([{ id: c0!.id, kind: 'RAW' }]);
    expect(c2!.dependsOn).toEqual([{ id: c0!.id, kind: 'RAW' }, { id: c1!.id, kind: 'RAW' }]);
    expect(t.toDot()).toContain(`c${c1!.id} -> c${c2!.id} [label="RAW ${p.split(' ')[0]}"]`);
  });

  test('forcing p runs the first two statements and leaves the last update of phi pending', async () => {
    const w = makeWave(12);
    step(w);
    await w.p.execute();
    const t = da.trace();
    expect(t.pending).toBe(1);
    expect(t.computations[0]!.label).toMatch(/ -= float64\(144,\)$/);
    const v = initialValues(12);
    stepLoop(v.phi, v.p, 12, v.h, v.dt);
    expect(flat((await w.phi.execute()) as da.StdNdarray, 12)).toEqual(Array.from(v.phi));
    expect(da.trace().pending).toBe(0);
  });

  test('a time loop flushed every step plans its stages in its first steps only, and stays bit for bit the loop', async () => {
    const n = 20;
    const w = makeWave(n);
    for (let s = 0; s < 3; s++) {
      step(w);
      await da.flush();
    }
    const before = da.stats();
    for (let s = 0; s < 12; s++) {
      step(w);
      await da.flush();
    }
    const after = da.stats();
    expect(after.plans).toBe(before.plans);
    expect(after.stagePlansReused - before.stagePlansReused).toBeGreaterThanOrEqual(12);
    const v = initialValues(n);
    for (let s = 0; s < 15; s++) stepLoop(v.phi, v.p, n, v.h, v.dt);
    expect(flat((await w.phi.execute()) as da.StdNdarray, n)).toEqual(Array.from(v.phi));
    expect(flat((await w.p.execute()) as da.StdNdarray, n)).toEqual(Array.from(v.p));
  });

  test('one flush of many wave steps writes each version after the first stage over its predecessor', async () => {
    const n = 24;
    const w = makeWave(n);
    const before = da.stats().writtenOver;
    for (let s = 0; s < 10; s++) step(w);
    await da.flush();
    // Nine stages after the first, each writing phi and p over the versions the stage before wrote.
    expect(da.stats().writtenOver - before).toBeGreaterThanOrEqual(16);
    const v = initialValues(n);
    for (let s = 0; s < 10; s++) stepLoop(v.phi, v.p, n, v.h, v.dt);
    expect(flat((await w.phi.execute()) as da.StdNdarray, n)).toEqual(Array.from(v.phi));
    expect(flat((await w.p.execute()) as da.StdNdarray, n)).toEqual(Array.from(v.p));
  });
});
