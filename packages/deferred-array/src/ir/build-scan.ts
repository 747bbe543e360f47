// Builds scan nodes: cumsum and cumprod along one axis (of x flattened when
// the axis is null), the shape of x, the dtype of its sum.
import { makeNode } from './node.js';
import type { Node } from './node.js';
import type { ScanOp } from './op-table.js';
import { normalizeAxis } from './shape.js';
import { resolveReduce } from './type-rules.js';
import { reshape } from './build-view.js';

/** NumPy makes a 0-d array 1-d for an axis (PyArray_CheckAxis), so cumsum(5, axis 0) is [5]. */
function scan(op: ScanOp, x: Node, axis: number | null): Node {
  const from = axis === null || x.shape.length === 0 ? reshape(x, [-1], op) : x;
  const ax = normalizeAxis(axis ?? 0, from.shape.length, `${op}: axis`);
  return makeNode(op, [from], from.shape, resolveReduce(op, x.dtype).out, { axis: ax, label: `axis ${ax}` });
}

export { scan };
