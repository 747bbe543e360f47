// output() marks. Nodes are immutable and shared, so marks live beside them:
// a mark records its optional name and when it was made, which fixes the
// order of outputs in the record execute() returns.
import { OutputNameError } from './errors.js';
import type { Node } from './node.js';

interface Mark {
  readonly name: string | undefined;
  readonly seq: number;
}

const marks = new WeakMap<Node, Mark>();
let seq = 0;

function checkOutputName(name: unknown): string | undefined {
  if (name === undefined) return undefined;
  if (typeof name !== 'string' || name === '') {
    throw new TypeError(`output(name): name must be a non-empty string or omitted; got ${JSON.stringify(name)}`);
  }
  if (name === 'result' || /^output_\d+$/.test(name)) {
    throw new OutputNameError(`output(name): '${name}' is reserved for the record execute() returns; choose another name`);
  }
  return name;
}

/** Marks `node` as an output; marking again renames it and moves it to the end of the order. */
function mark(node: Node, name?: unknown): void {
  marks.set(node, { name: checkOutputName(name), seq: seq++ });
}

function markOf(node: Node): Mark | undefined {
  return marks.get(node);
}

export { mark, markOf };
export type { Mark };
