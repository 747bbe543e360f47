// The error policy applied to a run's flags (NumPy's errstate): each
// condition the kernels counted is ignored, warned of or raised, as
// configure({ errors }) says. It runs after every run, so a message is made
// only when there is something to report.
import { ExecutionError } from '../ir/errors.js';
import type { RunFlags } from '../core/flags.js';
import { emitWarning } from '../util/platform.js';
import type { ErrorAction, ErrorPolicy } from './config.js';

/** Warns or raises as `action` says when `count` is not 0. */
function apply(action: ErrorAction, count: number, message: () => string): void {
  if (count === 0 || action === 'ignore') return;
  if (action === 'raise') throw new ExecutionError(message());
  emitWarning(message());
}

/** Reports what `flags` counted as `errors` says: a warning, or an ExecutionError. */
function applyPolicy(flags: RunFlags, errors: ErrorPolicy): void {
  // Nearly every run raises nothing: no messages' closures made for it.
  if (flags.divideByZero === 0 && flags.invalidCast === 0) return;
  const where = (): string => [...flags.where].join(', ');
  apply(errors.divide, flags.divideByZero, () =>
    `integer division by zero in ${where()} (${flags.divideByZero} element(s), each set to 0); ` +
    `configure({ errors: { divide: 'ignore' } }) to silence, or 'raise' to fail`);
  apply(errors.invalid, flags.invalidCast, () =>
    `invalid value in ${where()}: ${flags.invalidCast} NaN, infinite or out-of-range float(s) cast to an integer dtype ` +
    `(saturated, NaN to 0); configure({ errors: { invalid: 'ignore' } }) to silence, or 'raise' to fail`);
}

export { applyPolicy };
