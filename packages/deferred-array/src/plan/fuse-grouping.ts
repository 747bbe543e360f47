// The grouping rules of fuseElementwise, applied one node at a time in step
// order. A node joins the group of one of its inputs, or a group that already
// reads one of its inputs (siblings: sin(x) and cos(x) read x once), and only
// if none of its inputs depends on that group through nodes outside it;
// otherwise the group would have to run both before and after those nodes.
// The groups of its other inputs join too where neither depends on the other
// (x*x + y*y is one kernel, not x*x stored for a second).
//
// A take joins like an elementwise node of its indices, but reads its x at
// random places, so x comes from memory: a group never gathers a value it
// computes or reads in order (one kernel array each way).
import type { Node } from '../ir/node.js';
import { sameShape } from '../ir/shape.js';
import { isFloat } from '../ir/dtypes.js';
import { at } from '../util/lookup.js';
import { isElementwise, isFusedReduction, isFusedScan, isFusedTake, isWindow, touches64, windowBase } from './plan.js';
import type { Contraction, Elementwise, FusedReduction, FusedScan, FusedTake, Plan } from './plan.js';

/** A group as it is being built. */
interface Building {
  readonly id: number;
  readonly shape: readonly number[];
  readonly members: Node[];
  readonly reductions: FusedReduction[];
  readonly scans: FusedScan[];
  contraction?: Contraction;
  /** Groups this group needs to have run first. */
  readonly deps: Set<number>;
  /** Closed to further members: it computes a pinCse() value, which its consumers read from memory. */
  sealed: boolean;
}

/**
 * Products the contraction kernels compute (kernels-wasm's CONTRACTION_DTYPES, which only wasm/ imports);
 * widenNarrowProducts has made narrower ones int32 products already.
 */
const PRODUCT_DTYPES: ReadonlySet<string> = new Set(['float64', 'float32', 'int32', 'uint32']);
const isContraction = (n: Node): n is Contraction => (n.op === 'matmul' || n.op === 'dot') && PRODUCT_DTYPES.has(n.dtype);

/** A group's reductions and scans: values that exist only once the group has run. */
const endsOf = (g: Building): readonly Node[] => [...g.reductions, ...g.scans];

/** The takes among a group's members. */
const takesOf = (g: Building): FusedTake[] => g.members.filter((m): m is FusedTake => m.op === 'take');

/**
 * What a take reads other than by NumPy's broadcasting over its space, each
 * with its layout: x, gathered (the taken axis's place and the indices' rank
 * fix its strides), and indices that sit before axes of x (a take along any
 * axis but the last), walked in the middle of the space.
 */
function ownWayReads(t: FusedTake): [Node, string][] {
  const [x, indices] = t.inputs;
  const { axis } = t.attrs;
  const after = x.shape.length - axis - 1;
  return [[x, `gather ${axis} ${indices.shape.length}`], ...(after > 0 ? [[indices, `indices ${axis} ${after}`] as [Node, string]] : [])];
}

/** The values m reads by NumPy's broadcasting. */
const inOrderReads = (m: Node): readonly Node[] => {
  if (m.op !== 'take') return m.inputs;
  const own = ownWayReads(m as FusedTake).map(([v]) => v);
  return m.inputs.filter((i) => !own.includes(i));
};

/** Whether g computes v or reads it by broadcasting (as an operand of a member or an end). */
const readsInOrder = (g: Building, v: Node): boolean => g.members.includes(v) || [...g.members, ...endsOf(g)].some((m) => inOrderReads(m).includes(v));

/** Whether the members `ms` can be one kernel with g's: each value one array, read one way. */
function readsAgree(g: Building, ms: readonly Node[]): boolean {
  const own = takesOf(g).flatMap(ownWayReads);
  return ms.every((m) => {
    if (inOrderReads(m).some((v) => own.some(([o]) => o === v))) return false;
    return m.op !== 'take' || ownWayReads(m as FusedTake).every(([v, layout]) => !readsInOrder(g, v) && own.every(([o, l]) => o !== v || l === layout));
  });
}

