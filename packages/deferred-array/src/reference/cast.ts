// astype(): conversion of one value between dtypes.
//
// Float to integer: truncate toward zero and saturate at the type's range,
// NaN becoming 0 (WebAssembly's trunc_sat rule; NumPy's result is
// platform-defined there). Such values raise the `invalid` flag.
// Integer to narrower integer wraps, as NumPy does. Anything to bool is `x != 0`.
import { dtypeInfo, isFloat } from '../ir/dtypes.js';
import type { DType } from '../ir/dtypes.js';
import type { RunFlags } from '../core/flags.js';
import type { Unary } from './scalar-math.js';

function castImpl(from: DType, to: DType, flags: RunFlags): Unary {
  if (to === 'bool') return (x) => (x !== 0 ? 1 : 0);
  if (isFloat(to) || !isFloat(from)) return (x) => x; // storing rounds (float32) or wraps (integers)
  const { min, max } = dtypeInfo(to);
  return (x) => {
    const t = Math.trunc(x);
    if (t >= min && t <= max) return t;
    flags.invalidCast++;
    flags.where.add(`astype(${to})`);
    return t !== t ? 0 : t < min ? min : max;
  };
}

export { castImpl };
