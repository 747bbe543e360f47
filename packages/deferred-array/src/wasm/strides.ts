// Stride arithmetic on windows: whether several axes walk memory as one.
import { at } from '../util/lookup.js';

/** The one stride that walks `axes` (in order) as a single axis, or undefined when they do not chain. */
function mergeAxes(shape: readonly number[], strides: readonly number[], axes: readonly number[]): number | undefined {
  // The stride of the live axis before: it must step over all of the next one.
  let outer: number | undefined;
  for (const d of axes) {
    const size = at(shape, d, 'merged axis');
    if (size === 1) continue;
    const stride = at(strides, d, 'stride of a merged axis');
    if (outer !== undefined && outer !== stride * size) return undefined;
    outer = stride;
  }
  return outer ?? 0;
}

export { mergeAxes };
