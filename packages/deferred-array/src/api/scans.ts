// NumPy's cumsum, cumprod and nancumsum. A line of up to 16 Ki elements is
// scanned in element order, rounding as NumPy's accumulate does, so results
// match NumPy's to the bit; a longer line is scanned in pieces, each starting
// from the total of the pieces before (docs/performance.md: Reductions, products and scans). Neither depends on the
// worker count.
import { scan } from '../ir/build-scan.js';
import { isFloat } from '../ir/dtypes.js';
import { checkOptionKeys } from '../ir/options.js';
import type { ScanOp } from '../ir/op-table.js';
import { wrapNode } from './deferred-array.js';
import type { DeferredArray } from './deferred-array.js';
import { UFUNCS, where } from './functions.js';
import { anyNode } from './ufunc.js';
import type { Operand } from './ufunc.js';

interface ScanOptions {
  /** The axis accumulated along; null (the default) scans x flattened. */
  readonly axis?: number | null;
}


const scanning = (op: ScanOp) => (x: Operand, options?: ScanOptions): DeferredArray => {
  const o = checkOptionKeys<ScanOptions>(op, options, ['axis']);
  return wrapNode(scan(op, anyNode(x, op), o.axis ?? null));
};

/** Running sum; integers and bools accumulate in float64 (NumPy: int64), exact below 2^53. */
const cumsum = scanning('cumsum');
/** Running product; integers and bools in float64, as cumsum. */
const cumprod = scanning('cumprod');

/** cumsum with NaN counted as zero (NumPy's nancumsum); integers have no NaN. */
function nancumsum(x: Operand, options?: ScanOptions): DeferredArray {
  checkOptionKeys<ScanOptions>('nancumsum', options, ['axis']);
  const a = wrapNode(anyNode(x, 'nancumsum'));
  return cumsum(isFloat(a.dtype) ? where(UFUNCS.isnan(a), 0, a) : a, options);
}

export { cumsum, cumprod, nancumsum };
export type { ScanOptions };
