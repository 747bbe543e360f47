// unsharedKernel (compile.ts): a kernel built again to import an unshared
// memory runs there with the bits and partials the kernel gives on the
// shared heap (its vector-math tables written by its own data segment), is
// built once per kernel, and is the kernel itself where the heap is not
// shared.
import { describe, expect, test } from '@jest/globals';
import { compileKernel, unsharedKernel } from './compile.js';
import type { KernelSpec } from './kernel-spec.js';
import { instantiate } from './launch.js';
import type { Launch } from './launch.js';
import { fixLaunch, runFixed } from './fixed-launch.js';
import { noHost, testHeap } from './test-heap.js';
import { heapIsShared } from '../support.js';

/** out = sin(a) * 2 + b, and the sum of out in slot 0. */
const SPEC: KernelSpec = {
  ndim: 1,
  arrays: [{ dtype: 'float64', role: 'in', inner: 'contiguous' }, { dtype: 'float64', role: 'in', inner: 'contiguous' }, { dtype: 'float64', role: 'out', inner: 'contiguous' }],
  body: [
    { op: 'load', array: 0, type: 'float64' },
    { op: 'unary', fn: 'sin', arg: 0, type: 'float64' },
    { op: 'const', value: 2, type: 'float64' },
    { op: 'binary', fn: 'multiply', args: [1, 2], type: 'float64' },
    { op: 'load', array: 1, type: 'float64' },
    { op: 'binary', fn: 'add', args: [3, 4], type: 'float64' },
    { op: 'store', array: 2, arg: 5, type: 'float64' },
    { op: 'reduce', fn: 'sum', arg: 5, slot: 0, type: 'float64' },
  ],
  slots: 1,
};

/** The kernel over `n` elements on a memory shared or not: its output's bits and its partials. */
function runOn(shared: boolean, n: number): { out: string[]; partials: number[] } {
  const heap = testHeap(16, shared);
  const kernel = shared ? compileKernel(SPEC) : unsharedKernel(compileKernel(SPEC));
  const put = (f: (i: number) => number): number => {
    const p = heap.alloc(n * 8);
    heap.f64(p, n).set(Array.from({ length: n }, (_, i) => f(i)));
    return p;
  };
  const special = [NaN, -0, Infinity, -Infinity, 1e300, 5e-324];
  const a = put((i) => (i % 9 === 4 ? special[i % special.length]! : (i - n / 2) * 0.37));
  const b = put((i) => (i % 7) * 0.125 - 0.5);
  const out = heap.alloc(n * 8);
  const l: Launch = { shape: [n], arrays: [0, 1, 2].map(() => ({ ptr: 0, strides: [1] })), blockSize: 1024 };
  const fixed = fixLaunch(kernel, l);
  const r = runFixed(fixed, heap.memory, instantiate(kernel, heap.memory, { hostFunction: noHost }), heap.alloc(fixed.bytes), [a, b, out]);
  return {
    out: Array.from(new BigUint64Array(heap.memory.buffer, out, n), (v) => v.toString(16)),
    partials: Array.from(r.partials.subarray(0, fixed.blocks)),
  };
}

describe('unsharedKernel', () => {
  test.each([0, 1, 3, 1023, 1024, 5000])('over %i elements on an unshared memory: the shared kernel\'s bits and partials', (n) => {
    const shared = runOn(true, n);
    const unshared = runOn(false, n);
    expect(unshared.out).toEqual(shared.out);
    expect(unshared.partials.map((p) => p.toString())).toEqual(shared.partials.map((p) => p.toString()));
  });

  test('is built once per kernel, with its id and hash; the shared kernel does not link to an unshared memory', () => {
    const kernel = compileKernel(SPEC);
    const twin = unsharedKernel(kernel);
    expect(unsharedKernel(kernel)).toBe(twin);
    if (!heapIsShared()) {
      expect(twin).toBe(kernel);
      return;
    }
    expect(twin).not.toBe(kernel);
    expect([twin.id, twin.hash, twin.lanes]).toEqual([kernel.id, kernel.hash, kernel.lanes]);
    const memory = new WebAssembly.Memory({ initial: 4, maximum: 65536 });
    expect(() => new WebAssembly.Instance(kernel.module, { env: { memory } })).toThrow(WebAssembly.LinkError);
  });
});