/**
 * Whether a kernel with take n keeps vector lanes (kernels-wasm's simd-ops.ts):
 * integer values at indices up to 32 bits, floats at int32 indices read from
 * an array (#addTake reads them so). A take of bools, at int64, uint64 or
 * uint32 indices (resolved in i64, in the scalar loop), or of floats at
 * narrower indices, is a gather kernel of its own instead, so that the work
 * around it keeps its lanes.
 */
const keepsLanes = (n: FusedTake): boolean => {
  const [x, indices] = n.inputs;
  if (indices.dtype === 'int64' || indices.dtype === 'uint64' || indices.dtype === 'uint32') return false;
  return isFloat(x.dtype) ? indices.dtype === 'int32' : x.dtype !== 'bool';
};

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

class Grouping {
  /** Every group made, merged ones included (left empty: see isMerged). */
  readonly groups: Building[] = [];
  readonly groupOf = new Map<Node, Building>();
  readonly #plan: Plan;
  /** Groups reading each value from outside: siblings fuse there, reading the value once. */
  readonly #readers = new Map<Node, Set<Building>>();
  /** Groups reading windows of each value (a stencil's shifted slices): siblings too, the array read once, neighbours from cache. */
  readonly #windowReaders = new Map<Node, Set<Building>>();
  /** For a node outside every group: the groups its value is computed from, directly or through other such nodes. */
  readonly #outsideDeps = new Map<Node, Set<number>>();
  /** Groups made to reduce a value read from outside, by that value: a sibling reduction of it joins one, reading it once. */
  readonly #reducing = new Map<Node, Building>();
  /** A group merged into another (see merge), to the group it joined. */
  readonly #mergedInto = new Map<number, number>();

  constructor(plan: Plan) {
    this.#plan = plan;
  }

  /** Places `n`, whose inputs have all been placed: in a group, or outside every group. */
  add(n: Node): void {
    if (isElementwise(n)) this.#addElementwise(n);
    else if (isFusedTake(n) && keepsLanes(n)) this.#addTake(n);
    else if (isContraction(n)) this.#addContraction(n);
    else if (isFusedReduction(n)) this.#addReduction(n);
    else if (isFusedScan(n)) this.#addScan(n);
    else this.#addOutside(n);
  }

  /** Whether g was merged into another group (and so is no group of its own). */
  isMerged(g: Building): boolean {
    return this.#mergedInto.has(g.id);
  }

