// Groups the computations a force runs into stages, each planned as one graph
// so that the planner fuses across statements (PyOP2's loop fusion): within a
// stage a version written whole is not read back from memory but substituted
// by its expression, so `phi -= a * p; phi -= a * p` is one kernel, and
// siblings over the same space share one. Only the last version of each array
// (and any version a later stage reads) is stored.
//
// A slice assignment writes into a copy of the version before it, so that
// version must be in memory: a stage ends before a slice assignment to an
// array the stage already writes, and before anything reading the result of
// a slice assignment made in the stage. A neighbour read (a shifted slice) of
// a substituted version makes the planner store it first, so no read crosses
// a write.
import { topoOrder } from '../ir/node.js';
import type { Node } from '../ir/node.js';
import { withInputs } from '../plan/rewrite.js';
import { addRead } from './trace.js';
import type { Computation, Read, ReadSets } from './trace.js';
import type { Storage } from './storage.js';

interface StageWrite {
  readonly computation: Computation;
  /** Its value with the stage's substitutions made. */
  readonly node: Node;
}

interface Stage {
  readonly computations: readonly Computation[];
  /** The versions it writes to memory: each array's last, and any a later stage or the request reads. */
  readonly writes: readonly StageWrite[];
  /** The versions it reads from memory. */
  readonly reads: readonly Read[];
  /** Per array, the versions this stage, the later ones and `laterReads` read: the blocks its writes must not take. */
  readonly keep: ReadonlyMap<Storage, ReadonlySet<number>>;
  /** Per array, the versions read after this stage (by the later ones and `laterReads`). */
  readonly later: ReadonlyMap<Storage, ReadonlySet<number>>;
}

const key = (storage: Storage, version: number): string => `${storage.id}:${version}`;

/** Splits `chosen` (oldest first) into stages; `laterReads` are read after them (by the request, or by computations left pending). */
function buildStages(chosen: readonly Computation[], laterReads: readonly Read[]): Stage[] {
  const groups: Computation[][] = [];
  let windowed = new Set<Storage>();
  let written = new Set<Storage>();
  for (const c of chosen) {
    const cur = groups[groups.length - 1];
    const splits = !cur || windowed.has(c.storage) || (c.window !== undefined && written.has(c.storage)) ||
      c.reads.some((r) => windowed.has(r.storage) && producedIn(cur, r));
    if (splits) {
      groups.push([c]);
      windowed = new Set();
      written = new Set();
    } else cur.push(c);
    written.add(c.storage);
    if (c.window) windowed.add(c.storage);
  }
  // Versions read from memory by each stage, then by everything after it.
  const substituted = groups.map((g) => ({ group: g, s: substitute(g) }));
  const keep: ReadSets = new Map();
  for (const r of laterReads) addRead(keep, r);
  const stages: Stage[] = [];
  for (const { group, s } of substituted.reverse()) {
    const lastOf = new Map<Storage, Computation>();
    for (const c of group) lastOf.set(c.storage, c);
    const writes = s.writes.filter(({ computation: c }) => lastOf.get(c.storage) === c || keep.get(c.storage)?.has(c.version));
    // What the stages after this one read: the keep of the next stage (pushed just before), or the reads after the last.
    const later = stages[stages.length - 1]?.keep ?? copySets(keep);
    for (const r of s.reads) addRead(keep, r);
    stages.push({ computations: group, writes, reads: s.reads, keep: copySets(keep), later });
  }
  return stages.reverse();
}

const copySets = (sets: ReadSets): ReadSets => new Map([...sets].map(([k, v]) => [k, new Set(v)]));

/** Whether `r` is a version produced by one of `group`. */
const producedIn = (group: readonly Computation[], r: Read): boolean =>
  group.some((c) => c.storage === r.storage && c.version === r.version);

/**
 * Each computation's value with the versions produced earlier in the group
 * (by whole-array writes) replaced by their expressions.
 */
function substitute(group: readonly Computation[]): { writes: StageWrite[]; reads: Read[] } {
  const produced = new Map<string, Node>();
  const rebuilt = new Map<Node, Node>();
  const reads = new Map<string, Read>();
  const writes = group.map((c) => {
    for (const n of topoOrder([c.value])) {
      if (rebuilt.has(n)) continue;
      if (n.op === 'stored') {
        const k = key(n.attrs.storage as Storage, n.attrs.version);
        const sub = produced.get(k);
        if (!sub) reads.set(k, { storage: n.attrs.storage as Storage, version: n.attrs.version });
        rebuilt.set(n, sub ?? n);
        continue;
      }
      rebuilt.set(n, withInputs(n, n.inputs.map((i) => rebuilt.get(i)!)));
    }
    const node = rebuilt.get(c.value)!;
    if (c.window) reads.set(key(c.storage, c.version - 1), { storage: c.storage, version: c.version - 1 });
    else produced.set(key(c.storage, c.version), node);
    return { computation: c, node };
  });
  return { writes, reads: [...reads.values()] };
}

export { buildStages };
export type { Stage, StageWrite };
