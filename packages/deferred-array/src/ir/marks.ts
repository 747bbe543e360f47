// output(), pin() and pinCse() marks. Nodes are immutable and shared, so marks live
// beside them: an output mark records its optional name and when it was made,
// which fixes the order of outputs in the record execute() returns; a pin
// mark overrides the planner's choice of where a value lives.
import { OutputNameError } from './errors.js';
import type { Node } from './node.js';
import { formatValue } from './format.js';

interface Mark {
  readonly name: string | undefined;
  readonly seq: number;
}

const marks = new WeakMap<Node, Mark>();
/** Whether any node was ever marked (or pinned, below): most programs never do, and their lookups cost nothing. */
let anyMarked = false;
let seq = 0;
/** Bumped by every output(), pin() and pinCse(): plans made before may be stale. */
let generation = 0;
const marksGeneration = (): number => generation;

function checkOutputName(name: unknown): string | undefined {
  if (name === undefined) return undefined;
  if (typeof name !== 'string' || name === '') {
    throw new TypeError(`output(name): name must be a non-empty string or omitted; got ${formatValue(name)}`);
  }
  if (name === 'result' || /^output_\d+$/.test(name)) {
    throw new OutputNameError(`output(name): '${name}' is reserved for the record execute() returns; choose another name`);
  }
  return name;
}

/** Marks `node` as an output; marking again renames it and moves it to the end of the order. */
function mark(node: Node, name?: unknown): void {
  marks.set(node, { name: checkOutputName(name), seq: seq++ });
  anyMarked = true;
  generation++;
}

function markOf(node: Node): Mark | undefined {
  return anyMarked ? marks.get(node) : undefined;
}

/**
 * lappy's overrides: 'pinCse' evaluates the value once, as its own kernel,
 * into its own array; 'pin' keeps it in a per-block temporary of each kernel
 * that reads it. The last call wins.
 */
type Pin = 'pinCse' | 'pin';

const pins = new WeakMap<Node, Pin>();
let anyPinned = false;

function pin(node: Node, kind: Pin): void {
  pins.set(node, kind);
  anyPinned = true;
  generation++;
}

function pinOf(node: Node): Pin | undefined {
  return anyPinned ? pins.get(node) : undefined;
}

/** Gives `to`, a planner's fresh copy of `from`, the output mark of `from`, for printers. */
function inheritMark(from: Node, to: Node): void {
  if (!anyMarked) return;
  const m = marks.get(from);
  if (m && !marks.has(to)) marks.set(to, m);
}

/** Gives `to`, a rebuilt copy of `from`, the pin of `from`. */
function inheritPin(from: Node, to: Node): void {
  if (!anyPinned) return;
  const p = pins.get(from);
  if (p && !pins.has(to)) pins.set(to, p);
}

/** `to`, a node made again from `from`, given the mark and pin of `from`. */
function inheritMarkAndPin(from: Node, to: Node): Node {
  inheritMark(from, to);
  inheritPin(from, to);
  return to;
}

export { mark, markOf, pin, pinOf, inheritMark, inheritPin, inheritMarkAndPin, marksGeneration };
export type { Mark, Pin };
