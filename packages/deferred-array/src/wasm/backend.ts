// The WebAssembly backend: fused groups run as generated SIMD kernels over
// the shared heap; views are windows onto heap memory; the few ops without a
// kernel yet (reductions over some axes, argmin/argmax, joins, linear
// algebra) run through the reference evaluator on the same data.
import { compileKernel, defaultHeap, instantiate, launch } from 'kernels-wasm';
import type { KernelSpec, LaunchArray } from 'kernels-wasm';
import type { Backend, BackendStats, RunResult } from '../execute/backend.js';
import type { Node } from '../ir/node.js';
import { OPS } from '../ir/op-table.js';
import type { ReduceOp } from '../ir/op-table.js';
import { sizeOf } from '../ir/shape.js';
import { isFloat } from '../ir/dtypes.js';
import type { DType } from '../ir/dtypes.js';
import type { FusedGroup, Plan } from '../plan/plan.js';
import type { Dense } from '../reference/dense.js';
import { evaluateNode } from '../reference/evaluate.js';
import { newFlags } from '../reference/flags.js';
import type { RunFlags } from '../reference/flags.js';
import { partialsCombiner } from './combine.js';
import {
  allocValue, atAddress, composeView, dropValue, fromDense, isContiguous, reshapeValue, toDense,
} from './heap-value.js';
import type { Alloc, Allocation, HeapValue } from './heap-value.js';
import { allocEvicting, residentAddress } from './source-cache.js';
import type { CacheEntry } from './source-cache.js';
import { hostFunction, hostState } from './host-functions.js';
import { accumulatorDType, buildCopy, buildKernel } from './kernel-builder.js';

class WasmBackend implements Backend {
  readonly name = 'wasm';
  #runs = 0;
  #launches = 0;
  /** Per run (runs are synchronous and never nested): the sources it pinned and its allocator. */
  #pinned = new Set<CacheEntry>();
  #alloc: Alloc = (bytes) => allocEvicting(bytes, this.#pinned);
  #hostSteps = 0;

