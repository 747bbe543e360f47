// da.where as NumPy has it: with x and y, x where the condition is true, else
// y (an elementwise op, functions.ts); with the condition alone, the
// coordinates of its true elements (nonzero, selection.ts). Apart from both,
// since selection.ts builds on the three-argument form.
import type { DeferredArray } from './deferred-array.js';
import { where as choose } from './functions.js';
import { nonzero } from './selection.js';
import type { Operand, UfuncOptions } from './ufunc.js';

/**
 * NumPy's where: x where condition is true, else y. With the condition
 * alone, NumPy's one-argument where: the coordinates of its true elements,
 * one int32 array per axis (nonzero; read now).
 */
function where(condition: Operand): DeferredArray[];
function where(condition: Operand, x: Operand, y: Operand, options?: UfuncOptions): DeferredArray;
function where(condition: Operand, x?: Operand, y?: Operand, options?: UfuncOptions): DeferredArray | DeferredArray[] {
  if (x === undefined && y === undefined && options === undefined) return nonzero(condition);
  if (x === undefined || y === undefined) {
    throw new TypeError('where: give the condition alone (the coordinates of its true elements, as nonzero gives them) or with both x and y (x where it is true, else y); got x but no y');
  }
  return choose(condition, x, y, options);
}

export { where };
