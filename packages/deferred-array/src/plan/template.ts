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
import { Lru } from 'kernels-wasm/lru';
import { inheritMark, inheritPin, markOf, pinOf } from '../ir/marks.js';
import { makeNode, topoOrder } from '../ir/node.js';
import type { Node, NodeOf, StorageRef } from '../ir/node.js';
import { borrowIdTable, giveBackIdTable } from '../util/id-table.js';
import type { IdTable } from '../util/id-table.js';
import { lookup } from '../util/lookup.js';
import type { Scalar } from '../ir/dtypes.js';
import { Names, dtypeCode, hashCode, opCode, pinCode, sameCode } from './codes.js';
import { valueKey } from './merge-common.js';
import { withInputs } from './rewrite.js';
import { valueMatters } from './strength.js';

/** A graph as the cache sees it. */
interface Structure {
  /**
   * Everything the passes read of the graph, as small integers (codes.ts),
   * and their hash: two graphs plan alike exactly when their codes are equal.
   * The code is the walks' shared list, good until the next structureOf: a
   * request that finds its template (most) copies nothing, and Templates
   * copies the code it keeps.
   */
  readonly code: readonly number[];
  readonly hash: number;
  /** The values it reads, in the code's order: each distinct source, version of a mutable array and free constant once. */
  readonly leaves: readonly Node[];
  /**
   * The graph's nodes, inputs first (the code names a node by its place
   * here), and the leaf each is (-1 for a node that is not a leaf; equal
   * versions made apart are one leaf).
   */
  readonly order: readonly Node[];
  readonly leafOf: readonly number[];
  /** Each mutable array it reads, numbered in order of first reading. */
  readonly storages: ReadonlyMap<StorageRef, number>;
}

/** What a node's code starts with: a leaf of each kind, or any other node (then its op's number). */
const SOURCE = -1;
const STORED = -2;
const FREE_CONSTANT = -3;
const VALUED_CONSTANT = -4;

/** A float64's bits as two int32s, so that -0 and each NaN keep their own. */
const bits = new Float64Array(1);
const halves = new Int32Array(bits.buffer);

/** The list structureOf writes codes into, reused by every walk (never two at once: a walk calls out to nothing that walks). */
const scratch: number[] = [];

/** Free constants a walk finds equal ones among by a search, up to this many; a map past it. */
const FEW_CONSTANTS = 8;

/** A graph's stored arrays when it reads none. */
const NO_STORAGES: ReadonlyMap<StorageRef, number> = new Map();

/**
 * The structure of the graph under `roots` (`order`: its nodes, inputs first;
 * the code starts with `prefix`: the target, and what else tells plans apart);
 * undefined for a graph the cache does not take: one holding a placeholder (a
 * compiled function's trace), a random array (its stream is planned in) or a
 * cond (decided before planning). Integers only, so that a request built
 * afresh costs a walk and no strings.
 */
function structureOf(roots: readonly Node[], prefix: string, names: Names, order: readonly Node[] = topoOrder(roots)): Structure | undefined {
  // Each node's place in the order, by node id (a fresh node keyed by itself would first be given a hash).
  const index = borrowIdTable();
  try {
    return walk(roots, prefix, names, order, index);
  } finally {
    giveBackIdTable(index);
  }
}

