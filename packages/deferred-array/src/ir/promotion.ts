// NumPy's type promotion, apart from the dtype table (dtypes.ts) because it
// reads stdlib's promotion table: what only needs the dtypes (the kernels'
// host functions, which every pool worker loads) does not carry stdlib.
import { DTypeError } from './errors.js';
import { dtypeInfo, isDType } from './dtypes.js';
import type { DType } from './dtypes.js';
import { stdNdarray } from '../util/stdlib.js';

/**
 * NumPy's promotion table (np.result_type of two arrays). bool sits below every
 * other type; among the numeric types up to 32 bits stdlib's table agrees with
 * NumPy's. The 64-bit integers follow NumPy: int64 takes every narrower integer,
 * uint64 every unsigned one, uint64 with a signed integer is float64, and so is
 * either with float32. Where NumPy answers int64 for uint32 with a signed
 * integer, this package answers float64 (every value of both operands is exact
 * there), which keeps that pair in the vector kernels.
 */
function promoteTypes(a: DType, b: DType): DType {
  if (a === b) return a;
  if (a === 'bool') return b;
  if (b === 'bool') return a;
  if (dtypeInfo(a).bytes === 8 && dtypeInfo(a).kind !== 'f') return promote64(a, b);
  if (dtypeInfo(b).bytes === 8 && dtypeInfo(b).kind !== 'f') return promote64(b, a);
  const r = stdNdarray().promotionRules(a, b);
  if (r === 'int64') return 'float64';
  if (!isDType(r)) throw new DTypeError(`no common dtype for ${a} and ${b}`);
  return r;
}

/** NumPy's promotion of a 64-bit integer `w` with another numeric type `o`. */
function promote64(w: DType, o: DType): DType {
  const k = dtypeInfo(o).kind;
  if (k === 'f') return 'float64';
  if (w === 'int64') return o === 'uint64' ? 'float64' : 'int64';
  return k === 'u' ? 'uint64' : 'float64';
}

/** Can every value of `from` be represented in `to` (NumPy's 'safe' casting)? */
function canCastSafely(from: DType, to: DType): boolean {
  return promoteTypes(from, to) === to;
}

export { promoteTypes, canCastSafely };
