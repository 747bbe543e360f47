// astype(): conversion of one value between dtypes.
//
// Float to integer: truncate toward zero and saturate at the type's range,
// NaN becoming 0 (WebAssembly's trunc_sat rule; NumPy's result is
// platform-defined there). Such values raise the `invalid` flag.
// Integer to narrower integer wraps, as NumPy does. Anything to bool is `x != 0`.
import { dtypeInfo, isBigInt, isFloat } from '../ir/dtypes.js';
import type { DType, Scalar } from '../ir/dtypes.js';
import { castValue } from '../ir/cast-value.js';
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

/** astype() into or out of int64 and uint64. */
function cast64(from: DType, to: DType, flags: RunFlags): (x: Scalar) => Scalar {
  if (!isFloat(from) || !isBigInt(to)) return (x) => castValue(x, to);
  // A float into a 64-bit integer: truncated, saturated and counted as invalid where it does not fit (NaN gives 0).
  const { bigMin, bigMax } = dtypeInfo(to);
  const lo = Number(bigMin);
  const hi = 2 ** 64 * (to === 'int64' ? 0.5 : 1); // the first double past the type's range
  return (x) => {
    const t = Math.trunc(x as number);
    if (t >= lo && t < hi) return BigInt(t);
    flags.invalidCast++;
    flags.where.add(`astype(${to})`);
    return t !== t ? 0n : t < lo ? bigMin : bigMax;
  };
}

export { castImpl, cast64 };
