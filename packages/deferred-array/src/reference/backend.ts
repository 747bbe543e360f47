// The reference backend: evaluates a plan node by node in plain TypeScript.
// Slow and obviously correct; the oracle every other backend is tested against.
import { heapHolding } from '../core/heap.js';
import type { Backend, BackendStats, Bindings, RunResult } from '../execute/backend.js';
import type { Node } from '../ir/node.js';
import type { Plan, StoreTarget } from '../plan/plan.js';
import { scatter } from '../core/dense.js';
import type { Dense } from '../core/dense.js';
import { evaluateNode } from './evaluate.js';
import { newFlags } from '../core/flags.js';

/** Writes a trace stage's value into its window of the mutable array's block. */
const writeStore = (st: StoreTarget, v: Dense): void => scatter(v, st.storage.view(st.version), st);

/** A placeholder's value in this run. */
function boundValue(bound: Bindings, n: Node): Dense {
  const b = bound.get(n);
  if (!b) throw new Error(`internal: placeholder ${n.attrs.label ?? n.id} has no value in this run`);
  return b.value;
}

class ReferenceBackend implements Backend {
  readonly name = 'reference';
  readonly target = 'nodes';
  #runs = 0;
  #steps = 0;

  /** Plain TypeScript runs anywhere. */
  unavailable(): undefined {
    return undefined;
  }

  /** It reads no settings: everything runs on the calling thread. */
  start(): void {}

  async shutdown(): Promise<void> {}

  /** It keeps nothing in the heap between runs. */
  async heapReplaced(): Promise<void> {}

  /** It throws this package's errors only. */
  mapError(e: unknown): unknown {
    return e;
  }

  run(plan: Plan, bound: Bindings = new Map()): RunResult {
    this.#runs++;
    const flags = newFlags();
    const values = new Map<Node, Dense>();
    for (const step of plan.steps) {
      if (step.kind !== 'node') throw new Error('internal: the reference backend runs node steps only');
      const inputs = step.node.inputs.map((n) => values.get(n)!);
      // A placeholder, and a constant of a plan template, take the value bound to them.
      const given = step.node.op === 'placeholder' ? boundValue(bound, step.node) : bound.get(step.node)?.value;
      values.set(step.node, given ?? evaluateNode(step.node, inputs, flags));
      this.#steps++;
      for (const n of step.release) values.delete(n);
    }
    for (const st of plan.stores) writeStore(st, values.get(st.node)!);
    const wanted = [...plan.results, ...plan.outputs.map((o) => o.node)];
    // Fresh JS arrays are the caller's; a source's own storage, a mutable array's block (or a reshape of them) is not.
    const sources = new Set(plan.steps.flatMap((s) => (s.kind === 'node' && s.node.op === 'source' ? [s.node.attrs.data!] : [])));
    for (const b of bound.values()) sources.add(b.value.data);
    const kept = new Map(wanted.map((node) => [node, values.get(node)!]));
    return {
      flags,
      value: (node) => kept.get(node)!,
      owns: (data) => !sources.has(data) && !heapHolding(data.buffer),
      written: new Set(),
      release: () => undefined,
    };
  }

  async runAsync(plan: Plan, bound?: Bindings): Promise<RunResult> {
    return this.run(plan, bound);
  }

  /** Nothing to compile: the reference evaluator interprets each node. */
  prepare(): void {}

  stats(): BackendStats {
    return { runs: this.#runs, steps: this.#steps, pooled: 0, joined: 0, workerBlocks: [] };
  }
}

export { ReferenceBackend };
