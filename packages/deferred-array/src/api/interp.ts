// NumPy's interp: one-dimensional piecewise-linear interpolation, built of
// deferred operations step by step as NumPy's C loop (compiled_base.c,
// arr_interp) computes each value: the interval found by a search, the
// slope (fp[j+1] - fp[j]) / (xp[j+1] - xp[j]), slope * (x - xp[j]) + fp[j],
// and the same from the right end where that is NaN. Everything in float64.
import { ShapeError } from '../ir/errors.js';
import { checkOptionKeys } from '../ir/options.js';
import { noteShapeRead } from '../ir/symbols.js';
import { DeferredArray, wrapNode } from './deferred-array.js';
import { UFUNCS, where } from './functions.js';
import { take } from './selection.js';
import * as shaping from './shaping.js';
import { argsort, searchsorted } from './sorting.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';

const { add, subtract, multiply, divide, isnan, less, greater, equal, logicalAnd, mod, minimum, maximum } = UFUNCS;

interface InterpOptions {
  /** The value for x below xp[0] (default fp[0]). */
  readonly left?: number;
  /** The value for x above xp[-1] (default fp[-1]). */
  readonly right?: number;
  /** xp and x are angles of this period: both taken modulo it (left and right are then unused). */
  readonly period?: number;
}

const f64 = (x: Operand, fn: string, position: number): DeferredArray =>
  shaping.astype(x instanceof DeferredArray ? x : wrapNode(anyNode(x, fn, position)), 'float64');

/** Positions as an int32 array of the given shape (0-d for a number). */
const at = (a: DeferredArray, i: DeferredArray | number): DeferredArray => take(a, typeof i === 'number' ? shaping.astype(wrapNode(anyNode(i, 'interp')), 'int32') : i);

/**
 * NumPy's interp(x, xp, fp): the piecewise-linear function through the
 * points (xp, fp), xp increasing, at each x (float64, x's shape). Below xp[0]
 * it is `left`, above xp[-1] `right`; NaN at a NaN x.
 */
function interp(x: Operand, xp: Operand, fp: Operand, options?: InterpOptions): DeferredArray {
  const o = checkOptionKeys<InterpOptions>('interp', options, ['left', 'right', 'period']);
  let xs = f64(x, 'interp', 0);
  let xa = f64(xp, 'interp', 1);
  let fa = f64(fp, 'interp', 2);
  if (xa.ndim !== 1 || fa.ndim !== 1) throw new ShapeError(`interp: xp and fp must be 1-d; got shapes (${xa.shape.join(', ')}) and (${fa.shape.join(', ')})`);
  noteShapeRead();
  if (xa.shape[0] !== fa.shape[0]) throw new ShapeError(`interp: fp and xp are not of the same length (${fa.shape[0]} and ${xa.shape[0]})`);
  let left = o.left;
  let right = o.right;
  if (o.period !== undefined) {
    if (typeof o.period !== 'number' || o.period === 0 || o.period !== o.period) throw new RangeError(`interp: period must be a non-zero number; got ${String(o.period)}`);
    const period = Math.abs(o.period);
    left = right = undefined;
    // NumPy: both taken modulo the period, xp sorted (fp with it), and one point added past each end.
    xs = mod(xs, period);
    xa = mod(xa, period);
    const order = argsort(xa);
    xa = take(xa, order);
    fa = take(fa, order);
    xa = shaping.concat([subtract(xa.get('-1:'), period), xa, add(xa.get(':1'), period)]);
    fa = shaping.concat([fa.get('-1:'), fa, fa.get(':1')]);
  }
  const n = xa.shape[0]!;
  if (n === 0) {
    if (xs.size !== 0) throw new ShapeError('interp: the array of sample points (xp) is empty');
    return xs;
  }
  const lval: Operand = left ?? at(fa, 0);
  const rval: Operand = right ?? at(fa, n - 1);
  if (n === 1) {
    // NumPy's loop for one point: below it left, above it right, else (a NaN x too) its value.
    return where(less(xs, at(xa, 0)), lval, where(greater(xs, at(xa, 0)), rval, at(fa, 0)));
  }
  // j: the last xp[j] <= x, clipped into the intervals (the ends are chosen below).
  const count = searchsorted(xa, xs, { side: 'right' });
  const j = minimum(maximum(subtract(count, 1), 0), n - 2);
  const x0 = take(xa, j);
  const x1 = take(xa, add(j, 1));
  const y0 = take(fa, j);
  const y1 = take(fa, add(j, 1));
  const slope = divide(subtract(y1, y0), subtract(x1, x0));
  const fromLeft = add(multiply(slope, subtract(xs, x0)), y0);
  // If we get NaN in one direction, NumPy tries the other, and failing that takes fp[j] where the two ends are equal.
  const fromRight = add(multiply(slope, subtract(xs, x1)), y1);
  const inside = where(isnan(fromLeft), where(logicalAnd(isnan(fromRight), equal(y0, y1)), y0, fromRight), fromLeft);
  const last = at(xa, n - 1);
  let r = where(equal(x0, xs), y0, inside);
  r = where(equal(xs, last), at(fa, n - 1), r);
  r = where(greater(xs, last), rval, r);
  r = where(less(xs, at(xa, 0)), lval, r);
  return where(isnan(xs), xs, r);
}

export { interp };
export type { InterpOptions };
