import * as da from '../index.js';

const values = (x: unknown): number[] => Array.from((x as da.StdNdarray).data as Float64Array);
const rec = (x: unknown): da.OutputRecord => x as da.OutputRecord;

describe('the NEP examples', () => {
  test('foo: degrees to radians, sum of squares, execute() returns the value', async () => {
    const degrees = [0, 30, 45, 60, 90, 180];
    const arr = da.wrap(new Float64Array(degrees));
    const foo = da.sum(da.square(da.multiply(arr, Math.PI / 180)));
    const result = (await foo.execute()) as da.StdNdarray;
    const expected = degrees.map((d) => (d * Math.PI) / 180).reduce((s, r) => s + r * r, 0);
    expect(result.shape).toEqual([]);
    expect(result.dtype).toBe('float64');
    expect(result.get()).toBeCloseTo(expected, 12);
  });

  test('bar: plus1.output(); plus2 = plus1 + 1; execute() returns { output_0, result }', async () => {
    const arr = da.array([1, 2, 3, 4]);
    const plus1 = arr.add(1).output();
    const plus2 = plus1.add(1);
    const r = rec(await plus2.execute());
    expect(Object.keys(r)).toEqual(['output_0', 'result']);
    expect(values(r['output_0'])).toEqual([2, 3, 4, 5]);
    expect(values(r['result'])).toEqual([3, 4, 5, 6]);
  });

  test('output() returns the array itself, for chaining', () => {
    const x = da.zeros([2]);
    expect(x.output()).toBe(x);
  });

  test('outputs come in the order of the output() calls, named or numbered', () => {
    const x = da.arange(3).astype('float64');
    const b = x.mul(2);
    const a = x.add(1);
    a.output();
    b.output('doubled');
    const c = x.sub(1).output();
    const r = rec(da.add(a, b).add(c).executeSync());
    expect(Object.keys(r)).toEqual(['output_0', 'doubled', 'output_1', 'result']);
    expect(values(r['output_0'])).toEqual([1, 2, 3]);
    expect(values(r['doubled'])).toEqual([0, 2, 4]);
    expect(values(r['output_1'])).toEqual([-1, 0, 1]);
    expect(values(r['result'])).toEqual([0, 4, 8]);
  });

  test('only marked arrays under the executed one are returned', () => {
    const x = da.array([1, 2]);
    x.add(100).output('elsewhere');
    expect(Object.keys(x.mul(3).executeSync() as object)).not.toContain('elsewhere');
  });

  test('executing a marked array itself returns it both as output and result', () => {
    const x = da.array([5]).add(1).output('me');
    const r = rec(x.executeSync());
    expect(values(r['me'])).toEqual([6]);
    expect(values(r['result'])).toEqual([6]);
  });

  test('da.execute([a, b]) plans several results together', async () => {
    const x = da.array([1, 2, 3]);
    const [a, b] = (await da.execute([x.add(1), x.mul(2)])) as da.StdNdarray[];
    expect(values(a)).toEqual([2, 3, 4]);
    expect(values(b)).toEqual([2, 4, 6]);
    const shared = x.neg().output('neg');
    const r = rec(await da.execute([shared.add(1), shared.mul(2)]));
    expect(Object.keys(r)).toEqual(['neg', 'result']);
    expect((r['result'] as da.StdNdarray[]).map(values)).toEqual([[0, -1, -2], [-2, -4, -6]]);
  });

  test('output names are validated', () => {
    const x = da.zeros([1]);
    expect(() => x.output('result')).toThrow(da.OutputNameError);
    expect(() => x.output('output_3')).toThrow(/reserved/);
    expect(() => x.output('')).toThrow(TypeError);
    expect(() => x.output(7 as unknown as string)).toThrow(TypeError);
  });

  test('two outputs with one name in one execute are refused at execute()', async () => {
    const x = da.array([1]);
    const a = x.add(1).output('same');
    const b = x.add(2).output('same');
    await expect(da.add(a, b).execute()).rejects.toThrow(/output\('same'\)/);
  });

  test('out= with a plain array is a TypeError (NEP); with a DeferredArray it is not supported yet', () => {
    const x = da.zeros([2]);
    expect(() => da.add(x, 1, { out: new Float64Array(2) })).toThrow(TypeError);
    expect(() => da.sin(x, { out: [0, 0] })).toThrow(/out must be a DeferredArray/);
    expect(() => da.add(x, 1, { out: da.zeros([2]) })).toThrow(da.NotSupportedError);
    expect(() => da.add(x, 1, { where: true } as never)).toThrow(/unknown option 'where'/);
  });

  test('execute() rejects (never throws synchronously) on run-time errors', async () => {
    da.configure({ errors: { divide: 'raise' } });
    try {
      const bad = da.floorDivide(da.array([1, 2], { dtype: 'int32' }), 0);
      const p = bad.execute();
      expect(p).toBeInstanceOf(Promise);
      await expect(p).rejects.toThrow(da.ExecutionError);
    } finally {
      da.configure({ errors: { divide: 'warn' } });
    }
  });
});

describe('results never share memory', () => {
  test('the same value returned twice, or reshaped, or as output and result, is copied', () => {
    const y = da.arange(3).mul(2);
    const [a, b, c] = da.executeSync([y, y.reshape([3, 1]), y]) as da.StdNdarray[];
    (a!.data as Float64Array)[0] = 99;
    expect(((b!.data) as Float64Array)[0]).toBe(0);
    expect(((c!.data) as Float64Array)[0]).toBe(0);
    const m = da.array([1, 2]).add(1).output('m');
    const r = rec(m.executeSync());
    ((r['m'] as da.StdNdarray).data as Float64Array)[0] = -1;
    expect(values(r['result'])).toEqual([2, 3]);
  });
});
