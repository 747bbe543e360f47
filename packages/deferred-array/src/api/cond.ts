// da.cond: Theano's lazy conditional. Unlike where() (an elementwise select
// that computes both sides and fuses into one kernel), cond decides once, on
// a 0-d bool, and only the branch taken is ever planned or run.
import { cond as condNode } from '../ir/build-cond.js';
import { scalar } from '../ir/build-elementwise.js';
import { DeferredArray, wrapNode } from './deferred-array.js';
import { describe } from './operand.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';

/**
 * `thenArray` where `pred` holds, else `elseArray`, deciding at execute():
 * pred (a 0-d bool DeferredArray, or a JS boolean) runs first, then only the
 * branch taken. The branches must have one shape and dtype (checked now).
 */
function cond(pred: DeferredArray | boolean, thenArray: Operand, elseArray: Operand): DeferredArray {
  if (typeof pred !== 'boolean' && !(pred instanceof DeferredArray)) {
    throw new TypeError(`cond: the predicate must be a 0-d bool DeferredArray or a boolean; got ${describe(pred)}`);
  }
  const p = typeof pred === 'boolean' ? scalar(pred ? 1 : 0, 'bool') : anyNode(pred, 'cond', 0);
  return wrapNode(condNode(p, anyNode(thenArray, 'cond', 1), anyNode(elseArray, 'cond', 2)));
}

export { cond };
