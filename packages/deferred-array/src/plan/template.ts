// Graphs keyed by structure. Two graphs that differ only in the arrays they
// read and in constants the planner does not look at plan alike, so a plan is
// made once per structure, over placeholders standing for what the graph
// reads (a template), and bound per request to that request's arrays and
// constants, as a compiled function's plan is bound per call: no pass runs
// again, and the kernels (kept per fused group) are only rebound to the new
// addresses. The key says everything the passes read: each node's op,
// attributes, dtype and shape and which nodes feed it, output() and pin()
// marks, which leaves are the same array, and the constants whose values a
// rewrite depends on (strength.ts). Other constants are leaves, equal ones
// one leaf (so common subexpressions merge as they would), each bound its
// value per request.
import { LRUCache } from 'lru-cache';
import { inheritMark, inheritPin, markOf, pinOf } from '../ir/marks.js';
import { makeNode, topoOrder } from '../ir/node.js';
import type { Node, StorageRef } from '../ir/node.js';
import { lookup } from '../util/lookup.js';
import { attrsKey, numberKey } from './merge-common.js';
import { withInputs } from './rewrite.js';
import { valueMatters } from './strength.js';

/** A graph as the cache sees it. */
interface Structure {
  readonly key: string;
  /** The values it reads, in the key's order: each distinct source, version of a mutable array and free constant once. */
  readonly leaves: readonly Node[];
  /** The graph's nodes, inputs first, and the leaf each leaf node is (equal versions made apart are one). */
  readonly order: readonly Node[];
  readonly leafAt: ReadonlyMap<Node, number>;
  /** Each node's place in `order`, by which stores and the key name them. */
  readonly index: ReadonlyMap<Node, number>;
  /** Each mutable array it reads, numbered in order of first reading. */
  readonly storages: ReadonlyMap<StorageRef, number>;
}

/**
 * The structure of the graph under `roots` (`order`: its nodes, inputs first;
 * the key starts with `prefix`: the target, and what else tells plans apart);
 * undefined for a graph the cache does not take: one holding a placeholder (a
 * compiled function's trace), a random array (its stream is planned in) or a
 * cond (decided before planning).
 */
function structureOf(roots: readonly Node[], prefix: string, order: readonly Node[] = topoOrder(roots)): Structure | undefined {
  const index = new Map<Node, number>();
  const leafOf = new Map<unknown, number>();
  const leafAt = new Map<Node, number>();
  const leaves: Node[] = [];
  const storages = new Map<StorageRef, number>();
  const leaf = (key: unknown, n: Node): number => {
    let i = leafOf.get(key);
    if (i === undefined) {
      leafOf.set(key, (i = leaves.length));
      leaves.push(n);
    }
    leafAt.set(n, i);
    return i;
  };
  const parts: string[] = [prefix];
  const marked: Array<{ readonly at: number; readonly seq: number }> = [];
  for (const n of order) {
    let part: string;
    if (n.op === 'stored') {
      const { storage, version } = n.attrs;
      let s = storages.get(storage);
      if (s === undefined) storages.set(storage, (s = storages.size));
      part = `L${leaf(`${storage.id}:${version}`, n)}s${s}`;
    } else if (n.op === 'source') {
      part = `L${leaf(n, n)}`;
    } else if (n.op === 'scalar' && !valueMatters(n.attrs.value, n.dtype)) {
      part = `L${leaf(`${n.dtype}:${numberKey(n.attrs.value)}`, n)}c`;
    } else if (n.family === 'source' || n.family === 'cond') {
      return undefined;
    } else {
      part = `${n.op}|${attrsKey(n.attrs)}|${n.inputs.map((i) => index.get(i)).join(',')}`;
    }
    const mark = markOf(n);
    if (mark) marked.push({ at: index.size, seq: mark.seq });
    parts.push(`${part}|${pinOf(n) ?? ''}|${mark ? `o${mark.name ?? ''}` : ''}|${n.dtype}|${n.shape.join(',')}`);
    index.set(n, index.size);
  }
  // Outputs are ordered by when they were marked.
  if (marked.length > 1) parts.push(`M${marked.sort((a, b) => a.seq - b.seq).map((m) => m.at).join(',')}`);
  parts.push(`R${roots.map((r) => index.get(r)).join(',')}`);
  return { key: parts.join(';'), leaves, order, leafAt, index, storages };
}

/**
 * The graph of `s` over a leaf of its own per leaf, with its marks and pins:
 * each node's copy. An array's leaf is a placeholder; a constant's is the
 * constant node itself (it stays a constant for the passes; distinct leaves
 * hold distinct values, so none merges with another), bound its value per request.
 */
function templateGraph(s: Structure): { readonly leaves: readonly Node[]; readonly copyOf: ReadonlyMap<Node, Node> } {
  const leaves = s.leaves.map((n) => (n.op === 'scalar' ? n
    : makeNode('placeholder', [], n.shape, n.dtype, { label: n.attrs.label ?? `${n.op} ${n.id}` })));
  const copyOf = new Map<Node, Node>();
  for (const n of s.order) {
    const j = s.leafAt.get(n);
    const m = j !== undefined ? leaves[j]! : withInputs(n, n.inputs.map((i) => lookup(copyOf, i, 'template node rebuilt')));
    inheritPin(n, m);
    inheritMark(n, m);
    copyOf.set(n, m);
  }
  return { leaves, copyOf };
}

/** Templates by structure key, least recently used dropped first, and how often one was bound rather than made. */
class Templates<T> {
  readonly #cache: LRUCache<string, T & object>;
  #hits = 0;

  constructor(max: number) {
    this.#cache = new LRUCache<string, T & object>({ max });
  }

  /** The template of `s`, made by `make` on a miss. */
  get(s: Structure, make: () => T & object): T {
    let t = this.#cache.get(s.key);
    if (t) {
      this.#hits++;
      return t;
    }
    t = make();
    this.#cache.set(s.key, t);
    return t;
  }

  stats(): { templates: number; reused: number } {
    return { templates: this.#cache.size, reused: this.#hits };
  }
}

export { structureOf, templateGraph, Templates };
export type { Structure };
