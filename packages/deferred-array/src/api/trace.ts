// da.flush() and da.trace(): running and drawing the execution trace.
import { defaultLinker } from './default-linker.js';
import { dependency, pendingComputations } from '../trace/trace.js';
import type { Computation } from '../trace/trace.js';

interface TracedComputation {
  /** Program order, shown as c<id>. */
  readonly id: number;
  /** e.g. 'A2[1:-1, 1:-1] -= float64(6, 6)'. */
  readonly label: string;
  /** The array written, e.g. 'A2 float64(8, 8)'. */
  readonly writes: string;
  /** The arrays read (names, each once). */
  readonly reads: readonly string[];
  /** The pending computations that must run before it, and why (read after write, write after read, write after write). */
  readonly dependsOn: ReadonlyArray<{ readonly id: number; readonly kind: 'RAW' | 'WAR' | 'WAW' }>;
}

interface TraceInfo {
  /** How many computations are queued. */
  readonly pending: number;
  /** The queued computations in program order, with their dependencies. */
  readonly computations: readonly TracedComputation[];
  /** The pending DAG in Graphviz dot: a box per computation, an edge per dependency labelled with its kind and array. */
  toDot(): string;
}

/** A snapshot of the execution trace; reading it runs nothing. */
function trace(): TraceInfo {
  const cs = pendingComputations();
  const computations = cs.map((c, i): TracedComputation => ({
    id: c.seq,
    label: c.label,
    writes: c.storage.name,
    reads: [...new Set(c.reads.map((r) => r.storage.name))],
    dependsOn: cs.slice(0, i).flatMap((e) => {
      const kind = dependency(e, c);
      return kind ? [{ id: e.seq, kind }] : [];
    }),
  }));
  return { pending: cs.length, computations, toDot: () => traceDot(cs, computations) };
}

const quote = (s: string): string => JSON.stringify(s);

function traceDot(cs: readonly Computation[], info: readonly TracedComputation[]): string {
  const lines = ['digraph trace {', '  rankdir=TB;', '  node [shape=box, fontname="monospace"];'];
  for (const c of cs) lines.push(`  c${c.seq} [label=${quote(`c${c.seq}: ${c.label}`)}];`);
  info.forEach((c, i) => {
    for (const d of c.dependsOn) {
      const array = d.kind === 'WAR' ? cs[i]!.storage.name : cs.find((e) => e.seq === d.id)!.storage.name;
      lines.push(`  c${d.id} -> c${c.id} [label=${quote(`${d.kind} ${array.split(' ')[0]}`)}];`);
    }
  });
  lines.push('}');
  return lines.join('\n');
}

/** Runs every pending in-place computation (on the worker pool where it pays). */
async function flush(): Promise<void> {
  await defaultLinker.runNodesAsync([], false, true);
}

/** As flush(), on the calling thread. */
function flushSync(): void {
  defaultLinker.runNodes([], false, true);
}

export { trace, flush, flushSync };
export type { TraceInfo, TracedComputation };
