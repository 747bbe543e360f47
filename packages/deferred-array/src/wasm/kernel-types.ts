// How copy and gather kernels, which only move elements, see int64 and
// uint64: as float64 bits, which a float64 load and store keep whole, so that
// those kernels stay in vector lanes (kernels that compute in int64 or uint64
// run their scalar loop).
import type { KType } from 'kernels-wasm';
import { isBigInt } from '../ir/dtypes.js';
import type { DType } from '../ir/dtypes.js';

/** The type a kernel that only moves elements (copies, gathers) reads and writes `d` as. */
const movedAs = (d: DType): KType => (isBigInt(d) ? 'float64' : d);

export { movedAs };
