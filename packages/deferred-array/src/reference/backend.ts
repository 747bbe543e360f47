// The reference backend: evaluates a plan node by node in plain TypeScript.
// Slow and obviously correct; the oracle every other backend is tested against.
import type { Backend, BackendStats, RunResult } from '../execute/backend.js';
import type { Node } from '../ir/node.js';
import type { Plan } from '../plan/plan.js';
import type { Dense } from './dense.js';
import { evaluateNode } from './evaluate.js';
import { newFlags } from './flags.js';

class ReferenceBackend implements Backend {
  readonly name = 'reference';
  #runs = 0;
  #steps = 0;

  run(plan: Plan): RunResult {
    this.#runs++;
    const flags = newFlags();
    const values = new Map<Node, Dense>();
    for (const step of plan.steps) {
      if (step.kind !== 'node') throw new Error('internal: the reference backend runs node steps only');
      const inputs = step.node.inputs.map((n) => values.get(n)!);
      values.set(step.node, evaluateNode(step.node, inputs, flags));
      this.#steps++;
      for (const n of step.release) values.delete(n);
    }
    const wanted = [...plan.results, ...plan.outputs.map((o) => o.node)];
    // Fresh JS arrays are the caller's; a source's own storage (or a reshape of it) is not.
    const sources = new Set(plan.steps.flatMap((s) => (s.kind === 'node' && s.node.op === 'source' ? [s.node.attrs.data!] : [])));
    return {
      values: new Map(wanted.map((node) => [node, values.get(node)!])),
      flags,
      owns: (data) => !sources.has(data),
      release: () => undefined,
    };
  }

  async runAsync(plan: Plan): Promise<RunResult> {
    return this.run(plan);
  }

  stats(): BackendStats {
    return { runs: this.#runs, steps: this.#steps, pooled: 0 };
  }
}

export { ReferenceBackend };
