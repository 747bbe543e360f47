// The public side of the results layer: scopes, and releasing views by hand.
import { mapNested } from '../util/nested.js';
import { isStdNdarray } from '../util/stdlib.js';
import { release as releaseView, viewEntryOf } from '../results/views.js';
import { describe, typedDType } from './operand.js';

/**
 * Releases view results now: a view (or its data), or arrays and records
 * holding views. Arrays that are not views are ordinary memory the collector
 * owns, so there is nothing to release; releasing twice is harmless.
 */
function release(x: unknown): void {
  mapNested(x, (v, path) => {
    const e = viewEntryOf(v);
    if (e) releaseView(e);
    else if (!isStdNdarray(v) && typedDType(v) === undefined) {
      throw new TypeError(`release: ${path} must be a result of execute() (an ndarray, a list or a record of them); got ${describe(v)}`);
    }
    return v;
  }, 'the argument');
}

export { release };
export { scope, scopeSync } from '../results/scope.js';
