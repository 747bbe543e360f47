// NumPy's take_along_axis on the last axis of lines (an array [...shape, n],
// as the quantiles make them): each line's elements at positions of its own,
// taken from the lines flattened, a line's start added to each position.
import { source } from '../ir/build-elementwise.js';
import { DeferredArray, wrapNode } from './deferred-array.js';
import { UFUNCS } from './functions.js';
import { take } from './selection.js';
import * as shaping from './shaping.js';

/**
 * The elements of `lines` ([...shape, n]) at `positions`: one a line
 * (positions of `shape`, the result of `shape`) or several ([...shape, k]).
 */
function takeAlongLines(lines: DeferredArray, shape: readonly number[], n: number, positions: DeferredArray): DeferredArray {
  const count = shape.reduce((p, d) => p * d, 1);
  const one = positions.ndim === shape.length;
  const starts = shaping.reshape(wrapNode(source(Int32Array.from({ length: count }, (_, i) => i * n), [count, 1], 'int32')), [...shape, 1]);
  const at = one ? shaping.reshape(positions, [...shape, 1]) : positions;
  const r = take(shaping.reshape(lines, [-1]), UFUNCS.add(shaping.astype(at, 'int32'), starts));
  return one ? shaping.reshape(r, [...shape]) : r;
}

export { takeAlongLines };