  run(plan: Plan): RunResult {
    this.#runs++;
    const flags = newFlags();
    hostState.flags = flags;
    // Cached sources this run reads may not be evicted to make room for it.
    const pinned = new Set<CacheEntry>();
    this.#pinned = pinned;
    this.#alloc = (bytes) => allocEvicting(bytes, pinned);
    const values = new Map<Node, HeapValue>();
    const allocations = new Set<Allocation>();
    const keep = (v: HeapValue): HeapValue => {
      if (v.alloc) allocations.add(v.alloc);
      return v;
    };
    try {
      for (const step of plan.steps) {
        if (step.kind === 'kernel') this.#runKernel(step.group, values, flags, keep);
        else values.set(step.node, keep(this.#evaluate(step.node, values, flags)));
        for (const n of step.release) {
          const v = values.get(n);
          if (v) dropValue(v);
          values.delete(n);
        }
      }
      // Results leave the heap as ordinary JS arrays, which the garbage collector
      // sizes up correctly; heap blocks are freed as soon as the caller has them.
      const wanted = [...plan.results, ...plan.outputs.map((o) => o.node)];
      const dense = new Map<Node, Dense>(wanted.map((n) => [n, outOfHeap(toDense(values.get(n)!))]));
      return { values: dense, flags, owns: () => true, release: () => freeAll(allocations) };
    } catch (e) {
      freeAll(allocations);
      throw e;
    }
  }

  async runAsync(plan: Plan): Promise<RunResult> {
    return this.run(plan);
  }

  stats(): BackendStats {
    return { runs: this.#runs, steps: this.#launches + this.#hostSteps };
  }

  #evaluate(n: Node, values: Map<Node, HeapValue>, flags: RunFlags): HeapValue {
    const input = (i: number): HeapValue => values.get(n.inputs[i]!)!;
    switch (OPS[n.op].family) {
      case 'source':
        return atAddress(residentAddress(n, this.#pinned), n.dtype, n.shape);
      case 'scalar': {
        const v = allocValue(n.dtype, [], this.#alloc);
        v.alloc!.data[0] = n.attrs.value!;
        return v;
      }
      case 'view':
        return composeView(input(0), n.attrs.view!, n.shape);
      case 'reshape': {
        const x = input(0);
        if (isContiguous(x)) return reshapeValue(x, n.shape);
        const copy = this.#copy(x);
        const r = reshapeValue(copy, n.shape);
        dropValue(copy);
        return r;
      }
      default: {
        this.#hostSteps++;
        const dense = evaluateNode(n, n.inputs.map((_, i) => toDense(input(i))), flags);
        return fromDense(dense, this.#alloc);
      }
    }
  }

  /** A contiguous copy of a strided value, by a load/store kernel. */
  #copy(x: HeapValue): HeapValue {
    const out = allocValue(x.dtype, x.shape, this.#alloc);
    const built = buildCopy(x, out);
    this.#launch(built.spec, built.shape, built.arrays);
    return out;
  }

  #launch(spec: KernelSpec, shape: readonly number[], arrays: readonly LaunchArray[], segment?: number) {
    const compiled = compileKernel(spec);
    const heap = defaultHeap();
    const fn = instantiate(compiled, heap.memory, hostFunction);
    this.#launches++;
    // Launch blocks and partials come from the same evicting allocator.
    const evicting = { memory: heap.memory, alloc: this.#alloc, free: (ptr: number) => heap.free(ptr) };
    return launch(compiled, evicting, fn, { shape, arrays, ...(segment ? { segment } : {}) });
  }

  #runKernel(g: FusedGroup, values: Map<Node, HeapValue>, flags: RunFlags, keep: (v: HeapValue) => HeapValue): void {
    const inputs = g.inputs.map((n) => values.get(n)!);
    const outputs = g.stores.map((n) => keep(allocValue(n.dtype, n.shape, this.#alloc)));
    const built = buildKernel(g, inputs, outputs);
    const r = this.#launch(built.spec, built.shape, built.arrays, built.segment);
    flags.divideByZero += r.flags.divide;
    flags.invalidCast += r.flags.invalid;
    if (r.flags.divide) {
      for (const m of g.members) if (m.op === 'floorDivide' || m.op === 'mod' || m.op === 'reciprocal') flags.where.add(m.op);
    }
    if (r.flags.invalid) {
      for (const m of g.members) if (m.op === 'astype' && m.dtype !== 'bool' && !['float32', 'float64'].includes(m.dtype)) flags.where.add(`astype(${m.dtype})`);
    }
    g.stores.forEach((n, k) => values.set(n, outputs[k]!));
    g.reductions.forEach((node, slot) => {
      const op = node.op as ReduceOp;
      const acc = accumulatorDType(op, node.inputs[0]!.dtype);
      const out = keep(allocValue(node.dtype, node.shape, this.#alloc));
      const rows = sizeOf(node.shape);
      // An output's value: final in a column kernel's partials (slot-major), or its pieces combined.
      const valueOf = (s: number, fn: ReduceOp, type: DType): ((row: number) => number) => {
        const combine = partialsCombiner(r.partials, built.spec.slots, s, fn, type);
        if (built.segment === 0) return () => combine(0, 0);
        if (built.mode === 'columns') return (row) => r.partials[s * rows + row]!;
        return (row) => combine(r.pieceIndex(row * built.segment), row + 1 < rows ? r.pieceIndex((row + 1) * built.segment) : r.pieces);
      };
      const valueAt = valueOf(slot, op, acc);
      const zeroSlot = built.zeroSlots.get(slot);
      const allNonzero = zeroSlot === undefined ? undefined : valueOf(zeroSlot, 'all', 'bool');
      for (let row = 0; row < rows; row++) {
        let value = valueAt(row);
        if (allNonzero && allNonzero(row) === 0) value = 0;
        // Integer products carried in float64 can reach -0, which integers do not have.
        if (!isFloat(node.inputs[0]!.dtype)) value += 0;
        if (op === 'mean') value /= built.segment;
        out.alloc!.data[row] = value;
      }
      values.set(node, out);
    });
  }
}

/** Frees every block of the run that an earlier release did not (refs 0). */
function freeAll(allocations: ReadonlySet<Allocation>): void {
  for (const a of allocations) {
    if (a.refs === 0) continue;
    a.refs = 0;
    defaultHeap().free(a.ptr);
  }
}

/** A copy in ordinary memory of a value that is a view of the heap. */
function outOfHeap(d: Dense): Dense {
  return d.data.buffer instanceof SharedArrayBuffer ? { ...d, data: d.data.slice() } : d;
}

export { WasmBackend };