function walk(roots: readonly Node[], prefix: string, names: Names, order: readonly Node[], index: IdTable): Structure | undefined {
  const leafOf: number[] = [];
  const leaves: Node[] = [];
  let storages: Map<StorageRef, number> | undefined;
  // Made at their first use: most graphs read no stored array, and many have no constant of free value.
  let versions: Map<StorageRef, Map<number, number>> | undefined;
  // The leaves of free constants, searched while few; by dtype and value past that.
  let free: number[] | undefined;
  let constants: Map<string, Map<Scalar | string, number>> | undefined;
  // Written into one list kept between walks: a list made for each walk was most of a request's garbage.
  const code = scratch;
  let k = 0;
  code[k++] = names.epoch;
  code[k++] = names.name(prefix);
  let marked: Array<{ readonly at: number; readonly seq: number }> | undefined;
  for (const n of order) {
    if (n.op === 'stored') {
      const { storage, version } = n.attrs;
      storages ??= new Map();
      let s = storages.get(storage);
      if (s === undefined) storages.set(storage, (s = storages.size));
      versions ??= new Map();
      let byVersion = versions.get(storage);
      if (!byVersion) versions.set(storage, (byVersion = new Map()));
      const i = (leafOf[index.size] = byVersion.get(version) ?? leaves.push(n) - 1);
      byVersion.set(version, i);
      code[k++] = STORED;
      code[k++] = i;
      code[k++] = s;
    } else if (n.op === 'source') {
      // The order holds each node once: a source read twice is one node, one leaf.
      code[k++] = SOURCE;
      code[k++] = leafOf[index.size] = leaves.push(n) - 1;
    } else if (n.op === 'scalar') {
      const v = n.attrs.value;
      if (typeof v === 'number' && valueMatters(v, n.dtype)) {
        leafOf[index.size] = -1;
        bits[0] = v;
        code[k++] = VALUED_CONSTANT;
        code[k++] = halves[0]!;
        code[k++] = halves[1]!;
      } else {
        let i: number | undefined;
        if (!constants) {
          // Object.is, as the map's keys: every NaN alike (valueKey keeps -0 apart, and -0 is never free).
          free ??= [];
          for (let j = 0; j < free.length && i === undefined; j++) {
            const c = leaves[free[j]!] as NodeOf<'scalar'>;
            if (c.dtype === n.dtype && Object.is(c.attrs.value, v)) i = free[j];
          }
          if (i === undefined && free.length === FEW_CONSTANTS) constants = constantsByValue(leaves, free);
        }
        if (constants) {
          let byValue = constants.get(n.dtype);
          if (!byValue) constants.set(n.dtype, (byValue = new Map()));
          i = byValue.get(valueKey(v));
          if (i === undefined) byValue.set(valueKey(v), leaves.length);
        }
        if (i === undefined) {
          i = leaves.push(n) - 1;
          if (!constants) free!.push(i);
        }
        leafOf[index.size] = i;
        code[k++] = FREE_CONSTANT;
        code[k++] = i;
      }
    } else if (n.family === 'source' || n.family === 'cond') {
      return undefined;
    } else {
      leafOf[index.size] = -1;
      code[k++] = opCode(n.op);
      code[k++] = names.attrs(n.attrs);
      code[k++] = n.inputs.length;
      // Index loops: for-of over a node's frozen inputs makes an iterator result per input.
      for (let j = 0; j < n.inputs.length; j++) code[k++] = index.get(n.inputs[j]!.id);
    }
    const mark = markOf(n);
    if (mark) (marked ??= []).push({ at: index.size, seq: mark.seq });
    code[k++] = dtypeCode(n.dtype);
    code[k++] = names.shape(n.shape);
    code[k++] = pinCode(pinOf(n));
    code[k++] = mark ? names.name(mark.name ?? '') : -1;
    index.set(n.id, index.size);
  }
  // Outputs are ordered by when they were marked.
  code[k++] = marked?.length ?? 0;
  if (marked) for (const m of marked.sort((a, b) => a.seq - b.seq)) code[k++] = m.at;
  code[k++] = roots.length;
  for (let j = 0; j < roots.length; j++) code[k++] = index.get(roots[j]!.id);
  // The table of names started over during the walk: the numbers in this code mix two epochs.
  if (code[0] !== names.epoch) return undefined;
  code.length = k;
  return { code, hash: hashCode(code), leaves, order, leafOf, storages: storages ?? NO_STORAGES };
}

/** The free constants among `leaves` (numbered in `free`), by dtype and value. */
function constantsByValue(leaves: readonly Node[], free: readonly number[]): Map<string, Map<Scalar | string, number>> {
  const constants = new Map<string, Map<Scalar | string, number>>();
  for (const i of free) {
    const c = leaves[i] as NodeOf<'scalar'>;
    let byValue = constants.get(c.dtype);
    if (!byValue) constants.set(c.dtype, (byValue = new Map()));
    byValue.set(valueKey(c.attrs.value), i);
  }
  return constants;
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
  for (let at = 0; at < s.order.length; at++) {
    const n = s.order[at]!;
    const j = s.leafOf[at]!;
    const m = j >= 0 ? leaves[j]! : withInputs(n, n.inputs.map((i) => lookup(copyOf, i, 'template node rebuilt')));
    inheritPin(n, m);
    inheritMark(n, m);
    copyOf.set(n, m);
  }
  return { leaves, copyOf };
}

/** Templates by structure, least recently used dropped first, and how often one was bound rather than made. */
class Templates<T> {
  /** By the code's hash; each bucket holds the (rarely more than one) structures of that hash, compared in full. */
  readonly #cache: Lru<number, Array<{ readonly code: readonly number[]; readonly value: T & object }>>;
  #size = 0;
  #hits = 0;
  /** The strings its codes name: codes are compared only within one cache. */
  readonly names = new Names();

  constructor(max: number) {
    this.#cache = new Lru({ max, dispose: (bucket) => { this.#size -= bucket.length; } });
  }

  /** The template of `s`, made by `make` on a miss. */
  get(s: Pick<Structure, 'code' | 'hash'>, make: () => T & object): T {
    const bucket = this.#cache.get(s.hash);
    const hit = bucket?.find((e) => sameCode(e.code, s.code));
    if (hit) {
      this.#hits++;
      return hit.value;
    }
    // Copied before make(), which plans, and a plan may walk another graph (into the same list).
    const code = [...s.code];
    const value = make();
    if (bucket) bucket.push({ code, value });
    else this.#cache.set(s.hash, [{ code, value }]);
    this.#size++;
    return value;
  }

  stats(): { templates: number; reused: number } {
    return { templates: this.#size, reused: this.#hits };
  }
}

export { structureOf, templateGraph, Templates };
export type { Structure };
