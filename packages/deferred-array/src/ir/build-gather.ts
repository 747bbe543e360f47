// Builds take nodes: elements of x picked along one axis by an integer array
// (NumPy's take, and what integer and boolean indexing reduce to). The shape
// follows from the shapes alone; indices known now (a constant array) are
// checked against the axis now, the others when the take runs.
import { isBigInt } from './dtypes.js';
import { DTypeError, ShapeError } from './errors.js';
import { isInteger } from './dtypes.js';
import { makeNode } from './node.js';
import type { Node, TakeMode } from './node.js';
import { axisLength, formatShape, normalizeAxis } from './shape.js';
import { reshape } from './build-view.js';

const MODES: readonly TakeMode[] = ['raise', 'wrap', 'clip'];

/** Constant indices up to this many are checked when the take is built; more, when it runs. */
const CHECKED_NOW = 1 << 16;

/** The index an entry stands for in an axis of length n, or undefined when it is outside and mode is raise. */
function resolveTake(i: number, n: number, mode: TakeMode): number | undefined {
  switch (mode) {
    case 'raise': return i >= -n && i < n ? (i < 0 ? i + n : i) : undefined;
    case 'wrap': return ((i % n) + n) % n;
    case 'clip': return i < 0 ? 0 : i >= n ? n - 1 : i;
  }
}

/** resolveTake for an int64 index, exactly: as a number, one past 2^53 would round before its remainder. */
function resolveTakeBig(i: bigint, n: number, mode: TakeMode): number | undefined {
  const m = BigInt(n);
  switch (mode) {
    case 'raise': return i >= -m && i < m ? Number(i < 0n ? i + m : i) : undefined;
    case 'wrap': return Number(((i % m) + m) % m);
    case 'clip': return i < 0n ? 0 : i >= m ? n - 1 : Number(i);
  }
}

const outOfBounds = (i: number, axis: number, n: number): string =>
  `take: index ${i} is out of bounds for axis ${axis} with size ${n}`;

/** Checks the indices that are known now: constant data, or nothing to pick from. */
function checkKnownIndices(x: Node, indices: Node, axis: number, mode: TakeMode): void {
  const n = axisLength(x.shape, axis);
  const count = indices.shape.reduce((p, d) => p * d, 1);
  if (count > 0 && n === 0) {
    throw new ShapeError(`take: cannot take ${count} element(s) from axis ${axis} of length 0 (shape ${formatShape(x.shape)})`);
  }
  const given = (indices.op === 'source' ? indices.attrs.data : indices.op === 'scalar' ? [indices.attrs.value!] : undefined) as ArrayLike<number | bigint> | undefined;
  // Many indices are left to the run, which checks them as it takes (a pass here would cost a big take a tenth of its time).
  if (mode !== 'raise' || given === undefined || given.length > CHECKED_NOW) return;
  // int64 indices as numbers: past 2^53 they are out of bounds either way.
  const data = isBigInt(indices.dtype) ? Array.from(given, Number) : given as ArrayLike<number>;
  const i = firstOutOfBounds(data, n, mode);
  if (i !== undefined) throw new ShapeError(outOfBounds(i, axis, n));
}

/** The first index (in order) that `mode` cannot place in an axis of length n, if any: one pass for the range, then the culprit. */
function firstOutOfBounds(data: ArrayLike<number>, n: number, mode: TakeMode): number | undefined {
  let lo = Infinity;
  let hi = -Infinity;
  for (let k = 0; k < data.length; k++) {
    const v = data[k]!;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (n > 0 && (mode !== 'raise' || (lo >= -n && hi < n))) return undefined;
  for (let k = 0; k < data.length; k++) if (resolveTake(data[k]!, n, mode) === undefined) return data[k];
  return undefined;
}

/** take(x, indices, axis): x.shape[:axis] + indices.shape + x.shape[axis+1:]; axis null takes from x flattened. */
function take(x: Node, indices: Node, axis: number | null, mode: unknown = 'raise'): Node {
  if (!MODES.includes(mode as TakeMode)) throw new TypeError(`take: mode must be 'raise', 'wrap' or 'clip'; got ${String(mode)}`);
  if (!isInteger(indices.dtype)) {
    const hint = indices.dtype === 'bool' ? 'for a boolean mask use compress() or x.get(mask)' : "cast them with astype('int32')";
    throw new DTypeError(`take: indices must be integers; got ${indices.dtype} (${hint})`);
  }
  const from = axis === null ? reshape(x, [-1], 'take') : x;
  if (from.shape.length === 0) throw new ShapeError('take: cannot take from a 0-d array along an axis; use axis null, or reshape it first');
  const ax = normalizeAxis(axis ?? 0, from.shape.length, 'take: axis');
  checkKnownIndices(from, indices, ax, mode as TakeMode);
  const shape = [...from.shape.slice(0, ax), ...indices.shape, ...from.shape.slice(ax + 1)];
  return makeNode('take', [from, indices], shape, from.dtype, { axis: ax, mode: mode as TakeMode, label: `axis ${ax}${mode === 'raise' ? '' : `, ${String(mode)}`}` });
}

export { take, resolveTake, resolveTakeBig, outOfBounds, firstOutOfBounds };
