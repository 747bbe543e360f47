import { expect, test } from '@jest/globals';
import type { KernelSpec } from './kernel-spec.js';
import { launchWork, workPerElement } from './work.js';

const f64 = { dtype: 'float64', role: 'in', inner: 'contiguous' } as const;
const out64 = { dtype: 'float64', role: 'out', inner: 'contiguous' } as const;

/** y = sin(x): two arrays and one transcendental. */
const SIN: KernelSpec = {
  ndim: 1, slots: 0, arrays: [f64, out64],
  body: [{ op: 'load', array: 0, type: 'float64' }, { op: 'unary', fn: 'sin', arg: 0, type: 'float64' }, { op: 'store', array: 1, arg: 1, type: 'float64' }],
};

test('a kernel\'s work counts its arrays and its transcendentals', () => {
  expect(workPerElement({ spec: SIN, hostKeys: [] })).toBe(2 + 16);
  expect(launchWork({ spec: SIN, hostKeys: [] }, 1000)).toBe(18_000);
});

test('a pinned temporary\'s own kernel counts in its consumer\'s work', () => {
  // z = t + x, with t = sin(x) pinned: the body reads t (array 1) as a temporary computed per block.
  const spec: KernelSpec = {
    ndim: 1, slots: 0, arrays: [f64, f64, out64],
    body: [
      { op: 'load', array: 0, type: 'float64' }, { op: 'load', array: 1, type: 'float64' },
      { op: 'binary', fn: 'add', args: [0, 1], type: 'float64' }, { op: 'store', array: 2, arg: 2, type: 'float64' },
    ],
    temps: [{ array: 1, kernel: SIN, out: 1 }],
  };
  expect(workPerElement({ spec, hostKeys: [] })).toBe(3 + 18);
});

test('an array read with inner stride 0 (a scalar constant) adds no work: it is not streamed', () => {
  // y = x * c + d, c and d scalars passed as arrays of stride 0.
  const c = { dtype: 'float64', role: 'in', inner: 'broadcast' } as const;
  const spec: KernelSpec = {
    ndim: 1, slots: 0, arrays: [f64, c, c, out64],
    body: [
      { op: 'load', array: 0, type: 'float64' }, { op: 'load', array: 1, type: 'float64' }, { op: 'load', array: 2, type: 'float64' },
      { op: 'binary', fn: 'multiply', args: [0, 1], type: 'float64' }, { op: 'binary', fn: 'add', args: [3, 2], type: 'float64' },
      { op: 'store', array: 3, arg: 4, type: 'float64' },
    ],
  };
  expect(workPerElement({ spec, hostKeys: [] })).toBe(2);
});
