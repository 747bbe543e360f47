// How a take fused into a group's kernel walks its arrays over the group's
// space: x with 0 strides along the indices' axes and its taken axis passed
// as gather words, and the indices, where axes of x follow them, with 0
// strides along those axes.
import type { LaunchArray } from 'kernels-wasm';
import type { FusedTake } from '../plan/plan.js';
import type { HeapValue } from './heap-value.js';
import { InternalError, at } from '../util/lookup.js';

/** A gathered array's taken axis as a launch passes it. */
type GatherWords = NonNullable<LaunchArray['gather']>;

/**
 * Strides of x as take `t` reads it over t's space (the group's): x's own
 * along its axes before and after the taken one, 0 along the indices' axes
 * (the index picks the element there), and the taken axis's length and stride
 * for the gather.
 */
function gatherLayout(t: FusedTake, x: HeapValue): { strides: number[]; gather: GatherWords } {
  const { axis } = t.attrs;
  if (x.random) throw new InternalError('a take of random numbers is not gathered by a kernel');
  const strides = [...x.strides.slice(0, axis), ...t.inputs[1].shape.map(() => 0), ...x.strides.slice(axis + 1)];
  return { strides: strides.length === 0 ? [0] : strides, gather: { length: at(x.shape, axis, 'taken axis'), stride: at(x.strides, axis, 'taken axis stride') } };
}

/** Strides of a take's indices over its space where axes of x follow them: 0 along x's axes, their own in between. */
const indexStrides = (t: FusedTake, indices: HeapValue): number[] =>
  [...t.inputs[0].shape.slice(0, t.attrs.axis).map(() => 0), ...indices.strides, ...t.inputs[0].shape.slice(t.attrs.axis + 1).map(() => 0)];

export { gatherLayout, indexStrides };
export type { GatherWords };
