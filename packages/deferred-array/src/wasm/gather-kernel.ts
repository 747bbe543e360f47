// NumPy's take as a gather kernel of its own, where the planner left it out of
// every group (int64 and uint64 x, moved as float64 bits; bools; int64,
// uint64 and uint32 indices, resolved in i64; floats at indices narrower than int32, so
// that the work around them keeps its lanes; fuse-grouping.ts): the output's
// space walked element by element, each element's index read from the index
// array (broadcast over the axes it does not span), resolved by the take's
// mode in the kernel and used to read x along the taken axis. The blocks run on the
// pool like any kernel's. The errors and labels of takes in groups are here too.
import { collapseDims } from 'kernels-wasm';
import type { InnerStride, KInstr, LaunchArray } from 'kernels-wasm';
import { ExecutionError } from '../ir/errors.js';
import { firstOutOfBounds, outOfBounds } from '../ir/build-gather.js';
import type { NodeOf } from '../ir/node.js';
import { isBigInt } from '../ir/dtypes.js';
import { axisLength, sizeOf } from '../ir/shape.js';
import type { Dense } from '../core/dense.js';
import type { HeapValue } from './heap-value.js';
import { innerOf } from './kernel-builder.js';
import type { BuiltKernel } from './kernel-builder.js';
import { movedAs } from './kernel-types.js';
import { at } from '../util/lookup.js';
import { GATHER_INDEX_TYPES } from '../plan/plan.js';
import type { FusedTake } from '../plan/plan.js';

/**
 * Whether a gather kernel takes this take: not where the reference evaluates
 * it instead, for random x or an empty output (whose indices 'raise' must
 * still check).
 */
const gathers = (x: HeapValue, indices: HeapValue, shape: readonly number[]): boolean =>
  !x.random && GATHER_INDEX_TYPES.has(indices.dtype) && sizeOf(shape) > 0;

/** The gather kernel of take node `node` over x and its indices into `out` (x.shape[:axis] + indices.shape + x.shape[axis+1:]). */
function buildGather(node: NodeOf<'take'>, x: HeapValue, indices: HeapValue, out: HeapValue): BuiltKernel {
  const { axis, mode } = node.attrs;
  // Over the output's axes: x's before and after the taken one, the indices'
  // in between; a 0-d output is a space of one element.
  const space = out.shape.length === 0 ? [1] : [...out.shape];
  const one = (s: readonly number[]): number[] => (s.length === 0 ? [0] : [...s]);
  const collapsed = collapseDims(space, [
    one([...x.shape.slice(0, axis).map(() => 0), ...indices.strides, ...x.shape.slice(axis + 1).map(() => 0)]),
    one([...x.strides.slice(0, axis), ...indices.shape.map(() => 0), ...x.strides.slice(axis + 1)]),
    one(out.strides),
  ]);
  const [ci, cx, co] = [0, 1, 2].map((k) => at(collapsed.strides, k, 'collapsed strides'));
  const inner = (s: readonly number[]): InnerStride => innerOf(at(s, s.length - 1, 'inner stride'));
  const body: KInstr[] = [{ op: 'load', array: 0, type: indices.dtype }];
  // int64 and uint64 indices are resolved as they are, uint32 ones as int64 (exactly), narrower ones read as int32.
  if (indices.dtype === 'uint32') body.push({ op: 'cast', arg: 0, type: 'int64' });
  else if (indices.dtype !== 'int32' && !isBigInt(indices.dtype)) body.push({ op: 'cast', arg: 0, type: 'int32' });
  body.push({ op: 'gather', array: 1, index: body.length - 1, mode, type: movedAs(x.dtype) });
  body.push({ op: 'store', array: 2, arg: body.length - 1, type: movedAs(x.dtype) });
  const gather = { length: axisLength(x.shape, axis), stride: at(x.strides, axis, 'taken axis stride') };
  const arrays: LaunchArray[] = [
    { ptr: indices.ptr, strides: ci! }, { ptr: x.ptr, strides: cx!, gather }, { ptr: out.ptr, strides: co! },
  ];
  return {
    spec: {
      ndim: collapsed.shape.length,
      arrays: [
        { dtype: indices.dtype, role: 'in', inner: inner(ci!) },
        { dtype: movedAs(x.dtype), role: 'in', inner: inner(cx!), gathered: true },
        { dtype: movedAs(out.dtype), role: 'out', inner: inner(co!) },
      ],
      body,
      slots: 0,
    },
    shape: collapsed.shape,
    arrays,
    segment: 1,
    mode: 'rows',
    zeroSlots: new Map(),
  };
}

/** The first of a take's indices (in order) its mode cannot place, as a number (int64 ones past 2^53 are out of bounds either way). */
function firstUnplaced(node: NodeOf<'take'>, xShape: readonly number[], indices: Dense): number | undefined {
  const values = isBigInt(indices.dtype) ? Array.from(indices.data as ArrayLike<bigint>, Number) : indices.data as ArrayLike<number>;
  return firstOutOfBounds(values, axisLength(xShape, node.attrs.axis), node.attrs.mode);
}

/** The error a take's kernel flagged: its first index (in order) outside the axis, as the reference evaluator reports it. */
function gatherError(node: NodeOf<'take'>, xShape: readonly number[], indices: Dense): ExecutionError {
  const { axis } = node.attrs;
  const n = axisLength(xShape, axis);
  const i = firstUnplaced(node, xShape, indices);
  return new ExecutionError(i === undefined
    ? `internal: a take's kernel flagged an index outside axis ${axis} of length ${n}, but every index is inside`
    : outOfBounds(i, axis, n));
}

/**
 * The error of a group's kernel that flagged an index out of bounds: the
 * first of its raising takes (in program order) with such an index, naming
 * that index, as the reference evaluator reports it. `indicesOf` gives a
 * take's indices, which a raising take reads from memory (fuse-grouping.ts);
 * a later take's are read only when the earlier ones place every index.
 */
function raisedError(takes: readonly FusedTake[], indicesOf: (take: FusedTake) => Dense): ExecutionError {
  for (const t of takes) {
    const indices = indicesOf(t);
    if (firstUnplaced(t, t.inputs[0].shape, indices) !== undefined) return gatherError(t, t.inputs[0].shape, indices);
  }
  const first = at(takes, 0, 'raising take');
  return gatherError(first, first.inputs[0].shape, indicesOf(first));
}

/** Names a take's kernel in errors and in explain(). */
const gatherLabel = (take: NodeOf<'take'>): string => `take along axis ${take.attrs.axis} into (${take.shape.join(', ')})`;

export { buildGather, gatherError, gatherLabel, gathers, raisedError };
