// NumPy's pad, axis by axis over the array padded so far (so corners are
// filled as NumPy fills them): 'constant' joins arrays of the value on each
// side; 'edge', 'reflect', 'symmetric' and 'wrap' take each new position from
// the position it copies along the axis, an index that is periodic in the
// padded coordinate (period 2n - 2, 2n and n), which is what NumPy's
// repeated reflections give for pads longer than the axis.
import { ShapeError } from '../ir/errors.js';
import { checkOptionKeys } from '../ir/options.js';
import { array, full } from './creation.js';
import { wrapNode } from './deferred-array.js';
import type { DeferredArray } from './deferred-array.js';
import { describe, integer } from './operand.js';
import { take } from './selection.js';
import { concat } from './shaping.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';

type PadMode = 'constant' | 'edge' | 'reflect' | 'symmetric' | 'wrap';
const MODES: readonly PadMode[] = ['constant', 'edge', 'reflect', 'symmetric', 'wrap'];

type PadWidth = number | readonly [number, number] | ReadonlyArray<readonly [number, number]>;

interface PadOptions {
  readonly mode?: PadMode;
  /** The value 'constant' pads with (0 by default), cast to the array's dtype. */
  readonly constantValues?: number;
}

const width = (v: unknown, what: string): number => integer('pad', what, v, 0);

/** NumPy's pad_width forms, as one [before, after] per axis: n, [before, after], or a pair per axis. */
function widths(padWidth: unknown, ndim: number): Array<[number, number]> {
  if (typeof padWidth === 'number' || (Array.isArray(padWidth) && padWidth.length === 1 && typeof padWidth[0] === 'number')) {
    const w = width(typeof padWidth === 'number' ? padWidth : padWidth[0], 'pad width');
    return Array.from({ length: ndim }, () => [w, w]);
  }
  if (Array.isArray(padWidth) && padWidth.length === 2 && padWidth.every((v) => typeof v === 'number')) {
    const pair: [number, number] = [width(padWidth[0], 'pad width before'), width(padWidth[1], 'pad width after')];
    return Array.from({ length: ndim }, () => [...pair]);
  }
  if (Array.isArray(padWidth) && padWidth.every((p) => Array.isArray(p) && p.length === 2)) {
    const pairs = padWidth as ReadonlyArray<readonly [unknown, unknown]>;
    if (pairs.length === 1) return Array.from({ length: ndim }, () => [width(pairs[0]![0], 'pad width before'), width(pairs[0]![1], 'pad width after')]);
    if (pairs.length !== ndim) throw new ShapeError(`pad: ${pairs.length} pairs of pad widths for an array of ${ndim} axes; give one pair per axis, or one for all`);
    return pairs.map(([b, a], i) => [width(b, `pad width before axis ${i}`), width(a, `pad width after axis ${i}`)]);
  }
  throw new TypeError(`pad: pad width must be a number, a pair [before, after], or one pair per axis; got ${describe(padWidth)}`);
}

/** The position along an axis of length n that padded position j (of before + n + after) copies, in `mode`. */
function source(mode: Exclude<PadMode, 'constant'>, j: number, n: number): number {
  const t = j;
  const mod = (a: number, p: number): number => ((a % p) + p) % p;
  switch (mode) {
    case 'edge': return Math.min(Math.max(t, 0), n - 1);
    case 'wrap': return mod(t, n);
    case 'reflect': {
      if (n === 1) return 0;
      const r = mod(t, 2 * n - 2);
      return r < n ? r : 2 * n - 2 - r;
    }
    case 'symmetric': {
      const r = mod(t, 2 * n);
      return r < n ? r : 2 * n - 1 - r;
    }
  }
}

/** NumPy's pad: `x` with `padWidth` elements added before and after along each axis, in `mode`. */
function pad(x: Operand, padWidth: PadWidth, options?: PadOptions): DeferredArray {
  const o = checkOptionKeys<{ mode: PadMode; constantValues: number }>('pad', options, ['mode', 'constantValues']);
  const mode = o.mode ?? 'constant';
  if (!MODES.includes(mode)) throw new TypeError(`pad: option mode must be one of ${MODES.map((m) => `'${m}'`).join(', ')}; got ${describe(mode)}`);
  if (o.constantValues !== undefined && (mode !== 'constant' || typeof o.constantValues !== 'number')) {
    throw new TypeError(`pad: option constantValues is a number, for mode 'constant'; got ${describe(o.constantValues)} with mode '${mode}'`);
  }
  let y = wrapNode(anyNode(x, 'pad'));
  const pairs = widths(padWidth, y.ndim);
  pairs.forEach(([before, after], axis) => {
    if (before === 0 && after === 0) return;
    const n = y.shape[axis]!;
    if (mode === 'constant') {
      const side = (w: number): DeferredArray => full(y.shape.map((d, i) => (i === axis ? w : d)), o.constantValues ?? 0, { dtype: y.dtype });
      y = concat([side(before), y, side(after)], { axis });
      return;
    }
    if (n === 0) throw new ShapeError(`pad: the empty axis ${axis} cannot be padded in mode '${mode}' (there is nothing to copy); use mode 'constant'`);
    const at = Array.from({ length: before + n + after }, (_, j) => source(mode, j - before, n));
    y = take(y, array(at, { dtype: 'int32' }), { axis });
  });
  return y;
}

export { pad };
export type { PadMode, PadOptions, PadWidth };
