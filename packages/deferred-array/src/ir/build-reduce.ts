// Builds reduction nodes: axes normalised and empty reductions refused now.
import { ShapeError } from './errors.js';
import { makeNode } from './node.js';
import { checkOptionKeys } from './options.js';
import type { Node } from './node.js';
import type { ReduceOp } from './op-table.js';
import { SCALAR_SHAPE, formatShape, normalizeAxes, normalizeAxis } from './shape.js';
import { resolveReduce } from './type-rules.js';
import { formatValue } from './format.js';

interface ReduceOptions {
  readonly axis?: number | readonly number[] | null;
  readonly keepdims?: boolean;
}

const NO_IDENTITY: ReadonlySet<ReduceOp> = new Set(['min', 'max', 'argmin', 'argmax']);

function checkReduceOptions(op: ReduceOp, options: unknown): ReduceOptions {
  const o = checkOptionKeys<ReduceOptions>(op, options, ['axis', 'keepdims']);
  if (o.keepdims !== undefined && typeof o.keepdims !== 'boolean') {
    throw new TypeError(`${op}: option keepdims must be a boolean; got ${String(o.keepdims)}`);
  }
  return o;
}

/** The axes a reduction over `axis` (one, a list, or all when undefined or null) reduces, normalised. */
function reducedAxes(fn: string, axis: unknown, ndim: number): number[] {
  if (axis === undefined || axis === null) return normalizeAxes(undefined, ndim);
  return Array.isArray(axis) ? normalizeAxes(axis, ndim, `${fn}: axis`) : [normalizeAxis(axis, ndim, `${fn}: axis`)];
}

function reduce(op: ReduceOp, x: Node, options?: unknown): Node {
  const { axis, keepdims = false } = checkReduceOptions(op, options);
  const ndim = x.shape.length;
  if ((op === 'argmin' || op === 'argmax') && Array.isArray(axis)) {
    throw new TypeError(`${op}: axis must be a single integer or omitted (NumPy does not take a list); got ${formatValue(axis)}`);
  }
  const axes = reducedAxes(op, axis, ndim);
  const reduced = new Set(axes);
  if (NO_IDENTITY.has(op) && axes.some((a) => x.shape[a] === 0)) {
    throw new ShapeError(
      `${op} of an array of shape ${formatShape(x.shape)} over axis ${formatValue(axis ?? null)} reduces an empty axis, ` +
      `and ${op} has no identity; check the size first or reduce over non-empty axes`,
    );
  }
  if ((op === 'argmin' || op === 'argmax') && (axis === undefined || axis === null) && x.shape.reduce((a, b) => a * b, 1) > 2 ** 31 - 1) {
    throw new RangeError(`${op}: an array of more than 2^31-1 elements has positions past int32, the type of ${op}'s (NumPy's is int64); ` +
      `take ${op} over an axis instead`);
  }
  const shape = keepdims
    ? x.shape.map((d, i) => (reduced.has(i) ? 1 : d))
    : reduced.size === x.shape.length ? SCALAR_SHAPE : x.shape.filter((_, i) => !reduced.has(i));
  const { out } = resolveReduce(op, x.dtype);
  return makeNode(op, [x], shape, out, { axes, keepdims });
}

export { reduce, reducedAxes };
export type { ReduceOptions };
