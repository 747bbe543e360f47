// A linker runs what is registered with it: backends are found by name, each
// started with the linker's settings, and its errors mapped by the backend
// that knows them.
import { describe, expect, test } from '@jest/globals';
import '../index.js';
import { processWasmHeap } from '../wasm/heap.js';
import { elementwise, source } from '../ir/build-elementwise.js';
import { WorkerError } from '../ir/errors.js';
import { ReferenceBackend } from '../reference/backend.js';
import type { Backend, BackendHost, BackendStats, Bindings, RunResult } from './backend.js';
import { Linker } from './linker.js';
import type { Plan } from '../plan/plan.js';

/** The reference evaluator under another name, recording what the linker asks of it. */
class Recording implements Backend {
  readonly name = 'wasm';
  readonly target = 'nodes';
  readonly #inner = new ReferenceBackend();
  host: BackendHost | undefined;
  runs = 0;
  shutdowns = 0;
  failWith: Error | undefined;

  unavailable(): undefined {
    return undefined;
  }

  start(host: BackendHost): void {
    this.host = host;
  }

  run(plan: Plan, bound?: Bindings): RunResult {
    this.runs++;
    if (this.failWith) throw this.failWith;
    return this.#inner.run(plan, bound);
  }

  async runAsync(plan: Plan, bound?: Bindings): Promise<RunResult> {
    return this.run(plan, bound);
  }

  prepare(): void {}

  async heapReplaced(): Promise<void> {}

  async shutdown(): Promise<void> {
    this.shutdowns++;
  }

  mapError(e: unknown): unknown {
    return e instanceof Error && e.message === 'lost' ? new WorkerError('a worker was lost', { cause: e }) : e;
  }

  stats(): BackendStats {
    return this.#inner.stats();
  }
}

function linkerWith(): { linker: Linker; recording: Recording } {
  const linker = new Linker(processWasmHeap);
  const recording = new Recording();
  linker.register(recording);
  linker.register(new ReferenceBackend());
  linker.configure({ backend: 'wasm', threads: 3 });
  return { linker, recording };
}

describe('the linker and its registered backends', () => {
  test('runs on the backend registered under the configured name, which it started with its settings', () => {
    const { linker, recording } = linkerWith();
    expect(recording.host?.settings().threads).toBe(3);
    linker.configure({ threads: 2 });
    expect(recording.host?.settings().threads).toBe(2);
    expect(linker.target).toBe('nodes');
    const x = source(new Float64Array([1, 2, 3]), [3], 'float64');
    const [y] = linker.runNodes([elementwise('add', [x, x])], true) as Array<{ get(i: number): number }>;
    expect([0, 1, 2].map((i) => y?.get(i))).toEqual([2, 4, 6]);
    expect(recording.runs).toBe(1);
    expect(linker.stats()).toMatchObject({ backend: 'wasm', runs: 1, plans: 1 });
  });

  test('a name registered twice is refused; configure() names the registered backends', () => {
    const { linker } = linkerWith();
    expect(() => linker.register(new ReferenceBackend())).toThrow(/registered already/);
    // @ts-expect-error: a name no backend is registered under
    expect(() => linker.configure({ backend: 'gpu' })).toThrow(/'reference' or 'wasm'; got "gpu"/);
  });

  test('shutdown() reaches every backend; errors are mapped by the backend that knows them', async () => {
    const { linker, recording } = linkerWith();
    await linker.shutdown();
    expect(recording.shutdowns).toBe(1);
    recording.failWith = new Error('lost');
    const plan = linker.plan([]);
    expect(() => linker.runBound(plan, new Map(), false)).toThrow(WorkerError);
    expect(recording.runs).toBe(1);
  });
});
