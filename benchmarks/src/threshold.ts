// Where the worker pool starts to pay: one kernel of a given size run on the
// calling thread, on the pool's workers, and on the calling thread with one
// worker fewer (a joined launch), for a streaming add and for sin, with the
// work units inlineThreshold compares (node benchmarks/dist/threshold.js).
import { compileKernel, createPool, defaultHeap, instantiate, launch, launchOnPool, launchWork } from 'kernels-wasm';
import type { KernelSpec } from 'kernels-wasm';
import { timeAsync } from './timing.js';

const c = 'contiguous' as const;
const SPECS: Record<string, KernelSpec> = {
  'a + b': {
    ndim: 1, slots: 0,
    arrays: [{ dtype: 'float64', role: 'in', inner: c }, { dtype: 'float64', role: 'in', inner: c }, { dtype: 'float64', role: 'out', inner: c }],
    body: [
      { op: 'load', array: 0, type: 'float64' }, { op: 'load', array: 1, type: 'float64' },
      { op: 'binary', fn: 'add', args: [0, 1], type: 'float64' }, { op: 'store', array: 2, arg: 2, type: 'float64' },
    ],
  },
  'sin(a)': {
    ndim: 1, slots: 0,
    arrays: [{ dtype: 'float64', role: 'in', inner: c }, { dtype: 'float64', role: 'out', inner: c }],
    body: [{ op: 'load', array: 0, type: 'float64' }, { op: 'unary', fn: 'sin', arg: 0, type: 'float64' }, { op: 'store', array: 1, arg: 1, type: 'float64' }],
  },
};

async function main(): Promise<void> {
  const threads = Number(process.env['THREADS'] ?? 2);
  const heap = defaultHeap();
  const max = 1 << 22;
  const ptrs = [heap.alloc(max * 8), heap.alloc(max * 8), heap.alloc(max * 8)];
  heap.f64(ptrs[0]!, max).fill(0.5);
  heap.f64(ptrs[1]!, max).fill(0.25);
  const pool = await createPool({ threads, memory: heap.memory });
  await pool.start();
  console.log(`One kernel on the calling thread vs on ${threads} pool workers (median of 41 runs)`);
  for (const [name, spec] of Object.entries(SPECS)) {
    const compiled = compileKernel(spec);
    const host = { hostFunction: (): never => { throw new Error('none'); } };
    const fn = instantiate(compiled, heap.memory, host);
    for (let n = 1 << 12; n <= max; n *= 2) {
      const l = { shape: [n], arrays: spec.arrays.map((_, k) => ({ ptr: ptrs[k === spec.arrays.length - 1 ? 2 : k]!, strides: [1] })) };
      const inline = (await timeAsync(() => launch(compiled, heap, fn, l), 41)).medianMs * 1000;
      const pooled = (await timeAsync(() => launchOnPool(pool, compiled, heap, l, name), 41)).medianMs * 1000;
      const joined = (await timeAsync(() => launchOnPool(pool, compiled, heap, l, name, { host }), 41)).medianMs * 1000;
      console.log(
        `  ${name.padEnd(7)} n=${String(n).padStart(8)}  work ${launchWork(compiled, n).toExponential(1).padStart(7)}  ` +
        `inline ${inline.toFixed(0).padStart(6)} us  pool ${pooled.toFixed(0).padStart(6)} us (${(inline / pooled).toFixed(2)}x)  ` +
        `joined ${joined.toFixed(0).padStart(6)} us (${(inline / joined).toFixed(2)}x)`,
      );
    }
  }
  await pool.close();
}

void main();
