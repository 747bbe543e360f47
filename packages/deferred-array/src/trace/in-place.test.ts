// In-place writes and the execution trace: program order, the forcing rule,
// overlapping operands, staleness, casting, atomicity and fusion across
// statements. Runs on every backend (the reference and pool projects too).
import { afterEach, describe, expect, test } from '@jest/globals';
import * as da from '../index.js';
import { toList as list } from '../../test/to-list.js';
import type { Nested } from '../../test/to-list.js';

const values = async (x: da.DeferredArray): Promise<Nested> => list(da.wrap((await x.execute()) as da.StdNdarray));
const f64 = (n: number) => da.arange(n, { dtype: 'float64' });

afterEach(async () => {
  await da.flush();
  da.configure({ errors: { divide: 'warn', invalid: 'warn' } });
});

describe('program order', () => {
  test('an expression built before a write reads the old values, and runs before the write while it is pending', async () => {
    const x = f64(5);
    const y = x.add(1);
    x.iadd(10);
    expect(da.trace().pending).toBe(1);
    expect(await values(y)).toEqual([1, 2, 3, 4, 5]);
    expect(da.trace().pending).toBe(1);
    expect(await values(x)).toEqual([10, 11, 12, 13, 14]);
    expect(da.trace().pending).toBe(0);
    // The old version is still held (one spare), so y still gives its values.
    expect(await values(y)).toEqual([1, 2, 3, 4, 5]);
    const z = x.mul(2);
    expect(await values(z)).toEqual([20, 22, 24, 26, 28]);
  });

  test('views follow their array (NumPy views); operations make new arrays', async () => {
    const x = f64(6);
    const v = x.get('::2');
    const e = x.add(0);
    x.imul(10);
    expect(await values(v)).toEqual([0, 20, 40]);
    expect(await values(e)).toEqual([0, 1, 2, 3, 4, 5]);
    v.iadd(1);
    expect(await values(x)).toEqual([1, 10, 21, 30, 41, 50]);
    // An in-place write to an expression makes it an array of its own.
    e.get('1:3').assign(-1);
    expect(await values(e)).toEqual([0, -1, -1, 3, 4, 5]);
    expect(await values(x)).toEqual([1, 10, 21, 30, 41, 50]);
  });

  test('set takes an index as get does, steps and negative steps included', async () => {
    const x = f64(12).reshape([3, 4]);
    x.set('::2, ::-3', da.array([100, 200]));
    x.set(1, 7);
    expect(await values(x)).toEqual([[200, 1, 2, 100], [7, 7, 7, 7], [200, 9, 10, 100]]);
  });

  test('executing an array reads nothing stale once its old values are gone', async () => {
    const x = f64(3);
    // Until its first write an array's values are its immutable source, which never goes stale.
    x.iadd(0);
    const y = x.add(1);
    for (let i = 0; i < 4; i++) {
      x.iadd(1);
      await x.execute();
    }
    await expect(y.execute()).rejects.toThrow(da.StaleArrayError);
    await expect(y.execute()).rejects.toThrow(/A\d+ float64\(3,\): version 1 of this array is no longer held \(it is now at version 5\)/);
    // An in-place write reading such values is refused when it is made, and enqueues nothing.
    const t = da.zeros([3]);
    expect(() => t.iadd(y)).toThrow(da.StaleArrayError);
    expect(da.trace().pending).toBe(0);
  });
});

