// NumPy's correlate and convolve of 1-d arrays, in the modes 'valid',
// 'same' and 'full': a sum of shifted views of a times the values of v, as
// one chain of fused adds (no array per shift), summed in order of v's index.
// The other modes pad a first (da.pad) and keep only the terms within a.
import { ShapeError } from '../ir/errors.js';
import { formatShape } from '../ir/shape.js';
import { checkOptionKeys } from '../ir/options.js';
import { wrapNode } from './deferred-array.js';
import type { DeferredArray } from './deferred-array.js';
import { describe } from './operand.js';
import { pad } from './pad.js';
import { flip } from './rearranging.js';
import { full, zeros } from './creation.js';
import { where } from './functions.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';

type ConvolveMode = 'valid' | 'same' | 'full';
const MODES: readonly ConvolveMode[] = ['valid', 'same', 'full'];

function vectors(fn: string, a: Operand, v: Operand, options: unknown, fallback: ConvolveMode): [DeferredArray, DeferredArray, ConvolveMode] {
  const o = checkOptionKeys<{ mode: ConvolveMode }>(fn, options, ['mode']);
  const mode = o.mode ?? fallback;
  if (!MODES.includes(mode)) throw new TypeError(`${fn}: option mode must be 'valid', 'same' or 'full'; got ${describe(mode)}`);
  const x = wrapNode(anyNode(a, fn, 0));
  const y = wrapNode(anyNode(v, fn, 1));
  if (x.ndim !== 1 || y.ndim !== 1) throw new ShapeError(`${fn}: a and v must be 1-d; got shapes ${formatShape(x.shape)} and ${formatShape(y.shape)}`);
  if (x.size === 0 || y.size === 0) throw new ShapeError(`${fn}: a and v must not be empty (NumPy refuses them too); got lengths ${x.size} and ${y.size}`);
  return [x, y, mode];
}

/**
 * sum_k a[i + k] * v[k] over the positions i that `mode` keeps, a at least as
 * long as v. Past a's ends a term is absent, not 0 * v[k] (which is NaN for
 * an infinite v[k]): each term is chosen by where from a mask of a's extent,
 * as NumPy's sums cover the overlap alone.
 */
function slide(a: DeferredArray, v: DeferredArray, mode: ConvolveMode): DeferredArray {
  const m = v.size;
  const [before, after] = mode === 'full' ? [m - 1, m - 1] : mode === 'same' ? [Math.floor(m / 2), m - 1 - Math.floor(m / 2)] : [0, 0];
  const padded = before + after > 0;
  const x = padded ? pad(a, [before, after]) : a;
  const inside = padded ? pad(full([a.size], true, { dtype: 'bool' }), [before, after]) : undefined;
  const n = x.size - m + 1;
  const dtype = x.get('0').mul(v.get('0')).dtype;
  // From +0 (false for bool), as NumPy's dot accumulates: a sum of -0 terms is +0 there.
  const zero = zeros([], { dtype });
  const term = (k: number): DeferredArray => {
    const product = x.get(`${k}:${k + n}`).mul(v.get(`${k}`));
    return inside ? where(inside.get(`${k}:${k + n}`), product, zero) : product;
  };
  let sum = term(0).add(zero);
  for (let k = 1; k < m; k++) sum = sum.add(term(k));
  return sum;
}

/**
 * NumPy's correlate(a, v, mode = 'valid'): c[k] = sum_n a[n + k] * v[n],
 * over the overlaps the mode keeps. Where v is longer than a, the roles swap
 * and the result is reversed, as NumPy's is.
 */
function correlate(a: Operand, v: Operand, options?: { mode?: ConvolveMode }): DeferredArray {
  const [x, y, mode] = vectors('correlate', a, v, options, 'valid');
  return x.size >= y.size ? slide(x, y, mode) : flip(slide(y, x, mode));
}

/** NumPy's convolve(a, v, mode = 'full'): the correlation of a with v reversed (the longer of the two sliding). */
function convolve(a: Operand, v: Operand, options?: { mode?: ConvolveMode }): DeferredArray {
  const [x, y, mode] = vectors('convolve', a, v, options, 'full');
  return x.size >= y.size ? slide(x, flip(y), mode) : slide(y, flip(x), mode);
}

export { correlate, convolve };
export type { ConvolveMode };
