// How a launch is cut into blocks: by the data and the kernel, never by the
// worker count. A row kernel that computes more than it streams takes blocks
// a quarter the usual size, so that its launches share out evenly.
import { expect, test } from '@jest/globals';
import type { KernelSpec } from './kernel-spec.js';
import type { Launch } from './launch-types.js';
import { BLOCK_SIZE, HEAVY_BLOCK_SIZE, planBlocks } from './launch.js';

const f64 = { dtype: 'float64', role: 'in', inner: 'contiguous' } as const;
const out64 = { dtype: 'float64', role: 'out', inner: 'contiguous' } as const;

const unaryKernel = (fn: string): KernelSpec => ({
  ndim: 1, slots: 0, arrays: [f64, out64],
  body: [{ op: 'load', array: 0, type: 'float64' }, { op: 'unary', fn, arg: 0, type: 'float64' }, { op: 'store', array: 1, arg: 1, type: 'float64' }],
} as KernelSpec);

const n = 1 << 17;
const over = (blockSize?: number): Launch => ({ shape: [n], arrays: [{ ptr: 0, strides: [1] }, { ptr: 0, strides: [1] }], ...(blockSize ? { blockSize } : {}) });

test('a transcendental kernel takes HEAVY_BLOCK_SIZE, a streaming one BLOCK_SIZE, a launch\'s own block size wins', () => {
  expect(HEAVY_BLOCK_SIZE).toBeLessThan(BLOCK_SIZE);
  const sin = planBlocks({ spec: unaryKernel('sin'), hostKeys: [] }, over(), n, undefined);
  expect(sin.blockSize).toBe(HEAVY_BLOCK_SIZE);
  expect(sin.blocks).toBe(n / HEAVY_BLOCK_SIZE);
  const neg = planBlocks({ spec: unaryKernel('neg'), hostKeys: [] }, over(), n, undefined);
  expect(neg.blockSize).toBe(BLOCK_SIZE);
  expect(neg.blocks).toBe(n / BLOCK_SIZE);
  expect(planBlocks({ spec: unaryKernel('sin'), hostKeys: [] }, over(1000), n, undefined).blocks).toBe(Math.ceil(n / 1000));
});