describe('the forcing rule', () => {
  test('forcing runs exactly the computations the request needs', async () => {
    const a = f64(4);
    const b = f64(4);
    const c = f64(4);
    a.iadd(1); // c0
    b.iadd(a); // c1: reads a
    c.iadd(1); // c2: unrelated
    a.imul(2); // c3: writes what c1 read
    expect(da.trace().pending).toBe(4);
    expect(await values(b)).toEqual([1, 3, 5, 7]);
    // b needed c1, which needed c0; c2 and c3 stay.
    expect(da.trace().pending).toBe(2);
    expect(await values(a)).toEqual([2, 4, 6, 8]);
    expect(da.trace().pending).toBe(1);
    await da.flush();
    expect(da.trace().pending).toBe(0);
    expect(await values(c)).toEqual([1, 2, 3, 4]);
  });

  test('a write after a pending read forces the read first (write after read)', async () => {
    const a = f64(3);
    const b = da.zeros([3]);
    b.assign(a.mul(10)); // c0 reads a@0
    a.iadd(1); // c1 writes a
    expect(await values(a)).toEqual([1, 2, 3]);
    // Forcing a ran c1; c0 reads a's version before it, so it is not needed and waits.
    expect(da.trace().pending).toBe(1);
    expect(await values(b)).toEqual([0, 10, 20]);
  });

  test('trace() lists computations, their dependencies and draws the DAG', () => {
    const a = f64(3);
    const b = f64(3);
    a.iadd(1);
    b.iadd(a);
    a.isub(b);
    const t = da.trace();
    expect(t.pending).toBe(3);
    const [c0, c1, c2] = t.computations;
    expect(c1!.dependsOn).toEqual([{ id: c0!.id, kind: 'RAW' }]);
    expect(c2!.dependsOn).toEqual([{ id: c0!.id, kind: 'RAW' }, { id: c1!.id, kind: 'RAW' }]);
    expect(c2!.label).toBe(`${c2!.writes} -= float64(3,)`);
    const dot = t.toDot();
    expect(dot).toMatch(/^digraph trace \{/);
    expect(dot).toContain(`c${c0!.id} -> c${c1!.id} [label="RAW`);
    expect(String(a)).toContain('stored');
  });
});

describe('overlapping operands behave as if copied first', () => {
  test('x[1:] += x[:-1]', async () => {
    const x = f64(6);
    x.get('1:').iadd(x.get(':-1'));
    expect(await values(x)).toEqual([0, 1, 3, 5, 7, 9]);
  });

  test('x += x.T and x[::-1] = x', async () => {
    const m = f64(9).reshape([3, 3]);
    m.iadd(m.T);
    expect(await values(m)).toEqual([[0, 4, 8], [4, 8, 12], [8, 12, 16]]);
    const r = f64(5);
    r.assign(r.get('::-1'));
    expect(await values(r)).toEqual([4, 3, 2, 1, 0]);
  });
});

describe('casting and shapes', () => {
  test("in-place ufuncs use 'same_kind' casting; assignment casts unsafely", async () => {
    const i = da.arange(4);
    expect(() => i.iadd(0.5)).toThrow(da.DTypeError);
    expect(() => i.idiv(2)).toThrow(/same_kind/);
    i.iadd(2);
    i.assign(da.array([1.9, -1.9, 2.5, 3]));
    expect(await values(i)).toEqual([1, -1, 2, 3]);
    const f = da.zeros([2], { dtype: 'float32' });
    f.iadd(da.array([1e-10, 1]));
    expect(f.dtype).toBe('float32');
    expect(await values(f)).toEqual([Math.fround(1e-10), 1]);
    expect(() => da.arange(3, { dtype: 'uint8' }).assign(300)).toThrow(RangeError);
  });

  test('the operand must broadcast to the target; broadcast views are read-only', () => {
    const x = da.zeros([2, 3]);
    expect(() => x.iadd(da.zeros([3, 3]))).toThrow(da.ShapeError);
    expect(() => x.get(0).iadd(da.zeros([2, 3]))).toThrow(/does not fit/);
    expect(() => x.set('0', da.zeros([4]))).toThrow(da.ShapeError);
    expect(() => x.get(0).broadcastTo([4, 3]).assign(1)).toThrow(/read-only/);
    expect(() => x.set(5, 1)).toThrow();
    expect(() => (x as unknown as { set(i: string): void }).set('0')).toThrow(TypeError);
    expect(da.trace().pending).toBe(0);
  });

  test('empty and 0-d arrays', async () => {
    const e = da.zeros([0, 3]);
    e.iadd(1);
    expect(await values(e)).toEqual([]);
    const s = da.array(2);
    s.imul(s);
    s.iadd(1);
    expect(await values(s)).toEqual(5);
  });
});

describe('atomicity', () => {
  test('a force that fails leaves every array it was to write as it was, and its computations pending', async () => {
    da.configure({ errors: { divide: 'raise' } });
    const x = da.arange(4);
    const y = da.arange(4);
    x.set('1:', 5); // its own stage
    y.assign(x.floorDivide(da.array([1, 0, 1, 1], { dtype: 'int32' }))); // reads x's slice-assigned version: the next stage, which raises
    await expect(y.execute()).rejects.toThrow(da.ExecutionError);
    expect(da.trace().pending).toBe(2);
    da.configure({ errors: { divide: 'ignore' } });
    expect(await values(y)).toEqual([0, 0, 5, 5]);
    expect(await values(x)).toEqual([0, 5, 5, 5]);
  });

  test('executeSync fails the same way', () => {
    da.configure({ errors: { divide: 'raise' } });
    const x = da.arange(3);
    x.iadd(1);
    x.assign(x.floorDivide(0));
    expect(() => x.executeSync()).toThrow(da.ExecutionError);
    da.configure({ errors: { divide: 'ignore' } });
    da.flushSync();
    expect(list(x)).toEqual([0, 0, 0]);
  });
});

describe('fusion across statements and recycling', () => {
  test('writes over one space fuse into one kernel, and a loop allocates nothing after its first steps', async () => {
    const backend = da.configure().backend;
    const phi = da.zeros([64, 64]);
    const p = da.ones([64, 64]);
    const step = () => {
      phi.isub(p.mul(0.5));
      p.iadd(phi.mul(0.25));
      phi.isub(p.mul(0.5));
    };
    for (let i = 0; i < 3; i++) {
      step();
      await da.flush();
    }
    const heap = da.heapStats().liveAllocations;
    const before = da.stats().steps;
    for (let i = 0; i < 5; i++) {
      step();
      await da.flush();
    }
    expect(da.heapStats().liveAllocations).toBe(heap);
    // Three statements, each a direct dependant of the one before, over one space: one kernel per step.
    if (backend === 'wasm') expect(da.stats().steps - before).toBe(5);
    const want = (() => {
      const a = new Float64Array(64 * 64);
      const b = new Float64Array(64 * 64).fill(1);
      for (let s = 0; s < 8; s++) {
        for (let i = 0; i < a.length; i++) {
          a[i] = a[i]! - b[i]! * 0.5;
          b[i] = b[i]! + a[i]! * 0.25;
          a[i] = a[i]! - b[i]! * 0.5;
        }
      }
      return a;
    })();
    const got = (await phi.execute()) as da.StdNdarray;
    expect(Array.from({ length: 64 * 64 }, (_, i) => got.get(Math.floor(i / 64), i % 64))).toEqual(Array.from(want));
  });
});
