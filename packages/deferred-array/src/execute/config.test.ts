import { jest } from '@jest/globals';
import * as da from '../index.js';

const ints = (x: unknown): number[] => Array.from((x as da.StdNdarray).data as Int32Array);

describe('configure', () => {
  afterEach(() => da.configure({ errors: { divide: 'warn', invalid: 'warn' } }));

  test('returns the configuration in force', () => {
    const c = da.configure();
    // Node 20 has WebAssembly SIMD and shared memory; the 'reference' jest project asks for the evaluator.
    expect(c.backend).toBe(process.env['DEFERRED_ARRAY_BACKEND'] ?? 'wasm');
    expect(c.threads).toBeGreaterThanOrEqual(1);
    expect(c.errors).toEqual({ divide: 'warn', invalid: 'warn' });
    expect(da.configure({ threads: 3 }).threads).toBe(3);
  });

  test('every option is validated, naming the option', () => {
    expect(() => da.configure({ threads: 0 })).toThrow(/option threads/);
    expect(() => da.configure({ threads: 2.5 })).toThrow(RangeError);
    expect(() => da.configure({ backend: 'gpu' as never })).toThrow(/option backend/);
    expect(() => da.configure({ errors: { divide: 'loud' as never } })).toThrow(/errors.divide/);
    expect(() => da.configure({ errors: { overflow: 'raise' } as never })).toThrow(/errors.overflow/);
    expect(() => da.configure({ colour: 'red' } as never)).toThrow(/unknown option 'colour'/);
    expect(() => da.configure(null as never)).toThrow(TypeError);
  });

  test('the backend can be switched both ways', () => {
    const initial = da.configure().backend;
    expect(da.configure({ backend: 'reference' }).backend).toBe('reference');
    expect(da.stats().backend).toBe('reference');
    expect(da.configure({ backend: 'wasm' }).backend).toBe('wasm');
    expect(da.stats().backend).toBe('wasm');
    da.configure({ backend: initial });
  });
});

describe('error policy for integer division by zero', () => {
  afterEach(() => da.configure({ errors: { divide: 'warn', invalid: 'warn' } }));
  const x = () => da.array([7, -7, 3], { dtype: 'int32' });
  const y = () => da.array([0, 2, 0], { dtype: 'int32' });

  test("'ignore' gives 0 where the divisor is 0, like NumPy", () => {
    da.configure({ errors: { divide: 'ignore' } });
    expect(ints(da.floorDivide(x(), y()).executeSync())).toEqual([0, -4, 0]);
    expect(ints(da.mod(x(), y()).executeSync())).toEqual([0, 1, 0]);
    expect(ints(da.reciprocal(da.array([0, 1, -1, 2], { dtype: 'int32' })).executeSync())).toEqual([0, 1, -1, 0]);
  });

  test("'raise' rejects with an ExecutionError naming the op and the count", async () => {
    da.configure({ errors: { divide: 'raise' } });
    await expect(da.floorDivide(x(), y()).execute()).rejects.toThrow(/integer division by zero in floorDivide \(2 element/);
    expect(() => da.mod(x(), 0).executeSync()).toThrow(da.ExecutionError);
  });

  test("'warn' (the default) emits one RuntimeWarning per execute", () => {
    const spy = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      expect(ints(da.floorDivide(x(), y()).executeSync())).toEqual([0, -4, 0]);
      expect(spy).toHaveBeenCalledTimes(1);
      expect(String(spy.mock.calls[0]![0])).toMatch(/division by zero/);
    } finally {
      spy.mockRestore();
    }
  });

  test('float division by zero follows IEEE and raises nothing', () => {
    da.configure({ errors: { divide: 'raise' } });
    const r = (da.divide(da.array([1, -1, 0]), 0).executeSync() as da.StdNdarray).data as Float64Array;
    expect(Array.from(r)).toEqual([Infinity, -Infinity, NaN]);
  });

  test('integers to negative integer powers always raise, as in NumPy', () => {
    expect(() => da.power(da.array([2], { dtype: 'int32' }), -1).executeSync()).toThrow(/negative integer powers/);
  });
});

describe('error policy for invalid float-to-integer casts', () => {
  afterEach(() => da.configure({ errors: { divide: 'warn', invalid: 'warn' } }));
  const bad = () => da.array([NaN, Infinity, -Infinity, 3e9, -3e9, 2.9, -2.9]);

  test("'ignore': truncate, saturate, NaN to 0", () => {
    da.configure({ errors: { invalid: 'ignore' } });
    expect(ints(bad().astype('int32').executeSync())).toEqual([0, 2147483647, -2147483648, 2147483647, -2147483648, 2, -2]);
    const u8 = (bad().astype('uint8').executeSync() as da.StdNdarray).data as Uint8Array;
    expect(Array.from(u8)).toEqual([0, 255, 0, 255, 0, 2, 0]);
  });

  test("'raise' fails the execute and names the cast", () => {
    da.configure({ errors: { invalid: 'raise' } });
    expect(() => bad().astype('int32').executeSync()).toThrow(/astype\(int32\)/);
    // In-range values are not invalid.
    expect(ints(da.array([1.5, -0.5, 255]).astype('int32').executeSync())).toEqual([1, 0, 255]);
  });

  test('integer narrowing wraps and is never flagged', () => {
    da.configure({ errors: { invalid: 'raise' } });
    const r = da.array([256, -1, 300], { dtype: 'int32' }).astype('uint8').executeSync() as da.StdNdarray;
    expect(Array.from(r.data as Uint8Array)).toEqual([0, 255, 44]);
  });
});