  #addElementwise(n: Elementwise): void {
    const g = this.#candidates(n).find((h) => this.#canJoin(n, h)) ?? this.#newGroup(n.shape);
    for (const i of n.inputs) {
      const h = this.groupOf.get(i);
      if (h && h !== g && this.#canMerge(h, g, n)) this.#merge(h, g);
    }
    g.members.push(n);
    this.#record(n, g);
    this.#noteReads(n, g);
    // A pinCse() value is computed with what feeds it, and read from memory by everything after.
    if (this.#plan.pins.get(n) === 'pinCse') g.sealed = true;
  }

  /**
   * A take, as an elementwise node of its indices (see the head of this
   * file). One whose indices 'raise' reads them from memory, so that the
   * error names the first index out of bounds, as the reference does, and so
   * does a take of floats, whose lanes take each index from its array; no
   * take joins a matrix product's epilogue or a group with pinned temporaries.
   */
  #addTake(n: FusedTake): void {
    const [x, indices] = n.inputs;
    const readsIndices = n.attrs.mode === 'raise' || isFloat(x.dtype);
    const fits = (h: Building): boolean => !h.contraction && !this.#readsTemps(h) && readsAgree(h, [n]) &&
      !(readsIndices && h.members.includes(indices)) && this.#canJoin(n, h);
    const g = this.#candidates(n).find(fits) ?? this.#newGroup(n.shape);
    const h = this.groupOf.get(indices);
    if (h && h !== g && !readsIndices && this.#canMerge(h, g, n)) this.#merge(h, g);
    g.members.push(n);
    this.#record(n, g);
    this.#noteReads(n, g);
  }

  /** Whether a member of g reads a pinned temporary (computed per block in the kernel, which a take's kernel does not do). */
  #readsTemps(g: Building): boolean {
    return g.members.some((m) => m.inputs.some((i) => this.#plan.temps.has(i)));
  }

  /** The open groups `n` may join: an input's, else a sibling's (a group reading one of the same inputs, which then reads it once). */
  #candidates(n: Node): Building[] {
    // A matrix product's epilogue computes in its lanes, which int64 and uint64 do not have: such a node starts a group of its own.
    const open = (h: Building | undefined): h is Building =>
      h !== undefined && !h.sealed && (h.members.length > 0 || h.contraction !== undefined) && sameShape(h.shape, n.shape) &&
      !(h.contraction !== undefined && touches64(n));
    const readingGroups = (s: Set<Building> | undefined): Building[] => [...(s ?? [])].map((h) => this.#group(h.id));
    const candidates = [
      ...n.inputs.map((i) => this.groupOf.get(i)), ...n.inputs.flatMap((i) => readingGroups(this.#readers.get(i))),
      ...n.inputs.filter(isWindow).flatMap((i) => readingGroups(this.#windowReaders.get(windowBase(i)))),
    ];
    return candidates.filter(open);
  }

  /** Records that g reads n's inputs from outside. A shared scalar is no reason to fuse: it costs nothing to read twice. */
  #noteReads(n: Node, g: Building): void {
    for (const i of n.inputs) {
      if (this.groupOf.get(i) === g || i.family === 'scalar') continue;
      addTo(this.#readers, i, g);
      if (isWindow(i)) addTo(this.#windowReaders, windowBase(i), g);
    }
  }

  #addContraction(n: Contraction): void {
    const g = this.#newGroup(n.shape);
    g.contraction = n;
    this.#record(n, g);
    if (this.#plan.pins.get(n) === 'pinCse') g.sealed = true;
  }

  /**
   * A reduction joins the group of its input when it can; otherwise it is a
   * kernel of its own that reads its input (a source, a view, a value another
   * step made) in one pass.
   */
  #addReduction(n: FusedReduction): void {
    const [input] = n.inputs;
    const h = this.groupOf.get(input);
    // A group reduces over one set of axes (every axis, or some), so its reductions share one iteration order.
    const sameAxes = (r: FusedReduction): boolean => String(r.attrs.axes) === String(n.attrs.axes);
    // A sibling of a value read from outside (min and max of x): one pass. Only of its own dtype (argmax
    // and argmin compare in it too), so that the kernel's lanes, and with them each reduction's order and
    // bits, are those it has alone.
    const sibling = this.#reducing.get(input);
    const inInputType = (r: FusedReduction): boolean => r.dtype === input.dtype || r.op === 'argmax' || r.op === 'argmin';
    const joinsSibling = sibling !== undefined && !sibling.sealed && sibling.members.length === 0 && inInputType(n) &&
      sibling.reductions.every((r) => sameAxes(r) && inInputType(r));
    const g = this.#canEnd(h, input) && h.reductions.every(sameAxes) ? h : joinsSibling ? sibling : this.#newGroup(input.shape);
    if (g !== h && g !== sibling) this.#reducing.set(input, g);
    g.reductions.push(n);
    this.#record(n, g);
  }

  /** Likewise a scan, along one axis; the group then takes no more members, since what follows a scan reads its stored value. */
  #addScan(n: FusedScan): void {
    const [input] = n.inputs;
    const h = this.groupOf.get(input);
    // A scan kernel has no per-block temporaries (each block computes a temporary over its own range only).
    // Nor gathers: a long line's blocks walk by pointer, where a gather resolves an index per element.
    const g = this.#canEnd(h, input) && h.reductions.length === 0 && !this.#readsTemps(h) && takesOf(h).length === 0 ? h : this.#newGroup(input.shape);
    g.scans.push(n);
    g.sealed = true;
    this.#record(n, g);
  }

  #addOutside(n: Node): void {
    const deps = new Set<number>();
    for (const j of n.inputs) for (const d of this.#directOf(j)) deps.add(d);
    this.#outsideDeps.set(n, deps);
  }

  /** Whether a reduction or scan of `input` can end h, the group computing it (rather than start one of its own). */
  #canEnd(h: Building | undefined, input: Node): h is Building {
    return h !== undefined && !h.sealed && !h.contraction && h.scans.length === 0 && h.members.includes(input) && sameShape(input.shape, h.shape);
  }

  /** The group `id` is now: itself, or the one it was merged into. */
  #group(id: number): Building {
    let live = id;
    for (let next = this.#mergedInto.get(live); next !== undefined; next = this.#mergedInto.get(live)) live = next;
    return at(this.groups, live, 'fused group');
  }

  /** Every group reachable from `ids` through the groups' direct dependencies, as they stand now. */
  #reach(ids: Iterable<number>): Set<number> {
    const seen = new Set<number>();
    const stack = [...ids];
    for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
      const g = this.#group(id);
      if (seen.has(g.id)) continue;
      seen.add(g.id);
      stack.push(...g.deps);
    }
    return seen;
  }

  /**
   * The groups that must run before `n`'s value exists, seen from group `g`:
   * none for a member of g, but a reduction of g exists only after g has run.
   */
  #directOf(n: Node, g?: Building): Set<number> {
    const h = this.groupOf.get(n);
    if (h) return h === g && !endsOf(h).includes(n) ? new Set() : new Set([h.id]);
    // A pinned temporary is computed inside the kernels that read it, before their members, from what its
    // cone reads: a value g itself computes is not there yet, so the temporary depends on g.
    const t = this.#plan.temps.get(n);
    if (t) return new Set(t.inputs.flatMap((i) => (g && this.groupOf.get(i) === g ? [g.id] : [...this.#directOf(i, g)])));
    return this.#outsideDeps.get(n) ?? new Set();
  }

  #canJoin(n: Node, g: Building): boolean {
    if (takesOf(g).length > 0 && n.op !== 'take' && (!readsAgree(g, [n]) || n.inputs.some((i) => this.#plan.temps.has(i)))) return false;
    return n.inputs.every((j) => !this.#reach(this.#directOf(j, g)).has(g.id));
  }

  /**
   * Whether plain elementwise group h can become part of g as n joins g:
   * neither runs after the other, and no other input of n is computed from h
   * outside it (n would then wait for a value that waits for n's group).
   */
  #canMerge(h: Building, g: Building, n: Node): boolean {
    return !h.sealed && !g.sealed && h.members.length > 0 && h.reductions.length === 0 && h.scans.length === 0 && !h.contraction && !g.contraction &&
      sameShape(h.shape, g.shape) && !this.#reach(h.deps).has(g.id) && !this.#reach(g.deps).has(h.id) && this.#gathersApart(h, g, n) &&
      n.inputs.every((j) => this.groupOf.get(j) === h || !this.#reach(this.#directOf(j, g)).has(h.id));
  }

  /**
   * Whether h and g, with n joining them, can be one kernel as far as their
   * takes go: each value read one way, and no temporaries with takes.
   */
  #gathersApart(h: Building, g: Building, n: Node): boolean {
    const joined: Building = { ...g, members: [...g.members, n] };
    if (takesOf(h).length + takesOf(joined).length === 0) return true;
    return !this.#readsTemps(h) && !this.#readsTemps(joined) && readsAgree(joined, h.members) && readsAgree(h, joined.members);
  }

  /**
   * Moves h's members into g. h is left empty, and no group: a dependency on
   * h, and a reader recorded as h, now stand for g (#group()).
   */
  #merge(h: Building, g: Building): void {
    for (const m of h.members) this.groupOf.set(m, g);
    g.members.push(...h.members);
    h.members.length = 0;
    for (const d of h.deps) g.deps.add(d);
    this.#mergedInto.set(h.id, g.id);
  }

  #newGroup(shape: readonly number[]): Building {
    const g: Building = { id: this.groups.length, shape, members: [], reductions: [], scans: [], deps: new Set<number>(), sealed: false };
    this.groups.push(g);
    return g;
  }

  #record(n: Node, g: Building): void {
    this.groupOf.set(n, g);
    for (const j of n.inputs) for (const d of this.#directOf(j, g)) g.deps.add(d);
  }
}

export { Grouping };
export type { Building };
