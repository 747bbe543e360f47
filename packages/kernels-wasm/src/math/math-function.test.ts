import { ModuleBuilder } from '../encode/module-builder.js';
import { MATH_ARITY, MATH_FNS, isMathAvailable, mathFunction } from './index.js';
import type { MathFn } from './index.js';
import { buildMathModule, createMathRunner } from './harness.js';
import { sampleInputs } from './sample-inputs.js';

const LANES = ['f64x2', 'f32x4'] as const;
const available = MATH_FNS.filter((fn) => isMathAvailable(fn, 'f64x2'));
const missing = MATH_FNS.filter((fn) => !isMathAvailable(fn, 'f64x2'));

describe('mathFunction', () => {
  test('MATH_ARITY lists the 26 functions; pow, atan2, hypot, logaddexp, logaddexp2 and fmod take two operands', () => {
    expect(MATH_FNS).toHaveLength(26);
    expect(MATH_FNS.filter((fn) => MATH_ARITY[fn] === 2).sort()).toEqual(['atan2', 'fmod', 'hypot', 'logaddexp', 'logaddexp2', 'pow']);
  });

  test('exp, log, sin and cos are available for both lane types', () => {
    for (const fn of ['exp', 'log', 'sin', 'cos'] as const) {
      for (const lanes of LANES) expect(isMathAvailable(fn, lanes)).toBe(true);
    }
  });

  test.each(available.flatMap((fn) => LANES.map((lanes) => [fn, lanes] as const)))('%s %s builds a valid module', (fn, lanes) => {
    expect(WebAssembly.validate(new Uint8Array(buildMathModule(fn, lanes)))).toBe(true);
  });

  // Kernels write each routine into their vector loop; the harness and the scalar tail call it.
  test.each(available.flatMap((fn) => LANES.map((lanes) => [fn, lanes] as const)))('%s %s: written inline, bit for bit as called', (fn, lanes) => {
    const Ctor = lanes === 'f64x2' ? Float64Array : Float32Array;
    const [a, b] = sampleInputs(fn, lanes === 'f64x2' ? 'float64' : 'float32', 4096, 7);
    const [x, y] = [Ctor.from(a), b && Ctor.from(b)];
    const called = createMathRunner(fn, lanes).run(x, y);
    const inline = createMathRunner(fn, lanes, { inline: true }).run(x, y);
    const bits = (v: Float64Array | Float32Array): Uint32Array => new Uint32Array(v.buffer, v.byteOffset, v.byteLength / 4);
    expect(bits(inline)).toEqual(bits(called));
    expect(buildMathModule(fn, lanes, { inline: true })).not.toEqual(buildMathModule(fn, lanes));
  });

  // A result must not depend on the lanes beside it (a kernel's vectors start where its blocks
  // do, so a shifted view groups elements differently): inputs shifted by one give results shifted by one, though
  // each element then shares its vector with others, and vectors take the other side of a short form's branch.
  test.each(available.flatMap((fn) => LANES.map((lanes) => [fn, lanes] as const)))('%s %s: each lane independent of the lanes beside it', (fn, lanes) => {
    const Ctor = lanes === 'f64x2' ? Float64Array : Float32Array;
    // The domain samples (hard regions, special values), then ordinary values of [1, 100] (where the
    // short forms serve, rare among the samples), then the two interleaved: vectors of each kind and mixed.
    const [a, b] = sampleInputs(fn, lanes === 'f64x2' ? 'float64' : 'float32', 2048, 11);
    const ordinary = (k: number): number => 1 + ((k * 0.6180339887498949) % 1) * 99;
    const mixed = (samples: Float64Array, salt: number): number[] => {
      const v = Array.from(samples);
      return [...v, ...v.map((_, k) => ordinary(k + salt)), ...v.flatMap((u, k) => [u, ordinary(k + salt + 7)])];
    };
    const [x, y] = [Ctor.from(mixed(a, 0)), b && Ctor.from(mixed(b, 3))];
    const runner = createMathRunner(fn, lanes, { inline: true });
    const shifted = <T extends Float64Array | Float32Array>(v: T): T => {
      const out = v.slice() as T;
      out.set(v.subarray(1));
      out[v.length - 1] = v[0]!;
      return out;
    };
    const bits = (v: Float64Array | Float32Array): Uint32Array => new Uint32Array(v.buffer, v.byteOffset, v.byteLength / 4);
    // Element i + 1 moves to lane i: every vector pairs it with other elements.
    expect(bits(runner.run(shifted(x), y && shifted(y)))).toEqual(bits(shifted(runner.run(x, y))));
  });

  test('memoises per (module, fn, lanes) and keeps the function internal', () => {
    const m = new ModuleBuilder();
    const a = mathFunction(m, 'sin', 'f64x2');
    expect(mathFunction(m, 'sin', 'f64x2')).toBe(a);
    const b = mathFunction(m, 'sin', 'f32x4');
    const c = mathFunction(m, 'cos', 'f64x2');
    expect(new Set([a, b, c]).size).toBe(3);
    // A second module starts afresh.
    expect(mathFunction(new ModuleBuilder(), 'sin', 'f64x2')).toBe(0);
    const bytes = new Uint8Array(m.toBytes());
    expect(WebAssembly.validate(bytes)).toBe(true);
    expect(WebAssembly.Module.exports(new WebAssembly.Module(bytes))).toEqual([]);
  });

  test('the Payne-Hanek helpers are shared by sin and cos in one module', () => {
    const m = new ModuleBuilder().importMemory({ module: 'env', name: 'memory', initial: 1, maximum: 2, shared: false });
    mathFunction(m, 'sin', 'f64x2');
    const afterSin = mathFunction(m, 'exp', 'f64x2');
    mathFunction(m, 'cos', 'f64x2');
    // sin added itself, the digit table and the reduction (3), exp one; cos adds only itself.
    expect(afterSin).toBe(3);
    expect(mathFunction(m, 'log', 'f64x2')).toBe(5);
  });

  test('a function that reads lookup tables (log, atan) needs a module with memory, and says so', () => {
    expect(() => mathFunction(new ModuleBuilder(), 'log', 'f64x2')).toThrow('the module has no memory, so it has no lookup tables; import a memory first');
    expect(() => mathFunction(new ModuleBuilder(), 'atan', 'f64x2')).toThrow('import a memory first');
  });

  test('comes after imported functions in the index space', () => {
    const m = new ModuleBuilder();
    m.importFunction('env', 'f', ['f64'], ['f64']);
    expect(mathFunction(m, 'exp', 'f64x2')).toBe(1);
  });

  test('rejects unknown names and lane types', () => {
    const m = new ModuleBuilder();
    expect(() => mathFunction(m, 'erf' as MathFn, 'f64x2')).toThrow(/unknown function 'erf'/);
    expect(() => mathFunction(m, 'exp', 'i32x4' as 'f64x2')).toThrow(/lanes must be/);
    expect(isMathAvailable('erf' as MathFn, 'f64x2')).toBe(false);
  });

  test.each(missing.length > 0 ? missing : ['(none)'])('%s: not done yet, so unavailable and refused', (fn) => {
    if (fn === '(none)') return;
    for (const lanes of LANES) {
      expect(isMathAvailable(fn as MathFn, lanes)).toBe(false);
      expect(() => mathFunction(new ModuleBuilder(), fn as MathFn, lanes)).toThrow(/not implemented yet/);
    }
  });
});
