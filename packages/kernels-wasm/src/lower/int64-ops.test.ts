// int64 and uint64 ops in the scalar loop against a bigint model of NumPy's
// rules, over every pair of special values: floor division and modulo
// (Python's signs; a zero divisor gives 0 and counts in the divide flag;
// MIN // -1 wraps), C's remainder (fmod), gcd (of the magnitudes, MIN's wrapping back), shifts (a
// count of 64 or more, read unsigned, gives 0, or -1 shifting a negative value
// right) and sign. simd-widths.test.ts checks the lanes against this loop.
import { compileKernel } from './compile.js';
import type { KBinary, KUnary, KernelSpec } from './kernel-spec.js';
import { instantiate, launch } from './launch.js';
import { noHost, testHeap } from './test-heap.js';

type T64 = 'int64' | 'uint64';

const SPECIALS: Record<T64, bigint[]> = {
  int64: [0n, 1n, -1n, 2n, -2n, 3n, -7n, 7n, 64n, 65n, 2n ** 32n, -(2n ** 32n) - 1n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, 2n ** 63n - 1n, -(2n ** 63n), 3037000499n],
  uint64: [0n, 1n, 2n, 3n, 7n, 63n, 64n, 65n, 2n ** 32n, 2n ** 53n + 1n, 2n ** 63n, 2n ** 63n - 1n, 2n ** 64n - 1n, 12345678901234567n],
};

const wrap = (t: T64, v: bigint): bigint => (t === 'int64' ? BigInt.asIntN(64, v) : BigInt.asUintN(64, v));
const abs = (v: bigint): bigint => (v < 0n ? -v : v);

/** NumPy's result for a (fn) b, and whether it divides by zero. */
function model(t: T64, fn: KBinary, a: bigint, b: bigint): { value: bigint; divide: boolean } {
  const at = (value: bigint, divide = false): { value: bigint; divide: boolean } => ({ value: wrap(t, value), divide });
  switch (fn) {
    case 'floorDivide': {
      if (b === 0n) return at(0n, true);
      const q = a / b;
      return at(a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q);
    }
    case 'mod': {
      if (b === 0n) return at(0n, true);
      const r = a % b;
      return at(r !== 0n && (r < 0n) !== (b < 0n) ? r + b : r);
    }
    case 'fmod': return b === 0n ? at(0n, true) : at(a % b); // C's truncated remainder, as bigint's %
    case 'gcd': {
      let [x, y] = [abs(a), abs(b)];
      while (y !== 0n) [x, y] = [y, x % y];
      return at(x);
    }
    case 'leftShift': return at(BigInt.asUintN(64, b) < 64n ? a << b : 0n);
    case 'rightShift': return at(BigInt.asUintN(64, b) < 64n ? a >> b : a < 0n ? -1n : 0n);
    default: throw new Error(`no model for ${fn}`);
  }
}

const binary = (t: T64, fn: KBinary): KernelSpec => ({
  ndim: 1,
  arrays: [{ dtype: t, role: 'in', inner: 'contiguous' }, { dtype: t, role: 'in', inner: 'contiguous' }, { dtype: t, role: 'out', inner: 'contiguous' }],
  body: [
    { op: 'load', array: 0, type: t }, { op: 'load', array: 1, type: t },
    { op: 'binary', fn, args: [0, 1], type: t }, { op: 'store', array: 2, arg: 2, type: t },
  ],
  slots: 0,
});

const unary = (t: T64, fn: KUnary): KernelSpec => ({
  ndim: 1,
  arrays: [{ dtype: t, role: 'in', inner: 'contiguous' }, { dtype: t, role: 'out', inner: 'contiguous' }],
  body: [{ op: 'load', array: 0, type: t }, { op: 'unary', fn, arg: 0, type: t }, { op: 'store', array: 1, arg: 1, type: t }],
  slots: 0,
});

/** Runs spec over the inputs; returns the output and the launch's flags. */
function run(spec: KernelSpec, t: T64, inputs: bigint[][]): { out: bigint[]; divide: number } {
  const heap = testHeap();
  const n = inputs[0]!.length;
  const View = t === 'int64' ? BigInt64Array : BigUint64Array;
  const ptrs = spec.arrays.map(() => heap.alloc(n * 8));
  inputs.forEach((xs, k) => { new View(heap.memory.buffer, ptrs[k]!, n).set(xs); });
  const compiled = compileKernel(spec);
  const fn = instantiate(compiled, heap.memory, { hostFunction: noHost });
  const r = launch(compiled, heap, fn, { shape: [n], arrays: ptrs.map((ptr) => ({ ptr, strides: [1] })) });
  return { out: Array.from(new View(heap.memory.buffer, ptrs[inputs.length]!, n)), divide: r.flags.divide };
}

describe('int64 and uint64 ops in the scalar loop, against NumPy\'s rules', () => {
  const types: T64[] = ['int64', 'uint64'];
  test.each(types.flatMap((t) => (['floorDivide', 'mod', 'fmod', 'gcd', 'leftShift', 'rightShift'] as const).map((fn) => [t, fn] as const)))('%s %s over every pair of specials', (t, fn) => {
    const s = SPECIALS[t];
    const a = s.flatMap((x) => s.map(() => x));
    const b = s.flatMap(() => s);
    const spec = binary(t, fn);
    const { out, divide } = run(spec, t, [a, b]);
    expect(compileKernel(spec).lanes).toBeUndefined();
    const want = a.map((x, i) => model(t, fn, x, b[i]!));
    expect(out.map(String)).toEqual(want.map((w) => String(w.value)));
    expect(divide).toBe(want.filter((w) => w.divide).length);
  });

  test.each(types)('%s sign: -1, 0 or 1 in the type', (t) => {
    const s = SPECIALS[t];
    const { out } = run(unary(t, 'sign'), t, [s]);
    expect(out.map(String)).toEqual(s.map((x) => String(wrap(t, x > 0n ? 1n : x < 0n ? -1n : 0n))));
  });
});
