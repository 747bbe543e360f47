// NumPy's add.at: x[indices] += v, unbuffered, so that a row named several
// times is added to once per mention, in order. In place, as NumPy's is: x
// takes a new version in the trace, as x.set() gives it.
import { cast, scalar } from '../ir/build-elementwise.js';
import { addAtNode } from '../ir/build-scatter.js';
import { weakScalarDType } from '../ir/type-rules.js';
import { DeferredArray, nodeOf, wrapNode } from './deferred-array.js';
import { writeInPlace } from './in-place.js';
import { describe } from './operand.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';

/**
 * Adds v to the rows of x along its first axis named by `indices` (integers,
 * negative ones from the end), once per mention: NumPy's np.add.at(x, indices, v).
 * v broadcasts to indices.shape + x.shape[1:]; each sum is computed in the
 * dtype add gives x and v and cast back to x's dtype as NumPy casts it.
 * Returns x. An index out of range fails when the update runs.
 */
function addAt(x: DeferredArray, indices: Operand, v: Operand): DeferredArray {
  if (!(x instanceof DeferredArray)) throw new TypeError(`addAt: x is written in place, so it must be a DeferredArray (wrap it with da.array); got ${describe(x)}`);
  let ix = anyNode(indices, 'addAt', 1);
  // A list of integers is NumPy's integer array (a JS list is float64 here).
  if (Array.isArray(indices) && (indices as unknown[]).flat(Infinity).every((i) => Number.isInteger(i))) ix = cast(ix, 'int32');
  const target = nodeOf(x);
  // A JS number or bigint is NumPy's weak Python scalar.
  const values = typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean'
    ? scalar(typeof v === 'boolean' ? Number(v) : v, weakScalarDType('add', target.dtype, v))
    : anyNode(v, 'addAt', 2);
  return writeInPlace(x, 'assign', wrapNode(addAtNode(target, ix, values)));
}

export { addAt };
