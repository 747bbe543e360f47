// The memory bar of the planner: a 10-operation elementwise chain over two
// inputs with one marked output. Fused, the run holds the two outputs and
// O(blocks) beside the inputs; one array per op (pinCse() on every op, buffers
// reused by liveness) holds two temporaries more; eager code allocates a new
// array per op.
import * as da from 'deferred-array';
import { defaultHeap } from 'kernels-wasm';

function chain(a: da.DeferredArray, b: da.DeferredArray, pin: boolean): da.DeferredArray {
  const p = (t: da.DeferredArray): da.DeferredArray => (pin ? t.pinCse() : t);
  let t = p(a.mul(1.5));
  t = p(t.add(b)); t = p(t.sub(0.25)); t = p(t.mul(a)).output('mid');
  t = p(t.add(2)); t = p(t.mul(0.5)); t = p(t.sub(b)); t = p(t.abs()); t = p(t.sqrt());
  return t.add(1);
}

/** Heap bytes a run holds at its peak beyond what was in use before it (inputs already resident). */
function peakOf(x: da.DeferredArray): number {
  const heap = defaultHeap();
  x.executeSync();
  const before = heap.stats().bytesInUse;
  heap.resetPeak();
  x.executeSync();
  return heap.stats().peakBytes - before;
}

function memoryReport(n: number): string {
  const a = da.wrap(Float64Array.from({ length: n }, (_, i) => (i % 1000) / 7));
  const b = da.wrap(Float64Array.from({ length: n }, (_, i) => (i % 777) / 3));
  const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
  const array = n * 8;
  const fused = peakOf(chain(a, b, false));
  const perOp = peakOf(chain(a, b, true));
  return [
    `Memory: a 10-op chain over two ${mb(array)} inputs with one marked output (heap peak beyond the resident inputs):`,
    `  fused (1 kernel)                        ${mb(fused).padStart(9)}  = ${(fused / array).toFixed(2)} arrays (2 outputs + ${((fused - 2 * array) / 1024).toFixed(1)} KiB)`,
    `  one array per op, buffers reused        ${mb(perOp).padStart(9)}  = ${(perOp / array).toFixed(2)} arrays`,
    `  eager @stdlib/ndarray (counted)         ${mb(10 * array).padStart(9)}  = 10 new arrays, one per op`,
  ].join('\n');
}

export { memoryReport };
