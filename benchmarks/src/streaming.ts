// The memory-bandwidth yardstick, measured with the package's own streaming
// kernels (read = sum, copy, triad a + s*b), generated through the same
// KernelSpec path as every other kernel, on the calling thread and on every
// worker of a pool over the same heap.
import { compileKernel, createPool, defaultHeap, instantiate, launch, launchOnPool } from 'kernels-wasm';
import type { KernelPool, KernelSpec } from 'kernels-wasm';
import { gbPerS, timeAsync } from './timing.js';

interface Stream {
  readonly name: string;
  readonly gbPerS: number;
}

const c = 'contiguous' as const;

const READ: KernelSpec = {
  ndim: 1, slots: 1,
  arrays: [{ dtype: 'float64', role: 'in', inner: c }],
  body: [{ op: 'load', array: 0, type: 'float64' }, { op: 'reduce', fn: 'sum', arg: 0, slot: 0, type: 'float64' }],
};
const COPY: KernelSpec = {
  ndim: 1, slots: 0,
  arrays: [{ dtype: 'float64', role: 'in', inner: c }, { dtype: 'float64', role: 'out', inner: c }],
  body: [{ op: 'load', array: 0, type: 'float64' }, { op: 'store', array: 1, arg: 0, type: 'float64' }],
};
const TRIAD: KernelSpec = {
  ndim: 1, slots: 0,
  arrays: [{ dtype: 'float64', role: 'in', inner: c }, { dtype: 'float64', role: 'in', inner: c }, { dtype: 'float64', role: 'out', inner: c }],
  body: [
    { op: 'load', array: 0, type: 'float64' },
    { op: 'load', array: 1, type: 'float64' },
    { op: 'const', value: 3, type: 'float64' },
    { op: 'binary', fn: 'multiply', args: [1, 2], type: 'float64' },
    { op: 'binary', fn: 'add', args: [0, 3], type: 'float64' },
    { op: 'store', array: 2, arg: 4, type: 'float64' },
  ],
};

type StreamName = 'read' | 'copy' | 'triad';

/** The three streaming kernels over n float64, ready to launch: on the calling thread, or on `threads` workers. */
interface Streams {
  readonly run: Record<StreamName, () => unknown>;
  /** Bytes each kernel moves per launch. */
  readonly bytes: Record<StreamName, number>;
  close(): Promise<void>;
}

async function openStreams(n: number, threads = 0): Promise<Streams> {
  const heap = defaultHeap();
  const [a, b, out] = [heap.alloc(n * 8), heap.alloc(n * 8), heap.alloc(n * 8)];
  heap.f64(a, n).fill(1);
  heap.f64(b, n).fill(2);
  const pool: KernelPool | undefined = threads > 0 ? await createPool({ threads, memory: heap.memory }) : undefined;
  await pool?.start();
  const launcher = (spec: KernelSpec, ptrs: number[], label: string): (() => unknown) => {
    const compiled = compileKernel(spec);
    const l = { shape: [n], arrays: ptrs.map((ptr) => ({ ptr, strides: [1] })) };
    if (pool) return () => launchOnPool(pool, compiled, heap, l, label);
    const fn = instantiate(compiled, heap.memory, { hostFunction: () => { throw new Error('no host functions'); } });
    return () => launch(compiled, heap, fn, l);
  };
  return {
    run: { read: launcher(READ, [a], 'read'), copy: launcher(COPY, [a, out], 'copy'), triad: launcher(TRIAD, [a, b, out], 'triad') },
    bytes: { read: n * 8, copy: n * 16, triad: n * 24 },
    close: async () => {
      await pool?.close();
      for (const p of [a, b, out]) heap.free(p);
    },
  };
}

/** Read, copy and triad bandwidth over n float64: on the calling thread, or on `threads` workers. */
async function streamingLimits(n: number, runs: number, threads = 0): Promise<Stream[]> {
  const s = await openStreams(n, threads);
  try {
    const limit = async (name: StreamName, label: string): Promise<Stream> =>
      ({ name: label, gbPerS: gbPerS(s.bytes[name], (await timeAsync(s.run[name], runs)).medianMs) });
    return [await limit('read', 'read (sum)'), await limit('copy', 'copy'), await limit('triad', 'triad')];
  } finally {
    await s.close();
  }
}

export { streamingLimits, openStreams };
export type { Stream, StreamName, Streams };
