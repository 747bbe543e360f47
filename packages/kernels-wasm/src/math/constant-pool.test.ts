import { ConstantPool, MATH_CONSTANTS, constantAddress } from './constant-pool.js';
import { Emitter } from './emitter.js';
import { buildMathModule, createMathRunner } from './harness.js';
import { ModuleBuilder } from '../encode/module-builder.js';
import { disassemble } from '../encode/disassemble.js';
import { HEAP_BASE, MATH_CONSTANTS_BYTES, MATH_CONSTANTS_OFFSET, MATH_TABLES_OFFSET } from '../heap/constants.js';
import { MATH_FNS } from './registry.js';

const splat = (v: number): Uint8Array => new Uint8Array(new Float64Array([v, v]).buffer);
const bits = (a: Float64Array | Float32Array): string[] => Array.from(new BigUint64Array(Float64Array.from(a).buffer), (b) => b.toString(16));

describe('the constant pool', () => {
  test('one slot per distinct constant, given in order, never renumbered; a full pool says so', () => {
    const pool = new ConstantPool(3);
    expect(pool.slot(splat(1))).toBe(0);
    expect(pool.slot(splat(2))).toBe(1);
    expect(pool.slot(splat(1))).toBe(0);
    const before = pool.bytes(2);
    expect(pool.slot(splat(-0))).toBe(2); // -0 and 0 are different bytes
    expect(pool.slot(splat(0))).toBeUndefined();
    expect(pool.size).toBe(3);
    expect(Array.from(pool.bytes(2))).toEqual(Array.from(before));
    expect(Array.from(new Float64Array(pool.bytes(3).buffer))).toEqual([1, 1, 2, 2, -0, -0]);
  });

  test('bad input is refused with what to pass', () => {
    expect(() => new ConstantPool().slot(new Uint8Array(8))).toThrow('ConstantPool.slot: a v128 constant is 16 bytes; got 8');
    expect(() => new ConstantPool(MATH_CONSTANTS_BYTES)).toThrow(`capacity must be an integer in 0..${MATH_CONSTANTS_BYTES / 16}`);
  });

  test('the table lies between the control words and the heap, and the process-wide pool fits every math function', () => {
    expect(constantAddress(0)).toBe(MATH_CONSTANTS_OFFSET);
    expect(constantAddress(MATH_CONSTANTS.capacity)).toBe(MATH_TABLES_OFFSET);
    // Every function, both lane types, in one module: the pool must not be full (a full pool silently costs speed).
    for (const fn of MATH_FNS) {
      buildMathModule(fn, 'f64x2');
      buildMathModule(fn, 'f32x4');
    }
    expect(MATH_CONSTANTS.size).toBeGreaterThan(100);
    expect(MATH_CONSTANTS.size).toBeLessThan(MATH_CONSTANTS.capacity / 2);
  });
});

describe('math functions reading constants from memory', () => {
  test('a module using math loads its constants from the table and carries the segment that writes it', () => {
    const text = disassemble(buildMathModule('exp', 'f64x2'));
    expect(text).toContain(`v128.load align=16 offset=${MATH_CONSTANTS_OFFSET}`);
    expect(text).not.toContain('v128.const');
  });

  test('results are bit for bit the same with the table, with an empty one (all inline) and with one that fills midway', () => {
    const x = Float64Array.from({ length: 64 }, (_, i) => (i - 32) * 3.7 + 0.01 * i * i);
    for (const fn of ['exp', 'sin', 'tanh', 'atan'] as const) {
      const table = createMathRunner(fn, 'f64x2').run(x);
      expect(bits(createMathRunner(fn, 'f64x2', { pool: new ConstantPool(0) }).run(x))).toEqual(bits(table));
      expect(bits(createMathRunner(fn, 'f64x2', { pool: new ConstantPool(5) }).run(x))).toEqual(bits(table));
      const x32 = Float32Array.from(x);
      expect(bits(createMathRunner(fn, 'f32x4', { pool: new ConstantPool(7) }).run(x32))).toEqual(bits(createMathRunner(fn, 'f32x4').run(x32)));
    }
  });

  test('a constant first loaded inside a branch is loaded again on the path that skipped the branch', () => {
    // f(x) = (x > 0 ? x + c : x) + c: the first use of c is inside the `if`; a local kept
    // from there would read as zero when the branch is skipped.
    const m = new ModuleBuilder().importMemory({ module: 'env', name: 'memory', initial: 1, maximum: 2, shared: false });
    const pool = new ConstantPool();
    m.data(MATH_CONSTANTS_OFFSET, () => pool.bytes(pool.size));
    const [fIndex, f] = m.func('f', ['v128'], ['v128'], false);
    const e = new Emitter(f, (bytes) => constantAddress(pool.slot(bytes)!));
    const x = e.arg(0);
    const r = e.mutable(x);
    e.when(e.gt(x, e.f64(0)), () => e.assign(r, e.add(x, e.f64(10))));
    e.push(e.add(r, e.f64(10)));
    // apply(in, out): v128 values cannot cross into JS, so they go through memory.
    const [, g] = m.func('apply', ['i32', 'i32'], [], true);
    g.op('local.get', 1).op('local.get', 0).mem('v128.load').op('call', fIndex).mem('v128.store');
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 2 });
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(m.toBytes()), { env: { memory } });
    const apply = exports['apply'] as (a: number, b: number) => void;
    const io = new Float64Array(memory.buffer, HEAP_BASE, 4);
    const run = (a: number, b: number): number[] => {
      io.set([a, b]);
      apply(HEAP_BASE, HEAP_BASE + 16);
      return Array.from(io.subarray(2));
    };
    expect(run(-1, -2)).toEqual([9, 8]);
    expect(run(1, 2)).toEqual([21, 22]);
  });

  test('a branch body loads its own constants, not the locals kept before it (which would stay live across the code before it)', () => {
    const m = new ModuleBuilder().importMemory({ module: 'env', name: 'memory', initial: 1, maximum: 2, shared: false });
    const pool = new ConstantPool();
    const [, f] = m.func('f', ['v128'], ['v128'], true);
    const e = new Emitter(f, (bytes) => constantAddress(pool.slot(bytes)!));
    const x = e.arg(0);
    const r = e.mutable(e.add(x, e.f64(10)));
    e.when(e.gt(x, e.f64(0)), () => e.assign(r, e.add(r, e.f64(10))));
    e.push(e.add(r, e.f64(10)));
    const text = disassemble(m.toBytes());
    const at = `v128.load align=16 offset=${constantAddress(pool.slot(new Uint8Array(new Float64Array([10, 10]).buffer))!)}`;
    // Once before the branch (kept for the use after it), once inside.
    expect(text.split(at).length - 1).toBe(2);
    const inside = text.slice(text.indexOf('if'), text.indexOf('end', text.indexOf('if')));
    expect(inside).toContain(at);
  });
});
