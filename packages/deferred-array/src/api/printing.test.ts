import { inspect } from 'node:util';
import * as da from '../index.js';

describe('describing a graph never executes it', () => {
  const build = () => {
    const x = da.arange(12).reshape([3, 4]).astype('float32');
    const y = da.sin(x).mul(2).output('twice');
    return da.sum(y.add(x.T.get('::-1').T), { axis: 1 });
  };

  test('String, inspect, explain, toDot, shape, dtype, ndim, size run nothing', () => {
    const before = da.stats();
    const z = build();
    const text = String(z);
    const inspected = inspect(z);
    const plan = z.explain();
    const dot = z.toDot();
    expect([z.shape, z.dtype, z.ndim, z.size]).toEqual([[3], 'float32', 1, 3]);
    // explain() and toDot() make a plan (and count it); nothing runs or compiles.
    expect(da.stats()).toEqual({ ...before, plans: before.plans + 2 });
    expect(text).toBe(inspected);
    expect(text).toMatch(/^DeferredArray float32\(3,\), not executed/);
    expect(text).toContain("sin(");
    expect(text).toContain("<- output('twice')");
    expect(plan).toMatch(new RegExp(`plan on backend '${da.configure().backend}'`));
    expect(plan).toContain('output twice =');
    expect(dot).toMatch(/^digraph deferred \{/);
    expect(dot).toContain('peripheries=2');
    z.executeSync();
    expect(da.stats().runs).toBe(before.runs + 1);
  });

  test('the graph printer numbers nodes in topological order with shapes and dtypes', () => {
    const x = da.array([1, 2, 3], { dtype: 'int32' });
    const text = String(da.sum(x.mul(2.5)));
    expect(text.split('\n')).toEqual([
      'DeferredArray float64(), not executed (4 nodes)',
      '  %0 = source : int32(3,)',
      '  %1 = scalar {2.5} : float64()',
      '  %2 = multiply(%0, %1) : float64(3,)',
      '  %3 = sum(%2) {axes=[0]} : float64()',
    ]);
  });

  test('explain() shows steps, releases and memory traffic', () => {
    const x = da.zeros([1000]);
    const plan = x.add(1).mul(2).explain();
    // Two elementwise ops: two passes node by node, one fused kernel on the WebAssembly backend.
    expect(plan).toContain(da.configure().backend === 'wasm' ? '1 step(s) computing (1 fused kernel(s))' : '2 step(s) computing');
    expect(plan).toContain('(then release');
    expect(plan).toMatch(/memory traffic: .* \(eager, one array per op: .*\)/);
  });

  test('a shared subexpression is printed once', () => {
    const k = da.array([1, 2]).mul(3);
    const text = String(da.add(da.sin(k), da.cos(k)));
    expect(text.match(/multiply\(/g)).toHaveLength(1);
  });
});

describe('dispose', () => {
  test('a disposed handle refuses further use with DisposedError, results stay valid', () => {
    const x = da.array([1, 2]);
    const y = x.add(1);
    x.dispose();
    expect(() => x.add(1)).toThrow(da.DisposedError);
    expect(() => x.executeSync()).toThrow(/was disposed/);
    expect(String(x)).toBe('DeferredArray (disposed)');
    expect(Array.from((y.executeSync() as da.StdNdarray).data as Float64Array)).toEqual([2, 3]);
  });

  test('Symbol.dispose disposes (using declarations)', () => {
    const x = da.array([1]);
    x[Symbol.dispose]();
    expect(() => x.neg()).toThrow(da.DisposedError);
  });

  test('shutdown() resolves', async () => {
    await expect(da.shutdown()).resolves.toBeUndefined();
  });
});
