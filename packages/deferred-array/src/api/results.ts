// The public side of the results layer: scopes, and releasing views by hand.
import { isStdNdarray } from '../util/stdlib.js';
import { release as releaseView, viewEntryOf } from '../results/views.js';
import { describe, typedDType } from './operand.js';

/**
 * Releases view results now: a view (or its data), or arrays and records
 * holding views. Arrays that are not views are ordinary memory the collector
 * owns, so there is nothing to release; releasing twice is harmless.
 */
function release(x: unknown): void {
  const walk = (v: unknown, path: string): void => {
    const e = viewEntryOf(v);
    if (e) {
      releaseView(e);
      return;
    }
    if (isStdNdarray(v) || typedDType(v) !== undefined) return;
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, `${path}[${i}]`));
      return;
    }
    const proto = typeof v === 'object' && v !== null ? Object.getPrototypeOf(v) : undefined;
    if (proto === Object.prototype || proto === null) {
      for (const [k, item] of Object.entries(v as object)) walk(item, `${path}.${k}`);
      return;
    }
    throw new TypeError(`release: ${path} must be a result of execute() (an ndarray, a list or a record of them); got ${describe(v)}`);
  };
  walk(x, 'the argument');
}

export { release };
export { scope, scopeSync } from '../results/scope.js';
